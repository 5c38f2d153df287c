/**
 * Words, punctuation and sentences of a text, with UTF-16 offsets.
 *
 * Every pattern here consumes what it matches and none nests a quantifier
 * over an ambiguous repetition, so a text is read in time linear in its
 * length (a 1 MB line of letters is one token, not a backtracking storm).
 */
import { ABBREVIATIONS, LEGAL_SUFFIXES, NEVER_FINAL_ABBREVIATIONS, STOP_WORDS } from './lexicon.ts';

export interface Token {
  text: string;
  start: number;
  end: number;
  /** Lower case, without periods ("S.A." → "sa"). */
  key: string;
  isWord: boolean;
  isNumber: boolean;
  /** Starts with an upper-case letter, or has one inside ("eBay"). */
  capitalized: boolean;
  /** Two or more letters, all upper case ("BASF"). */
  allCaps: boolean;
  sentence: number;
  /** The first word of its sentence (after quotes and bullets). */
  sentenceStart: boolean;
}

export interface Sentence {
  start: number;
  end: number;
  /** Index of its first token and one past its last. */
  firstToken: number;
  endToken: number;
}

// A word: letters, marks and digits, joined by an apostrophe, hyphen, ampersand, slash
// or period to more of them ("O'Neill", "Rolls-Royce", "AT&T", "A/S", "S.A", "2.3").
// Each repetition must start with a separator, so a run matches in one way only.
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’\-&./][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const DIGIT = /^\p{N}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const POSSESSIVE = /['’]s$/i;
const NOT_LETTER = /[^\p{L}]/gu;

export function wordKey(text: string): string {
  return text.toLowerCase().replace(/\./g, '');
}

/** Replaces control characters (NUL and friends) by spaces, keeping every offset. */
export function cleanControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, ' ');
}

function makeToken(text: string, start: number): Token {
  const first = text[0] ?? '';
  const isWord = LETTER_OR_DIGIT.test(first);
  if (!isWord) {
    return { text, start, end: start + text.length, key: text, isWord, isNumber: false, capitalized: false, allCaps: false, sentence: 0, sentenceStart: false };
  }
  const letters = text.replace(NOT_LETTER, '');
  return {
    text,
    start,
    end: start + text.length,
    key: wordKey(text),
    isWord,
    isNumber: isWord && DIGIT.test(first),
    capitalized: isWord && (UPPER.test(first) || (LOWER.test(first) && UPPER.test(text.slice(1)))),
    allCaps: letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase(),
    sentence: 0,
    sentenceStart: false,
  };
}

/** "S.A", "U.S", "S.p.A": letters in groups of one to three, joined by periods (not "2.3", not "acme.com"). */
function isDottedAbbreviation(word: string): boolean {
  const parts = word.split('.');
  return parts.length > 1 && parts.every((part) => part.length >= 1 && part.length <= 3 && /^\p{L}+$/u.test(part));
}

export function tokenize(text: string): { tokens: Token[]; sentences: Sentence[] } {
  const tokens: Token[] = [];
  // Where the last token ended: an abbreviation's period belongs to it, not to a token of its own.
  let consumed = 0;
  for (const match of text.matchAll(TOKEN)) {
    let word = match[0];
    const start = match.index;
    if (start < consumed) continue;
    // "Acme's" → "Acme" and "'s": the possessive is a cue, not part of the name.
    if (word.length > 2 && POSSESSIVE.test(word)) {
      tokens.push(makeToken(word.slice(0, -2), start));
      tokens.push(makeToken(word.slice(-2), start + word.length - 2));
      continue;
    }
    // Keep the period of an abbreviation or initial ("Dr.", "Inc.", "J.", "S.A.").
    if (text[start + word.length] === '.') {
      const key = wordKey(word);
      const initial = word.length === 1 && UPPER.test(word);
      if (initial || ABBREVIATIONS.has(key) || isDottedAbbreviation(word)) word += '.';
    }
    tokens.push(makeToken(word, start));
    consumed = start + word.length;
  }
  return { tokens, sentences: splitSentences(text, tokens) };
}

const TERMINATORS = new Set(['.', '!', '?', '…']);
const OPENERS = new Set(['"', '“', '‘', "'", '(', '[', '-', '–', '—', '*', '•', '·', '>', '#', '|']);

function endsSentence(text: string, tokens: Token[], index: number): boolean {
  const token = tokens[index]!;
  const next = tokens[index + 1];
  if (!next) return true;
  if (text.slice(token.end, next.start).includes('\n')) return true;
  if (TERMINATORS.has(token.text)) {
    // "3.5" is one token, so a lone period before a digit or a lower-case word ends nothing.
    return !next.isWord || next.capitalized || next.isNumber;
  }
  if (token.text.endsWith('.') && token.text.length > 1) {
    // "Acme Inc. The company…" ends after "Inc."; "Dr. Weber" never does.
    if (NEVER_FINAL_ABBREVIATIONS.has(token.key)) return false;
    if (token.key.length === 1) return false;
    return LEGAL_SUFFIXES.has(token.key) && next.capitalized && STOP_WORDS.has(next.key);
  }
  return false;
}

function splitSentences(text: string, tokens: Token[]): Sentence[] {
  const sentences: Sentence[] = [];
  let first = 0;
  for (let index = 0; index < tokens.length; index++) {
    if (!endsSentence(text, tokens, index)) continue;
    const sentence = sentences.length;
    let startSeen = false;
    for (let member = first; member <= index; member++) {
      const token = tokens[member]!;
      token.sentence = sentence;
      if (!startSeen && token.isWord) {
        token.sentenceStart = true;
        startSeen = true;
      } else if (!startSeen && !OPENERS.has(token.text)) {
        startSeen = true;
      }
    }
    sentences.push({ start: tokens[first]!.start, end: tokens[index]!.end, firstToken: first, endToken: index + 1 });
    first = index + 1;
  }
  return sentences;
}

/**
 * Every e-mail address in a pasted text (docs/emails.md, "Finding addresses in text"): mail
 * headers and signatures, `Name <a@b.c>`, `a@b.c (Name)`, mailto: links, quoted local parts,
 * any separators, the common obfuscations (`a [at] b [dot] com`, `a(at)b.com`,
 * `a at b dot com`, `&#64;`, the full-width ＠), internationalized domains. Each address is
 * validated and normalized (email-address.ts) and reported with the name beside it and its
 * place in the text; what looks like an address but is none is reported with the reason.
 *
 * It works in one pass over the text with bounded look-arounds (every scan stops after a few
 * hundred characters), so its time grows with the text's length whatever the text holds.
 * Positions are UTF-16 code unit offsets into the text as received (JavaScript string
 * indices: what the web app's `slice` and highlighting use); `line` counts from 1, a line
 * ending being \n, \r\n or \r.
 */
import { INVALID_REASONS, normalizeParts, type NormalizedAddress } from './email-address.ts';

export interface FoundAddress extends NormalizedAddress {
  /** The name beside the address (`Ann Lee <ann@x.com>`, `ann@x.com (Ann Lee)`), or null. */
  name: string | null;
  start: number;
  end: number;
  line: number;
}

export interface InvalidAddress {
  /** The text that looked like an address, as it stands in the pasted text. */
  text: string;
  reason: string;
  start: number;
  end: number;
  line: number;
}

export interface Extraction {
  found: FoundAddress[];
  invalid: InvalidAddress[];
}

/** How far a scan looks from an @: beyond any legal local part, domain or display name. */
const LOCAL_SCAN = 128;
const DOMAIN_SCAN = 260;
const NAME_SCAN = 160;
const NAME_MAX_LENGTH = 120;
/** The longest stretch reported as one invalid candidate (a run of @s and letters in garbage). */
const INVALID_TEXT_MAX = 320;

/**
 * The deobfuscated text and, for each of its characters, where it came from in the original:
 * `from[i]` is the first original index of character i and `to[i]` one past its last, so a
 * span of the deobfuscated text maps back to the original span (an `[at]` that became `@`
 * maps back to the whole `[at]`).
 */
interface Mapped {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

// Obfuscations of @ and ., each with the spaces around it (on the same line).
const BRACKETED = /[ \t]*(?:\[[ \t]*(at|dot|@|\.)[ \t]*\]|\([ \t]*(at|dot|@|\.)[ \t]*\)|\{[ \t]*(at|dot|@|\.)[ \t]*\}|<[ \t]*(at|dot)[ \t]*>)[ \t]*/giy;
const ENTITY = /&(?:#0*64|#x0*40|commat|#0*46|#x0*2e|period);/giy;
// `ann at example dot com`: only with at least one spelled-out dot, so "look at this" stays text.
const SPELLED = /[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}[ \t]{1,3}(?:at|AT)[ \t]{1,3}[A-Za-z0-9][A-Za-z0-9-]{0,62}(?:(?:[ \t]{1,3}(?:dot|DOT)[ \t]{1,3}|\.)[A-Za-z0-9][A-Za-z0-9-]{0,62}){1,6}/y;
const SPELLED_WORDS = /[ \t]{1,3}(at|AT|dot|DOT)[ \t]{1,3}/g;

/** The text with obfuscated @ and . written plainly, and where each character came from. */
export function deobfuscate(original: string): Mapped {
  const length = original.length;
  const from = new Int32Array(length + 1);
  const to = new Int32Array(length + 1);
  const out: string[] = [];
  let count = 0;
  const emit = (char: string, start: number, end: number) => {
    out.push(char);
    from[count] = start;
    to[count] = end;
    count += 1;
  };
  let index = 0;
  // Whether the previous character was a word character (a spelled-out address starts a word).
  let afterWord = false;
  while (index < length) {
    const char = original[index]!;
    // Only right after a word: a run of spaces is then tried once, not from each of its spaces.
    if (afterWord && (char === '[' || char === '(' || char === '{' || char === '<' || char === ' ' || char === '\t')) {
      BRACKETED.lastIndex = index;
      const match = BRACKETED.exec(original);
      if (match) {
        const word = (match[1] ?? match[2] ?? match[3] ?? match[4])!.toLowerCase();
        emit(word === 'at' || word === '@' ? '@' : '.', index, index + match[0].length);
        index += match[0].length;
        afterWord = false;
        continue;
      }
    } else if (char === '&') {
      ENTITY.lastIndex = index;
      const match = ENTITY.exec(original);
      if (match) {
        emit(/64|40|commat/i.test(match[0]) ? '@' : '.', index, index + match[0].length);
        index += match[0].length;
        afterWord = false;
        continue;
      }
    } else if (char === '\uff20' || char === '\ufe6b') {
      emit('@', index, index + 1);
      index += 1;
      afterWord = false;
      continue;
    } else if (!afterWord && /[A-Za-z0-9]/.test(char)) {
      SPELLED.lastIndex = index;
      const match = SPELLED.exec(original);
      if (match && /[ \t](?:dot|DOT)[ \t]/.test(match[0]) && !/[A-Za-z0-9_%+@-]/.test(original[index + match[0].length] ?? '')) {
        let last = 0;
        for (const word of match[0].matchAll(SPELLED_WORDS)) {
          for (let offset = last; offset < word.index; offset += 1) emit(match[0][offset]!, index + offset, index + offset + 1);
          emit(word[1]!.toLowerCase() === 'at' ? '@' : '.', index + word.index, index + word.index + word[0].length);
          last = word.index + word[0].length;
        }
        for (let offset = last; offset < match[0].length; offset += 1) emit(match[0][offset]!, index + offset, index + offset + 1);
        index += match[0].length;
        afterWord = true;
        continue;
      }
    }
    emit(char, index, index + 1);
    afterWord = /[\p{L}\p{N}_]/u.test(char);
    index += 1;
  }
  from[count] = length;
  to[count] = length;
  return { text: out.join(''), from: from.subarray(0, count + 1), to: to.subarray(0, count + 1) };
}

// Characters of an unquoted local part as found in text: the RFC's atext less those that
// mostly surround addresses in text rather than belong to them (= ? / | { } ` ~ ^ : they
// would turn "?email=ann@x.com" into an address "email=ann"), and letters of any script.
const LOCAL_CHAR = /[A-Za-z0-9!#$%&'*+\-_.\p{L}\p{M}\p{N}]/u;
const DOMAIN_CHAR = /[A-Za-z0-9\-\p{L}\p{M}\p{N}]/u;
const DOTS = new Set(['.', '\u3002', '\uff0e', '\uff61']);
const LETTER = /\p{L}/u;
/** Latin letters (ASCII or accented) versus letters of other scripts: a run of text switching between them is two words. */
const LATIN = /\p{Script=Latin}/u;

type ScriptClass = 'latin' | 'other' | 'neutral';
function scriptOf(char: string): ScriptClass {
  if (!LETTER.test(char)) return 'neutral';
  return LATIN.test(char) ? 'latin' : 'other';
}

/** Where a run stops being one word: the index after the last change of script before `end` (scanning a local part back from the @). */
function lastScriptBoundary(text: string, start: number, end: number): number {
  let script: ScriptClass = 'neutral';
  for (let index = end - 1; index >= start; index -= 1) {
    const current = scriptOf(text[index]!);
    if (current === 'neutral') continue;
    if (script !== 'neutral' && current !== script) return index + 1;
    script = current;
  }
  return start;
}

interface Candidate {
  /** Span in the deobfuscated text: local part start, @, domain end. */
  start: number;
  at: number;
  end: number;
  /** A problem found while scanning (several @s, an IP literal), else null: the parts decide. */
  problem: string | null;
}

/** Quoted local parts ("ann lee"@x.com): their spans, so an @ inside the quotes is not taken for the separator. */
function quotedLocalParts(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const pattern = /"(?:[^"\\\r\n]|\\[^\r\n]){1,64}"@/g;
  for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length - 1]);
  return spans;
}

/** The local part before the @ at `at`: its start (scanning back), or `at` when there is none. */
function localStart(text: string, at: number, quoted: Map<number, number>): number {
  const quoteStart = quoted.get(at);
  if (quoteStart !== undefined) return quoteStart;
  let start = at;
  while (start > 0 && at - start < LOCAL_SCAN && LOCAL_CHAR.test(text[start - 1]!)) start -= 1;
  // A run of another script glued to the address is a word of the text ("联系john@x.com").
  start = lastScriptBoundary(text, start, at);
  // Leading punctuation belongs to the text ('ann@x.com', ...ann@x.com, -ann@x.com).
  while (start < at && !/[\p{L}\p{N}_]/u.test(text[start]!)) start += 1;
  return start;
}

/** The domain after the @ at `at`: its end, scanning forward over labels and dots. */
function domainEnd(text: string, at: number): number {
  let end = at + 1;
  let labelScript: ScriptClass = 'neutral';
  while (end < text.length && end - at <= DOMAIN_SCAN) {
    const char = text[end]!;
    if (DOTS.has(char)) {
      // A dot belongs to the domain only when a label follows it (not the end of a sentence).
      const next = text[end + 1];
      if (next === undefined || !DOMAIN_CHAR.test(next)) break;
      labelScript = 'neutral';
      end += 1;
      continue;
    }
    if (!DOMAIN_CHAR.test(char)) break;
    const script = scriptOf(char);
    // A label switching script is the domain running into a word of the text ("x.com谢谢").
    if (script !== 'neutral') {
      if (labelScript !== 'neutral' && script !== labelScript) break;
      labelScript = script;
    }
    end += 1;
  }
  // A hyphen or label cut short at the end is punctuation of the text.
  while (end > at + 1 && text[end - 1] === '-') end -= 1;
  return end;
}

/** Every candidate around an @ of the (deobfuscated) text, in order; overlapping @s make one candidate. */
function candidates(text: string): Candidate[] {
  const found: Candidate[] = [];
  const quoted = new Map<number, number>();
  const insideQuotes: Array<[number, number]> = quotedLocalParts(text);
  for (const [start, at] of insideQuotes) quoted.set(at, start);
  let quoteIndex = 0;
  let consumed = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at < consumed) continue;
    while (quoteIndex < insideQuotes.length && insideQuotes[quoteIndex]![1] < at) quoteIndex += 1;
    const quote = insideQuotes[quoteIndex];
    if (quote && quote[0] < at && at < quote[1]) continue;
    const start = Math.max(localStart(text, at, quoted), consumed);
    const before = text[start - 1];
    if (text[at + 1] === '[' && start < at) {
      // An address literal: user@[192.0.2.1].
      const close = text.slice(at + 1, at + 64).indexOf(']');
      const end = close !== -1 ? at + 2 + close : at + 1;
      found.push({ start, at, end, problem: INVALID_REASONS.ipLiteral });
      consumed = end;
      continue;
    }
    let end = domainEnd(text, at);
    if (start === at && end === at + 1) continue; // a lone @ ("meet @ 5") is no address
    // A handle in a URL path (medium.com/@ann) or a mention (@acme) is no address attempt.
    if (start === at && (before === '/' || !text.slice(at + 1, end).split('').some((char) => DOTS.has(char)))) {
      consumed = end;
      continue;
    }
    let problem: string | null = null;
    if (text[end] === '@' || (start > 0 && before === '@')) {
      // a@b@c.com: one candidate, refused as a whole.
      while (end < text.length && end - start < INVALID_TEXT_MAX && (text[end] === '@' || DOMAIN_CHAR.test(text[end]!) || (DOTS.has(text[end]!) && DOMAIN_CHAR.test(text[end + 1] ?? '')))) end += 1;
      problem = INVALID_REASONS.manyAts;
    }
    found.push({ start, at, end, problem });
    consumed = end;
  }
  return found;
}

/** The name beside an address spanning [start, end) of the text, if any. */
function nameBeside(text: string, start: number, end: number): string | null {
  let before = start;
  if (text.slice(Math.max(0, before - 7), before).toLowerCase() === 'mailto:') before -= 7;
  while (before > 0 && (text[before - 1] === ' ' || text[before - 1] === '\t')) before -= 1;
  let after = end;
  while (after < text.length && (text[after] === ' ' || text[after] === '\t')) after += 1;
  // Name <address>
  if (text[before - 1] === '<' && text[after] === '>') return phraseBefore(text, before - 1);
  // address (Name)
  if (text[after] === '(') {
    const close = text.slice(after, after + NAME_SCAN).indexOf(')');
    if (close !== -1) return cleanName(text.slice(after + 1, after + close));
  }
  return null;
}

/** The display name before a `<`: a quoted string, or the words back to the previous separator. */
function phraseBefore(text: string, angle: number): string | null {
  let end = angle;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end -= 1;
  if (text[end - 1] === '"') {
    for (let index = end - 2; index >= 0 && end - index <= NAME_SCAN; index -= 1) {
      if (text[index] === '\n' || text[index] === '\r') return null;
      if (text[index] === '"' && text[index - 1] !== '\\') return cleanName(text.slice(index + 1, end - 1).replace(/\\(.)/g, '$1'));
    }
    return null;
  }
  let start = end;
  while (start > 0 && end - start < NAME_SCAN && !/[\r\n,;<>:|\t[\]()]/.test(text[start - 1]!)) start -= 1;
  return cleanName(trailingName(text.slice(start, end)));
}

/** Particles inside a name ("Anna van der Berg", "Rui da Silva"). */
const NAME_PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'di', 'da', 'dos', 'das', 'du', 'la', 'le', 'bin', 'ibn', 'al', 'y']);
const NAME_WORDS_MAX = 4;

/**
 * A phrase of more than a few words before an address is a sentence ("please write to our
 * director Ann Lee <…>"): the name is its last capitalized words (with particles between).
 */
function trailingName(phrase: string): string {
  let words = phrase.trim().split(/\s+/);
  // What an earlier address on the line left ("a@x.com Ann <ann@x.com>"), and words without a letter (emoji, dashes), are no name.
  let lastAddress = -1;
  words.forEach((word, index) => {
    if (word.includes('@')) lastAddress = index;
  });
  words = words.slice(lastAddress + 1);
  while (words.length > 0 && !LETTER.test(words[0]!)) words = words.slice(1);
  if (words.length <= NAME_WORDS_MAX) return words.join(' ');
  let first = words.length;
  while (first > 0) {
    const word = words[first - 1]!;
    const capitalized = /^\p{Lu}/u.test(word);
    const particle = NAME_PARTICLES.has(word.toLowerCase()) && first < words.length;
    if (!capitalized && !particle) break;
    first -= 1;
  }
  while (first < words.length && NAME_PARTICLES.has(words[first]!.toLowerCase())) first += 1;
  return words.slice(first).join(' ');
}

/** A name as kept: trimmed, unquoted, one line; null when it is no name (empty, no letter, an address). */
function cleanName(raw: string): string | null {
  const name = raw
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'\u201c\u2018]+|["'\u201d\u2019]+$/g, '')
    .trim();
  if (name === '' || name.length > NAME_MAX_LENGTH || name.includes('@') || !LETTER.test(name)) return null;
  return name;
}

/** Line numbers of positions, from the line breaks of the text. */
function lineCounter(text: string): (position: number) => number {
  const breaks: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 10) breaks.push(index);
    else if (char === 13 && text.charCodeAt(index + 1) !== 10) breaks.push(index);
  }
  return (position) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (breaks[middle]! < position) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
}

/** Every address of the text, and every piece of text that looked like one but is not. */
export function extractAddresses(original: string): Extraction {
  const mapped = deobfuscate(original);
  const { text } = mapped;
  const lineOf = lineCounter(original);
  const found: FoundAddress[] = [];
  const invalid: InvalidAddress[] = [];
  for (const candidate of candidates(text)) {
    const start = mapped.from[candidate.start]!;
    const end = candidate.end > candidate.start ? mapped.to[candidate.end - 1]! : start;
    const position = { start, end, line: lineOf(start) };
    const result = candidate.problem
      ? ({ ok: false, reason: candidate.problem } as const)
      : normalizeParts(text.slice(candidate.start, candidate.at), text.slice(candidate.at + 1, candidate.end));
    if (!result.ok) {
      invalid.push({ text: original.slice(start, end), reason: result.reason, ...position });
      continue;
    }
    found.push({ ...result.value, name: nameBeside(text, candidate.start, candidate.end), ...position });
  }
  return { found, invalid };
}

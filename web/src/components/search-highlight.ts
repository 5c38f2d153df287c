/**
 * Where the words of a search occur in a text, for highlighting search hits: as the server's
 * search matches them (migrations 0040, 0200: every word of the search starts a word of the
 * record, both folded alike), so case, accents and transliterations do not matter ("muller"
 * marks "Müller", "mueller" marks "Müller" and "Muller", "lindquist" marks "Lindqvist"), each
 * word is found at the start of a word of the text ("lith" marks "Lithium", not "monolith"), and
 * punctuation separates words ("acme" marks the acme of "info@acme.test"). A search forgiven a
 * typo matched the words the list answer names (`similar_words`), which are marked too. Ranges
 * are in the original text (UTF-16 units, as String#slice counts), ready for `highlightParts`
 * (mention-highlight.ts).
 */
import type { MentionRange } from './mention-highlight';

/**
 * Letters unaccent (search_text) spells out that Unicode does not decompose: lower case only,
 * as they are looked up after lower-casing.
 */
const SPELLED_OUT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ŀ: 'l', ħ: 'h' };

/** One character as search_text gives it: lower case, without accents. */
function foldChar(char: string): string {
  const plain = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return [...plain].map((letter) => SPELLED_OUT[letter] ?? letter).join('');
}

/**
 * The transliterations search_fold (migration 0200) folds on both sides, in its order, each
 * applied to the whole text as regexp_replace(…, 'g') does: qu and qv → kv, q → k, ae, oe, ue →
 * a, o, u, aa → a.
 */
const TRANSLITERATIONS: Array<[RegExp, string]> = [
  [/q[uv]/g, 'kv'],
  [/q/g, 'k'],
  [/([aou])e/g, '$1'],
  [/aa/g, 'a'],
];

/** A folded text and, for each of its characters, the stretch of the original it came from. */
interface Folded {
  text: string;
  from: number[];
  to: number[];
}

/**
 * One transliteration applied to a folded text: a replacement as long as what it replaced maps
 * letter by letter (qv → kv), a shorter one maps each letter to all it replaced (ue → u).
 */
function transliterate(folded: Folded, pattern: RegExp, replacement: string): Folded {
  const out: Folded = { text: '', from: [], to: [] };
  const keep = (start: number, end: number) => {
    out.text += folded.text.slice(start, end);
    for (let index = start; index < end; index += 1) {
      out.from.push(folded.from[index]!);
      out.to.push(folded.to[index]!);
    }
  };
  let last = 0;
  for (const match of folded.text.matchAll(pattern)) {
    keep(last, match.index);
    const piece = match[0].replace(new RegExp(pattern.source), replacement);
    const start = match.index;
    const end = match.index + match[0].length - 1;
    for (let index = 0; index < piece.length; index += 1) {
      const same = piece.length === match[0].length;
      out.from.push(folded.from[same ? start + index : start]!);
      out.to.push(folded.to[same ? start + index : end]!);
    }
    out.text += piece;
    last = match.index + match[0].length;
  }
  keep(last, folded.text.length);
  return out;
}

/** A text folded as the server folds what it searches (search_words), with where each character came from. */
function foldWithOffsets(text: string): Folded {
  let folded: Folded = { text: '', from: [], to: [] };
  let at = 0;
  for (const char of text) {
    const piece = foldChar(char);
    for (let index = 0; index < piece.length; index += 1) {
      folded.from.push(at);
      folded.to.push(at + char.length);
    }
    folded.text += piece;
    at += char.length;
  }
  for (const [pattern, replacement] of TRANSLITERATIONS) folded = transliterate(folded, pattern, replacement);
  return folded;
}

/** A text folded as the server folds what it searches: lower case, no accents, transliterations folded. */
export function foldForSearch(text: string): string {
  return foldWithOffsets(text).text;
}

/**
 * The words of a search as they are matched: folded, distinct, longest first (so "acme" wins
 * over "ac" where both start); with the words like those typed that a forgiving search matched
 * as well (the list answer's `similar_words`, already folded by the server).
 */
export function searchWords(q: string, similar: readonly string[] = []): string[] {
  const words = foldForSearch(q).split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  return [...new Set([...words, ...similar.map((word) => word.toLowerCase())])].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place a word of the search starts a word of `text`, in order, overlaps merged. */
export function searchRanges(text: string, words: readonly string[]): MentionRange[] {
  if (words.length === 0 || text === '') return [];
  const { text: folded, from, to } = foldWithOffsets(text);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})`, 'gu');
  const ranges: MentionRange[] = [];
  for (const match of folded.matchAll(pattern)) {
    const start = from[match.index]!;
    const end = to[match.index + match[0].length - 1]!;
    const last = ranges.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  return ranges;
}

/** Which of the words start a word of `text`. */
export function wordsFound(text: string, words: readonly string[]): Set<string> {
  const found = new Set<string>();
  const folded = foldForSearch(text);
  for (const word of words) {
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}`, 'u').test(folded)) found.add(word);
  }
  return found;
}

/**
 * A stretch of a long text around its first highlighted range, at most about `length`
 * characters, cut at spaces, with "…" where it was cut; its ranges shifted to match.
 */
export function snippetAround(text: string, ranges: MentionRange[], length = 160): { text: string; ranges: MentionRange[] } {
  const flat = text.replace(/\s+/g, ' ');
  // Collapsing spaces moves the ranges: find them again in the flattened text by position.
  const shift = (position: number) => text.slice(0, position).replace(/\s+/g, ' ').length;
  const moved = ranges.map(([start, end]): MentionRange => [shift(start), shift(end)]);
  if (flat.length <= length) return { text: flat, ranges: moved };
  const first = moved[0] ?? [0, 0];
  let start = Math.max(0, first[0] - Math.floor(length / 3));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space === -1 || space >= first[0] ? start : space + 1;
  }
  let end = Math.min(flat.length, start + length);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    end = space > first[1] ? space : end;
  }
  const prefix = start > 0 ? '…' : '';
  const kept = moved
    .filter(([rangeStart, rangeEnd]) => rangeStart >= start && rangeEnd <= end)
    .map(([rangeStart, rangeEnd]): MentionRange => [rangeStart - start + prefix.length, rangeEnd - start + prefix.length]);
  return { text: `${prefix}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`, ranges: kept };
}

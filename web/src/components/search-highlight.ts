/**
 * Where the words of a search occur in a text, for highlighting search hits: as the server's
 * search matches them (migration 0040: every word of the search starts a word of the record),
 * so case and accents do not matter ("muller" marks "Müller"), each word is found at the start
 * of a word of the text ("lith" marks "Lithium", not "monolith"), and punctuation separates
 * words ("acme" marks the acme of "info@acme.test"). Ranges are in the original text (UTF-16
 * units, as String#slice counts), ready for `highlightParts` (mention-highlight.ts).
 */
import type { MentionRange } from './mention-highlight';

/** A text lower-cased without accents, one character at a time, lowercase of ASCII letters kept simple. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a search as they are matched: folded, distinct, longest first (so "acme" wins over "ac" where both start). */
export function searchWords(q: string): string[] {
  const words = fold(q).split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** The folded text and, for each of its characters, where it came from in the original. */
function foldWithOffsets(text: string): { folded: string; from: number[]; to: number[] } {
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const char of text) {
    const piece = fold(char);
    for (let index = 0; index < piece.length; index += 1) {
      from.push(at);
      to.push(at + char.length);
    }
    folded += piece;
    at += char.length;
  }
  return { folded, from, to };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place a word of the search starts a word of `text`, in order, overlaps merged. */
export function searchRanges(text: string, words: readonly string[]): MentionRange[] {
  if (words.length === 0 || text === '') return [];
  const { folded, from, to } = foldWithOffsets(text);
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
  const { folded } = foldWithOffsets(text);
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

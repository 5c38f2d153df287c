/**
 * Where a suggestion's names occur in one of its provenance snippets, for highlighting.
 *
 * The provenance's start_offset/end_offset locate the mention in the source's whole text, not in
 * the snippet (docs/review.md "Provenance"), and where the snippet begins in that text is not
 * kept: the snippet is searched for the suggestion's names instead — case-insensitive, any run
 * of spaces matching any other, whole words only, longest name first.
 */

/** A highlighted stretch of the snippet: [start, end), in UTF-16 units as String#slice counts. */
export type MentionRange = [number, number];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names worth looking for: trimmed, distinct regardless of case, longest first. */
function searchableNames(names: Array<string | null | undefined>): string[] {
  const seen = new Map<string, string>();
  for (const name of names) {
    const trimmed = name?.trim().replace(/\s+/g, ' ') ?? '';
    if (trimmed !== '' && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()].sort((a, b) => b.length - a.length);
}

/** Every occurrence of any of `names` in `snippet`, in order, none overlapping. */
export function mentionRanges(snippet: string, names: Array<string | null | undefined>): MentionRange[] {
  const wanted = searchableNames(names);
  if (wanted.length === 0 || snippet === '') return [];
  const alternatives = wanted.map((name) => name.split(' ').map(escapeRegExp).join('\\s+'));
  // Whole words: no letter or digit right before or after (Unicode-aware, so "Acme" is not found in "Acmes").
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const ranges: MentionRange[] = [];
  for (const match of snippet.matchAll(pattern)) {
    if (match[0] !== '') ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** The snippet cut into plain and highlighted parts, in order. */
export function highlightParts(snippet: string, ranges: MentionRange[]): Array<{ text: string; mention: boolean }> {
  const parts: Array<{ text: string; mention: boolean }> = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push({ text: snippet.slice(at, start), mention: false });
    parts.push({ text: snippet.slice(start, end), mention: true });
    at = end;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), mention: false });
  return parts;
}

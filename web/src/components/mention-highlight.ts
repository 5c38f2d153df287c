/**
 * Where a suggestion's names occur in one of its provenance snippets, for highlighting.
 *
 * The provenance's start_offset/end_offset locate the mention in the source's whole text, not in
 * the snippet (docs/review.md "Provenance"); `snippet_start` says where the snippet begins in that
 * text, so the reported mention is marked exactly (processing stores it). The snippet is also
 * searched for the suggestion's names — case-insensitive, any run of spaces matching any other,
 * whole words only, longest name first — which finds the other mentions, and the mention when a
 * suggester did not say where its snippet starts.
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

/** Where a provenance entry says its mention is in its snippet, when it says so and that lies within it. */
export function reportedRange(entry: { snippet: string; start_offset: number | null; end_offset: number | null; snippet_start?: number | null }): MentionRange | null {
  const { start_offset: start, end_offset: end, snippet_start: at } = entry;
  if (start === null || end === null || at === null || at === undefined) return null;
  const range: MentionRange = [start - at, end - at];
  return range[0] >= 0 && range[1] > range[0] && range[1] <= entry.snippet.length ? range : null;
}

/** The ranges of both kinds, in order; a reported range overlapping a found one is left out. */
export function withReported(found: MentionRange[], reported: MentionRange | null): MentionRange[] {
  if (!reported || found.some(([start, end]) => start < reported[1] && reported[0] < end)) return found;
  return [...found, reported].sort((a, b) => a[0] - b[0]);
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

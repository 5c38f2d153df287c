import type { TextSegment } from './types.ts';

/** Blank lines kept in a row; longer runs (page breaks, spreadsheet gaps) are cut to this. */
const MAX_BLANK_LINES = 2;
const PIECE_SEPARATOR = '\n\n';

/**
 * One piece of text as it will be stored: NFC, `\n` line ends, no NUL bytes, no run of
 * more than two blank lines, no blank lines at either end. Line by line rather than with
 * regular expressions over whitespace runs, which backtrack quadratically on a huge line.
 */
export function normalizePiece(raw: string): string {
  const text = raw.replace(/\r\n?|[\f\v\u2028\u2029]/g, '\n').replaceAll('\0', '').normalize('NFC');
  const kept: string[] = [];
  let blankRun = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      blankRun += 1;
      if (blankRun <= MAX_BLANK_LINES && kept.length > 0) kept.push('');
    } else {
      blankRun = 0;
      kept.push(line);
    }
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n');
}

/** `text` cut to at most `length` code units without splitting a surrogate pair. */
export function cutAtCodePoint(text: string, length: number): string {
  if (text.length <= length) return text;
  let end = Math.max(0, length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

interface OpenGroup {
  label: string;
  /** Index of the group's segment once it has text, else null. */
  segment: number | null;
}

/**
 * Collects the text of one extraction: pieces separated by a blank line, each with an
 * optional segment label, inside nested groups (a zip entry, an attachment). It stops
 * taking text at `maxChars`, so a huge file costs at most that much memory here.
 */
export class TextBuilder {
  readonly warnings: string[] = [];
  readonly segments: TextSegment[] = [];
  /** Text was dropped because `maxChars` was reached. */
  overflowed = false;
  /** Parts were skipped under another limit (pages, zip entries); the reader warns which. */
  partial = false;
  /** OCR's mean confidence (0–100) for each page or image it read, by the label its text has (or would have). */
  readonly ocr: Array<{ label: string; confidence: number }> = [];
  private readonly parts: string[] = [];
  private length = 0;
  private readonly groups: OpenGroup[] = [];

  constructor(private readonly maxChars: number) {}

  get full(): boolean {
    return this.length >= this.maxChars;
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /**
   * Adds one piece (normalized here), labelled `label` inside the open groups, after a blank
   * line — or after `separator` ('\n' for the rows of a table).
   */
  append(raw: string, label?: string, separator = PIECE_SEPARATOR): void {
    if (this.full) {
      if (raw.trim() !== '') this.overflowed = true;
      return;
    }
    // Normalizing never lengthens a piece much (NFC at most triples a character, rarely), so
    // a piece far longer than what is left is cut first: no point normalizing megabytes to keep kilobytes.
    const room = this.maxChars - this.length;
    const cap = room * 3 + 1024;
    if (raw.length > cap) this.overflowed = true;
    const text = normalizePiece(raw.length > cap ? cutAtCodePoint(raw, cap) : raw);
    if (text === '') return;
    if (this.length > 0) this.push(separator);
    const start = this.length;
    for (const group of this.groups) {
      if (group.segment === null) {
        group.segment = this.segments.length;
        this.segments.push({ start, end: start, label: this.labelWithin(this.groups.indexOf(group), group.label) });
      }
    }
    this.push(text);
    if (label) this.segments.push({ start, end: this.length, label: this.labelWithin(this.groups.length, label) });
    for (const group of this.groups) this.segments[group.segment!]!.end = this.length;
  }

  /** Records OCR's confidence for the page or image labelled `label` (inside the open groups). */
  recordOcr(label: string, confidence: number): void {
    this.ocr.push({ label: this.labelWithin(this.groups.length, label), confidence });
  }

  /** A point to go back to with `rollback` (a reader that fails halfway and reads the file another way). */
  checkpoint(): { parts: number; length: number; segments: number } {
    return { parts: this.parts.length, length: this.length, segments: this.segments.length };
  }

  /** Drops everything appended since `point`; a group whose first text is dropped starts afresh. */
  rollback(point: { parts: number; length: number; segments: number }): void {
    this.parts.length = point.parts;
    this.length = point.length;
    this.segments.length = point.segments;
    for (const group of this.groups) if (group.segment !== null && group.segment >= point.segments) group.segment = null;
  }

  /** Runs `body` with its pieces inside a group labelled `label` (a segment spanning them all). */
  async group<T>(label: string, body: () => Promise<T>): Promise<T> {
    this.groups.push({ label, segment: null });
    try {
      return await body();
    } finally {
      this.groups.pop();
    }
  }

  /** The text and segments, cut to `maxChars` at a code-point boundary. */
  finish(): { text: string; segments: TextSegment[]; truncated: boolean } {
    const joined = this.parts.join('');
    const text = cutAtCodePoint(joined, this.maxChars);
    const truncated = this.overflowed || text.length < joined.length;
    const segments = this.segments
      .filter((segment) => segment.start < text.length && segment.end > segment.start)
      .map((segment) => ({ ...segment, end: Math.min(segment.end, text.length) }));
    return { text, segments, truncated };
  }

  private push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  private labelWithin(depth: number, label: string): string {
    return [...this.groups.slice(0, depth).map((group) => group.label), label].join(': ');
  }
}

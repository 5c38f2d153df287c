/**
 * The pasted text cut into plain stretches and the stretches the parse answer points at (added,
 * duplicate, invalid), for showing the text with them highlighted. Offsets are the answer's
 * `start`/`end`: [start, end) in UTF-16 code units, as String#slice counts them.
 */

export type SpanKind = 'created' | 'duplicate' | 'invalid';

/** A stretch the answer names: its kind and its position in that kind's list of the answer. */
export interface MarkedSpan {
  kind: SpanKind;
  /** Index into the answer's created, duplicates or invalid list. */
  index: number;
  start: number;
  end: number;
}

export interface TextPart {
  text: string;
  /** The span the part shows, or null for plain text. */
  span: MarkedSpan | null;
}

/**
 * Spans usable on `text`, in order: those within it and not empty; where two overlap, the first to
 * start (the longer on a tie) is kept, so no character is shown twice.
 */
export function usableSpans(text: string, spans: MarkedSpan[]): MarkedSpan[] {
  const sorted = spans
    .filter((span) => Number.isInteger(span.start) && Number.isInteger(span.end) && span.start >= 0 && span.end > span.start && span.end <= text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: MarkedSpan[] = [];
  for (const span of sorted) {
    const last = kept[kept.length - 1];
    if (!last || span.start >= last.end) kept.push(span);
  }
  return kept;
}

/** The text as plain and marked parts, in order; their texts joined give the text back. */
export function textParts(text: string, spans: MarkedSpan[]): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const span of usableSpans(text, spans)) {
    if (span.start > at) parts.push({ text: text.slice(at, span.start), span: null });
    parts.push({ text: text.slice(span.start, span.end), span });
    at = span.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), span: null });
  return parts;
}

/** The spans of a parse answer's three lists. */
export function answerSpans(answer: {
  created: Array<{ start: number; end: number }>;
  duplicates: Array<{ start: number; end: number }>;
  invalid: Array<{ start: number; end: number }>;
}): MarkedSpan[] {
  const of = (kind: SpanKind, list: Array<{ start: number; end: number }>) => list.map(({ start, end }, index) => ({ kind, index, start, end }));
  return [...of('created', answer.created), ...of('duplicate', answer.duplicates), ...of('invalid', answer.invalid)];
}

/** The element id of a span's mark, so its entry in the reasons list can lead to it. */
export const markId = (kind: SpanKind, index: number) => `parsed-${kind}-${index}`;

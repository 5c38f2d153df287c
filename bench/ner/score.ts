/** Span matching shared by the entity benchmarks (ner.ts, ner-eval.ts): one type's gold spans against the predicted ones. */
export interface Span {
  start: number;
  end: number;
}

export const sameSpan = (a: Span, b: Span) => a.start === b.start && a.end === b.end;
export const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
export const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
export const f1 = (precision: number, recall: number) => (precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall));

/** How many predictions equal a gold span (strict), overlap one (lenient precision), and how many gold spans one overlaps (lenient recall). */
export function matchSpans(gold: Span[], predicted: Span[]): { exact: number; predictedOverlapping: number; goldOverlapped: number } {
  return {
    exact: predicted.filter((mention) => gold.some((entity) => sameSpan(entity, mention))).length,
    predictedOverlapping: predicted.filter((mention) => gold.some((entity) => overlaps(entity, mention))).length,
    goldOverlapped: gold.filter((entity) => predicted.some((mention) => overlaps(entity, mention))).length,
  };
}

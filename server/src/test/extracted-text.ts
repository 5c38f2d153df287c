/** Assertions on what the text readers give (processing/text): a refusal with its code and reason, a segment's text. */
import assert from 'node:assert/strict';
import { type ExtractedText, TextExtractionError } from '../processing/text/index.ts';

export async function rejectsWith(promise: Promise<unknown>, code: TextExtractionError['code'], message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof TextExtractionError, `expected a TextExtractionError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return true;
  });
}

export const labels = (result: ExtractedText) => result.segments.map((segment) => segment.label);

/** The text of the segment labelled `label`; fails naming the labels there are when none is. */
export const segmentText = (result: ExtractedText, label: string) => {
  const segment = result.segments.find((candidate) => candidate.label === label);
  assert.ok(segment, `no segment "${label}" in ${JSON.stringify(labels(result))}`);
  return result.text.slice(segment.start, segment.end);
};

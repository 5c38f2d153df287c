// How the paste dialog cuts the pasted text around the spans of the parse answer
// (features/emails/parse-highlight.ts): every span in order, the text kept whole, spans outside
// the text or overlapping another left out, offsets in UTF-16 units as the server counts them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerSpans, textParts, usableSpans, type MarkedSpan } from './parse-highlight';

const joined = (text: string, spans: MarkedSpan[]) => textParts(text, spans).map((part) => part.text).join('');
const marked = (text: string, spans: MarkedSpan[]) =>
  textParts(text, spans)
    .filter((part) => part.span)
    .map((part) => `${part.span!.kind}:${part.text}`);

describe('parse answer highlighting', () => {
  const text = 'Ann Lee <ann@acme.test>\nbob [at] acme [dot] test, ann@acme.test\nnot-an-address@\n';
  const answer = {
    created: [
      { start: 9, end: 22 },
      { start: 24, end: 48 },
    ],
    duplicates: [{ start: 50, end: 63 }],
    invalid: [{ start: 64, end: 79 }],
  };

  it('marks each span of the answer in the order of the text, with its kind and its place in its list', () => {
    const spans = answerSpans(answer);
    assert.deepEqual(marked(text, spans), [
      'created:ann@acme.test',
      'created:bob [at] acme [dot] test',
      'duplicate:ann@acme.test',
      'invalid:not-an-address@',
    ]);
    const duplicate = textParts(text, spans).find((part) => part.span?.kind === 'duplicate');
    assert.equal(duplicate?.span?.index, 0);
    assert.equal(joined(text, spans), text, 'the parts give the whole text back');
  });

  it('keeps plain text before, between and after the spans', () => {
    const parts = textParts('a x@y.z b', [{ kind: 'created', index: 0, start: 2, end: 7 }]);
    assert.deepEqual(parts, [
      { text: 'a ', span: null },
      { text: 'x@y.z', span: { kind: 'created', index: 0, start: 2, end: 7 } },
      { text: ' b', span: null },
    ]);
    assert.deepEqual(textParts('', []), []);
    assert.deepEqual(textParts('no addresses', []), [{ text: 'no addresses', span: null }]);
  });

  it('leaves out spans outside the text, empty or reversed ones, and the later of two that overlap', () => {
    const spans: MarkedSpan[] = [
      { kind: 'invalid', index: 0, start: 5, end: 50 },
      { kind: 'invalid', index: 1, start: -1, end: 2 },
      { kind: 'invalid', index: 2, start: 3, end: 3 },
      { kind: 'invalid', index: 3, start: 4, end: 2 },
      { kind: 'created', index: 0, start: 0, end: 4 },
      { kind: 'duplicate', index: 0, start: 2, end: 6 },
      { kind: 'invalid', index: 4, start: 1.5, end: 3 },
    ];
    assert.deepEqual(usableSpans('abcdefgh', spans), [{ kind: 'created', index: 0, start: 0, end: 4 }]);
    assert.equal(joined('abcdefgh', spans), 'abcdefgh');
  });

  it('prefers the longer of two spans starting at the same place', () => {
    const spans: MarkedSpan[] = [
      { kind: 'created', index: 0, start: 0, end: 3 },
      { kind: 'invalid', index: 0, start: 0, end: 6 },
    ];
    assert.deepEqual(marked('abcdefgh', spans), ['invalid:abcdef']);
  });

  it('counts offsets in UTF-16 units: an emoji before the address counts two', () => {
    const pasted = '😀 José <jose@exämple.test>';
    assert.deepEqual(marked(pasted, [{ kind: 'created', index: 0, start: 9, end: 26 }]), ['created:jose@exämple.test']);
  });
});

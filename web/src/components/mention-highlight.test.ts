// Where the review page marks a suggestion's names in its provenance snippets
// (components/mention-highlight.ts): case and spacing do not matter, whole words only, the
// longest name wins where names overlap, every occurrence is marked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { highlightParts, mentionRanges, reportedRange, withReported } from './mention-highlight';

const marked = (snippet: string, names: string[]) =>
  highlightParts(snippet, mentionRanges(snippet, names))
    .filter((part) => part.mention)
    .map((part) => part.text);

describe('mention highlighting', () => {
  it('finds a name regardless of case and of the spaces inside it', () => {
    assert.deepEqual(marked('Shares of ACME   corp rose after the deal.', ['Acme Corp']), ['ACME   corp']);
    assert.deepEqual(mentionRanges('Shares of ACME corp rose.', ['Acme Corp']), [[10, 19]]);
  });

  it('marks whole words only, and every occurrence', () => {
    assert.deepEqual(marked('Acmes are not Acme; Acme, however, is.', ['Acme']), ['Acme', 'Acme']);
  });

  it('prefers the longest name where names overlap', () => {
    assert.deepEqual(marked('Jane Doe met Doe’s lawyer.', ['Doe', 'Jane Doe']), ['Jane Doe', 'Doe']);
  });

  it('treats a name as text, not as a pattern', () => {
    assert.deepEqual(marked('Paid A.B. (Holdings) 3m, not AxB Holdings.', ['A.B. (Holdings)']), ['A.B. (Holdings)']);
  });

  it('keeps letters beyond Latin whole (Unicode words)', () => {
    assert.deepEqual(marked('Société Générale and Générales.', ['Générale']), ['Générale']);
  });

  it('gives the whole snippet as plain text when no name occurs, and nothing for empty names', () => {
    assert.deepEqual(highlightParts('No mention here.', mentionRanges('No mention here.', ['Acme'])), [{ text: 'No mention here.', mention: false }]);
    assert.deepEqual(mentionRanges('Acme', ['', '  ']), []);
  });
});

describe('the mention a suggester reports', () => {
  it('is marked where snippet_start puts it, beside the names found', () => {
    const snippet = 'Acme Corp. said ACME grew.';
    const entry = { snippet, start_offset: 110, end_offset: 114, snippet_start: 94 };
    assert.deepEqual(reportedRange(entry), [16, 20]);
    assert.deepEqual(withReported(mentionRanges(snippet, ['Acme Corp.']), reportedRange(entry)), [[0, 10], [16, 20]]);
    assert.deepEqual(withReported([[16, 20]], [16, 20]), [[16, 20]], 'not twice');
  });

  it('is ignored when the suggester did not say where its snippet starts, or the offsets fall outside it', () => {
    assert.equal(reportedRange({ snippet: 'abc', start_offset: 1, end_offset: 2, snippet_start: null }), null);
    assert.equal(reportedRange({ snippet: 'abc', start_offset: 10, end_offset: 20, snippet_start: 5 }), null);
  });
});

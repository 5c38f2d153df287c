/**
 * A long text is read in windows (extract.ts WINDOW_CHARS), to bound the memory of reading a
 * book or a 500-page PDF: the mentions and ledger candidates keep their offsets in the whole
 * text, and a window ends at a paragraph, line or sentence break when one is near.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractEntities, windowsOf, WINDOW_CHARS } from './extract.ts';

describe('extractEntities on a long text, window by window', () => {
  it('cuts windows at the last paragraph, line, sentence or space in their final fifth', () => {
    assert.deepEqual(windowsOf('short', 100), [[0, 5]]);
    const text = `${'a'.repeat(85)}\n\n${'b'.repeat(50)}. ${'c'.repeat(40)}`;
    const windows = windowsOf(text, 100);
    assert.deepEqual(windows[0], [0, 87], 'after the paragraph break');
    assert.equal(windows.at(-1)![1], text.length);
    for (let index = 1; index < windows.length; index += 1) assert.equal(windows[index]![0], windows[index - 1]![1], 'no gap, no overlap');
    assert.deepEqual(windowsOf('x'.repeat(250), 100), [[0, 100], [100, 200], [200, 250]], 'no break at all: cut at the size');
  });

  it('finds in a text of many windows what it finds in each part, at the right offsets', () => {
    const paragraph = (index: number) =>
      `Report ${index}. Orion Freight Holdings agreed to acquire Baltic Rail Logistics for USD 420 million in March 2025, said Miriam Okonkwo, its chief executive, in Riga.\n\n`;
    let text = '';
    for (let index = 0; text.length < WINDOW_CHARS * 2.5; index += 1) text += paragraph(index);
    const { mentions, ledger } = extractEntities(text);
    const paragraphs = text.split('\n\n').length - 1;
    for (const mention of mentions) {
      assert.equal(text.slice(mention.start, mention.end), mention.text, `offsets of ${mention.type} "${mention.text}" at ${mention.start}`);
      assert.ok(mention.sentence.start <= mention.start && mention.end <= mention.sentence.end, 'its sentence holds it');
    }
    const count = (type: string, name: string) => mentions.filter((mention) => mention.type === type && mention.text === name).length;
    assert.equal(count('ORG', 'Orion Freight Holdings'), paragraphs);
    assert.equal(count('ORG', 'Baltic Rail Logistics'), paragraphs);
    assert.equal(count('PER', 'Miriam Okonkwo'), paragraphs);
    assert.equal(ledger.filter((candidate) => candidate.deal?.kind === 'acquisition').length, paragraphs, 'a deal per paragraph');
    for (const candidate of ledger) {
      assert.ok(text.slice(candidate.sentence.start, candidate.sentence.end).includes('Orion Freight Holdings'));
      for (const party of candidate.deal?.parties ?? []) assert.equal(text.slice(party.mention.start, party.mention.end), party.mention.text);
      if (candidate.money) assert.equal(text.slice(candidate.money.start, candidate.money.end), candidate.money.text);
    }
    // The same as one paragraph read alone, shifted.
    const alone = extractEntities(paragraph(0));
    assert.deepEqual(
      mentions.filter((mention) => mention.end <= paragraph(0).length).map(({ type, text: name, start, end }) => ({ type, name, start, end })),
      alone.mentions.map(({ type, text: name, start, end }) => ({ type, name, start, end })),
    );
  });
});

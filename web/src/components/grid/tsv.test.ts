// Cells pasted into a table (components/grid/tsv.ts): the tab-separated block spreadsheets put on
// the clipboard, quoted cells included, and the names of a pasted relation cell.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTsv, pastedNames } from './tsv';

describe('pasted cells', () => {
  it('reads rows and cells, without an empty row for the trailing line break', () => {
    assert.deepEqual(parseTsv('2021\tQ2\n2022\tQ3\r\n2023\tQ4\n'), [['2021', 'Q2'], ['2022', 'Q3'], ['2023', 'Q4']]);
    assert.deepEqual(parseTsv('one'), [['one']]);
    assert.deepEqual(parseTsv(''), []);
  });

  it('keeps empty cells, so a block stays rectangular', () => {
    assert.deepEqual(parseTsv('a\t\tc\n\tb\t'), [['a', '', 'c'], ['', 'b', '']]);
  });

  it('reads quoted cells with tabs, line breaks and doubled quotes', () => {
    assert.deepEqual(parseTsv('"two\nlines"\t"say ""hi"""\nplain\t"a\tb"'), [['two\nlines', 'say "hi"'], ['plain', 'a\tb']]);
    // A quote inside a cell that does not start with one is text.
    assert.deepEqual(parseTsv('5" screen\tx'), [['5" screen', 'x']]);
  });

  it('splits a relation cell into names', () => {
    assert.deepEqual(pastedNames('Fintech, Payments; Open Banking'), ['Fintech', 'Payments', 'Open Banking']);
    assert.deepEqual(pastedNames(' , '), []);
  });
});

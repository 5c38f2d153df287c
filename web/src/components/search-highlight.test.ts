// Search hits' highlighting (components/search-highlight.ts): the words of a search at the
// start of a word of the text, whatever the case and accents, in the original text's positions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { highlightParts } from './mention-highlight';
import { foldForSearch, searchRanges, searchWords, snippetAround, wordsFound } from './search-highlight';

const marked = (text: string, q: string, similar: string[] = []) =>
  highlightParts(text, searchRanges(text, searchWords(q, similar)))
    .filter((part) => part.mention)
    .map((part) => part.text);

describe('search highlighting', () => {
  it('splits a search into folded words, longest first', () => {
    assert.deepEqual(searchWords('  Zürich, ACME-corp  '), ['zurich', 'acme', 'corp']);
    assert.deepEqual(searchWords('!!'), []);
  });

  it('marks word prefixes regardless of case and accents, in the original text', () => {
    assert.deepEqual(marked('Lithium Mining in Zürich', 'lith zur'), ['Lith', 'Zür']);
    assert.deepEqual(marked('Hans MÜLLER and müller', 'Muller'), ['MÜLLER', 'müller']);
    assert.deepEqual(marked('Ångström Labs', 'angs'), ['Ångs']);
  });

  it('marks only the start of words', () => {
    assert.deepEqual(marked('monolith lithic', 'lith'), ['lith']);
    assert.equal(searchRanges('monolith lithic', ['lith'])[0]![0], 9);
  });

  it('takes punctuation as a word break, as the server does', () => {
    assert.deepEqual(marked('info@acme.test', 'acme'), ['acme']);
  });

  it('merges overlapping words into one mark', () => {
    assert.deepEqual(searchRanges('Acme Corporation', ['acme', 'ac', 'corp']), [[0, 4], [5, 9]]);
  });

  it('keeps positions right after characters that decompose', () => {
    const text = 'Ça va, Élodie';
    assert.deepEqual(searchRanges(text, searchWords('elo')), [[7, 10]]);
    assert.equal(text.slice(7, 10), 'Élo');
  });

  it('says which words a text has', () => {
    assert.deepEqual([...wordsFound('Acme Berlin', ['berlin', 'lithium'])], ['berlin']);
  });

  it('cuts a long text around the first match, keeping its marks', () => {
    const text = `${'lorem ipsum '.repeat(30)}the lithium deposit ${'dolor sit '.repeat(30)}`;
    const ranges = searchRanges(text, ['lithium']);
    const snippet = snippetAround(text, ranges, 80);
    assert.ok(snippet.text.startsWith('…') && snippet.text.endsWith('…'), snippet.text);
    assert.ok(snippet.text.length <= 84, String(snippet.text.length));
    const [[start, end]] = snippet.ranges as [[number, number]];
    assert.equal(snippet.text.slice(start, end), 'lithium');
  });

  it('keeps a short text whole, its spaces collapsed', () => {
    const snippet = snippetAround('Mined  in\nChile', searchRanges('Mined  in\nChile', ['chile']));
    assert.equal(snippet.text, 'Mined in Chile');
    assert.deepEqual(snippet.ranges, [[9, 14]]);
  });

  it('folds as the server folds (search_text, search_fold): the examples of docs/engine.md', () => {
    // Lindquist, Lindqvist → lindkvist; Mueller, Müller, Muller → muller; Joergensen, Jørgensen → jorgensen; Aarhus, Århus → arhus.
    for (const [texts, folded] of [
      [['Lindquist', 'Lindqvist', 'LINDQVIST'], 'lindkvist'],
      [['Mueller', 'Müller', 'Muller', 'MÜLLER'], 'muller'],
      [['Joergensen', 'Jørgensen', 'Jorgensen'], 'jorgensen'],
      [['Aarhus', 'Århus'], 'arhus'],
      [['Hauptstraße', 'Hauptstrasse'], 'hauptstrasse'],
      [['Æbelø', 'Aebelo', 'aebeloe'], 'abelo'],
      [['Łukasz'], 'lukasz'],
      [['Qatar'], 'katar'],
    ] as Array<[string[], string]>) {
      for (const text of texts) assert.equal(foldForSearch(text), folded, text);
    }
    assert.deepEqual(searchWords('Karin Lindquist'), ['lindkvist', 'karin']);
  });

  it('marks a name matched through a transliteration, in the original letters', () => {
    assert.deepEqual(marked('Karin Lindqvist', 'lindquist'), ['Lindqvist']);
    assert.deepEqual(marked('Greta Mueller and Hans Müller', 'muller'), ['Mueller', 'Müller']);
    assert.deepEqual(marked('Greta Mueller and Hans Müller', 'Mueller'), ['Mueller', 'Müller']);
    assert.deepEqual(marked('Søren Jørgensen', 'joergensen'), ['Jørgensen']);
    assert.deepEqual(marked('Aarhus and Århus', 'arhus'), ['Aarhus', 'Århus']);
    assert.deepEqual(marked('Hauptstraße Bau', 'hauptstrasse'), ['Hauptstraße']);
    // A typed prefix folds as the word's start does: "lindq" marks "Lindq", "mue" marks "Mü" and "Mue".
    assert.deepEqual(marked('Lindqvist', 'lindq'), ['Lindq']);
    assert.deepEqual(marked('Müller Mueller', 'mue'), ['Mü', 'Mue']);
    // A letter spelled out (æ → ae → a) marks the one letter it came from.
    const text = 'Astrid Æbelø';
    const [[start, end]] = searchRanges(text, searchWords('aebeloe')) as [[number, number]];
    assert.equal(text.slice(start, end), 'Æbelø');
  });

  it('marks the similar words a forgiven search matched, beside the words typed', () => {
    // "kowalsky consulting" found Kowalski Consulting; the answer named "kowalski" (similar_words).
    assert.deepEqual(searchWords('kowalsky consulting', ['kowalski']), ['consulting', 'kowalsky', 'kowalski']);
    assert.deepEqual(marked('Kowalski Consulting', 'kowalsky consulting', ['kowalski']), ['Kowalski', 'Consulting']);
    assert.deepEqual(marked('Kowalski Consulting', 'kowalsky consulting'), ['Consulting'], 'without them, only the word as typed');
    // Folded words from the server mark their accented and transliterated spellings.
    assert.deepEqual(marked('Salar de Atacáma', 'atacamma', ['atacama']), ['Atacáma']);
    assert.deepEqual(marked('Greta Mueller', 'mullr', ['muller']), ['Mueller']);
    assert.deepEqual([...wordsFound('Kowalski Consulting', searchWords('kowalsky', ['kowalski']))], ['kowalski']);
  });
});

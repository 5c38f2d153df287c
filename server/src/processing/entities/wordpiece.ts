/**
 * BERT's WordPiece tokenizer, read from the vocab.txt that BERT-style models ship (one piece a
 * line, its line number its id): the text is cut into words — at white space, at every
 * punctuation character, and around each CJK character — and each word into the longest
 * pieces the vocabulary has, continuations marked "##". Each word keeps its UTF-16 offsets in
 * the text, so what a model says of a word maps back to the characters it came from.
 *
 * Written here rather than taken from a package: the tokenizer packages on npm either download
 * their files from a hub at run time or bring a second native runtime; this is a few dozen
 * lines of BERT's published algorithm (BasicTokenizer + WordpieceTokenizer).
 */

export interface WordPieceVocabulary {
  ids: Map<string, number>;
  /** Lower-case and strip accents before looking words up (an "uncased" model). */
  lowerCase: boolean;
  cls: number;
  sep: number;
  unk: number;
  pad: number;
}

export interface Word {
  /** UTF-16 offsets in the text, end exclusive. */
  start: number;
  end: number;
  /** The word's piece ids (at least one: [UNK] when nothing matches). */
  pieces: number[];
}

/** Longer words are [UNK], as BERT's tokenizer does. */
const MAX_WORD_CHARS = 100;

/** Reads vocab.txt: one piece per line; its id is the line number. */
export function readVocabulary(text: string, lowerCase?: boolean): WordPieceVocabulary {
  const ids = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  // A final newline leaves one empty line that is no piece.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, index) => {
    if (!ids.has(line)) ids.set(line, index);
  });
  const special = (name: string) => {
    const id = ids.get(name);
    if (id === undefined) throw new TypeError(`vocab.txt has no ${name} piece: it is not a BERT WordPiece vocabulary`);
    return id;
  };
  return {
    ids,
    // Without a tokenizer_config.json saying so, a vocabulary with no upper-case piece is uncased.
    lowerCase: lowerCase ?? ![...ids.keys()].some((piece) => !piece.startsWith('[') && /\p{Lu}/u.test(piece)),
    cls: special('[CLS]'),
    sep: special('[SEP]'),
    unk: special('[UNK]'),
    pad: ids.get('[PAD]') ?? 0,
  };
}

/** BERT's punctuation: ASCII symbols and every Unicode punctuation character. */
function isPunctuation(char: string): boolean {
  const code = char.codePointAt(0)!;
  if ((code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126)) return true;
  return /\p{P}/u.test(char);
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) || (code >= 0x2b740 && code <= 0x2b81f) || (code >= 0x2b820 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) || (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

const SPACE = /\s/u;
const CONTROL = /[\p{Cc}\p{Cf}]/u;
const MARKS = /\p{Mn}/gu;

/** The words of the text with their pieces, in order. */
export function wordPieces(text: string, vocabulary: WordPieceVocabulary): Word[] {
  const words: Word[] = [];
  let wordStart = -1;
  const flush = (end: number) => {
    if (wordStart >= 0) words.push({ start: wordStart, end, pieces: piecesOf(text.slice(wordStart, end), vocabulary) });
    wordStart = -1;
  };
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index)!;
    const char = String.fromCodePoint(code);
    const width = char.length;
    if (SPACE.test(char) || CONTROL.test(char) || code === 0xfffd) {
      flush(index);
    } else if (isPunctuation(char) || isCjk(code)) {
      flush(index);
      words.push({ start: index, end: index + width, pieces: piecesOf(char, vocabulary) });
    } else if (wordStart < 0) {
      wordStart = index;
    }
    index += width;
  }
  flush(text.length);
  return words;
}

/** Greedy longest-match-first pieces of one word; [UNK] when a part has none. */
function piecesOf(word: string, vocabulary: WordPieceVocabulary): number[] {
  const form = vocabulary.lowerCase ? word.toLowerCase().normalize('NFD').replace(MARKS, '') : word;
  if (form.length === 0) return [];
  if (form.length > MAX_WORD_CHARS) return [vocabulary.unk];
  const pieces: number[] = [];
  let start = 0;
  while (start < form.length) {
    let end = form.length;
    let found: number | undefined;
    while (start < end) {
      const piece = (start > 0 ? '##' : '') + form.slice(start, end);
      found = vocabulary.ids.get(piece);
      if (found !== undefined) break;
      end--;
      // Never split a surrogate pair.
      if (end > start && /[\uDC00-\uDFFF]/.test(form[end]!)) end--;
    }
    if (found === undefined) return [vocabulary.unk];
    pieces.push(found);
    start = end;
  }
  return pieces;
}

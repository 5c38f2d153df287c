import CFB from 'cfb';
import { abortable, type ExtractionContext, throwIfAborted } from './context.ts';
import { extractMsg } from './msg.ts';
import { extractSpreadsheet } from './sheets.ts';
import { TextExtractionError } from './types.ts';
import { WordExtractor } from './untyped.ts';

type Container = CFB.CFB$Container;

/** The stream named `name` directly under the root, or null. */
function stream(container: Container, name: string): Uint8Array | null {
  const index = container.FullPaths.findIndex((full) => full.replace(/^[^/]*\//, '') === name);
  const content = index >= 0 ? container.FileIndex[index]?.content : undefined;
  return content ? Uint8Array.from(content as ArrayLike<number>) : null;
}

const has = (container: Container, name: string) => container.FullPaths.some((full) => full.replace(/^[^/]*\//, '').replace(/\/$/, '') === name);

/**
 * An OLE compound file (Office 97–2003 and Outlook): told by the streams it holds — Word's
 * "WordDocument", Excel's "Workbook" (or BIFF5's "Book"), PowerPoint's "PowerPoint Document",
 * an Outlook message's "__substg1.0_" properties, a password-protected OOXML file's
 * "EncryptedPackage".
 */
export async function extractCompoundFile(bytes: Uint8Array, ctx: ExtractionContext): Promise<string> {
  let container: Container;
  try {
    container = CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
  } catch (error) {
    throw new TextExtractionError('corrupt', `Not a readable Office 97–2003 or Outlook file: ${(error as Error).message}`, { cause: error });
  }
  if (has(container, 'EncryptedPackage') || has(container, 'EncryptionInfo')) {
    throw new TextExtractionError('encrypted', 'The Office document is encrypted with a password');
  }
  if (has(container, 'WordDocument')) {
    await extractDoc(bytes, container, ctx);
    return 'doc';
  }
  if (has(container, 'Workbook') || has(container, 'Book')) {
    await extractSpreadsheet(bytes, ctx, 'Excel 97–2003 workbook');
    return 'xls';
  }
  if (has(container, 'PowerPoint Document')) {
    extractPpt(container, ctx);
    return 'ppt';
  }
  if (container.FullPaths.some((full) => full.includes('__substg1.0_'))) {
    await extractMsg(bytes, ctx);
    return 'msg';
  }
  throw new TextExtractionError('unsupported', 'Text cannot be read from this kind of OLE compound file (not a Word, Excel, PowerPoint or Outlook file)');
}

/** Word 97–2003 (.doc) with word-extractor: the body, then headers and footers, footnotes, endnotes, comments and text boxes. */
async function extractDoc(bytes: Uint8Array, container: Container, ctx: ExtractionContext): Promise<void> {
  const word = stream(container, 'WordDocument');
  // The File Information Block's fEncrypted flag (bit 8 of the flags at offset 0x0A).
  if (word && word.length > 12 && (word[0x0b]! & 0x01) !== 0) throw new TextExtractionError('encrypted', 'The Word document is encrypted with a password');
  let document;
  try {
    document = await abortable(new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)), ctx.signal);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw new TextExtractionError('corrupt', `Not a readable Word 97–2003 document: ${(error as Error).message}`, { cause: error });
  }
  const options = { filterUnicode: false };
  // A table row comes as its cells each ended by a tab: "cell | cell", as tables read everywhere else.
  const rows = (text: string) => text.split('\n').map((line) => (line.endsWith('\t') ? line.split('\t').map((cell) => cell.trim()).filter(Boolean).join(' | ') : line)).join('\n');
  ctx.out.append(rows(document.getBody(options)), 'body');
  const parts: Array<[string, string]> = [
    ['headers and footers', document.getHeaders(options)],
    ['footnotes', document.getFootnotes(options)],
    ['endnotes', document.getEndnotes(options)],
    ['comments', document.getAnnotations(options)],
    ['text boxes', document.getTextboxes({ ...options, includeHeadersAndFooters: false })],
  ];
  for (const [label, text] of parts) ctx.out.append(rows(text), label);
}

// [MS-PPT] record types.
const SLIDE_LIST_WITH_TEXT = 0x0ff0;
const SLIDE_PERSIST_ATOM = 0x03f3;
const TEXT_CHARS_ATOM = 0x0fa0;
const TEXT_BYTES_ATOM = 0x0fa8;
const MAIN_MASTER = 0x03f8;
const SLIDE = 0x03ee;
const NOTES = 0x03f0;
const CRYPT_SESSION = 0x2f14;
/** Containers nest; a hostile file could nest them without end. */
const MAX_RECORD_DEPTH = 64;

/**
 * PowerPoint 97–2003 (.ppt), from [MS-PPT]'s records: the "PowerPoint Document" stream is a
 * tree of records (an 8-byte header: version and instance, type, length; version 0xF is a
 * container). The slides' text lives in the document's SlideListWithText, one
 * SlidePersistAtom per slide followed by its text atoms (UTF-16 or 8-bit); text in shapes
 * outside it (and in the masters' placeholders, "Click to edit…") is left out.
 */
function extractPpt(container: Container, ctx: ExtractionContext): void {
  if (has(container, 'EncryptedSummary')) throw new TextExtractionError('encrypted', 'The PowerPoint presentation is encrypted with a password');
  const document = stream(container, 'PowerPoint Document');
  if (!document) throw new TextExtractionError('corrupt', 'Not a readable PowerPoint 97–2003 file: its document stream is empty');
  const view = new DataView(document.buffer, document.byteOffset, document.byteLength);
  // SlideListWithText instance 0 holds the slides' text, 1 the masters', 2 the notes'.
  const lists: Record<number, string[][]> = { 0: [], 2: [] };
  // Text in the slides' own shapes (files written by other tools keep it only there), per slide.
  const shapeSlides: string[][] = [];
  const shapeNotes: string[][] = [];

  const walk = (start: number, end: number, depth: number, list: string[][] | null | undefined, inMaster: boolean, slide: string[] | null): void => {
    let at = start;
    while (at + 8 <= end) {
      const versionInstance = view.getUint16(at, true);
      const type = view.getUint16(at + 2, true);
      const length = view.getUint32(at + 4, true);
      const bodyStart = at + 8;
      const bodyEnd = Math.min(end, bodyStart + length);
      if (type === CRYPT_SESSION) throw new TextExtractionError('encrypted', 'The PowerPoint presentation is encrypted with a password');
      if ((versionInstance & 0x0f) === 0x0f) {
        if (depth < MAX_RECORD_DEPTH) {
          let inner = list;
          // null: a list whose text is not taken (the masters').
          if (type === SLIDE_LIST_WITH_TEXT) inner = lists[versionInstance >> 4] ?? null;
          const innerSlide = type === SLIDE ? shapeSlides[shapeSlides.push([]) - 1]! : type === NOTES ? shapeNotes[shapeNotes.push([]) - 1]! : slide;
          walk(bodyStart, bodyEnd, depth + 1, inner, inMaster || type === MAIN_MASTER, innerSlide);
        }
      } else if (list && type === SLIDE_PERSIST_ATOM) {
        list.push([]);
      } else if (type === TEXT_CHARS_ATOM || type === TEXT_BYTES_ATOM) {
        const body = document.subarray(bodyStart, bodyEnd);
        const text = new TextDecoder(type === TEXT_CHARS_ATOM ? 'utf-16le' : 'latin1').decode(body).replace(/\r|\v/g, '\n');
        // "*" is the slide-number field's placeholder.
        if (text.trim() === '*') {
          // nothing
        } else if (list) {
          if (list.length === 0) list.push([]);
          list[list.length - 1]!.push(text);
        } else if (list === undefined && !inMaster && slide) slide.push(text);
      }
      at = bodyStart + length;
    }
  };
  try {
    walk(0, document.length, 0, undefined, false, null);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw new TextExtractionError('corrupt', `Not a readable PowerPoint 97–2003 file: ${(error as Error).message}`, { cause: error });
  }
  throwIfAborted(ctx.signal);
  const hasText = (texts: string[]) => texts.some((text) => text.trim() !== '');
  const slides = lists[0]!;
  if (slides.some(hasText)) {
    for (const [index, texts] of slides.entries()) ctx.out.append(texts.join('\n'), `slide ${index + 1}`);
  } else {
    for (const [index, texts] of shapeSlides.entries()) ctx.out.append(texts.join('\n'), `slide ${index + 1}`);
  }
  // Speaker notes: in the notes list, else in the notes pages' shapes (which slide each belongs to is not followed).
  const notes = lists[2]!.some(hasText) ? lists[2]! : shapeNotes;
  for (const texts of notes) if (hasText(texts)) ctx.out.append(texts.join('\n'), 'notes');
}

import { strFromU8, unzipSync } from 'fflate';
import mammoth from 'mammoth';
import readXlsxFile from 'read-excel-file/node';
import { abortable, type ExtractionContext, throwIfAborted } from './context.ts';
import { TextExtractionError } from './types.ts';
import { xmlToText, type XmlTextLayout } from './xml-text.ts';
import { officeZip } from './zip.ts';

/** WordprocessingML's text: w:t runs in paragraphs and table rows (a shape's VML fallback repeats its text: skipped). */
const WORD_LAYOUT: XmlTextLayout = {
  paragraphs: new Set(['w:p']),
  rows: new Set(['w:tr']),
  cells: new Set(['w:tc']),
  breaks: new Set(['w:br', 'w:cr']),
  tabs: new Set(['w:tab']),
  textIn: new Set(['w:t']),
  skip: new Set(['mc:Fallback']),
};

/** DOCX: the document's raw text (paragraphs, tables, headers' text) with mammoth. */
export async function extractDocx(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const bytes = await officeZip(file, ctx, 'DOCX file');
  let result;
  try {
    result = await abortable(mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }), ctx.signal);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw new TextExtractionError('corrupt', `Not a readable DOCX file: ${(error as Error).message}`, { cause: error });
  }
  ctx.out.append(result.value);
  // mammoth reads the body only: the headers' and footers' text (a company's name, a
  // "confidential" notice, a reference number) would be lost without a word. Each distinct one
  // once (a document's first-page, even-page and default headers often say the same).
  const parts = unzipSync(bytes, { filter: (entry) => /^word\/(header|footer)\d*\.xml$/.test(entry.name) });
  const seen = new Set<string>();
  for (const name of Object.keys(parts).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    throwIfAborted(ctx.signal);
    const text = xmlToText(strFromU8(parts[name]!), WORD_LAYOUT).trim();
    if (text === '' || seen.has(text)) continue;
    seen.add(text);
    ctx.out.append(text, name.startsWith('word/header') ? 'header' : 'footer', '\n\n');
  }
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    // Dates without a time of day read as dates.
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  return String(value).trim();
}

/** XLSX: each sheet's non-empty rows, cells joined with " | ", labelled "<sheet> row <n>". */
export async function extractXlsx(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const bytes = await officeZip(file, ctx, 'XLSX file');
  let sheets;
  try {
    // Numbers as written in the file (no float reformatting): the text is for reading, not arithmetic.
    sheets = await abortable(readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { parseNumber: (text: string) => text }), ctx.signal);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw new TextExtractionError('corrupt', `Not a readable XLSX file: ${(error as Error).message}`, { cause: error });
  }
  for (const { sheet, data } of sheets) {
    throwIfAborted(ctx.signal);
    let firstRow = true;
    for (const [index, row] of data.entries()) {
      if (ctx.out.full) {
        ctx.out.overflowed = true;
        return;
      }
      const cells = row.map(cellText).filter((cell) => cell !== '');
      if (cells.length === 0) continue;
      ctx.out.append(cells.join(' | '), `${sheet} row ${index + 1}`, firstRow ? '\n\n' : '\n');
      firstRow = false;
    }
  }
}

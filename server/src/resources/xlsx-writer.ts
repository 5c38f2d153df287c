/**
 * A streaming .xlsx writer: one worksheet, a bold header row, cells written
 * as inline strings so no shared-string table is ever held, and the zip
 * produced part by part. Rows go in batches and each batch waits until the
 * reader has taken the previous output, so memory stays flat however many
 * rows are written.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { strToU8, Zip, ZipDeflate } from 'fflate';

export type CellValue = string | number | boolean | Date | null | undefined;

export interface XlsxColumn {
  header: string;
  /** Column width in characters. */
  width?: number;
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const STYLE_HEADER = 1;
const STYLE_DATE = 2;
/** Excel refuses longer cell text. */
const MAX_CELL_LENGTH = 32_767;
/** Output is handed to the zip in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;
const MS_PER_DAY = 86_400_000;
/** Days from Excel's 1900 epoch (with its leap-year bug) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

// Characters XML 1.0 forbids (control characters, lone surrogates, U+FFFE/U+FFFF).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe inside an XML element or attribute. */
export function xmlText(value: string): string {
  return value
    .replace(ILLEGAL_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A1-style column letters for a zero-based index (0 → A, 26 → AA). */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** Sheet names: at most 31 characters, none of []:*?/\ . */
function sheetName(name: string): string {
  const cleaned = name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31).trim();
  return cleaned || 'Sheet1';
}

function cellXml(ref: string, value: CellValue, style?: number): string {
  if (value === null || value === undefined || value === '') return '';
  const s = style ? ` s="${style}"` : '';
  if (typeof value === 'boolean') return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${s}><v>${value}</v></c>`;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const serial = value.getTime() / MS_PER_DAY + EXCEL_EPOCH_OFFSET;
    // Excel has no dates before 1900-03-01 (its serial 61), so older ones stay text.
    if (serial >= 61) return `<c r="${ref}" s="${STYLE_DATE}"><v>${serial}</v></c>`;
  }
  let text = (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)).replace(ILLEGAL_XML, '');
  if (text.length > MAX_CELL_LENGTH) text = text.slice(0, MAX_CELL_LENGTH);
  if (text === '') return '';
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

const STATIC_PARTS = (name: string): Record<string, string> => ({
  '[Content_Types].xml':
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    '</Types>',
  '_rels/.rels':
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
    '</Relationships>',
  'xl/workbook.xml':
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<sheets><sheet name="${xmlText(sheetName(name))}" sheetId="1" r:id="rId1"/></sheets>` +
    '</workbook>',
  'xl/_rels/workbook.xml.rels':
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    '</Relationships>',
  'xl/styles.xml':
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>' +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="3">' +
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '</cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>',
});

/**
 * Writes one worksheet to `stream` (a Readable to send or pipe). Call
 * `addRows` as often as needed, awaiting each call, then `finish`.
 */
export class XlsxStreamWriter {
  /** The .xlsx bytes, ready to be piped to a response or a file. */
  readonly stream = new PassThrough();
  private readonly zip: Zip;
  private readonly sheet: ZipDeflate;
  private readonly width: number;
  private rowCount = 0;
  private pending = '';
  private backedUp = false;

  constructor(options: { sheetName: string; columns: XlsxColumn[] }) {
    this.width = options.columns.length;
    this.zip = new Zip((error, chunk) => {
      if (error) {
        this.stream.destroy(error);
        return;
      }
      if (!this.stream.destroyed && !this.stream.write(chunk)) this.backedUp = true;
    });
    for (const [path, content] of Object.entries(STATIC_PARTS(options.sheetName))) {
      const part = new ZipDeflate(path, { level: 6 });
      this.zip.add(part);
      part.push(strToU8(content), true);
    }
    this.sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
    this.zip.add(this.sheet);

    const cols = options.columns
      .map((column, index) => `<col min="${index + 1}" max="${index + 1}" width="${column.width ?? 16}" customWidth="1"/>`)
      .join('');
    this.pending =
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      '<sheetFormatPr defaultRowHeight="15"/>' +
      (cols ? `<cols>${cols}</cols>` : '') +
      '<sheetData>';
    this.appendRow(options.columns.map((column) => column.header), STYLE_HEADER);
  }

  /** Adds rows (one value per column); resolves once the reader has caught up. */
  async addRows(rows: CellValue[][]): Promise<void> {
    for (const row of rows) {
      this.appendRow(row);
      if (this.pending.length >= CHUNK_CHARS) await this.flush();
    }
    await this.flush();
  }

  /** Closes the worksheet and the zip; resolves when every byte has been handed to the reader. */
  async finish(): Promise<void> {
    this.pending += '</sheetData></worksheet>';
    this.push(true);
    this.zip.end();
    this.stream.end();
    if (!this.stream.writableFinished) await once(this.stream, 'finish');
  }

  /** Stops with an error: a reader sees the stream fail instead of a truncated file that looks complete. */
  abort(error: Error): void {
    this.zip.terminate();
    this.stream.destroy(error);
  }

  private appendRow(values: CellValue[], style?: number): void {
    this.rowCount += 1;
    const r = this.rowCount;
    let cells = '';
    for (let index = 0; index < this.width; index++) {
      cells += cellXml(`${columnLetters(index)}${r}`, values[index], style);
    }
    this.pending += `<row r="${r}">${cells}</row>`;
  }

  private push(final = false): void {
    if (this.stream.destroyed) throw new Error('The spreadsheet stream was closed before it was complete.');
    const text = this.pending;
    this.pending = '';
    this.sheet.push(strToU8(text), final);
  }

  private async flush(): Promise<void> {
    if (this.pending === '') return;
    this.push();
    if (!this.backedUp) return;
    this.backedUp = false;
    await drained(this.stream);
  }
}

/** Resolves on 'drain'; rejects when the stream is closed or fails first (e.g. the client went away). */
export function drained(stream: PassThrough): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error('The spreadsheet stream was closed before it was complete.'));
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(new Error('The spreadsheet stream was closed before it was complete.'));
    };
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}

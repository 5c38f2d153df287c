/**
 * A streaming CSV writer with the XlsxStreamWriter's interface (addRows,
 * finish, abort, stream): RFC 4180 quoting, CRLF line ends and a UTF-8 byte
 * order mark so spreadsheet programs read accents right. Text that a
 * spreadsheet would run as a formula (starting with =, +, - or @) is prefixed
 * with an apostrophe.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { drained, type CellValue } from './xlsx-writer.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CellValue): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (value instanceof Date) text = Number.isNaN(value.getTime()) ? '' : value.toISOString();
  else if (typeof value === 'boolean') text = value ? 'TRUE' : 'FALSE';
  else if (typeof value === 'number') text = String(value);
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export class CsvStreamWriter {
  readonly stream = new PassThrough();

  constructor(headers: string[]) {
    this.stream.write(`\uFEFF${headers.map(csvCell).join(',')}\r\n`);
  }

  async addRows(rows: CellValue[][]): Promise<void> {
    if (this.stream.destroyed) throw new Error('The CSV stream was closed before it was complete.');
    const text = rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
    if (text && !this.stream.write(text)) await drained(this.stream);
  }

  async finish(): Promise<void> {
    this.stream.end();
    if (!this.stream.writableFinished) await once(this.stream, 'finish');
  }

  abort(error: Error): void {
    this.stream.destroy(error);
  }
}

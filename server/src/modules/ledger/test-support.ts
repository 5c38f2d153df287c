/** Spreadsheet helpers for the ledger and investments API tests. */
import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { XlsxStreamWriter, type CellValue } from '../../resources/xlsx-writer.ts';

/** An .xlsx whose first row is the header. */
export async function xlsx(rows: CellValue[][]): Promise<Buffer> {
  const [header = [], ...data] = rows;
  const writer = new XlsxStreamWriter({ sheetName: 'Sheet 1', columns: header.map((cell) => ({ header: String(cell ?? '') })) });
  const bytes = buffer(writer.stream);
  await writer.addRows(data);
  await writer.finish();
  return bytes;
}

/** A multipart body with one file in the field "file", as app.inject options. */
export function multipart(filename: string, content: Buffer) {
  const boundary = `----ledger${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

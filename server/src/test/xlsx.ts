/** Real .xlsx files for tests, written by the app's own streaming writer (resources/xlsx-writer.ts). */
import { buffer } from 'node:stream/consumers';
import { XlsxStreamWriter, type CellValue } from '../resources/xlsx-writer.ts';

/** An .xlsx of `rows`; the first row is the header. */
export async function xlsx(rows: CellValue[][]): Promise<Buffer> {
  const [header = [], ...data] = rows;
  const writer = new XlsxStreamWriter({ sheetName: 'Sheet 1', columns: header.map((cell) => ({ header: String(cell ?? '') })) });
  const bytes = buffer(writer.stream);
  await writer.addRows(data);
  await writer.finish();
  return bytes;
}

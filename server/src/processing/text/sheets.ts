import * as XLSX from '@e965/xlsx';
import * as cptable from '@e965/xlsx/dist/cpexcel.full';
import { type ExtractionContext, throwIfAborted, yieldToEventLoop } from './context.ts';
import { TextExtractionError } from './types.ts';

// Old workbooks are written in their code page (Cyrillic, CJK…): SheetJS decodes them with these tables.
XLSX.set_cptable(cptable);

type DenseSheet = XLSX.WorkSheet & { '!data'?: Array<Array<XLSX.CellObject | undefined> | undefined> };

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.t === 'z' || cell.t === 'e') return '';
  // The text as the spreadsheet shows it (its number format), else the value.
  const shown = cell.w ?? (cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v ?? ''));
  return shown.trim();
}

/**
 * A workbook SheetJS reads (XLS — BIFF2 to BIFF8 — and ODS): each sheet's non-empty rows, cells
 * joined with " | ", labelled "<sheet> row <n>", like XLSX. Read densely and walked over the cells
 * that exist — never over the range a sheet declares, which a hostile file can make a billion cells wide.
 */
export async function extractSpreadsheet(bytes: Uint8Array, ctx: ExtractionContext, what: string): Promise<void> {
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false, cellStyles: false, bookVBA: false, sheetStubs: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/password|encrypt/i.test(message)) throw new TextExtractionError('encrypted', `The ${what} is encrypted with a password`, { cause: error });
    throw new TextExtractionError('corrupt', `Not a readable ${what}: ${message}`, { cause: error });
  }
  let cellsRead = 0;
  for (const name of workbook.SheetNames) {
    throwIfAborted(ctx.signal);
    const rows = (workbook.Sheets[name] as DenseSheet | undefined)?.['!data'];
    if (!rows) continue;
    let firstRow = true;
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index];
      if (!row) continue;
      if (ctx.out.full) {
        ctx.out.overflowed = true;
        return;
      }
      const cells: string[] = [];
      // forEach skips the holes of a sparse row.
      row.forEach((cell) => {
        const text = cellText(cell);
        if (text !== '') cells.push(text);
      });
      if ((cellsRead += row.length) > 100_000) {
        cellsRead = 0;
        throwIfAborted(ctx.signal);
        await yieldToEventLoop();
      }
      if (cells.length === 0) continue;
      ctx.out.append(cells.join(' | '), `${name} row ${index + 1}`, firstRow ? '\n\n' : '\n');
      firstRow = false;
    }
  }
}

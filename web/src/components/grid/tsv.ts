/** The names in a pasted relation cell: separated by commas, semicolons or new lines. */
export function pastedNames(text: string): string[] {
  return text.split(/[,;\n]/).map((name) => name.trim()).filter(Boolean);
}

/**
 * A block of cells copied from a spreadsheet (tab-separated rows, as Excel, LibreOffice and
 * Google Sheets put on the clipboard): a quoted cell may hold tabs, new lines and doubled quotes.
 * The trailing line break spreadsheets add does not make an empty last row.
 */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let index = 0;
  const source = text.replace(/\r\n?/g, '\n');
  let atCellStart = true;
  while (index < source.length) {
    const char = source[index]!;
    if (atCellStart && char === '"') {
      // A quoted cell: up to the closing quote ("" is one quote).
      let end = index + 1;
      let quoted = '';
      while (end < source.length) {
        if (source[end] === '"') {
          if (source[end + 1] === '"') {
            quoted += '"';
            end += 2;
            continue;
          }
          break;
        }
        quoted += source[end];
        end += 1;
      }
      const next = source[end + 1];
      if (end < source.length && (next === undefined || next === '\t' || next === '\n')) {
        cell = quoted;
        index = end + 1;
        atCellStart = false;
        continue;
      }
    }
    atCellStart = false;
    if (char === '\t') {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
    } else cell += char;
    index += 1;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

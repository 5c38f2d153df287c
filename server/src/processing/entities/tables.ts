/**
 * Tables: a column whose header names a role types its cells — people under "CEO", "Founder",
 * "Director"; organizations under "Company", "Employer", "Investor" — where prose cues are
 * absent (a cell is a bare name). A person's row gives their role and organization.
 *
 * Tables are read from the text as the readers write them (processing/text): CSV, TSV and XLSX
 * rows and HTML table rows are one line each, cells joined by " | ". A table is two or more
 * such lines with nothing but blank lines between them; its first is the header. The readers leave empty cells out, so a row
 * with fewer cells than the header cannot be aligned with it and is skipped (a row with more is
 * a cell holding " |" itself: skipped too) — docs/processing.md "Tables".
 */

export type TableType = 'PER' | 'ORG';

export interface TableName {
  type: TableType;
  /** UTF-16 offsets of the name in the text (one cell, or one name of a list in it). */
  start: number;
  end: number;
  /** PER: the column's header as written ("CEO") and the row's organization, when the table has one. */
  role?: { title: string; organization?: { start: number; end: number } };
}

const SEPARATOR = ' | ';
/** Header words naming people (the last such word of a header decides: "Company CEO" is people). */
const PERSON_HEADERS = new Set([
  'ceo', 'cfo', 'coo', 'cto', 'cio', 'cmo', 'chief', 'executive', 'executives', 'founder', 'founders', 'co-founder', 'cofounder', 'co-founders',
  'director', 'directors', 'chair', 'chairman', 'chairwoman', 'chairperson', 'president', 'owner', 'owners', 'manager', 'managers', 'officer',
  'officers', 'person', 'people', 'contact', 'employee', 'employees', 'principal', 'trustee', 'trustees', 'secretary', 'treasurer', 'head',
  'leader', 'spokesperson', 'author', 'authors', 'signatory', 'attendee', 'attendees', 'member', 'members', 'shareholder', 'partner',
]);
/** Header words naming organizations. */
const ORGANIZATION_HEADERS = new Set([
  'company', 'companies', 'organization', 'organisation', 'organizations', 'organisations', 'org', 'employer', 'employers', 'firm', 'firms',
  'investor', 'investors', 'acquirer', 'buyer', 'seller', 'fund', 'funds', 'bank', 'banks', 'client', 'clients', 'customer',
  'customers', 'supplier', 'suppliers', 'vendor', 'vendors', 'startup', 'start-up', 'startups', 'issuer', 'agency', 'institution', 'university',
  'sponsor', 'sponsors', 'publisher', 'lender', 'lenders', 'insurer', 'manufacturer', 'competitor', 'competitors', 'portfolio',
  'affiliation', 'counterparty',
]);
/** Words that never decide a header's type ("CEO name", "Company name", "Lead investor"). */
const HEADER_FILLER = new Set(['name', 'names', 'full', 'lead', 'current', 'former', 'of', 'the', 'and', '&', 'key', 'main', 'primary', 's']);
/** Cell values that are no name. */
const NO_NAME = /^(?:n\/?a|none|null|nil|tbd|tba|unknown|vacant|various|other|others|yes|no|true|false|[-–—?*.]+)$/i;
/** A cell worth reading as a name: letters, at most seven words, not a number, address or link. */
const NAME_LIKE = /^(?=.*\p{L})(?!.*[@]|.*:\/\/|www\.)[^\d]*\d{0,4}[^\d]*$/u;

const headerWords = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}&\s-]/gu, ' ').split(/\s+/).filter((word) => word !== '' && !HEADER_FILLER.has(word));

/** The header's type: the last word that names one ("Company CEO" → PER), else none. */
export function headerType(header: string): TableType | undefined {
  const words = headerWords(header);
  for (let index = words.length - 1; index >= 0; index--) {
    if (PERSON_HEADERS.has(words[index]!)) return 'PER';
    if (ORGANIZATION_HEADERS.has(words[index]!)) return 'ORG';
  }
  return undefined;
}

/** A line that is a header itself: a cell made only of role words ("CEO", "Lead investor"), not a name holding one ("Nordic Seed Fund"). */
function looksLikeHeader(line: Line): boolean {
  return line.cells.some((cell) => {
    const words = headerWords(cell.text);
    return words.length > 0 && words.every((word) => PERSON_HEADERS.has(word) || ORGANIZATION_HEADERS.has(word));
  });
}

interface Line {
  start: number;
  cells: Array<{ start: number; end: number; text: string }>;
}

/** The cells of a line of text, with offsets; lines without " | " have one cell. */
function cellsOf(text: string, start: number, end: number): Line {
  const cells: Line['cells'] = [];
  let at = start;
  while (at <= end) {
    const next = text.indexOf(SEPARATOR, at);
    const cellEnd = next === -1 || next >= end ? end : next;
    let first = at;
    let last = cellEnd;
    while (first < last && /\s/.test(text[first]!)) first++;
    while (last > first && /\s/.test(text[last - 1]!)) last--;
    cells.push({ start: first, end: last, text: text.slice(first, last) });
    if (cellEnd === end) break;
    at = cellEnd + SEPARATOR.length;
  }
  return { start, cells };
}

/** Every name a role column of a table in the text gives. Linear in the text. */
export function findTableNames(text: string): TableName[] {
  const names: TableName[] = [];
  let block: Line[] = [];
  const flush = () => {
    if (block.length >= 2) names.push(...namesOfTable(block));
    block = [];
  };
  // HTML rows are written a blank line apart, XLSX sheets a blank line apart: after a blank
  // line, a row continues the table unless its cells differ in number or it is a header itself.
  let afterBlank = false;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    if (line.includes(SEPARATOR)) {
      const row = cellsOf(text, start, end);
      if (afterBlank && block.length > 0 && (row.cells.length !== block[0]!.cells.length || looksLikeHeader(row))) flush();
      block.push(row);
      afterBlank = false;
    } else if (line.trim() === '') afterBlank = true;
    else flush();
    if (newline === -1) break;
    start = newline + 1;
  }
  flush();
  return names;
}

function namesOfTable(lines: Line[]): TableName[] {
  const [header, ...rows] = lines as [Line, ...Line[]];
  const types = header.cells.map((cell) => headerType(cell.text));
  if (!types.some(Boolean)) return [];
  const organizationColumn = types.indexOf('ORG');
  const names: TableName[] = [];
  for (const row of rows) {
    if (row.cells.length !== header.cells.length) continue;
    const organization = organizationColumn >= 0 ? namesIn(row.cells[organizationColumn]!, 'ORG')[0] : undefined;
    row.cells.forEach((cell, column) => {
      const type = types[column];
      if (!type) return;
      for (const name of namesIn(cell, type)) {
        names.push(type === 'PER' ? { ...name, type, role: { title: header.cells[column]!.text, ...(organization ? { organization } : {}) } } : { ...name, type });
      }
    });
  }
  return names;
}

/** The names of a cell: people's lists split at ";", "," "/" and " and "; an organization's only at ";" ("Johnson & Johnson", "Acme, Inc."). */
function namesIn(cell: { start: number; end: number; text: string }, type: TableType): Array<{ start: number; end: number }> {
  const splitter = type === 'PER' ? /\s*(?:;|,|\/|\band\b)\s*/gu : /\s*;\s*/gu;
  const names: Array<{ start: number; end: number }> = [];
  let at = 0;
  const take = (from: number, to: number) => {
    const part = cell.text.slice(from, to);
    const trimmed = part.trim();
    if (trimmed === '' || NO_NAME.test(trimmed) || !NAME_LIKE.test(trimmed) || trimmed.split(/\s+/).length > 7) return;
    const offset = cell.start + from + part.indexOf(trimmed);
    names.push({ start: offset, end: offset + trimmed.length });
  };
  for (const match of cell.text.matchAll(splitter)) {
    take(at, match.index);
    at = match.index + match[0].length;
  }
  take(at, cell.text.length);
  return names;
}

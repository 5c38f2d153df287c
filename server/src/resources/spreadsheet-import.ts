/**
 * Rows of an .xlsx or .csv file become records: the upload route receives and
 * checks the file (saveSpreadsheet), the import job of import-job.ts reads it
 * (readImportSheet, sheetRows) and writes it in batches (importRows).
 *
 * The file is streamed to a temporary file (never held whole in memory) and
 * checked by extension and content, then read and checked as a sheet, before
 * any transaction is opened. Row 1 is the header; columns are
 * matched to fields by name or alias. Every row goes through the same
 * validation as the API (service.parseInput); a row that names a record
 * already there (shared name key, email or web address, or its id) updates
 * that record with its non-empty cells instead of creating a duplicate.
 *
 * All or nothing by default (staged batches, published only when no row
 * failed; the report still reaches the client: ImportFailedError). With
 * ?partial=true each row is written in its own savepoint and the good rows
 * are kept.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse as parseCsv } from 'csv-parse';
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import type { ImportReport } from '../contracts.ts';
import type { Tx } from '../db/client.ts';
import { ApiError } from './errors.ts';
import { NUL_MESSAGE, nulField } from './nul.ts';
import { responsibleUser, type EngineContext } from './context.ts';
import type { FieldType } from './fields.ts';
import { findDuplicates, findRecords, selectOne, type MatchScope, type Row } from './repository.ts';
import type { Resource } from './resource.ts';
import { isUuid, type ResourceService } from './service.ts';
import { touchStaged } from './staging.ts';
import { normalizeUrlForMatch } from './values.ts';
import { visibleTo } from './visibility.ts';

export const MAX_IMPORT_ROWS = 100_000;
/** Row errors listed in a report; `failed` still counts every failed row. */
const MAX_REPORTED_ERRORS = 1_000;
/** Row messages repeated in the error's `errors.file`. */
const MAX_SUMMARY_MESSAGES = 20;
const SNIFF_BYTES = 64 * 1024;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

type RowError = ImportReport['errors'][number];

/** An all-or-nothing import that failed: a 400 whose body also carries the report. */
export class ImportFailedError extends ApiError {
  constructor(readonly report: ImportReport) {
    const rows = report.failed === 1 ? '1 row has errors' : `${report.failed} rows have errors`;
    super(400, 'import_failed', `${rows}; nothing was imported.`, {
      file: report.errors.slice(0, MAX_SUMMARY_MESSAGES).map(describeError),
    });
  }

  override toBody() {
    return Object.assign(super.toBody(), { report: this.report });
  }
}

const describeError = (error: RowError) => `Row ${error.row}${error.field ? `, ${error.field}` : ''}: ${error.message}`;

export const fileError = (status: number, message: string) =>
  new ApiError(status, status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid', `file: ${message}`, {
    file: [message],
  });

/** A temporary folder for an import's file, removed once `fn` is done. */
export async function withImportFolder<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-import-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sheet checked for import: its columns matched to the resource's fields. */
export interface ImportSheet {
  sheet: Sheet;
  columns: Column[];
  unmatched: string[];
}

/** Reads the file's header and counts its rows: an empty, unmatched or oversized sheet is refused before anything is written. */
export async function readImportSheet(service: ResourceService, upload: Upload): Promise<ImportSheet> {
  const sheet = await openSheet(upload);
  if (!sheet.header) throw fileError(400, 'The file is empty.');
  const header = matchHeader(service.resource, sheet.header);
  if (header.columns.length === 0) {
    throw fileError(400, `No column matches a field. Name the columns after the fields: ${importableFields(service.resource).join(', ')}.`);
  }
  if (sheet.dataRows === 0) throw fileError(400, 'The file has no data rows below the header row.');
  if (sheet.dataRows > MAX_IMPORT_ROWS) {
    throw fileError(400, `The file has ${sheet.dataRows.toLocaleString('en')} rows; at most ${MAX_IMPORT_ROWS.toLocaleString('en')} can be imported at once.`);
  }
  return { sheet, ...header };
}

export interface ImportOptions {
  /** Keep the good rows (each row in its own savepoint) instead of all or nothing. */
  partial: boolean;
  /**
   * All or nothing in staged transactions (an import job, staging.ts): the transaction is one
   * of this stage. Each row is written in a savepoint (a failed one leaves the transaction
   * usable, so the batch still ends by parking the stage), a record that existed before the
   * import is touched before it is edited, and matching sees the stage's versions of records.
   */
  stage?: string;
}

/** A row of the sheet with something to import, and its spreadsheet row number (the header is row 1). */
export interface SheetRow {
  row: number;
  input: RowInput;
}

/** The sheet's rows that hold a value for a matched column, in order (empty rows are skipped, their numbers kept). */
export async function* sheetRows(resource: Resource, input: ImportSheet): AsyncGenerator<SheetRow> {
  let row = 1;
  for await (const cells of input.sheet.dataRecords()) {
    row += 1;
    const values = rowInput(resource, input.columns, cells);
    if (values) yield { row, input: values };
  }
}

/**
 * What an import has done so far. A job importing in batches keeps it with each committed
 * batch, so a retry carries on from there (import-job.ts); rows are never split across
 * batches, so the counts of batches add up.
 */
export interface ImportTally {
  created: number;
  updated: number;
  failed: number;
  errors: RowError[];
  /** All or nothing: a write failed, so later rows are only validated (as in one transaction, which that failure aborts). */
  stopped?: boolean;
}

export const emptyTally = (): ImportTally => ({ created: 0, updated: 0, failed: 0, errors: [] });

/**
 * Writes `rows` in the context's transaction, adding to `from`. All or nothing unless
 * `partial`: then the caller rolls the transaction back when the tally has failures.
 */
export async function importRows(
  ctx: EngineContext,
  service: ResourceService,
  rows: Iterable<SheetRow> | AsyncIterable<SheetRow>,
  options: ImportOptions & { afterRow?: (row: number) => Promise<void> },
  from: ImportTally = emptyTally(),
): Promise<ImportTally> {
  const importer = new RowImporter(ctx, service, options, from);
  for await (const { row, input } of rows) {
    await importer.importRow(row, input);
    await options.afterRow?.(row);
  }
  return importer.tally();
}

/** The report of a finished import: nothing counts as written when an all-or-nothing import had failures. */
export function importReport(tally: ImportTally, partial: boolean, unmatched: string[]): ImportReport {
  const rolledBack = !partial && tally.failed > 0;
  return {
    created: rolledBack ? 0 : tally.created,
    updated: rolledBack ? 0 : tally.updated,
    failed: tally.failed,
    rolled_back: rolledBack,
    errors: tally.errors,
    unmatched_columns: unmatched,
  };
}

// ---------------------------------------------------------------------------
// Upload: stream to a temporary file, checking size and content on the way

export interface Upload {
  file: string;
  kind: 'xlsx' | 'csv';
  head: Buffer;
}

/** Passes bytes through while noting the size, the first bytes and whether it is UTF-8 text. */
class UploadInspector extends Transform {
  size = 0;
  head = Buffer.alloc(0);
  utf8 = true;
  nul = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.head.length < SNIFF_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES - this.head.length)]);
    if (!this.nul && chunk.includes(0)) this.nul = true;
    if (this.utf8) {
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.utf8 = false;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.utf8) {
      try {
        this.decoder.decode();
      } catch {
        this.utf8 = false;
      }
    }
    callback();
  }
}

/** A file arriving as a stream (an upload's part, or a stored file), with the name it was given. */
export interface IncomingFile {
  stream: Readable & { truncated?: boolean };
  filename: string | null;
}

/** An upload that failed as it was read: too large (413), or cut off or malformed (400). */
export function uploadError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 413) return fileError(413, 'The file is larger than the upload limit.');
  return fileError(400, 'The upload could not be read: send the file as multipart/form-data in a field named "file".');
}

/** Saves the file into `dir`, checking its type by extension and content (415 for anything but .xlsx and UTF-8 .csv). */
export async function saveSpreadsheet(incoming: IncomingFile, dir: string): Promise<Upload> {
  const extension = path.extname(incoming.filename ?? '').toLowerCase();
  if (extension === '.xls') {
    incoming.stream.resume();
    throw fileError(415, 'Old-style .xls workbooks are not supported: save the sheet as .xlsx or .csv and upload that.');
  }
  if (extension !== '' && extension !== '.xlsx' && extension !== '.csv') {
    incoming.stream.resume();
    throw fileError(415, `Files of type "${extension}" are not supported: upload an .xlsx or .csv file.`);
  }

  const file = path.join(dir, 'upload');
  const inspector = new UploadInspector();
  try {
    await pipeline(incoming.stream, inspector, createWriteStream(file));
  } catch (error) {
    throw uploadError(error);
  }
  if (incoming.stream.truncated) {
    throw fileError(413, `The file is larger than the upload limit of ${formatBytes(inspector.size)}.`);
  }
  if (inspector.size === 0) throw fileError(400, 'The file is empty.');

  const head = inspector.head;
  const isZip = head.subarray(0, 4).equals(ZIP_MAGIC);
  const isText = inspector.utf8 && !inspector.nul;
  if (extension === '.xlsx' || (extension === '' && isZip)) {
    if (isZip) return { file, kind: 'xlsx', head };
    if (head.subarray(0, 4).equals(OLE_MAGIC)) {
      throw fileError(415, 'This is an old-style .xls workbook renamed to .xlsx: save it as .xlsx or .csv and upload that.');
    }
    throw fileError(415, 'This file is not an .xlsx workbook.');
  }
  if (isZip) throw fileError(415, 'This file is a workbook or archive, not CSV text: upload it as .xlsx or export it as CSV.');
  if (!isText) throw fileError(415, 'CSV files must be UTF-8 text: save the sheet as "CSV UTF-8" and upload it again.');
  return { file, kind: 'csv', head };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

// ---------------------------------------------------------------------------
// Reading rows (each row an array of cells; row 1 is the header)

export interface Sheet {
  /** Row 1, or null when the file has no rows at all. */
  header: unknown[] | null;
  /** Rows below the header with at least one non-empty cell. */
  dataRows: number;
  /** The rows below the header, in order (empty ones included, so row numbers hold). */
  dataRecords(): AsyncIterable<unknown[]>;
}

const isEmptyRecord = (cells: unknown[]) => cells.every((cell) => cell === null || cell === undefined || String(cell).trim() === '');

/**
 * Reads the header and counts the rows before anything is written, so an
 * oversized or empty file is refused up front. An .xlsx is read whole by the
 * reader anyway; a CSV is streamed, once to count and once to import.
 */
async function openSheet(upload: Upload): Promise<Sheet> {
  if (upload.kind === 'xlsx') {
    let rows: unknown[][];
    try {
      // Numbers stay as written (phone numbers, zip codes); dates come back as Date objects.
      rows = await readSheet(upload.file, { parseNumber: (text: string) => text });
    } catch (error) {
      const reason = error instanceof Error && error.message ? ` (${error.message})` : '';
      throw fileError(400, `The .xlsx file could not be read${reason}.`);
    }
    const data = rows.slice(1);
    return {
      header: rows[0] ?? null,
      dataRows: data.filter((cells) => !isEmptyRecord(cells)).length,
      dataRecords: async function* () {
        yield* data;
      },
    };
  }
  let header: unknown[] | null = null;
  let dataRows = 0;
  for await (const cells of csvRecords(upload)) {
    if (header === null) header = cells;
    else if (!isEmptyRecord(cells)) dataRows += 1;
  }
  return {
    header,
    dataRows,
    dataRecords: async function* () {
      let first = true;
      for await (const cells of csvRecords(upload)) {
        if (!first) yield cells;
        first = false;
      }
    },
  };
}

async function* csvRecords(upload: Upload): AsyncGenerator<string[]> {
  const parser = createReadStream(upload.file).pipe(
    parseCsv({ bom: true, delimiter: detectDelimiter(upload.head), relax_column_count: true, skip_empty_lines: false }),
  );
  try {
    for await (const record of parser) yield record as string[];
  } catch (error) {
    if (error instanceof CsvError) throw fileError(400, `The CSV file could not be read: ${error.message}`);
    throw error;
  }
}

/** Comma, semicolon or tab: whichever the header line uses most (spreadsheets in many locales save with ";"). */
function detectDelimiter(head: Buffer): string {
  const counts = new Map<string, number>([[',', 0], [';', 0], ['\t', 0]]);
  let quoted = false;
  for (const char of head.toString('utf8')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}

// ---------------------------------------------------------------------------
// Header: columns → fields

export interface Column {
  index: number;
  /** A field name, or 'id' for the record id column. */
  field: string;
}

/** Header text compared without case, spacing or punctuation ("E-mail" = "email", "Name_Inc" = "name inc"). */
const headerKey = (text: string) => text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export function importableFields(resource: Resource): string[] {
  return Object.entries(resource.fields).filter(([, field]) => field.kind !== 'object').map(([name]) => name);
}

function matchHeader(resource: Resource, cells: unknown[]): { columns: Column[]; unmatched: string[] } {
  const byKey = new Map<string, string>();
  for (const [alias, field] of Object.entries(resource.headerAliases ?? {})) {
    if (importableFields(resource).includes(field)) byKey.set(headerKey(alias), field);
  }
  for (const name of importableFields(resource)) byKey.set(headerKey(name), name);
  byKey.set('id', 'id');

  const columns: Column[] = [];
  const unmatched: string[] = [];
  cells.forEach((cell, index) => {
    const text = headerText(cell);
    if (text === '') return;
    const field = byKey.get(headerKey(text));
    const taken = columns.some((column) => column.field === field);
    // Several columns may feed a list field ("Email", "E-mail"); a single-valued field takes the first.
    if (field && (!taken || resource.fields[field]?.multiple)) columns.push({ index, field });
    else unmatched.push(text);
  });
  return { columns, unmatched };
}

function headerText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return isoDate(cell);
  return String(cell).trim();
}

// ---------------------------------------------------------------------------
// Cells → API input

export interface RowInput {
  values: Record<string, unknown>;
  id: string | null;
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** Splits a list cell on ";" and line breaks, and on commas for contact values (a phone's ", ext 12" stays). */
function splitList(field: FieldType, text: string): string[] {
  const separator =
    field.kind === 'emails' || field.kind === 'urls'
      ? /[;\r\n,]+/
      : field.kind === 'phones'
        ? /[;\r\n]+|,(?!\s*(?:extension|ext\.?|x|#)\s*:?\s*\d)/i
        : /[;\r\n]+/;
  return text.split(separator).map((item) => item.trim()).filter((item) => item !== '');
}

/** A cell as the API would receive it, or undefined when the cell is empty. */
function cellValue(field: FieldType, cell: unknown): unknown {
  if (cell === null || cell === undefined) return undefined;
  let text: string;
  if (typeof cell === 'boolean') {
    if (field.kind === 'boolean') return cell;
    text = cell ? 'TRUE' : 'FALSE';
  } else if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return undefined;
    text = isoDate(cell);
  } else {
    text = String(cell).trim();
  }
  if (text === '') return undefined;
  if (field.multiple) {
    const items = splitList(field, text);
    return items.length > 0 ? items : undefined;
  }
  return text;
}

function rowInput(resource: Resource, columns: Column[], cells: unknown[]): RowInput | null {
  const values: Record<string, unknown> = {};
  let id: string | null = null;
  for (const column of columns) {
    if (column.field === 'id') {
      const text = headerText(cells[column.index]);
      if (isUuid(text)) id = text.toLowerCase();
      continue;
    }
    const field = resource.fields[column.field]!;
    const value = cellValue(field, cells[column.index]);
    if (value === undefined) continue;
    const earlier = values[column.field];
    values[column.field] = Array.isArray(earlier) && Array.isArray(value) ? [...earlier, ...value] : value;
  }
  return Object.keys(values).length > 0 ? { values, id } : null;
}

// ---------------------------------------------------------------------------
// Rows → records

class RowMatchError extends Error {}

interface MatchKeys {
  names: string[];
  emails: string[];
  urls: string[];
}

class RowImporter {
  private created: number;
  private updated: number;
  /** Rows that failed before this importer started (an earlier batch's). */
  private readonly failedBefore: number;
  private readonly failedRows = new Set<number>();
  private readonly errors: RowError[];
  /** A database error aborted the transaction (all-or-nothing mode): later rows are only validated. */
  private aborted = false;

  private readonly partial: boolean;
  private readonly stage: string | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly service: ResourceService,
    options: ImportOptions,
    from: ImportTally,
  ) {
    this.partial = options.partial;
    this.stage = options.stage;
    this.created = from.created;
    this.updated = from.updated;
    this.failedBefore = from.failed;
    this.errors = [...from.errors];
    this.aborted = from.stopped === true;
  }

  private get tx(): Tx {
    return this.ctx.tx;
  }

  private get access() {
    return this.ctx.actor.access;
  }

  private get resource(): Resource {
    return this.service.resource;
  }

  tally(): ImportTally {
    const tally: ImportTally = { created: this.created, updated: this.updated, failed: this.failedBefore + this.failedRows.size, errors: this.errors };
    return this.aborted ? { ...tally, stopped: true } : tally;
  }

  private fail(row: number, field: string | null, message: string): void {
    this.failedRows.add(row);
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ row, field, message });
  }

  /** Validation errors become row errors; anything else is not the row's fault and propagates. */
  private parse(row: number, body: Record<string, unknown>, current: Row | null) {
    try {
      return this.service.parseInput(body, current, this.access);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 400) throw error;
      const entries = Object.entries(error.errors ?? { non_field_errors: [error.detail] });
      for (const [field, messages] of entries) {
        for (const message of messages) this.fail(row, field === 'non_field_errors' ? null : field, message);
      }
      return null;
    }
  }

  async importRow(row: number, input: RowInput): Promise<void> {
    // As the edge does for JSON (http/nul-guard.ts): PostgreSQL cannot store a NUL.
    const nul = nulField(input.values);
    if (nul !== null) {
      this.fail(row, nul, NUL_MESSAGE);
      return;
    }
    if (this.aborted) {
      this.parse(row, input.values, null);
      return;
    }
    let current: Row | null;
    try {
      current = await this.findMatch(input);
    } catch (error) {
      if (!(error instanceof RowMatchError)) throw error;
      this.fail(row, null, error.message);
      return;
    }
    if (current && this.stage) {
      // The import's version of the record (an earlier transaction of the stage may have edited it).
      await touchStaged(this.tx, this.stage, this.resource.table, current.id);
      current = (await selectOne(this.tx, this.resource, visibleTo('admin'), current.id)) ?? current;
    }
    const resolved = await this.service.resolveRelationNames(this.tx, this.access, input.values);
    if (Object.keys(resolved.errors).length > 0) {
      for (const [field, messages] of Object.entries(resolved.errors)) for (const message of messages) this.fail(row, field, message);
      return;
    }
    const values = current ? mergeLists(this.resource, resolved.values, current) : { ...this.resource.importDefaults, ...resolved.values };
    const parsed = this.parse(row, values, current);
    if (!parsed) return;

    const write = (executor: Tx) => this.service.write({ ...this.ctx, tx: executor }, current, parsed);
    try {
      // A savepoint per row lets a failed write leave the rest of a partial import intact,
      // and a staged batch's transaction usable.
      if (this.partial || this.stage) await this.tx.transaction(write);
      else await write(this.tx);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 400) {
        for (const [field, messages] of Object.entries(error.errors ?? {})) for (const message of messages) this.fail(row, field, message);
        if (!this.partial) this.aborted = true;
        return;
      }
      this.fail(row, null, 'This row could not be saved.');
      if (!this.partial) this.aborted = true;
      return;
    }
    if (current) this.updated += 1;
    else this.created += 1;
  }

  /**
   * The record this row updates: the one named by its id column, else the
   * one sharing a name key, email or web address, among the records the
   * caller may see (what the API would let them edit) and those this import
   * wrote, so later rows of the file find what earlier rows created.
   */
  private async findMatch(input: RowInput): Promise<Row | null> {
    const scope: MatchScope = { visible: visibleTo(this.access), userId: responsibleUser(this.ctx.actor)?.id ?? null, stage: this.stage };
    if (input.id) {
      const [byId] = await findRecords(this.tx, this.resource, scope, sql`id = ${input.id}`);
      if (byId) return byId;
    }
    const keys = this.matchKeys(input.values);
    if (!keys) return null;
    const matches = await findDuplicates(this.tx, this.resource, scope, keys);
    if (matches.length > 1) {
      const names = matches.map((match) => `"${match['display_name'] ?? match.id}"`).join(', ');
      throw new RowMatchError(`Matches several existing records: ${names}. Keep one of them, or give the row's id.`);
    }
    return matches[0] ?? null;
  }

  private matchKeys(values: Record<string, unknown>): MatchKeys | null {
    const identity = this.resource.identity;
    if (!identity) return null;
    const keys: MatchKeys = { names: [], emails: [], urls: [] };

    const names = Object.fromEntries(identity.names.filter((name) => values[name] !== undefined).map((name) => [name, values[name]]));
    if (Object.keys(names).length > 0) {
      try {
        // The service computes name keys, so matching follows whatever normalization it applies.
        keys.names = ((this.service.parseInput(names, null).values['name_keys'] as string[] | undefined) ?? []).filter(Boolean);
      } catch {
        keys.names = [];
      }
    }
    if (identity.emails) {
      const emails = parsedList(this.resource, identity.emails, values[identity.emails]);
      // Stored addresses keep the local part's case; also try it lower-cased.
      keys.emails = [...new Set((emails?.[identity.emails] ?? []).flatMap((email) => [email, email.toLowerCase()]))];
    }
    if (identity.urls) {
      keys.urls = parsedList(this.resource, identity.urls, values[identity.urls])?.['url_keys'] ?? [];
    }
    return keys.names.length + keys.emails.length + keys.urls.length > 0 ? keys : null;
  }
}

/** A list field's parsed columns (e.g. associated_urls and url_keys), or null when absent or invalid. */
function parsedList(resource: Resource, name: string, value: unknown): Record<string, string[]> | null {
  const field = resource.fields[name];
  if (!field || value === undefined) return null;
  const parsed = field.parse(value, name);
  return parsed.ok ? (parsed.value as Record<string, string[]>) : null;
}

/** How list items are compared when merged into an existing record. */
function itemKey(field: FieldType): (value: string) => string {
  if (field.kind === 'urls') return normalizeUrlForMatch;
  if (field.kind === 'emails') return (value) => value.toLowerCase();
  return (value) => value;
}

/** On update, list cells add to the record's lists instead of replacing them. */
function mergeLists(resource: Resource, values: Record<string, unknown>, current: Row): Record<string, unknown> {
  const merged = { ...values };
  for (const [name, value] of Object.entries(values)) {
    const field = resource.fields[name];
    if (!field?.multiple || !Array.isArray(value)) continue;
    const incoming = parsedList(resource, name, value)?.[name];
    // Invalid items are left as sent, so validation reports them.
    if (!incoming) continue;
    const existing = (current[name] as string[] | null) ?? [];
    const key = itemKey(field);
    const seen = new Set(existing.map(key));
    merged[name] = [...existing, ...incoming.filter((item) => !seen.has(key(item)))];
  }
  return merged;
}

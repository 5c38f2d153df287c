/**
 * GET {resource}/?format=xlsx: every row the list would return (same filters,
 * search and ordering, the caller's visibility), as a streamed .xlsx — or .csv,
 * and only the rows a bulk export names (POST {resource}/bulk/). Rows are
 * read through a server-side cursor and written as the client takes them, so
 * memory stays flat whatever the table size.
 */
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import type { AccessLevel } from '../contracts.ts';
import type { EngineContext } from './context.ts';
import type { FieldType } from './fields.ts';
import type { ListQuery } from './list-query.ts';
import { orderClause, selectColumns, uuidArray, whereClause, type Row } from './repository.ts';
import type { Resource } from './resource.ts';
import type { ResourceService } from './service.ts';
import { mayReadField, visibleTo } from './visibility.ts';
import { CsvStreamWriter } from './csv-writer.ts';
import { XlsxStreamWriter, type CellValue, type XlsxColumn } from './xlsx-writer.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export type ExportFormat = 'xlsx' | 'csv';
const FETCH_SIZE = 500;

/** The exported columns: every declared field the reader may read but objects, in declaration order, then id and timestamps. */
export function exportColumns(resource: Resource, access: AccessLevel): string[] {
  const fields = Object.entries(resource.fields)
    .filter(([, field]) => field.kind !== 'object' && mayReadField(field, access))
    .map(([name]) => name);
  return [...fields, 'id', 'created_at', 'updated_at'];
}

function columnWidth(field: FieldType | undefined, name: string): number {
  if (!field) return name === 'id' ? 38 : 26;
  switch (field.kind) {
    case 'boolean':
    case 'choice':
    case 'visibility':
      return 12;
    case 'date':
    case 'incomplete_date':
      return 14;
    default:
      return field.multiline ? 50 : 28;
  }
}

/** A related record in a cell: its name, which an import resolves back. */
const refName = (value: unknown): string =>
  value !== null && typeof value === 'object' && 'id' in value
    ? String((value as { display_name?: unknown }).display_name ?? (value as { id: unknown }).id)
    : String(value);

/** An API value as a cell: lists (and related records, by name) joined with "; ", booleans as TRUE/FALSE, the rest as text or numbers. */
function cell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(refName).join('; ');
  if (typeof value === 'object' && 'id' in value) return refName(value);
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * A spreadsheet of rows, written as they are read: `stream` is the file to hand
 * out, `write` reads the rows in the caller's transaction (which stays open
 * while the stream is taken) and `abort` cuts the file short after a failure.
 */
export class SpreadsheetExport {
  readonly columns: string[];
  readonly contentType: string;
  private readonly writer: CsvStreamWriter | XlsxStreamWriter;

  constructor(
    readonly service: ResourceService,
    private readonly access: AccessLevel,
    private readonly listQuery: ListQuery,
    /** Only these rows (a bulk export of a selection), and the file type. */
    private readonly options: { ids?: string[]; format?: ExportFormat } = {},
  ) {
    const resource = service.resource;
    this.columns = exportColumns(resource, access);
    this.contentType = this.format === 'csv' ? CSV_CONTENT_TYPE : XLSX_CONTENT_TYPE;
    this.writer = this.format === 'csv'
      ? new CsvStreamWriter(this.columns)
      : new XlsxStreamWriter({
        sheetName: resource.kind,
        columns: this.columns.map((name): XlsxColumn => ({ header: name, width: columnWidth(resource.fields[name], name) })),
      });
  }

  get format(): ExportFormat {
    return this.options.format ?? 'xlsx';
  }

  get stream() {
    return this.writer.stream;
  }

  /** The file's name: the day, the tenant's code and the resource. */
  filename(tenantCode: string | undefined): string {
    return `${new Date().toISOString().slice(0, 10)}_${tenantCode ?? 'export'}_${this.service.resource.kind}.${this.format}`;
  }

  /** Reads and writes every row; `started` is called once the first rows are read (the file is committed to from then on). */
  async write({ tx }: EngineContext, started: () => void): Promise<void> {
    const resource = this.service.resource;
    const selected = this.options.ids ? sql` AND id = ANY(${uuidArray(this.options.ids)})` : sql``;
    const visible = visibleTo(this.access);
    // Every row the list shows: a search that found nothing as typed is read forgiving typos, as
    // the list reads it (a bulk export's ids were chosen so too).
    const listQuery = await this.service.matchingQuery(tx, visible, this.listQuery);
    await tx.execute(
      sql`DECLARE export_rows NO SCROLL CURSOR FOR
          SELECT ${selectColumns(resource)} FROM ${sql.identifier(resource.table)}
          WHERE ${whereClause(resource, visible, listQuery)}${selected}
          ORDER BY ${orderClause(listQuery)}`,
    );
    const fetchBatch = () => query<Row>(tx, sql.raw(`FETCH ${FETCH_SIZE} FROM export_rows`));
    let batch = await fetchBatch();
    started();
    for (;;) {
      const presented = await this.service.presentRows(tx, this.access, batch);
      await this.writer.addRows(presented.map((record) => this.columns.map((name) => cell(record[name]))));
      if (batch.length < FETCH_SIZE) break;
      batch = await fetchBatch();
    }
    await this.writer.finish();
  }

  abort(error: unknown): void {
    this.writer.abort(error instanceof Error ? error : new Error(String(error)));
  }
}

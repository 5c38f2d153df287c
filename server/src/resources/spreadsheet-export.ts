/**
 * GET {resource}/?format=xlsx: every row the list would return (same filters,
 * search and ordering, the caller's visibility), as a streamed .xlsx — or .csv,
 * and only the rows a bulk export names (POST {resource}/bulk/). Rows are
 * read through a server-side cursor and written as the client takes them, so
 * memory stays flat whatever the table size.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { atLeast } from '../auth/access.ts';
import type { AccessLevel } from '../contracts.ts';
import type { FieldType } from './fields.ts';
import type { ListQuery } from './list-query.ts';
import { orderClause, selectColumns, uuidArray, whereClause, type Row } from './repository.ts';
import type { Resource } from './resource.ts';
import type { ResourceService } from './service.ts';
import { visibleTo } from './visibility.ts';
import { CsvStreamWriter } from './csv-writer.ts';
import { XlsxStreamWriter, type CellValue, type XlsxColumn } from './xlsx-writer.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export type ExportFormat = 'xlsx' | 'csv';
const FETCH_SIZE = 500;

/** The exported columns: every declared field but objects, in declaration order, then id and timestamps. */
export function exportColumns(resource: Resource, access: AccessLevel): string[] {
  const fields = Object.entries(resource.fields)
    .filter(([, field]) => field.kind !== 'object' && (!field.readAccess || atLeast(access, field.readAccess)))
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

export async function exportSpreadsheet(
  request: FastifyRequest,
  reply: FastifyReply,
  service: ResourceService,
  listQuery: ListQuery,
  /** Only these rows (a bulk export of a selection), and the file type. */
  options: { ids?: string[]; format?: ExportFormat } = {},
): Promise<FastifyReply> {
  const resource = service.resource;
  const visible = visibleTo(request.principal.access);
  const columns = exportColumns(resource, request.principal.access);
  const format = options.format ?? 'xlsx';
  const writer = format === 'csv'
    ? new CsvStreamWriter(columns)
    : new XlsxStreamWriter({
      sheetName: resource.kind,
      columns: columns.map((name): XlsxColumn => ({ header: name, width: columnWidth(resource.fields[name], name) })),
    });
  const selected = options.ids ? sql` AND id = ANY(${uuidArray(options.ids)})` : sql``;

  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const done = request.tx(async (tx) => {
    await tx.execute(
      sql`DECLARE export_rows NO SCROLL CURSOR FOR
          SELECT ${selectColumns(resource)} FROM ${sql.identifier(resource.table)}
          WHERE ${whereClause(resource, visible, listQuery)}${selected}
          ORDER BY ${orderClause(listQuery)}`,
    );
    const fetchBatch = () => query<Row>(tx, sql.raw(`FETCH ${FETCH_SIZE} FROM export_rows`));
    let batch = await fetchBatch();
    // From here on the response is a file: a later failure can only cut the download short.
    markStarted();
    for (;;) {
      const presented = await service.presentRows(tx, request.principal.access, batch);
      await writer.addRows(presented.map((record) => columns.map((name) => cell(record[name]))));
      if (batch.length < FETCH_SIZE) break;
      batch = await fetchBatch();
    }
    await writer.finish();
  });
  // Anything that fails before the first rows are read (bad SQL, a lost connection) is still a JSON error.
  await Promise.race([started, done]);
  done.catch((error: unknown) => {
    request.log.error({ err: error }, 'spreadsheet export failed mid-stream');
    writer.abort(error instanceof Error ? error : new Error(String(error)));
  });

  const filename = `${new Date().toISOString().slice(0, 10)}_${request.tenant?.code ?? 'export'}_${resource.kind}.${format}`;
  return reply
    .header('content-type', format === 'csv' ? CSV_CONTENT_TYPE : XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(writer.stream);
}

/**
 * What processing found, read back: GET raw-data/extract-data (the entities and values of the
 * items named, as a table) and GET raw-data/{id}/text/ (the text kept with an item). Items are
 * read through the engine, so an item the caller may not see is a 404 like anywhere else.
 */
import { sql } from 'drizzle-orm';
import { ENTITY_TYPES, type ExtractedEntity } from '../../contracts.ts';
import { query } from '../../db/client.ts';
import { fieldError } from '../../resources/errors.ts';
import type { EngineContext } from '../../resources/context.ts';
import { uuidArray } from '../../resources/repository.ts';
import { isUuid, type ResourceService } from '../../resources/service.ts';
import { ENTITY_RECORD_JOINS, ENTITY_RECORD_NAME, ENTITY_RECORD_STATUS } from './entity-records.ts';
import { visibleItems } from './rawdata.service.ts';
import type { CellValue } from '../../resources/xlsx-writer.ts';

/** Items one extract-data call may name. */
export const MAX_EXTRACT_ITEMS = 500;
/**
 * Rows one call answers at most (each up to a 2,000-character snippet): the table is built in
 * memory, so a call over more is refused, asking for fewer items or a type, rather than sent.
 */
export const MAX_EXTRACT_ROWS = 20_000;

/** A row of extract-data (contracts.ts, shared with the web app). */
export type ExtractedRow = ExtractedEntity;

/** The spreadsheet's columns (?format=xlsx), each with how a row fills it. */
export const EXTRACT_DATA_COLUMNS: Array<{ header: string; width: number; cell: (row: ExtractedRow) => CellValue }> = [
  { header: 'Raw data item', width: 32, cell: (row) => row.item },
  { header: 'Type', width: 10, cell: (row) => row.type },
  { header: 'Text', width: 32, cell: (row) => row.text },
  { header: 'Mentions', width: 10, cell: (row) => row.mentions },
  { header: 'Value', width: 28, cell: (row) => (row.value === null ? null : JSON.stringify(row.value)) },
  { header: 'Record', width: 32, cell: (row) => row.record?.name ?? null },
  { header: 'Record kind', width: 16, cell: (row) => row.record?.kind ?? null },
  { header: 'Linked or suggested', width: 18, cell: (row) => (row.record ? (row.linked ? 'linked' : 'suggested') : null) },
  { header: 'Snippet', width: 80, cell: (row) => row.snippet },
  { header: 'Raw data id', width: 38, cell: (row) => row.raw_data_id },
];

export async function extractedData(ctx: EngineContext, items: ResourceService, idList: string, type: string | undefined): Promise<ExtractedRow[]> {
  const ids = [...new Set(idList.split(',').map((id) => id.trim().toLowerCase()).filter(Boolean))];
  if (ids.length === 0 || ids.length > MAX_EXTRACT_ITEMS) throw fieldError('ids', `Name 1 to ${MAX_EXTRACT_ITEMS} items, comma-separated.`);
  const bad = ids.filter((id) => !isUuid(id));
  if (bad.length > 0) throw fieldError('ids', `Not an id: ${bad.slice(0, 5).join(', ')}.`);
  const types = type ? type.split(',').map((t) => t.trim().toUpperCase()).filter(Boolean) : [];
  const unknown = types.filter((t) => !(ENTITY_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) throw fieldError('type', `Unknown type ${unknown.join(', ')}; one of ${ENTITY_TYPES.join(', ')}.`);
  const names = new Map((await visibleItems(ctx, items, ids, 'nothing was read')).map((row) => [row.id, String(row['display_name'] ?? '')]));
  const matching = sql`e.raw_data_id = ANY(${uuidArray([...names.keys()])})
    ${types.length > 0 ? sql`AND e.type = ANY(string_to_array(${types.join(',')}, ','))` : sql``}`;
  const [counted] = await query<{ n: number }>(ctx.tx, sql`SELECT count(*)::int AS n FROM raw_data_entities e WHERE ${matching}`);
  if ((counted?.n ?? 0) > MAX_EXTRACT_ROWS) {
    throw fieldError('ids', `These items hold ${counted!.n} entities, more than the ${MAX_EXTRACT_ROWS} one call answers: name fewer items, or choose a type.`);
  }
  const rows = await query<Omit<ExtractedRow, 'item' | 'record'> & { record_kind: string | null; record_id: string | null; record_name: string | null; record_status: string | null }>(
    ctx.tx,
    sql`SELECT e.raw_data_id, e.type, e.text, e.normalized, e.mentions, e.snippet, e.value, e.linked, e.record_kind, e.record_id,
               ${ENTITY_RECORD_NAME} AS record_name, ${ENTITY_RECORD_STATUS} AS record_status
        FROM raw_data_entities e ${ENTITY_RECORD_JOINS}
        WHERE ${matching}
        ORDER BY e.raw_data_id, e.type, e.mentions DESC, e.normalized`,
  );
  return rows.map(({ record_kind: kind, record_id: id, record_name: name, record_status: status, ...row }) => ({
    ...row,
    item: names.get(row.raw_data_id) ?? '',
    record: kind && id ? { kind, id, name, status } : null,
  }));
}

export async function extractedText(ctx: EngineContext, items: ResourceService, id: string) {
  const row = await items.findVisible(ctx.tx, ctx.actor.access, id);
  const [kept] = await query<{ extracted_text: string | null; extracted_chars: number | null; extraction_method: string | null }>(
    ctx.tx,
    sql`SELECT extracted_text, extracted_chars, extraction_method FROM raw_data WHERE id = ${row.id}`,
  );
  const text = kept?.extracted_text ?? null;
  const chars = kept?.extracted_chars ?? null;
  return { id: row.id, text, chars, method: kept?.extraction_method ?? null, truncated: text !== null && chars !== null && chars > text.length };
}

/**
 * The one place a raw data item's processing state is written (processing_status, _stage,
 * _percent, _error, _job) and announced (SPEC §4: raw_data_update, raw_data_process_complete,
 * raw_data_error): pending when queued or given a new file, processing at each stage, then
 * completed or error. Every write but queueing names the job it is for and changes nothing once
 * the item names another (superseded, deleted, given a new file).
 */
import { sql } from 'drizzle-orm';
import { query, tenantPin } from '../../db/client.ts';
import { publish } from '../../events/bus.ts';
import type { EngineContext } from '../../resources/context.ts';
import type { Row } from '../../resources/repository.ts';
import type { ProcessingStage } from './rawdata.resource.ts';

/**
 * Queued for `jobId`: pending, percent 0. With no job — the item was given a new file — pending
 * until someone processes it, and a job processing the old file is superseded (it changes
 * nothing from now on). Announced when the item was not pending already, or a job was queued.
 */
export async function markPending(ctx: EngineContext, itemId: string, jobId: string | null): Promise<Row> {
  const [row] = await query<Row & { was: string }>(
    ctx.tx,
    sql`UPDATE raw_data r SET processing_status = 'pending', processing_stage = NULL, processing_error = NULL,
          processing_percent = ${jobId === null ? null : 0}, processing_job = ${jobId}, processing_warnings = '{}', updated_at = now()
        FROM (SELECT processing_status AS was FROM raw_data WHERE ${tenantPin(ctx.tx)} AND id = ${itemId} FOR UPDATE) before
        WHERE ${tenantPin(ctx.tx, 'r')} AND r.id = ${itemId} RETURNING r.*, before.was`,
  );
  const { was, ...item } = row!;
  if (jobId !== null || was !== 'pending') await publish(ctx, 'raw_data_update', { id: itemId, processing_status: 'pending', updated_at: iso(item['updated_at']) });
  return item as Row;
}

/** The job moves the item to a stage; null when the item is gone or names another job. */
export async function markStage(ctx: EngineContext, itemId: string, jobId: string, stage: ProcessingStage, percent: number): Promise<Row | null> {
  const [row] = await query<Row>(
    ctx.tx,
    sql`UPDATE raw_data SET processing_status = 'processing', processing_stage = ${stage}, processing_percent = ${percent},
          processing_error = NULL, updated_at = now()
        WHERE id = ${itemId} AND processing_job = ${jobId}
        RETURNING *`,
  );
  if (row) await publish(ctx, 'raw_data_update', { id: row.id, processing_status: 'processing', updated_at: iso(row['updated_at']) });
  return row ?? null;
}

/** Whether the item still names the job, locking it until the transaction ends (the results are written under the lock). */
export async function lockIfCurrent(ctx: EngineContext, itemId: string, jobId: string): Promise<boolean> {
  const rows = await query(ctx.tx, sql`SELECT 1 FROM raw_data WHERE ${tenantPin(ctx.tx)} AND id = ${itemId} AND processing_job = ${jobId} FOR UPDATE`);
  return rows.length > 0;
}

/** What the item keeps of its text once processed, and what was left out or could not be read. */
export interface ProcessedText {
  text: string;
  chars: number;
  method: string;
  warnings: string[];
}

/** Completed, with its text; announced on commit, when its results are visible. Called under lockIfCurrent. */
export async function markCompleted(ctx: EngineContext, itemId: string, kept: ProcessedText): Promise<void> {
  const [row] = await query<{ updated_at: Date | string }>(
    ctx.tx,
    sql`UPDATE raw_data SET processing_status = 'completed', processing_stage = NULL, processing_error = NULL, processing_percent = 100,
          processed_at = now(), updated_at = now(), processing_job = NULL,
          extracted_text = ${kept.text}, extracted_chars = ${kept.chars}, extraction_method = ${kept.method},
          processing_warnings = ${textArray(kept.warnings)}::text[]
        WHERE id = ${itemId} RETURNING updated_at`,
  );
  await publish(ctx, 'raw_data_process_complete', { id: itemId, processing_status: 'completed', updated_at: iso(row!.updated_at) });
}

/** Error with the reason and the stage it failed in (null: the stage it was in); raw_data_error. Only while the item names this job. */
export async function markError(ctx: EngineContext, itemId: string, jobId: string, stage: ProcessingStage | null, reason: string): Promise<void> {
  const message = clip(reason, 2000);
  const [row] = await query<{ updated_at: Date | string }>(
    ctx.tx,
    sql`UPDATE raw_data SET processing_status = 'error', processing_error = ${message},
          processing_stage = coalesce(${stage}, processing_stage), processing_job = NULL, processed_at = now(), updated_at = now()
        WHERE id = ${itemId} AND processing_job = ${jobId} RETURNING updated_at`,
  );
  if (row) await publish(ctx, 'raw_data_error', { id: itemId, reason: clip(message, 500), updated_at: iso(row.updated_at) });
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** At most `max` UTF-16 units, never cutting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end);
}

/** A PostgreSQL text[] literal of `values` (each quoted and escaped), cast by the caller: drizzle would spread an array into a list. */
function textArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

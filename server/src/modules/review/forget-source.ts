/**
 * A source of suggestions (a raw data item) processed again or deleted: its provenance goes
 * from the suggestions nobody reviewed yet, and a suggestion left with no source at all goes
 * too — deleted through the engine (references, history), as any delete. Reviewed ones
 * (accepted, rejected) keep it: a decision is never undone, and its snippets stay its record.
 */
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { EngineContext } from '../../resources/context.ts';
import { lockRows, uuidArray, type Row } from '../../resources/repository.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { visibleTo } from '../../resources/visibility.ts';

/** The kinds of record suggestions are made from (provenance `source_kind`). */
export const SUGGESTION_SOURCE_KINDS = ['raw_data'];

/**
 * Locks: the source's own row first, then the suggestions' (lockRows) — the order processing
 * takes them in (its item's row, then the suggestions it writes), so a delete and a
 * processing of the same item run one after the other, never crosswise: a processing that
 * committed while the delete waited for the row has its provenance read here, and one that
 * comes after finds its item gone.
 */
export async function forgetSource(ctx: EngineContext, services: ResourceServices, source: { kind: string; id: string }): Promise<void> {
  await removeOrphans(ctx, services, await dropProvenance(ctx, services, source));
}

/** Unreviewed suggestions whose provenance from a source was dropped, by resource kind: those left with none go (removeOrphans). */
export type Unsourced = Map<string, Row[]>;

/**
 * The first half of forgetSource: the source's provenance leaves the unreviewed suggestions it
 * cites, which stay for now. Processing writes the item's findings between the halves, so a
 * name found again joins its suggestion as it was — same id, edits kept, not announced as new
 * (docs/processing.md) — and only what is no longer found goes.
 */
export async function dropProvenance(ctx: EngineContext, services: ResourceServices, source: { kind: string; id: string }): Promise<Unsourced> {
  const unsourced: Unsourced = new Map();
  const sourceResource = services.catalog.get(source.kind);
  await lockRows(ctx.tx, sourceResource, visibleTo('admin'), [source.id]);
  const cited = await query<{ resource: string; id: string }>(
    ctx.tx,
    sql`SELECT DISTINCT resource, record_id AS id FROM suggestion_provenance WHERE source_kind = ${source.kind} AND source_id = ${source.id}`,
  );
  if (cited.length === 0) return unsourced;
  for (const resource of services.catalog.resources.filter((one) => one.review)) {
    const candidates = cited.filter((row) => row.resource === resource.kind).map((row) => row.id);
    if (candidates.length === 0) continue;
    const suggestions = services.suggestions(resource.kind).resource;
    // Locked first: a suggestion accepted or rejected meanwhile is re-read as no longer suggested
    // and keeps this source's provenance (its snippets, the decision's training example).
    const locked = await lockRows(ctx.tx, suggestions, visibleTo('admin'), candidates);
    if (locked.length === 0) continue;
    await query(ctx.tx, sql`DELETE FROM suggestion_provenance p
      WHERE p.resource = ${resource.kind} AND p.source_kind = ${source.kind} AND p.source_id = ${source.id} AND p.record_id = ANY(${uuidArray(locked.map((row) => row.id))})`);
    unsourced.set(resource.kind, locked);
  }
  return unsourced;
}

/** The second half: of the suggestions dropProvenance left, those with no provenance at all are deleted through the engine. */
export async function removeOrphans(ctx: EngineContext, services: ResourceServices, unsourced: Unsourced): Promise<void> {
  for (const [kind, locked] of unsourced) {
    const service = services.suggestions(kind);
    const ids = uuidArray(locked.map((row) => row.id));
    const orphans = new Set((await query<{ id: string }>(ctx.tx, sql`
      SELECT r.id FROM ${sql.identifier(service.resource.table)} r WHERE r.id = ANY(${ids}) AND r.status = 'suggested'
        AND NOT EXISTS (SELECT 1 FROM suggestion_provenance p WHERE p.resource = ${kind} AND p.record_id = r.id)`)).map((row) => row.id));
    for (const row of locked) if (orphans.has(row.id)) await service.removeRow(ctx, row);
  }
}

/**
 * Every write of a tenant's suggestions from its sources (processing an item, forgetting one)
 * takes this one lock before any row lock — two items processed at once that both name "Acme"
 * make one suggestion, not two — instead of one per name — a thousand names would
 * fill PostgreSQL's lock table, and locks taken after row locks could wait on each other
 * crosswise. Held to the end of the transaction; taking it again in it is free.
 */
export async function lockTenantSuggestions(ctx: EngineContext): Promise<void> {
  await query(ctx.tx, sql`SELECT pg_advisory_xact_lock(hashtextextended(${`suggest:${ctx.actor.tenantId}`}, 0))`);
}

/**
 * The SQL of review beyond the engine's status column: where suggestions were found
 * (suggestion_provenance) and which were rejected (suggestion_rejections). Every
 * statement runs in a tenant transaction, so row-level security keeps it in the tenant.
 */
import { sql } from 'drizzle-orm';
import { query, tenantPin, type Tx } from '../../db/client.ts';
import { textArray, uuidArray, type Row } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';
import type { SuggestionProvenance } from '../../contracts.ts';

/** Where a suggestion comes from: a kind of source (e.g. 'raw_data') and its id, when it has one. */
export interface SuggestionSource {
  kind: string;
  id: string | null;
}

/** One place a suggestion was found, as the suggester reports it. */
export interface ProvenanceInput {
  source: SuggestionSource;
  /** The text around the mention. */
  snippet?: string;
  /** Character offsets of the mention in the source's text (end exclusive). */
  start?: number | null;
  end?: number | null;
  /** How often the source mentions it (1 by default). */
  mentions?: number;
  /** Where the snippet starts in the source's text: the mention is at start - snippetStart in the snippet. */
  snippetStart?: number | null;
  /** How sure the suggester is of what it found there, 0 to 1; the suggestion's is its sources' highest. */
  confidence?: number | null;
}

/**
 * Provenance as the API presents it with a suggestion (contracts.ts). Accepting keeps it on the
 * record the suggestion became (and a merge moves it), but records are presented without it.
 */
export type Provenance = SuggestionProvenance;

/**
 * Inserts provenance of suggestions of one kind — every suggestion a batch made or joined — in
 * one statement (checked first: review.service.ts checkedProvenance). The suggestions'
 * confidence follows (migration 0180's trigger).
 */
export async function insertProvenance(tx: Tx, tenantId: string, kind: string, entries: Array<{ recordId: string; provenance: ProvenanceInput }>): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map(({ recordId, provenance: found }) => sql`(${tenantId}::uuid, ${kind}, ${recordId}::uuid, ${found.source.kind}, ${found.source.id}::uuid, ${found.snippet ?? ''},
                  ${found.start ?? null}::integer, ${found.end ?? null}::integer, ${found.mentions ?? 1}::integer, ${found.snippetStart ?? null}::integer, ${found.confidence ?? null}::real)`);
  await tx.execute(
    sql`INSERT INTO suggestion_provenance (tenant_id, resource, record_id, source_kind, source_id, snippet, start_offset, end_offset, mention_count, snippet_start, confidence)
        VALUES ${sql.join(rows, sql`, `)}`,
  );
}

/** Each record's provenance, oldest first. */
export async function provenanceOf(tx: Tx, kind: string, recordIds: string[]): Promise<Map<string, Provenance[]>> {
  const byRecord = new Map<string, Provenance[]>();
  if (recordIds.length === 0) return byRecord;
  const rows = await query<Provenance & { record_id: string; created_at: Date | string }>(
    tx,
    sql`SELECT id, record_id, source_kind, source_id, snippet, start_offset, end_offset, snippet_start, mention_count, confidence, created_at
        FROM suggestion_provenance WHERE resource = ${kind} AND record_id = ANY(${uuidArray(recordIds)})
        ORDER BY created_at, id`,
  );
  for (const { record_id: recordId, created_at: createdAt, ...row } of rows) {
    const entries = byRecord.get(recordId) ?? [];
    entries.push({ ...row, created_at: new Date(createdAt).toISOString() });
    byRecord.set(recordId, entries);
  }
  return byRecord;
}

/** The sources of a record's provenance (distinct). */
export async function sourcesOf(tx: Tx, kind: string, recordId: string): Promise<SuggestionSource[]> {
  const rows = await query<{ source_kind: string; source_id: string | null }>(
    tx,
    sql`SELECT DISTINCT source_kind, source_id FROM suggestion_provenance WHERE resource = ${kind} AND record_id = ${recordId}
        ORDER BY 1, 2`,
  );
  return rows.map((row) => ({ kind: row.source_kind, id: row.source_id }));
}

/** Moves a record's provenance to another record (a merge); returns the ids moved. */
export async function moveProvenance(tx: Tx, kind: string, fromId: string, toId: string): Promise<string[]> {
  const rows = await query<{ id: string }>(
    tx,
    sql`UPDATE suggestion_provenance SET record_id = ${toId} WHERE resource = ${kind} AND record_id = ${fromId} RETURNING id`,
  );
  return rows.map((row) => row.id);
}

/** Puts provenance rows back on a record (undoing a merge). */
export async function returnProvenance(tx: Tx, provenanceIds: string[], toId: string): Promise<void> {
  if (provenanceIds.length === 0) return;
  await tx.execute(sql`UPDATE suggestion_provenance SET record_id = ${toId} WHERE id = ANY(${uuidArray(provenanceIds)})`);
}

const sourceKey = (source: SuggestionSource | null) => ({ kind: source?.kind ?? '', id: source?.id ?? '' });
const sourceColumns = (source: SuggestionSource | null) => ({ source_kind: source?.kind ?? '', source_id: source?.id ?? '' });

/** Remembers that these names from these sources were rejected (once per name and source). */
export async function rememberRejection(
  tx: Tx,
  tenantId: string,
  kind: string,
  nameKeys: string[],
  sources: Array<SuggestionSource | null>,
  recordId: string,
  userId: string | null,
): Promise<void> {
  for (const nameKey of nameKeys) {
    for (const source of sources) {
      const key = sourceKey(source);
      await tx.execute(
        sql`INSERT INTO suggestion_rejections (tenant_id, resource, name_key, source_kind, source_id, record_id, rejected_by)
            VALUES (${tenantId}, ${kind}, ${nameKey}, ${key.kind}, ${key.id}, ${recordId}, ${userId})
            ON CONFLICT (tenant_id, resource, name_key, source_kind, source_id)
            DO UPDATE SET record_id = EXCLUDED.record_id, rejected_by = EXCLUDED.rejected_by, rejected_at = now()`,
      );
    }
  }
}

/**
 * Which (name key, source) pairs were rejected, in one statement: the answer holds
 * `rejectionKey(name key, source)` of each pair that was (a null source: rejected without one).
 */
export async function rejectedPairs(tx: Tx, kind: string, pairs: Array<{ nameKey: string; source: SuggestionSource | null }>): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const asked = pairs.map(({ nameKey, source }) => ({ name_key: nameKey, ...sourceColumns(source) }));
  const rows = await query<{ name_key: string; source_kind: string; source_id: string }>(
    tx,
    sql`SELECT DISTINCT r.name_key, r.source_kind, r.source_id
        FROM jsonb_to_recordset(${JSON.stringify(asked)}::jsonb) AS q(name_key text, source_kind text, source_id text)
        JOIN suggestion_rejections r ON r.resource = ${kind} AND r.name_key = q.name_key AND r.source_kind = q.source_kind AND r.source_id = q.source_id`,
  );
  return new Set(rows.map((row) => `${row.name_key}\u0000${row.source_kind}\u0000${row.source_id}`));
}

/** The key rejectedPairs answers a pair with. */
export const rejectionKey = (nameKey: string, source: SuggestionSource | null): string => {
  const columns = sourceColumns(source);
  return `${nameKey}\u0000${columns.source_kind}\u0000${columns.source_id}`;
};

/**
 * The unreviewed suggestions named by any of these name keys, or whose `column` holds one of
 * `values` (a resource whose names identify nothing: a ledger entry's caption), oldest first and
 * locked: a review or another batch waits until this one commits.
 */
export async function lockSuggestionsNamed(tx: Tx, resource: Resource, by: { nameKeys: string[] } | { column: string; values: string[] }): Promise<Row[]> {
  const named = 'nameKeys' in by
    ? sql`name_keys && ${textArray(by.nameKeys)}::text[]`
    : sql`${sql.identifier(by.column)} = ANY(${textArray(by.values)}::text[])`;
  if (('nameKeys' in by ? by.nameKeys : by.values).length === 0) return [];
  return query<Row>(
    tx,
    sql`SELECT * FROM ${sql.identifier(resource.table)} WHERE ${tenantPin(tx)} AND status = 'suggested' AND ${named} ORDER BY created_at, id FOR UPDATE`,
  );
}

/** A suggestion becomes a record or is rejected; false when it is no longer a suggestion (reviewed concurrently). */
export async function reviewRow(tx: Tx, resource: Resource, rowId: string, status: 'active' | 'rejected', userId: string | null): Promise<boolean> {
  const rows = await query<{ id: string }>(
    tx,
    sql`UPDATE ${sql.identifier(resource.table)} SET status = ${status}, updated_at = now(), updated_by = ${userId}
        WHERE id = ${rowId} AND status = 'suggested' RETURNING id`,
  );
  return rows.length > 0;
}

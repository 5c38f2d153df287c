/**
 * The audit log: who created, edited, deleted or merged which record, when,
 * and which fields changed from what to what. The engine writes an entry in
 * the same transaction as every write, for every resource.
 */
import { sql } from 'drizzle-orm';
import type { AuditEntry } from '../contracts.ts';
import { query, tenantPin, type Tx } from '../db/client.ts';
import type { Actor } from './context.ts';

export type AuditAction = AuditEntry['action'];
export type Changes = Record<string, { from: unknown; to: unknown }>;

/** Presented fields that are bookkeeping, not content. */
const NOT_AUDITED = new Set(['id', 'display_name', 'created_at', 'updated_at', 'created_by', 'updated_by', 'lists_as_item']);

/** Field-by-field difference of two presented records (null for a side that does not exist). */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Changes {
  const changes: Changes = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    if (NOT_AUDITED.has(name)) continue;
    const from = comparable(before?.[name]);
    const to = comparable(after?.[name]);
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[name] = { from, to };
  }
  return changes;
}

/** References are compared (and kept) by id and name; everything else as presented. */
function comparable(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === 'object' && 'id' in value) {
    const ref = value as { id: unknown; display_name?: unknown; name?: unknown };
    return { id: ref.id, display_name: ref.display_name ?? ref.name ?? null };
  }
  return value;
}

export interface AuditWrite {
  actor: Actor;
  resource: string;
  recordId: string;
  action: AuditAction;
  displayName: unknown;
  changes: Changes;
  merge?: unknown;
  /** The bulk operation (POST {resource}/bulk/ or its undo) this entry belongs to. */
  bulkOperationId?: string;
}

/** Writes by a person name them; a system write names the person it was done for, if any. */
export async function writeAudit(tx: Tx, entry: AuditWrite): Promise<string> {
  const { actor } = entry;
  const user = actor.kind === 'user' ? actor.user : null;
  const onBehalfOf = actor.kind === 'system' ? actor.onBehalfOf : null;
  const [row] = await query<{ id: string }>(
    tx,
    sql`INSERT INTO audit_entries (tenant_id, resource, record_id, action, actor, user_id, user_email, on_behalf_of_id, on_behalf_of_email,
                                   display_name, changes, merge, bulk_operation_id)
        VALUES (${actor.tenantId}, ${entry.resource}, ${entry.recordId}, ${entry.action}, ${actor.kind}, ${user?.id ?? null}, ${user?.email ?? null},
                ${onBehalfOf?.id ?? null}, ${onBehalfOf?.email ?? null}, ${typeof entry.displayName === 'string' ? entry.displayName : null},
                ${JSON.stringify(entry.changes)}::jsonb, ${entry.merge === undefined ? null : JSON.stringify(entry.merge)}::jsonb,
                ${entry.bulkOperationId ?? null})
        RETURNING id`,
  );
  return row!.id;
}

/** The columns an audit entry is presented from, wherever it is read (history, a record's activity). */
export interface AuditEntryRow {
  id: string;
  action: AuditAction;
  at: Date | string;
  actor: Actor['kind'];
  user_id: string | null;
  user_email: string | null;
  on_behalf_of_id: string | null;
  on_behalf_of_email: string | null;
  display_name: string | null;
  changes: AuditEntry['changes'] | null;
  undone_at: Date | string | null;
}

interface AuditRow extends AuditEntryRow {
  merge: { other?: { id?: string } } | null;
}

const AUDIT_COLUMNS = sql.raw('id, action, at, actor, user_id, user_email, on_behalf_of_id, on_behalf_of_email, display_name, changes, merge, undone_at');

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A record's history, newest first. */
export async function recordHistory(tx: Tx, resource: string, recordId: string, limit = 200): Promise<AuditEntry[]> {
  const rows = await query<AuditRow>(
    tx,
    sql`SELECT ${AUDIT_COLUMNS} FROM audit_entries
        WHERE resource = ${resource} AND record_id = ${recordId}
        ORDER BY at DESC, id DESC LIMIT ${limit}`,
  );
  return rows.map((row) => presentAuditEntry(row, row.merge?.other?.id ?? null));
}

/** An audit entry as the API sends it; `changes` narrowed by the caller to what the reader may see. */
export function presentAuditEntry(row: AuditEntryRow, mergedId: string | null, changes: AuditEntry['changes'] = row.changes ?? {}): AuditEntry {
  return {
    id: row.id,
    action: row.action,
    at: iso(row.at)!,
    actor: row.actor,
    user_id: row.user_id,
    user_email: row.user_email,
    on_behalf_of: row.on_behalf_of_id === null ? null : { id: row.on_behalf_of_id, email: row.on_behalf_of_email },
    display_name: row.display_name,
    changes,
    merged_id: mergedId,
    undone_at: iso(row.undone_at),
  };
}

export async function findAuditEntry(tx: Tx, auditId: string): Promise<(AuditRow & { resource: string; record_id: string }) | null> {
  const [row] = await query<AuditRow & { resource: string; record_id: string }>(
    tx,
    sql`SELECT resource, record_id, ${AUDIT_COLUMNS} FROM audit_entries WHERE id = ${auditId}`,
  );
  return row ?? null;
}

export async function markUndone(tx: Tx, auditId: string): Promise<void> {
  await tx.execute(sql`UPDATE audit_entries SET undone_at = clock_timestamp() WHERE id = ${auditId}`);
}

/** A bulk action that wrote (POST {resource}/bulk/): what its undo needs, row by row. */
export interface BulkOperation {
  id: string;
  resource: string;
  action: string;
  user_id: string | null;
  undo: unknown;
  undone_at: Date | string | null;
}

export async function insertBulkOperation(tx: Tx, tenantId: string, operation: Omit<BulkOperation, 'undone_at'>): Promise<void> {
  await tx.execute(
    sql`INSERT INTO bulk_operations (tenant_id, id, resource, action, user_id, undo)
        VALUES (${tenantId}, ${operation.id}, ${operation.resource}, ${operation.action}, ${operation.user_id}, ${JSON.stringify(operation.undo)}::jsonb)`,
  );
}

/** The operation, locked so that two undos of it cannot both run. */
export async function lockBulkOperation(tx: Tx, operationId: string): Promise<BulkOperation | null> {
  const [row] = await query<BulkOperation>(
    tx,
    sql`SELECT id, resource, action, user_id, undo, undone_at FROM bulk_operations WHERE ${tenantPin(tx)} AND id = ${operationId} FOR UPDATE`,
  );
  return row ?? null;
}

export async function markBulkUndone(tx: Tx, operationId: string): Promise<void> {
  await tx.execute(sql`UPDATE bulk_operations SET undone_at = clock_timestamp() WHERE id = ${operationId}`);
}

/**
 * Entries of one actor in one statement: a write that creates many records at once (a paste of
 * thousands of addresses) records each as `writeAudit` would, without a round trip per record.
 */
export async function writeAudits(tx: Tx, actor: Actor, entries: Array<Omit<AuditWrite, 'actor' | 'merge'>>): Promise<void> {
  if (entries.length === 0) return;
  const user = actor.kind === 'user' ? actor.user : null;
  const onBehalfOf = actor.kind === 'system' ? actor.onBehalfOf : null;
  const rows = entries.map((entry) => ({
    resource: entry.resource,
    record_id: entry.recordId,
    action: entry.action,
    display_name: typeof entry.displayName === 'string' ? entry.displayName : null,
    changes: entry.changes,
    bulk_operation_id: entry.bulkOperationId ?? null,
  }));
  await tx.execute(
    sql`INSERT INTO audit_entries (tenant_id, resource, record_id, action, actor, user_id, user_email, on_behalf_of_id, on_behalf_of_email,
                                   display_name, changes, bulk_operation_id)
        SELECT ${actor.tenantId}::uuid, e.resource, e.record_id, e.action, ${actor.kind}::text, ${user?.id ?? null}::uuid, ${user?.email ?? null}::text,
               ${onBehalfOf?.id ?? null}::uuid, ${onBehalfOf?.email ?? null}::text, e.display_name, e.changes, e.bulk_operation_id
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             AS e(resource text, record_id uuid, action text, display_name text, changes jsonb, bulk_operation_id uuid)`,
  );
}

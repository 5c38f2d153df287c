/** The event stream's reads, each in a transaction scoped to one tenant (row-level security). */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../db/client.ts';
import { EVICT_NOTIFICATION_PREFIX } from './bus.ts';
import type { EventChannel, EventName } from './event-map.ts';

export interface StoredEvent {
  id: number;
  name: EventName;
  channel: EventChannel;
  /** The payload as JSON text, sent as it is. */
  payload: string;
  /** The one user a personal event is for (migration 0240); null: everyone on its channel. */
  recipient: string | null;
}

/** The tenant's last event id (0 before its first event). */
export async function lastEventId(tx: Tx): Promise<number> {
  const [row] = await query<{ last_id: string }>(tx, sql`SELECT last_id::text AS last_id FROM event_counters WHERE tenant_id = app_tenant_id()`);
  return row ? Number(row.last_id) : 0;
}

/** Up to `limit` of the tenant's events after `afterId`, oldest first. */
export async function eventsAfter(tx: Tx, afterId: number, limit: number): Promise<StoredEvent[]> {
  // tenant_id is stated (row-level security says the same) so the primary key serves the range.
  const rows = await query<{ id: string; name: EventName; channel: EventChannel; payload: string; recipient: string | null }>(
    tx,
    sql`SELECT id::text AS id, name, channel, payload::text AS payload, recipient_id::text AS recipient FROM events
        WHERE tenant_id = app_tenant_id() AND id > ${afterId} ORDER BY id LIMIT ${limit}`,
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Of the given sessions, those still live (not revoked, not expired, user not disabled), with their user's roles. */
export async function liveSessions(tx: Tx, sessionIds: string[]): Promise<Array<{ session_id: string; is_admin: boolean; is_research: boolean }>> {
  if (sessionIds.length === 0) return [];
  return query(
    tx,
    sql`SELECT s.id AS session_id, u.is_admin, u.is_research
        FROM sessions s JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
        WHERE s.tenant_id = app_tenant_id()
          AND s.id IN (${sql.join(sessionIds.map((id) => sql`${id}::uuid`), sql`, `)})
          AND s.revoked_at IS NULL AND s.expires_at > now() AND NOT u.disabled`,
  );
}

/**
 * Registers a new stream of the user and returns the ids of the user's streams, in any process,
 * that it pushes beyond `limit` (the oldest), now marked evicted; the processes holding them
 * are notified at commit. The user's streams are registered one at a time (a transaction-level
 * advisory lock), so two processes opening streams of one user at once cannot both keep theirs
 * over the limit. Rows of the user not renewed within the lease (their process died) go first.
 */
export async function registerStream(
  tx: Tx,
  stream: { id: string; userId: string },
  limits: { perUser: number; leaseMs: number; notifyChannel: string },
): Promise<string[]> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('event_streams:' || app_tenant_id() || ':' || ${stream.userId}))`);
  await tx.execute(
    sql`DELETE FROM event_streams WHERE tenant_id = app_tenant_id() AND user_id = ${stream.userId}::uuid
          AND renewed_at < now() - make_interval(secs => ${limits.leaseMs / 1000})`,
  );
  await tx.execute(sql`INSERT INTO event_streams (tenant_id, id, user_id) VALUES (app_tenant_id(), ${stream.id}::uuid, ${stream.userId}::uuid)`);
  // One notification per evicted stream: normally one, and each far below NOTIFY's 8 kB.
  const rows = await query<{ id: string }>(
    tx,
    sql`WITH evicted AS (
          UPDATE event_streams SET evicted = true
          WHERE tenant_id = app_tenant_id() AND id IN (
            SELECT id FROM event_streams
            WHERE tenant_id = app_tenant_id() AND user_id = ${stream.userId}::uuid AND NOT evicted
            ORDER BY opened_at DESC, id DESC OFFSET ${limits.perUser})
          RETURNING id
        )
        SELECT id::text AS id, pg_notify(${limits.notifyChannel}, ${EVICT_NOTIFICATION_PREFIX} || id::text) AS notified FROM evicted`,
  );
  return rows.map((row) => row.id);
}

/** A text parameter of comma-separated uuids, one parameter however many. */
const uuidArray = (ids: string[]) => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

/**
 * Renews the lease of the given streams (all open in the calling process) and says which of
 * them are still registered and whether each was evicted meanwhile. Rows of the tenant whose
 * lease has passed (a process that died, or could not reach the database for that long) go.
 */
export async function renewStreams(tx: Tx, ids: string[], leaseMs: number): Promise<Array<{ id: string; evicted: boolean }>> {
  // The DELETE sees the rows as they were before the UPDATE beside it: the renewed ones are left out by id.
  return query(
    tx,
    sql`WITH renewed AS (
          UPDATE event_streams SET renewed_at = now() WHERE tenant_id = app_tenant_id() AND id = ANY(${uuidArray(ids)})
          RETURNING id, evicted
        ), expired AS (
          DELETE FROM event_streams WHERE tenant_id = app_tenant_id()
            AND renewed_at < now() - make_interval(secs => ${leaseMs / 1000}) AND NOT (id = ANY(${uuidArray(ids)}))
        )
        SELECT id::text AS id, evicted FROM renewed`,
  );
}

/** Removes closed streams' rows. */
export async function forgetStreams(tx: Tx, ids: string[]): Promise<void> {
  await tx.execute(sql`DELETE FROM event_streams WHERE tenant_id = app_tenant_id() AND id = ANY(${uuidArray(ids)})`);
}

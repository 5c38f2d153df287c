/** The event stream's reads, each in a transaction scoped to one tenant (row-level security). */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../db/client.ts';
import type { EventChannel, EventName } from './event-map.ts';

export interface StoredEvent {
  id: number;
  name: EventName;
  channel: EventChannel;
  /** The payload as JSON text, sent as it is. */
  payload: string;
}

/** The tenant's last event id (0 before its first event). */
export async function lastEventId(tx: Tx): Promise<number> {
  const [row] = await query<{ last_id: string }>(tx, sql`SELECT last_id::text AS last_id FROM event_counters WHERE tenant_id = app_tenant_id()`);
  return row ? Number(row.last_id) : 0;
}

/** Up to `limit` of the tenant's events after `afterId`, oldest first. */
export async function eventsAfter(tx: Tx, afterId: number, limit: number): Promise<StoredEvent[]> {
  // tenant_id is stated (row-level security says the same) so the primary key serves the range.
  const rows = await query<{ id: string; name: EventName; channel: EventChannel; payload: string }>(
    tx,
    sql`SELECT id::text AS id, name, channel, payload::text AS payload FROM events
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

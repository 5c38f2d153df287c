/**
 * publish(ctx, name, payload): announces a change from inside the transaction that makes it.
 * The event is a row of `events` (migration 0100) with the tenant's next id, and a NOTIFY
 * naming the tenant; PostgreSQL delivers the notification when the transaction commits and
 * never for one that rolls back, to every process LISTENing (hub.ts) — on a server across
 * processes, on PGlite within the one. Each process then reads the new rows once and fans
 * them out to its streams. The notification carries the tenant id only (far below NOTIFY's
 * 8 kB), and identical notifications of one transaction fold into one.
 *
 * Publish last in a transaction: taking the next id locks the tenant's counter until commit
 * (that is what keeps ids in commit order, so replay never skips one), so publishing early
 * would hold other publishers of the tenant for the rest of the transaction.
 */
import { sql } from 'drizzle-orm';
import { Value } from 'typebox/value';
import { query } from '../db/client.ts';
import type { EngineContext } from '../resources/context.ts';
import { EVENTS, type EventDeclaration, type EventName, type EventPayload } from './event-map.ts';

/**
 * The notification channel: a tenant id (new events), `access:<tenant id>` (sessions or users
 * changed, migration 0100) or `evict:<stream id>` (a stream beyond its user's limit, to be
 * closed by the process holding it: events.repository.ts registerStream).
 */
export const EVENTS_NOTIFY_CHANNEL = 'intelnotes_events';
export const ACCESS_NOTIFICATION_PREFIX = 'access:';
export const EVICT_NOTIFICATION_PREFIX = 'evict:';

/**
 * What a reconnecting client can get back: each tenant's events are kept for at least ten
 * minutes and at most the last 10,000; older ones are removed as new ones are published.
 */
export const REPLAY_WINDOW = { seconds: 600, events: 10_000 } as const;

/** A payload that does not match its event's declaration: a bug in the caller, named precisely. */
export class EventPayloadError extends Error {}

export function checkEventPayload<N extends EventName>(name: N, payload: unknown): EventPayload<N> {
  const declaration = EVENTS[name];
  if (!declaration) throw new EventPayloadError(`unknown event "${name}"`);
  if (!Value.Check(declaration.payload, payload)) {
    const problems = Value.Errors(declaration.payload, payload).map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new EventPayloadError(`payload of event "${name}" is invalid: ${problems.join('; ')}`);
  }
  return payload as EventPayload<N>;
}

/**
 * Publishes an event of the transaction's tenant and returns its id. Old events beyond the
 * replay window go in the same statement (an index range each, usually nothing). A personal
 * event (declared `personal`, e.g. a note's mention) names its one `recipient`, a user of the
 * tenant: only that user's streams receive it; every other stream moves its place past it.
 */
export async function publish<N extends EventName>(
  ctx: Pick<EngineContext, 'tx'>,
  name: N,
  payload: EventPayload<N>,
  options: { recipient?: string } = {},
): Promise<number> {
  checkEventPayload(name, payload);
  const declaration: EventDeclaration = EVENTS[name];
  if (Boolean(declaration.personal) !== (options.recipient !== undefined)) {
    throw new EventPayloadError(`event "${name}" ${declaration.personal ? 'is personal: name its recipient' : 'goes to a channel, not to one recipient'}`);
  }
  // A data-modifying CTE runs whether or not it is read; the DELETE does not see the row
  // inserted beside it, so the newest event always stays.
  const [row] = await query<{ id: string }>(
    ctx.tx,
    sql`WITH next AS (
          INSERT INTO event_counters AS c (tenant_id, last_id) VALUES (app_tenant_id(), 1)
          ON CONFLICT (tenant_id) DO UPDATE SET last_id = c.last_id + 1
          RETURNING tenant_id, last_id
        ), added AS (
          INSERT INTO events (tenant_id, id, name, channel, payload, recipient_id)
          SELECT tenant_id, last_id, ${name}, ${EVENTS[name].channel}, ${JSON.stringify(payload)}::jsonb, ${options.recipient ?? null}::uuid FROM next
          RETURNING tenant_id, id
        ), pruned AS (
          DELETE FROM events e USING next
          WHERE e.tenant_id = next.tenant_id
            AND (e.id <= next.last_id - ${REPLAY_WINDOW.events}
                 OR e.created_at < now() - make_interval(secs => ${REPLAY_WINDOW.seconds}))
        )
        SELECT added.id::text AS id, pg_notify(${EVENTS_NOTIFY_CHANNEL}, added.tenant_id::text) AS notified FROM added`,
  );
  if (!row) throw new Error('publishing an event wrote no row (no tenant in the transaction?)');
  return Number(row.id);
}

/** Session tokens and sign-in throttling; tenant-scoped transactions only. */
import { eq, sql, type SQL } from 'drizzle-orm';
import { query, type Db, type Executor } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import type { SessionUser } from './users.repository.ts';

export async function insertSession(
  executor: Executor,
  values: { tenant_id: string; user_id: string; token_hash: string; expires_at: Date; user_agent: string | null; ip: string | null },
): Promise<{ id: string; expires_at: Date }> {
  const [row] = await executor
    .insert(sessions)
    .values(values)
    .returning({ id: sessions.id, expires_at: sessions.expires_at });
  if (!row) throw new Error('insert into sessions returned no row');
  return row;
}

/** The authentication statement (exported for the benchmark's floor). */
export const liveSessionStatement = (tenantId: string, tokenHash: string): SQL =>
  sql`SELECT * FROM app_live_session(${tenantId}, ${tokenHash})`;

/**
 * The live session for a token hash on a tenant, with its user, or null.
 * One statement outside any transaction: app_live_session (migration 0011)
 * sets the app role and the tenant for that statement itself, so the lookup
 * is under row-level security and costs one round trip per request.
 */
export async function findLiveSession(
  db: Db,
  tenantId: string,
  tokenHash: string,
): Promise<{ sessionId: string; user: SessionUser } | null> {
  const [row] = await query<SessionUser & { session_id: string }>(db, liveSessionStatement(tenantId, tokenHash));
  if (!row) return null;
  const { session_id: sessionId, ...user } = row;
  return { sessionId, user };
}

export async function revokeSession(executor: Executor, sessionId: string): Promise<void> {
  await executor.update(sessions).set({ revoked_at: sql`now()` }).where(eq(sessions.id, sessionId));
}

/** One sign-in's slot in a throttling window: the count including this try, and the window it is in. */
/**
 * What a counter counts: failed sign-ins per IP and per email, and the email list's public
 * sign-ups per IP and per address (modules/emails/subscription.ts).
 */
export type LimitScope = 'ip' | 'email' | 'subscribe_ip' | 'subscribe_email';

export interface LimitSlot<S extends LimitScope = LimitScope> {
  scope: S;
  failures: number;
  /** The window's start as PostgreSQL text (full precision), naming the window for the release. */
  window: string;
  /** Seconds until the window ends. */
  retryAfter: number;
}

/**
 * Takes one slot per key in one statement: the counter row is created or
 * incremented (restarted when its window has passed) and the new count
 * returned, so concurrent sign-ins queue on the row lock and each sees the
 * count its own try made. Keys are locked in the order given (ip before email
 * everywhere), so two tries never wait on each other in a cycle.
 */
export async function takeLimitSlots<S extends LimitScope>(
  executor: Executor,
  tenantId: string,
  entries: Array<{ scope: S; key: string }>,
  windowSeconds: number,
): Promise<Array<LimitSlot<S>>> {
  const expired = sql`l.window_started_at <= now() - make_interval(secs => ${windowSeconds})`;
  const rows = await query<{ scope: S; failures: number; window: string; retry_after: number }>(
    executor,
    sql`INSERT INTO login_limits AS l (tenant_id, scope, key, failures)
        VALUES ${sql.join(entries.map((entry) => sql`(${tenantId}, ${entry.scope}, ${entry.key}, 1)`), sql`, `)}
        ON CONFLICT (tenant_id, scope, key) DO UPDATE SET
          failures = CASE WHEN ${expired} THEN 1 ELSE l.failures + 1 END,
          window_started_at = CASE WHEN ${expired} THEN now() ELSE l.window_started_at END
        RETURNING scope, failures, window_started_at::text AS window,
          ceil(extract(epoch FROM l.window_started_at + make_interval(secs => ${windowSeconds}) - now()))::int AS retry_after`,
  );
  return rows.map((row) => ({ scope: row.scope, failures: row.failures, window: row.window, retryAfter: row.retry_after }));
}

/** Gives back a sign-in's slot (the password was right): one fewer try in the window it was taken in. */
export async function releaseLimitSlot(executor: Executor, slot: LimitSlot, key: string): Promise<void> {
  await executor.execute(
    sql`UPDATE login_limits SET failures = greatest(failures - 1, 0)
        WHERE scope = ${slot.scope} AND key = ${key} AND window_started_at = ${slot.window}::timestamptz`,
  );
}

export async function clearLimit(executor: Executor, scope: 'ip' | 'email', key: string): Promise<void> {
  await executor.execute(sql`DELETE FROM login_limits WHERE scope = ${scope} AND key = ${key}`);
}

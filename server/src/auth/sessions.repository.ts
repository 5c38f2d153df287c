/** Session tokens and failed sign-ins; tenant-scoped transactions only. */
import { and, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import { query, type Db, type Executor } from '../db/client.ts';
import { loginFailures, sessions } from '../db/schema.ts';
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

export interface FailureWindow {
  count: number;
  /** When the oldest failure inside the window was recorded. */
  oldest: Date | null;
}

export async function recentFailures(
  executor: Executor,
  scope: 'ip' | 'email',
  key: string,
  windowSeconds: number,
): Promise<FailureWindow> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | null>`min(${loginFailures.failed_at})` })
    .from(loginFailures)
    .where(
      and(
        eq(loginFailures.scope, scope),
        eq(loginFailures.key, key),
        gt(loginFailures.failed_at, sql`now() - make_interval(secs => ${windowSeconds})`),
      ),
    );
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return { count: row?.count ?? 0, oldest };
}

export async function recordFailure(
  executor: Executor,
  tenantId: string,
  entries: Array<{ scope: 'ip' | 'email'; key: string }>,
  windowSeconds: number,
): Promise<void> {
  for (const entry of entries) {
    // Old failures no longer count; drop them as new ones arrive for the key.
    await executor
      .delete(loginFailures)
      .where(
        and(
          eq(loginFailures.scope, entry.scope),
          eq(loginFailures.key, entry.key),
          lt(loginFailures.failed_at, sql`now() - make_interval(secs => ${windowSeconds})`),
        ),
      );
  }
  await executor.insert(loginFailures).values(entries.map((entry) => ({ tenant_id: tenantId, ...entry })));
}

export async function clearFailures(executor: Executor, scope: 'ip' | 'email', key: string): Promise<void> {
  await executor.delete(loginFailures).where(and(eq(loginFailures.scope, scope), eq(loginFailures.key, key)));
}

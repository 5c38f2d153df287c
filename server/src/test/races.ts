/**
 * Races made certain rather than left to timing. `first` runs in a transaction that stays open,
 * holding its row locks, until `second` — started once `first` has done its work — waits for
 * one of those locks (seen in pg_locks) or has finished; then `first` commits and `second`
 * goes on against what it committed.
 */
import { sql } from 'drizzle-orm';
import { query, type Database, type TenantContext, type Tx } from '../db/client.ts';

/** Settled outcome of a promise: its value, or the error it was rejected with. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

const settle = <T>(promise: Promise<T>): Promise<Outcome<T>> =>
  promise.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

export async function whileHeld<A, B>(
  db: Database,
  context: TenantContext,
  first: (tx: Tx) => Promise<A>,
  second: () => Promise<B>,
): Promise<{ first: A; second: B }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let done!: () => void;
  const held = new Promise<void>((resolve) => (done = resolve));
  const firstRun = db.withTenant(context, async (tx) => {
    const value = await first(tx);
    done();
    await gate;
    return value;
  });
  // A first that fails ends the race here, with its error.
  await Promise.race([held, firstRun]);
  let secondSettled = false;
  const secondRun = settle(second()).finally(() => (secondSettled = true));
  while (!secondSettled && !(await lockAwaited(db))) await new Promise((resolve) => setTimeout(resolve, 10));
  release();
  const value = await firstRun;
  const outcome = await secondRun;
  if (!outcome.ok) throw outcome.error;
  return { first: value, second: outcome.value };
}

/**
 * Whether some session on the test database waits for a lock another holds (a row lock is
 * awaited as the holder's transaction id, a lock of no database: hence pg_stat_activity).
 */
async function lockAwaited(db: Database): Promise<boolean> {
  const [row] = await query<{ waiting: boolean }>(
    db.owner,
    sql`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock') AS waiting`,
  );
  return row?.waiting ?? false;
}

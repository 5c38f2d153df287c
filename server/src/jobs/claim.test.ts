/**
 * The claim never takes more jobs than it asks for, whatever plan the database picks: on a
 * jobs table that was never analyzed (the planner guesses one row and once put the
 * `LIMIT … FOR UPDATE SKIP LOCKED` subquery on the inner side of a nested loop, re-running it
 * per row: a claim of 2 took all 200 queued jobs) and with a large queue, a claim of k takes
 * exactly k; a worker never takes its own running job again; and a calm run of 1,000 jobs on
 * four workers over two connection pools runs every job exactly once, no worker ever holding
 * more jobs than its slots. PostgreSQL server only (PGlite has one connection and no planner
 * statistics worth the name).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { openPostgres, query, type Database } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { claimDueJobs } from './jobs.repository.ts';
import { enqueueMany } from './queue.ts';
import { createJobRegistry } from './registry.ts';
import { Worker } from './worker.ts';

const onServer = Boolean(process.env['TEST_DATABASE_URL']);
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const asWorker = { tenantId: null, jobsWorker: true };

async function until<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('claiming jobs', { skip: onServer ? false : 'needs TEST_DATABASE_URL' }, () => {
  let t: TestContext;
  let acme: TenantRow;

  const queueNoops = (count: number) =>
    t.db.withTenant({ tenantId: acme.id }, (tx) => enqueueMany(tx, Array.from({ length: count }, () => ({ name: 'probe.noop' as const, payload: {} }))));
  /** Whether the jobs table has never been analyzed: no row estimate, no statistics. */
  const unanalyzed = async () => {
    const [row] = await query<{ reltuples: number; analyzed: boolean }>(
      t.db.owner,
      sql`SELECT c.reltuples::float8 AS reltuples,
                 (s.last_analyze IS NOT NULL OR s.last_autoanalyze IS NOT NULL OR EXISTS (SELECT 1 FROM pg_statistic WHERE starelid = c.oid)) AS analyzed
          FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = 'jobs'::regclass`,
    );
    return row!.reltuples < 0 && !row!.analyzed;
  };

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    // The test's own database: autovacuum must not analyze the table behind the test's back.
    await t.db.owner.execute(sql`ALTER TABLE jobs SET (autovacuum_enabled = false)`);
  });
  // TRUNCATE, not DELETE: the table is as new again (no pages, no row estimate), as on a fresh database.
  beforeEach(() => t.db.owner.execute(sql`TRUNCATE jobs CASCADE`));
  after(() => t?.close());

  it('takes exactly k of a large queue on a table without statistics', async () => {
    await queueNoops(250);
    assert.ok(await unanalyzed(), 'the jobs table has no statistics');
    for (const k of [2, 1, 5]) {
      const claimed = await t.db.withTenant(asWorker, (tx) => claimDueJobs(tx, ['probe.noop'], k, 30_000));
      assert.equal(claimed.length, k, `a claim of ${k}`);
    }
    const [running] = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM jobs WHERE status = 'running'`);
    assert.equal(running!.n, 8, 'only the claimed jobs run');

    // The rest of the queue, 7 at a time: never more, never a job twice.
    const seen = new Set<string>();
    for (;;) {
      const claimed = await t.db.withTenant(asWorker, (tx) => claimDueJobs(tx, ['probe.noop'], 7, 30_000));
      assert.ok(claimed.length <= 7, `a claim of 7 took ${claimed.length}`);
      for (const job of claimed) {
        assert.ok(!seen.has(job.id), 'claimed twice');
        seen.add(job.id);
      }
      if (claimed.length === 0) break;
    }
    assert.equal(seen.size, 242);
    assert.ok(await unanalyzed(), 'still without statistics at the end');
  });

  it("never takes the worker's own running job again, even once its lease ended", async () => {
    const [id] = await queueNoops(1);
    const [first] = await t.db.withTenant(asWorker, (tx) => claimDueJobs(tx, ['probe.noop'], 1, 30_000));
    assert.equal(first?.id, id);
    await t.db.owner.execute(sql`UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = ${id!}`);
    assert.deepEqual(await t.db.withTenant(asWorker, (tx) => claimDueJobs(tx, ['probe.noop'], 1, 30_000, [id!])), []);
    // Another worker takes it: its lease ended.
    const [again] = await t.db.withTenant(asWorker, (tx) => claimDueJobs(tx, ['probe.noop'], 1, 30_000));
    assert.deepEqual([again?.id, again?.attempts], [id, 2]);
  });

  it('runs 1,000 jobs exactly once on four workers over two pools, none holding more jobs than its slots', async () => {
    const concurrency = 3;
    const runs = new Map<string, number>();
    let second: Database | null = null;
    const workers: Worker[] = [];
    const peaks: number[] = [];
    const workerOn = (db: Database, index: number) => {
      let active = 0;
      peaks[index] = 0;
      const registry = createJobRegistry([
        {
          ...t.engine.jobs,
          'probe.noop': async ({ job }) => {
            active += 1;
            peaks[index] = Math.max(peaks[index]!, active);
            runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
            try {
              await yieldToLoop();
            } finally {
              active -= 1;
            }
          },
        },
      ]);
      return new Worker({ db, files: t.files, registry, concurrency, pollMs: 50, leaseMs: 30_000, log: silent });
    };
    try {
      // The first 200 wait for the workers on a table as new (where the planner's guess is one
      // row); the rest come while they work.
      const ids = await queueNoops(200);
      assert.ok(await unanalyzed(), 'the jobs table has no statistics');
      // A second pool stands for a second process.
      second = await openPostgres(t.databaseUrl!, 5);
      workers.push(workerOn(t.db, 0), workerOn(t.db, 1), workerOn(t.db, 2), workerOn(second, 3));
      await Promise.all(workers.map((worker) => worker.start()));
      for (let batch = 0; batch < 4; batch++) ids.push(...(await queueNoops(200)));
      await until(async () => {
        const [row] = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM jobs WHERE status = 'succeeded'`);
        return row!.n === ids.length;
      });
      await Promise.all(workers.map((worker) => worker.stop()));

      assert.equal(runs.size, ids.length, 'every job ran');
      const twice = [...runs.values()].filter((count) => count > 1).length;
      assert.equal(twice, 0, 'no job ran twice');
      const attempts = await query<{ attempts: number; n: number }>(t.db.owner, sql`SELECT attempts, count(*)::int AS n FROM jobs GROUP BY attempts`);
      assert.deepEqual(attempts, [{ attempts: 1, n: ids.length }], 'one attempt each');
      for (const peak of peaks) assert.ok(peak <= concurrency, `a worker ran ${peak} jobs at once with ${concurrency} slots`);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await second?.close();
    }
  });
});

/**
 * A long job keeps its lease. The attempt's transactions lock its job row FOR KEY SHARE, which
 * keeps claims out (FOR UPDATE) but lets the worker's renewal through: a transaction of the
 * job that lasts longer than the lease sees the lease renewed while it is open, and no other
 * worker takes the job (under FOR SHARE the renewals waited for the job's own transactions,
 * piling up on the pool). A worker never takes its own running job again: one whose event loop
 * was held by synchronous work past the lease carries on in the same attempt (how the 3,000-row
 * import on PGlite could lose "its lease to another worker" three times with one worker: its
 * renewals queued behind its own batches on the single connection, and the worker's next claim
 * could take the job back from itself).
 * A spreadsheet import in batches far longer than a 1 s lease, with a second worker polling,
 * runs in one attempt. PostgreSQL server only (the locks and the planner are the server's).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { ImportReport } from '../contracts.ts';
import { query } from '../db/client.ts';
import { probeJobs } from '../modules/probe/probe.jobs.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { importJobRegistry } from '../test/import-jobs.ts';
import { multipart } from '../test/multipart.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { xlsx } from '../test/xlsx.ts';
import { enqueue } from './queue.ts';
import { createJobRegistry, runnerOf, type JobRegistry } from './registry.ts';
import { Worker } from './worker.ts';

const onServer = Boolean(process.env['TEST_DATABASE_URL']);
const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function until<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('leases of long jobs', { skip: onServer ? false : 'needs TEST_DATABASE_URL' }, () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const workers: Worker[] = [];

  const startWorker = async (registry: JobRegistry, leaseMs: number) => {
    const worker = new Worker({ db: t.db, files: t.files, registry, concurrency: 2, pollMs: 50, leaseMs, log: silent });
    workers.push(worker);
    await worker.start();
    return worker;
  };
  const job = async (id: string) =>
    (await query<{ status: string; attempts: number; error: string | null; result: unknown; lease_until: string | null; runs: number }>(
      t.db.owner,
      sql`SELECT status, attempts, error, result, lease_until::text,
                 (SELECT count(*)::int FROM job_probe_attempts a WHERE a.job_id = j.id) AS runs
          FROM jobs j WHERE id = ${id}`,
    ))[0]!;
  const settled = (id: string) => until(async () => ((await job(id)).status.match(/succeeded|failed/) ? job(id) : null));

  before(async () => {
    t = await createTestApp({ IMPORT_WAIT_SECONDS: '0' });
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
  });
  after(() => t?.close());

  it("renews the lease while a transaction of the job outlasts it, and no worker takes the job", async () => {
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const registry = createJobRegistry([
      {
        ...t.engine.jobs,
        'probe.echo': async (context) => {
          await context.inTenant(async () => {
            inside();
            await released;
          });
          return runnerOf(probeJobs['probe.echo']!)(context);
        },
      },
    ]);
    // Two workers with a 1 s lease, polling every 50 ms: either would take a job whose lease ended.
    await startWorker(registry, 1_000);
    await startWorker(registry, 1_000);
    const id = await t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'probe.echo', payload: { key: 'long transaction', sleep_ms: 0 } }));
    await entered;
    const first = (await job(id)).lease_until!;
    // Renewals while the transaction is open: the lease moves at least three times (well past the
    // first lease) — or a renewal waits for the job's own lock, as it did under FOR SHARE.
    const renewals = new Set<string>([first]);
    let waiting;
    try {
      waiting = await until(async () => {
        const [blocked] = await query<{ n: number }>(
          t.db.owner,
          sql`SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE jobs SET lease_until%'`,
        );
        if (blocked!.n > 0) return { blocked: true };
        renewals.add((await job(id)).lease_until!);
        return renewals.size > 3 ? { blocked: false } : null;
      });
    } finally {
      release();
    }
    assert.equal(waiting.blocked, false, "a renewal waited for the job's own transaction");
    const done = await settled(id);
    assert.deepEqual([done.status, done.attempts, done.runs], ['succeeded', 1, 1], done.error ?? '');
  });

  it('carries on in the same attempt when its event loop was held past the lease, rather than take its own job again', async () => {
    const registry = createJobRegistry([
      {
        ...t.engine.jobs,
        'probe.echo': async (context) => {
          // Synchronous work (a large file parsed at once) holding the event loop for longer than
          // the lease: no renewal runs meanwhile, and the lease ends.
          const deadline = Date.now() + 1_500;
          while (Date.now() < deadline) Math.sqrt(Math.random());
          return runnerOf(probeJobs['probe.echo']!)(context);
        },
      },
    ]);
    // One worker, as on the default setup, with a 1 s lease and free slots, polling every 50 ms.
    await startWorker(registry, 1_000);
    const id = await t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'probe.echo', payload: { key: 'held loop', sleep_ms: 0 } }));
    const done = await settled(id);
    assert.deepEqual([done.status, done.attempts, done.runs], ['succeeded', 1, 1], done.error ?? '');
  });

  it('imports a spreadsheet in one attempt with a 1 s lease, batches far longer than it, and a second worker polling', async () => {
    const rows = [
      ['Name Inc', 'Emails', 'HQ City', 'Visibility'],
      ...Array.from({ length: 600 }, (_, index) => [`Long Import ${String(index + 1).padStart(4, '0')}`, `info${index + 1}@long-import.test`, 'Lisbon', 'public']),
    ];
    const bytes = await xlsx(rows);
    const response = await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/upload/', token: tokens['research'], ...multipart('long.xlsx', bytes) });
    assert.equal(response.statusCode, 202, response.body);
    const id = response.json().job_id as string;
    // All or nothing, staged, in batches of 300 rows (seconds each).
    const registry = importJobRegistry(t.engine, { batchRows: 300 });
    await startWorker(registry, 1_000);
    await startWorker(registry, 1_000);
    const done = await settled(id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.equal(done.attempts, 1, 'one attempt: its lease was never lost');
    assert.equal((done.result as ImportReport).created, 600);
    const [count] = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM organizations WHERE name_inc LIKE 'Long Import %'`),
    );
    assert.equal(count!.n, 600);
  });
});

/**
 * Workers survive a database restart. A loopback proxy (test/pg-proxy.ts) stands between a
 * worker and the test database: `down()` cuts every open connection and refuses new ones,
 * `up()` accepts them again — a restart as the worker sees it. While the database is away the
 * worker keeps running and logs the fault with its reason; once it is back, the worker claims
 * again (the jobs queued meanwhile run), renews the leases of the jobs it was running (they
 * finish in their first attempt) and retries an attempt whose open transaction was cut. The
 * worker process (`npm run worker`) stays up through the outage — it used to end with status 0,
 * unnoticed — and stops with 0 on SIGTERM. PostgreSQL server only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openPostgres, query, type Database } from '../db/client.ts';
import { probeJobs } from '../modules/probe/probe.jobs.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { startPgProxy, type PgProxy } from '../test/pg-proxy.ts';
import { killAll, start } from '../test/processes.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { enqueue } from './queue.ts';
import { createJobRegistry, runnerOf } from './registry.ts';
import { Worker } from './worker.ts';

const onServer = Boolean(process.env['TEST_DATABASE_URL']);

async function until<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Logged {
  level: 'info' | 'warn' | 'error';
  details: Record<string, unknown>;
  message: string;
}

describe('workers across a database restart', { skip: onServer ? false : 'needs TEST_DATABASE_URL' }, () => {
  let t: TestContext;
  let acme: TenantRow;
  let proxy: PgProxy;

  const queue = (key: string) => t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'probe.echo', payload: { key, sleep_ms: 0 } }));
  /** Read on the test's own connection, which the proxy does not cut. */
  const job = async (id: string) =>
    (await query<{ status: string; attempts: number; error: string | null; effects: number; effect_pid: number | null }>(
      t.db.owner,
      sql`SELECT status, attempts, error,
                 (SELECT count(*)::int FROM job_probe_effects e WHERE e.job_id = j.id) AS effects,
                 (SELECT max(e.pid) FROM job_probe_effects e WHERE e.job_id = j.id) AS effect_pid
          FROM jobs j WHERE id = ${id}`,
    ))[0]!;
  const succeeded = (id: string) => until(async () => ((await job(id)).status === 'succeeded' ? job(id) : null));

  before(async () => {
    t = await createTestApp({ JOBS_PROBE: 'on' });
    acme = await t.createTenant('acme');
    proxy = await startPgProxy(t.databaseUrl);
  });
  after(async () => {
    killAll();
    await proxy?.close();
    await t?.close();
  });

  it('keeps a worker running through the outage, logs it, and resumes claiming and renewing when the database is back', async () => {
    const logs: Logged[] = [];
    const record = (level: Logged['level']) => (details: object, message: string) => logs.push({ level, details: details as Record<string, unknown>, message });
    const logged = (level: Logged['level'], pattern: RegExp) => logs.find((entry) => entry.level === level && pattern.test(entry.message));

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const started = new Set<string>();
    const registry = createJobRegistry([
      {
        ...t.engine.jobs,
        'probe.echo': async (context) => {
          started.add(context.payload.key);
          // Waits across the outage outside any transaction: its lease must stay its own.
          if (context.payload.key === 'waiting') await released;
          // Waits across the outage inside a transaction, whose connection is cut under it.
          if (context.payload.key === 'in a transaction') {
            await context.inTenant(async () => {
              started.add('in its transaction');
              await released;
            });
          }
          return runnerOf(probeJobs['probe.echo']!)(context);
        },
      },
    ]);
    let db: Database | null = null;
    let worker: Worker | null = null;
    try {
      db = await openPostgres(proxy.urlFor(t.databaseUrl), 5);
      // A 6 s lease renewed every 2 s: the outage below lasts until a renewal has failed.
      worker = new Worker({ db, files: t.files, registry, concurrency: 3, pollMs: 100, leaseMs: 6_000, log: { info: record('info'), warn: record('warn'), error: record('error') } });
      await worker.start();
      const waiting = await queue('waiting');
      const inTransaction = await queue('in a transaction');
      await until(async () => started.has('waiting') && started.has('in its transaction'));

      await proxy.down();
      const queuedMeanwhile = await queue('queued while the database was away');
      await until(async () => logged('error', /claiming failed/) && logged('warn', /could not renew leases/));
      assert.equal(worker.active, 2, 'the running jobs are still this worker’s');
      await proxy.up();
      release();

      const [a, b, c] = [await succeeded(waiting), await succeeded(inTransaction), await succeeded(queuedMeanwhile)];
      assert.deepEqual([a.attempts, a.effects], [1, 1], 'its lease was renewed once the database was back: one attempt');
      assert.deepEqual([b.attempts, b.effects], [2, 1], 'the attempt whose transaction was cut failed and was retried');
      assert.deepEqual([c.attempts, c.effects], [1, 1]);

      const fault = logged('error', /claiming failed/)!;
      assert.match(String(fault.details['reason']), /ECONNREFUSED|ECONNRESET|terminated/i, 'the fault is logged with its reason');
      assert.equal(fault.details['unreachable'], true);
      for (const entry of logs) assert.doesNotMatch(JSON.stringify(entry.details), /Failed query|params:/, `no statement or parameters in the log: ${entry.message} ${JSON.stringify(entry.details).slice(0, 300)}`);
      assert.ok(logged('info', /claiming resumed/), 'the recovery is logged');
      // The listening connection was lost with the rest and came back by itself.
      assert.ok(logged('warn', /lost the connection that listens/));
      await until(async () => logged('info', /listening for new jobs again/));
    } finally {
      release();
      await proxy.up();
      await worker?.stop();
      await db?.close();
    }
  });

  it('keeps the worker process up through the outage and runs the jobs queued during it', async () => {
    const env = { DATABASE_URL: proxy.urlFor(t.databaseUrl), JOBS_PROBE: 'on', LOG_LEVEL: 'info', JOB_POLL_INTERVAL_MS: '200', JOB_LEASE_MS: '6000' };
    const worker = start(env, 'src/worker.ts');
    const [, pid] = await worker.waitFor(/worker running up to \d+ jobs at once \(pid (\d+)\)/);
    const before = await queue('before the outage');
    assert.equal((await succeeded(before)).effect_pid, Number(pid));

    await proxy.down();
    // Logged with its reason, and still running: a process that ends first fails this wait.
    await worker.waitFor(/"msg":"jobs: claiming failed; trying again with backoff"/);
    assert.match(worker.output(), /"reason":"[^"]*(ECONNREFUSED|ECONNRESET|terminated)/i);
    const during = await queue('during the outage');
    assert.equal(worker.child.exitCode, null, 'the worker is still running');
    await proxy.up();

    assert.equal((await succeeded(during)).effect_pid, Number(pid), 'run by the same process once the database was back');
    await worker.waitFor(/claiming resumed/);
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0);
  });
});

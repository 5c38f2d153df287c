/**
 * Jobs across processes on one PostgreSQL server:
 * two API processes and one worker process. Probe jobs queued through either API
 * run exactly once; after `kill -9` of the worker in the middle of a job and a restart, the
 * job completes once — nothing lost, nothing duplicated.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, TEST_PASSWORD, type TestContext } from '../test/test-app.ts';
import { call, killAll, start } from '../test/processes.ts';


async function until<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('jobs across processes on a PostgreSQL server', () => {
  let t: TestContext;
  let acme: TenantRow;
  let env: Record<string, string>;
  const apis: { port: string; token: string }[] = [];

  const startWorker = async () => {
    // A short lease, so that a killed worker's job is taken again soon.
    const worker = start({ ...env, JOB_LEASE_MS: '2000', WORKER_CONCURRENCY: '4', JOB_POLL_INTERVAL_MS: '500' }, 'src/worker.ts');
    const [, pid] = await worker.waitFor(/worker running up to \d+ jobs at once \(pid (\d+)\)/);
    return { ...worker, pid: Number(pid) };
  };
  const queueVia = async (api: { port: string; token: string }, key: string, sleepMs: number) => {
    const response = await call(api.port, `acme.localhost:${api.port}`, 'POST', '/api/v1/jobs/probe/', { key, sleep_ms: sleepMs }, api.token);
    assert.equal(response.status, 202, JSON.stringify(response.json));
    return response.json.job_id as string;
  };
  const jobs = (ids: string[]) =>
    query<{ id: string; status: string; attempts: number; effects: number; effect_pid: number | null; runs: number }>(
      t.db.owner,
      sql`SELECT j.id, j.status, j.attempts,
                 (SELECT count(*)::int FROM job_probe_effects e WHERE e.job_id = j.id) AS effects,
                 (SELECT max(e.pid) FROM job_probe_effects e WHERE e.job_id = j.id) AS effect_pid,
                 (SELECT count(*)::int FROM job_probe_attempts a WHERE a.job_id = j.id) AS runs
          FROM jobs j WHERE j.id IN (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`,
    );
  const allSucceeded = (ids: string[]) =>
    until(async () => {
      const rows = await jobs(ids);
      return rows.length === ids.length && rows.every((row) => row.status === 'succeeded') ? rows : null;
    });

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    env = { DATABASE_URL: t.databaseUrl, JOBS_PROBE: 'on', LOG_LEVEL: 'warn' };
    const servers = [start({ ...env, PORT: '0' }), start({ ...env, PORT: '0' })];
    for (const server of servers) {
      const [, port] = await server.waitFor(/serving on http:\/\/localhost:(\d+)/);
      const login = await call(port!, `acme.localhost:${port}`, 'POST', '/api/v1/auth/login/', { email: 'admin@acme.test', password: TEST_PASSWORD });
      assert.equal(login.status, 200);
      apis.push({ port: port!, token: login.json.token });
    }
  });
  after(async () => {
    killAll();
    await t?.close();
  });

  it('runs every job queued through either API exactly once, in the worker process', async () => {
    const worker = await startWorker();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await queueVia(apis[i % 2]!, `job ${i}`, i % 4 === 0 ? 200 : 0));
    const rows = await allSucceeded(ids);
    for (const row of rows) {
      assert.equal(row.attempts, 1);
      assert.equal(row.runs, 1);
      assert.equal(row.effects, 1);
      assert.equal(row.effect_pid, worker.pid, 'run by the worker process, not an API process');
    }
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0);
  });

  it('completes a job once after kill -9 of its worker in the middle of it and a restart', async () => {
    const first = await startWorker();
    const long = await queueVia(apis[0]!, 'interrupted', 10_000);
    // The worker has started the job: its first attempt is recorded.
    await until(async () => (await jobs([long]))[0]?.runs === 1);
    first.child.kill('SIGKILL');
    await first.exited;
    // Queued while no worker runs: they wait.
    const waiting = [await queueVia(apis[1]!, 'while down 1', 0), await queueVia(apis[0]!, 'while down 2', 0)];
    assert.ok((await jobs(waiting)).every((row) => row.status === 'queued'));

    const second = await startWorker();
    const rows = await allSucceeded([long, ...waiting]);
    const interrupted = rows.find((row) => row.id === long)!;
    assert.equal(interrupted.attempts, 2, 'taken again once the killed worker’s lease ended');
    assert.equal(interrupted.runs, 2);
    assert.equal(interrupted.effects, 1, 'its effect written once');
    assert.equal(interrupted.effect_pid, second.pid);
    for (const row of rows.filter((row) => row.id !== long)) assert.deepEqual([row.attempts, row.effects], [1, 1]);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });
});

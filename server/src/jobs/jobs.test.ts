/**
 * The job machinery in one process: enqueue in the causing
 * transaction, wake-up, status and progress through the API (tenant-scoped), retries with
 * backoff then `failed`, the time limit, a dead worker's lease, drain, and the registry check.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { jobRegistry } from '../modules/jobs.ts';
import { probeJobs } from '../modules/probe/probe.jobs.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { claimDueJobs, failLostJob, findLostJobs } from './jobs.repository.ts';
import { enqueue, JobPayloadError } from './queue.ts';
import { createJobRegistry, JobRegistryError, JobUserError, runnerOf, UNEXPECTED_FAILURE, type JobHandlers } from './registry.ts';
import { Worker } from './worker.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** Waits for as long as it takes (the test runner's timeout bounds it). */
async function until<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('jobs', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const workers: Worker[] = [];

  const startWorker = async (handlers: JobHandlers = {}, leaseMs = 30_000) => {
    const registry = createJobRegistry([{ ...t.engine.jobs, ...handlers }]);
    const worker = new Worker({ db: t.db, files: t.files, registry, concurrency: 2, pollMs: 200, leaseMs, log: silent });
    workers.push(worker);
    await worker.start();
    return worker;
  };
  const stopWorkers = async () => {
    for (const worker of workers.splice(0)) await worker.stop();
  };
  const row = async (id: string) =>
    (await query<{ status: string; attempts: number; error: string | null; result: unknown; percent: number | null; stage: string | null }>(
      t.db.owner,
      sql`SELECT status, attempts, error, result, percent, stage FROM jobs WHERE id = ${id}`,
    ))[0]!;
  const queue = (payload = { key: 'k', sleep_ms: 0 }) =>
    t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'probe.echo', payload }));
  const settled = (id: string) => until(async () => ((await row(id)).status.match(/succeeded|failed/) ? row(id) : null));

  before(async () => {
    t = await createTestApp({ JOBS_PROBE: 'on' });
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  afterEach(stopWorkers);
  after(() => t.close());

  it('refuses to start when a job type has no handler, or a handler has no job type', () => {
    assert.doesNotThrow(() => jobRegistry(t.engine));
    assert.throws(() => createJobRegistry([{ 'probe.noop': probeJobs['probe.noop'] }]), (error: Error) =>
      error instanceof JobRegistryError && /without a handler: probe\.echo/.test(error.message));
    assert.throws(() => createJobRegistry([probeJobs, { 'probe.noop': async () => {} }]), /two handlers/);
    assert.throws(() => createJobRegistry([probeJobs, { nope: async () => {} } as unknown as JobHandlers]), /not a job type/);
  });

  it('checks the payload at enqueue, and a job exists only if the transaction that queued it commits', async () => {
    await assert.rejects(
      t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'probe.echo', payload: { key: '', sleep_ms: -1 } })),
      (error: Error) => error instanceof JobPayloadError && /\/key/.test(error.message) && /\/sleep_ms/.test(error.message),
    );
    await assert.rejects(
      t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        await enqueue(tx, { name: 'probe.echo', payload: { key: 'rolled back', sleep_ms: 0 } });
        throw new Error('the causing write failed');
      }),
    );
    const [count] = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM jobs`);
    assert.equal(count!.n, 0);
  });

  it('runs a queued job once, with its progress and outcome readable by its tenant only', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await startWorker({
      'probe.echo': async (context) => {
        await context.progress('halfway', 50);
        await gate;
        return runnerOf(probeJobs['probe.echo']!)(context);
      },
    });
    const queued = await t.request(acme, { method: 'POST', url: '/api/v1/jobs/probe/', token: tokens.admin, payload: { key: 'api', sleep_ms: 0 } });
    assert.equal(queued.statusCode, 202);
    const id = queued.json().job_id as string;

    const read = (token: string | undefined, tenant: TenantRow | string = acme, jobId = id) =>
      t.request(tenant, { method: 'GET', url: `/api/v1/jobs/${jobId}/`, token });
    const running = await until(async () => {
      const response = await read(tokens.research);
      return response.json().percent === 50 ? (response.json() as Record<string, unknown>) : null;
    });
    assert.equal(running.status, 'running');
    assert.equal(running.stage, 'halfway');
    assert.equal(running.attempts, 1);

    assert.equal((await read(tokens.beta, 'beta')).statusCode, 404, "another tenant's job is not found");
    assert.equal((await read(tokens.paywall)).statusCode, 403);
    assert.equal((await read(undefined)).statusCode, 401);
    assert.equal((await read(tokens.admin, acme, 'not-a-uuid')).statusCode, 400);

    release();
    await settled(id);
    const done = (await read(tokens.admin)).json();
    assert.equal(done.status, 'succeeded');
    assert.equal(done.percent, 100);
    assert.deepEqual(done.result, { key: 'api' });
    assert.ok(done.finished_at);
    const effects = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM job_probe_effects WHERE job_id = ${id}`);
    assert.equal(effects[0]!.n, 1);
  });

  it('retries a failing job with growing waits, then fails it with the reason', async () => {
    const attempts: number[] = [];
    const id = await queue();
    // probe.echo's backoff starts at 1 s; three attempts keep the test short.
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 3 WHERE id = ${id}`);
    await startWorker({
      'probe.echo': async ({ job }) => {
        attempts.push(Date.now());
        throw new Error(`broken on attempt ${job.attempt}`);
      },
    });
    const final = await settled(id);
    assert.equal(final.status, 'failed');
    assert.equal(final.attempts, 3);
    assert.equal(final.error, 'broken on attempt 3');
    assert.equal(attempts.length, 3);
    // Each retry waited at least its backoff (1 s, then 2 s): a lower bound, never an upper one.
    assert.ok(attempts[1]! - attempts[0]! >= 900 && attempts[2]! - attempts[1]! >= 1900, `waits: ${attempts}`);
  });

  it('stops an attempt at its time limit, even when the handler ignores its signal', async () => {
    const id = await queue();
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1, timeout_ms = 200 WHERE id = ${id}`);
    await startWorker({ 'probe.echo': () => new Promise(() => {}) });
    const final = await settled(id);
    assert.equal(final.status, 'failed');
    assert.equal(final.error, 'timed out after 200 ms');
  });

  it("takes a job again when its worker died (the lease ended), and fails it when that was the last attempt", async () => {
    const retried = await queue({ key: 'retried', sleep_ms: 0 });
    const lost = await queue({ key: 'lost', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${lost}`);
    // A worker claims both with a 1 s lease and dies: nothing renews or settles them.
    const claimed = await t.db.withTenant({ tenantId: null, jobsWorker: true }, (tx) => claimDueJobs(tx, ['probe.echo'], 10, 1_000));
    assert.equal(claimed.length, 2);
    await startWorker();
    const done = await settled(retried);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempts, 2);
    const failed = await settled(lost);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /attempt 1 of 1 did not finish: its worker stopped/);
  });

  it('never claims a running job on its last attempt again; it is failed once, in its tenant', async () => {
    const lost = await queue({ key: 'last attempt', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${lost}`);
    const worker = { tenantId: null, jobsWorker: true };
    const [claimed] = await t.db.withTenant(worker, (tx) => claimDueJobs(tx, ['probe.echo'], 10, 30_000));
    assert.equal(claimed?.id, lost);
    // Its worker died: the lease ended.
    await t.db.owner.execute(sql`UPDATE jobs SET lease_until = now() - interval '1 minute' WHERE id = ${lost}`);
    assert.deepEqual(await t.db.withTenant(worker, (tx) => claimDueJobs(tx, ['probe.echo'], 10, 30_000)), []);
    assert.deepEqual([(await row(lost)).status, (await row(lost)).attempts], ['running', 1]);
    const found = await t.db.withTenant(worker, (tx) => findLostJobs(tx));
    assert.deepEqual(found.map((job) => job.id), [lost]);
    const tenant = { tenantId: found[0]!.tenant_id };
    // Two workers failing it at once: one of them does.
    const outcomes = await Promise.all([t.db.withTenant(tenant, (tx) => failLostJob(tx, lost)), t.db.withTenant(tenant, (tx) => failLostJob(tx, lost))]);
    assert.equal(outcomes.filter(Boolean).length, 1);
    assert.deepEqual([(await row(lost)).status, (await row(lost)).attempts], ['failed', 1]);
  });

  it("runs the type's failure handler once, in the transaction that fails the job for good — after a last failed attempt and after a lost worker", async () => {
    const effects = async (id: string) =>
      (await query<{ key: string }>(t.db.owner, sql`SELECT key FROM job_probe_effects WHERE job_id = ${id}`)).map((effect) => effect.key);
    const calls: string[] = [];
    const failing: JobHandlers = {
      'probe.echo': {
        // What users may read (JobUserError) is passed on; a driver's text is not.
        run: async ({ payload }) => {
          if (payload.key === 'internal') throw new Error('relation "secret_table" does not exist');
          throw new JobUserError('the file is corrupt');
        },
        failed: async ({ tx, actor }, failure) => {
          calls.push(failure.job.id);
          await tx.execute(sql`INSERT INTO job_probe_effects (tenant_id, job_id, key, pid) VALUES (${actor.tenantId}, ${failure.job.id}, ${failure.reason}, 0)`);
        },
      },
    };
    // The lost one: claimed by a worker that dies (its 1 s lease ends).
    const lost = await queue({ key: 'lost', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${lost}`);
    const [claimed] = await t.db.withTenant({ tenantId: null, jobsWorker: true }, (tx) => claimDueJobs(tx, ['probe.echo'], 1, 1_000));
    assert.equal(claimed?.id, lost);
    const failed = await queue({ key: 'failing', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 2 WHERE id = ${failed}`);
    const internal = await queue({ key: 'internal', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${internal}`);
    await startWorker(failing);
    assert.equal((await settled(failed)).status, 'failed');
    assert.equal((await settled(lost)).status, 'failed');
    const internalJob = await settled(internal);
    await until(async () => calls.length >= 3 || null);
    assert.deepEqual(await effects(failed), ['the file is corrupt']);
    assert.match((await effects(lost))[0]!, /did not finish: its worker stopped/);
    assert.deepEqual(await effects(internal), [UNEXPECTED_FAILURE]);
    assert.equal(internalJob.error, 'relation "secret_table" does not exist', "the job's record keeps the text");
    assert.deepEqual(calls.sort(), [failed, lost, internal].sort(), 'once per job, only when it failed for good');
  });

  it("records a query error by the driver's message (the log gives the same reason), without the statement or its parameters", async () => {
    const id = await queue({ key: 'query error', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${id}`);
    const driverError = Object.assign(new Error('value too long for type character varying(5)'), { code: '22001' });
    await startWorker({
      'probe.echo': async () => {
        throw new DrizzleQueryError('UPDATE users SET token_hash = $1', ['a-token-hash'], driverError);
      },
    });
    const final = await settled(id);
    assert.deepEqual([final.status, final.error], ['failed', 'value too long for type character varying(5)']);
  });

  it('records the failure even when the failure handler throws', async () => {
    const id = await queue({ key: 'handler throws', sleep_ms: 0 });
    await t.db.owner.execute(sql`UPDATE jobs SET max_attempts = 1 WHERE id = ${id}`);
    await startWorker({
      'probe.echo': {
        run: async () => {
          throw new Error('no');
        },
        failed: async ({ tx }) => {
          await tx.execute(sql`SELECT 1/0`);
        },
      },
    });
    const final = await settled(id);
    assert.deepEqual([final.status, final.error], ['failed', 'no']);
  });

  it('keeps a running job by renewing its lease, and drains running jobs on stop', async () => {
    // A 1 s lease renewed every third of it, for a job that works 2.5 s: no other worker takes it.
    const first = await startWorker({}, 1_000);
    const second = await startWorker({}, 1_000);
    const id = await queue({ key: 'long', sleep_ms: 2_500 });
    await until(async () => (await row(id)).status === 'running');
    await Promise.all([first.stop(), second.stop()]);
    workers.splice(0);
    const final = await row(id);
    assert.equal(final.status, 'succeeded', 'stop waited for the running job');
    assert.equal(final.attempts, 1);
    const [runs] = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM job_probe_attempts WHERE job_id = ${id}`);
    assert.equal(runs!.n, 1);
  });

  it('runs at most perWorker jobs of a type at once in one process (rawdata.process: 1), other types in its other slots', async () => {
    let processing = 0;
    let mostProcessing = 0;
    let echoBesideProcessing = false;
    const handlers: JobHandlers = {
      'rawdata.process': async () => {
        processing += 1;
        mostProcessing = Math.max(mostProcessing, processing);
        await new Promise((resolve) => setTimeout(resolve, 300));
        processing -= 1;
        return {};
      },
      'probe.echo': async (context) => {
        if (processing > 0) echoBesideProcessing = true;
        return runnerOf(probeJobs['probe.echo']!)(context);
      },
    };
    const items = [];
    for (let index = 0; index < 3; index++) {
      items.push(await t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'rawdata.process', payload: { item_id: crypto.randomUUID() } })));
    }
    const echo = await queue({ key: 'beside', sleep_ms: 0 });
    await startWorker(handlers);
    for (const id of items) assert.equal((await settled(id)).status, 'succeeded');
    assert.equal((await settled(echo)).status, 'succeeded');
    assert.equal(mostProcessing, 1, 'two files were never read at once in one process');
    assert.ok(echoBesideProcessing, 'another type ran in the free slot meanwhile');
  });

  it('past its memory mark, finishes the jobs it runs, claims no more, and says so (the process then starts afresh)', async () => {
    const registry = createJobRegistry([t.engine.jobs]);
    const reached: number[] = [];
    const logged: string[] = [];
    // A mark of one byte: any process is above it once a job ends.
    const worker = new Worker({
      db: t.db, files: t.files, registry, concurrency: 2, pollMs: 200, leaseMs: 30_000,
      log: { ...silent, info: (_details, message) => logged.push(message) },
      memoryMark: { bytes: 1, reached: (rss) => reached.push(rss) },
    });
    workers.push(worker);
    const short = await queue({ key: 'short', sleep_ms: 0 });
    const long = await queue({ key: 'long', sleep_ms: 1_500 });
    await worker.start();
    await until(async () => reached.length === 1);
    assert.equal((await row(short)).status, 'succeeded');
    assert.equal((await row(long)).status, 'succeeded', 'the job running when the mark was passed finished first');
    assert.ok(reached[0]! > 1);
    assert.ok(logged.some((message) => /memory above the mark/.test(message)));
    const next = await queue({ key: 'after', sleep_ms: 0 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal((await row(next)).status, 'queued', 'a worker past its mark claims nothing more');
    assert.equal(reached.length, 1);
  });
});

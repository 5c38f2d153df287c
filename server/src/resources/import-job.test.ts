/**
 * Spreadsheet uploads are imported by a worker (resources/import-job.ts). The request waits
 * for the job a while (IMPORT_WAIT_SECONDS) and answers its report, or 202 when the job
 * outlasts the wait; the job's result is then the report the request would have given for the
 * same file, rows are written once even when an attempt dies after its first batch, all or
 * nothing stays all or nothing, a file the import cannot take is refused at once with the
 * request's 4xx, the stored file is held while the job waits and let go when it ends, and
 * another tenant cannot read the job. Here `t` does not wait at all (every upload answers
 * 202) and batches are 3 rows, so small files take every path; `sync` waits as by default.
 *
 * All or nothing works in short staged transactions (staging.ts): while such a job waits
 * between batches the app answers and shows nothing of the import — no new row, no edit, no count, no history; an
 * error in the last batch leaves nothing; an attempt that dies between batches (its lease
 * taken away, so not even its own clean-up runs) leaves hidden rows that the retry discards
 * before writing each row once.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { ImportReport, Job } from '../contracts.ts';
import { query } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { multipart } from '../test/multipart.ts';
import { importJobRegistry } from '../test/import-jobs.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { xlsx } from '../test/xlsx.ts';

const ORGS = '/api/v1/assets/organizations';

/** Organizations named `<prefix> 01…`, one with a bad email address when `badRow` is given (a data row index, 1-based). */
const orgRows = (prefix: string, count: number, badRow?: number) => [
  ['Name Inc', 'Emails', 'HQ City', 'Visibility', 'Favourite colour'],
  ...Array.from({ length: count }, (_, index) => [
    `${prefix} ${String(index + 1).padStart(2, '0')}`,
    index + 1 === badRow ? 'not-an-email' : `info${index + 1}@${prefix.toLowerCase().replace(/\W+/g, '')}.test`,
    'Lisbon',
    'public',
    'blue',
  ]),
];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('spreadsheet imports as jobs', () => {
  let t: TestContext;
  /** The same app waiting as by default, with a worker: the request's own answer for the same files. */
  let sync: TestContext;
  let acme: TenantRow;
  let syncTenant: TenantRow;
  let tokens: Record<string, string | undefined>;
  let syncToken: string;
  /** Files (by SHA-256) whose job's first attempt dies after its first batch. */
  const crashAfterFirstBatch = new Set<string>();
  /** Files whose job's first attempt loses its lease after this many batches, as when its worker is killed: it cleans up nothing. */
  const killAfterBatches = new Map<string, number>();
  /** Files whose job waits after its first batch until the test lets it go on. */
  const pauseAfterFirstBatch = new Map<string, { reached: () => void; release: Promise<void> }>();
  const batchesDone = new Map<string, number>();

  before(async () => {
    t = await createTestApp({ IMPORT_WAIT_SECONDS: '0' });
    sync = await createTestApp();
    await sync.startWorker();
    ({ acme, tokens } = await t.signInTwoTenants());
    syncTenant = await sync.createTenant('acme');
    await sync.createUser(syncTenant, 'research@acme.test', { is_research: true });
    syncToken = await sync.login(syncTenant, 'research@acme.test');
  });
  after(async () => {
    await t?.close();
    await sync?.close();
  });

  /** Batches of 3 rows; an attempt can be made to die once after its first batch. */
  const startWorker = () =>
    t.startWorker({
      registry: importJobRegistry(t.engine, {
        batchRows: 3,
        afterBatch: async ({ job, payload }) => {
          if (job.attempt === 1 && crashAfterFirstBatch.delete(payload.sha256)) throw new Error('the worker died after the first batch');
          const attempt = `${job.id}/${job.attempt}`;
          batchesDone.set(attempt, (batchesDone.get(attempt) ?? 0) + 1);
          const pause = pauseAfterFirstBatch.get(payload.sha256);
          if (pause && batchesDone.get(attempt) === 1) {
            pauseAfterFirstBatch.delete(payload.sha256);
            pause.reached();
            await pause.release;
          }
          if (job.attempt === 1 && killAfterBatches.get(payload.sha256) === batchesDone.get(attempt)) {
            killAfterBatches.delete(payload.sha256);
            assert.ok((await stagedLeft(job.id)).rows > 0, 'the batches so far are staged');
            // Another worker takes the job at once; this attempt can no longer write anything, its clean-up included.
            await t.db.owner.execute(sql`UPDATE jobs SET lease_token = gen_random_uuid(), lease_until = now() WHERE id = ${job.id}`);
            throw new Error('the worker was killed');
          }
        },
      }),
    });

  const upload = (app: TestContext, tenant: TenantRow, token: string | undefined, filename: string, bytes: Buffer, partial: boolean) =>
    app.request(tenant, { method: 'POST', url: `${ORGS}/upload/?partial=${partial}`, token, ...multipart(filename, bytes) });

  const job = async (id: string, token = tokens['research']) => t.request(acme, { method: 'GET', url: `/api/v1/jobs/${id}/`, token });

  /** Waits for the job to end (the test runner's timeout bounds it) and returns it. */
  const finished = async (id: string): Promise<Job> => {
    for (;;) {
      const response = await job(id);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json() as Job;
      if (body.status === 'succeeded' || body.status === 'failed') return body;
      await sleep(50);
    }
  };

  /** What the request answers for the same file when it waits for its job (200 or a 400 import_failed with the report). */
  const syncReport = async (filename: string, bytes: Buffer, partial: boolean): Promise<ImportReport> => {
    const response = await upload(sync, syncTenant, syncToken, filename, bytes, partial);
    if (response.statusCode === 200) return response.json() as ImportReport;
    assert.equal(response.statusCode, 400, response.body);
    return response.json().report as ImportReport;
  };

  const namesLike = async (prefix: string) =>
    (
      await t.db.withTenant({ tenantId: acme.id }, (tx) =>
        query<{ name_inc: string }>(tx, sql`SELECT name_inc FROM organizations WHERE name_inc LIKE ${`${prefix} %`} ORDER BY name_inc`),
      )
    ).map((row) => row.name_inc);

  /** The organizations' total as the list reports it (from the counters). */
  const total = async () => {
    const response = await t.request(acme, { method: 'GET', url: `${ORGS}/?limit=1`, token: tokens['admin'] });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().count as number;
  };

  const createOrg = async (values: Record<string, unknown>) => {
    const response = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens['research'], payload: { visibility: 'public', ...values } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };

  const getOrg = async (id: string) => (await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/`, token: tokens['admin'] })).json();

  const historyOf = async (id: string) =>
    ((await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/history/`, token: tokens['admin'] })).json().results as Array<{ action: string }>).map(
      (entry) => entry.action,
    );

  /** What a job's stage holds, seen by the database owner (row-level security does not hide it there). */
  const stagedLeft = async (jobId?: string) => {
    const [row] = await query<{ rows: number; audit: number; edits: number; stages: number }>(
      t.db.owner,
      sql`SELECT (SELECT count(*)::int FROM organizations WHERE staged_by IS NOT NULL AND (${jobId ?? null}::uuid IS NULL OR staged_by = ${jobId ?? null}::uuid)) AS rows,
                 (SELECT count(*)::int FROM audit_entries WHERE staged_by IS NOT NULL) AS audit,
                 (SELECT count(*)::int FROM import_staged_updates) AS edits,
                 (SELECT count(*)::int FROM import_stages) AS stages`,
    );
    return row!;
  };

  const heldFile = async (jobId: string) =>
    (await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ file_sha256: string | null }>(tx, sql`SELECT file_sha256 FROM jobs WHERE id = ${jobId}`)))[0]!
      .file_sha256;

  it('answers the report when the job ends within the wait; else 202, holding the stored file while the job waits', async () => {
    const small = await upload(sync, syncTenant, syncToken, 'small.csv', Buffer.from('name_inc\nSmall One\nSmall Two\n'), false);
    assert.equal(small.statusCode, 200, small.body);
    assert.equal(small.json().created, 2);

    const bytes = await xlsx(orgRows('Waiting Org', 6));
    const response = await upload(t, acme, tokens['research'], 'waiting.xlsx', bytes, true);
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(Object.keys(response.json()).sort(), ['job_id', 'status']);
    assert.equal(response.json().status, 'queued');
    const id = response.json().job_id as string;
    assert.equal(await heldFile(id), sha256(bytes));
    // No worker runs yet: the sweep, however old it takes the file to be, leaves it alone.
    assert.equal((await t.files.sweep({ olderThanMs: 0, tenantId: acme.id, sha256: [sha256(bytes)] })).files, 0);

    await startWorker();
    const done = await finished(id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.equal(done.percent, 100);
    assert.equal((done.result as ImportReport).created, 6);
    assert.equal(await heldFile(id), null, 'the job lets go of its file when it ends');
    assert.equal((await t.files.sweep({ olderThanMs: 0, tenantId: acme.id, sha256: [sha256(bytes)] })).files, 1);
  });

  it('keeping good rows: writes each row once, reports what the request reports, and the audit log names the uploader', async () => {
    const bytes = await xlsx(orgRows('Partial Org', 11, 4));
    const response = await upload(t, acme, tokens['research'], 'partial.xlsx', bytes, true);
    assert.equal(response.statusCode, 202, response.body);
    const done = await finished(response.json().job_id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const report = done.result as ImportReport;
    assert.deepEqual(report, await syncReport('partial.xlsx', bytes, true));
    assert.equal(report.created, 10);
    assert.equal(report.failed, 1);
    assert.equal(report.errors[0]!.row, 5);
    assert.equal(report.errors[0]!.field, 'emails');
    assert.deepEqual(report.unmatched_columns, ['Favourite colour']);
    assert.equal((await namesLike('Partial Org')).length, 10);

    const [record] = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query<{ id: string }>(tx, sql`SELECT id FROM organizations WHERE name_inc = 'Partial Org 01'`),
    );
    const history = await t.request(acme, { method: 'GET', url: `${ORGS}/${record!.id}/history/`, token: tokens['admin'] });
    assert.equal(history.statusCode, 200, history.body);
    const [created] = history.json().results;
    assert.equal(created.action, 'create');
    assert.equal(created.actor, 'system');
    assert.equal(created.on_behalf_of?.email, 'research@acme.test');
  });

  it('a job whose attempt dies after its first batch carries on after it: nothing is written twice', async () => {
    const bytes = Buffer.from(orgRows('Retried Org', 8, 7).map((row) => row.join(',')).join('\n') + '\n');
    crashAfterFirstBatch.add(sha256(bytes));
    const response = await upload(t, acme, tokens['research'], 'retried.csv', bytes, true);
    assert.equal(response.statusCode, 202, response.body);
    const done = await finished(response.json().job_id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.equal(done.attempts, 2, 'the first attempt failed after its first batch');
    const names = await namesLike('Retried Org');
    assert.equal(names.length, 7);
    assert.equal(new Set(names).size, 7, 'each row once');
    const report = done.result as ImportReport;
    assert.deepEqual(report, await syncReport('retried.csv', bytes, true));
    assert.equal(report.created, 7);
    assert.equal(report.updated, 0, 'the retry did not take the first batch for existing records');
  });

  it('all or nothing: one bad row writes nothing and the report says which; a good file is written once', async () => {
    const bad = await xlsx(orgRows('Refused Org', 9, 8));
    const refused = await upload(t, acme, tokens['research'], 'refused.xlsx', bad, false);
    assert.equal(refused.statusCode, 202, refused.body);
    const failed = await finished(refused.json().job_id);
    assert.equal(failed.status, 'succeeded', 'the job ran; its report says nothing was imported');
    const report = failed.result as ImportReport;
    assert.equal(report.rolled_back, true);
    assert.equal(report.created, 0);
    assert.deepEqual(report.errors.map((error) => error.row), [9]);
    assert.deepEqual(report, await syncReport('refused.xlsx', bad, false));
    assert.deepEqual(await namesLike('Refused Org'), []);

    const good = await xlsx(orgRows('Whole Org', 7));
    crashAfterFirstBatch.add(sha256(good));
    const accepted = await upload(t, acme, tokens['research'], 'whole.xlsx', good, false);
    const done = await finished(accepted.json().job_id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.deepEqual(done.result, await syncReport('whole.xlsx', good, false));
    assert.equal((await namesLike('Whole Org')).length, 7);
  });

  it('a sheet the import cannot take is refused at once: the request answers its 400, a job followed later fails with the same answer', async () => {
    const unmatched = Buffer.from('colour,size\nblue,3\n');
    const answered = await upload(sync, syncTenant, syncToken, 'unmatched.csv', unmatched, false);
    assert.equal(answered.statusCode, 400, answered.body);
    assert.equal(answered.json().code, 'invalid');
    assert.match(answered.json().errors.file[0], /^No column matches a field/);

    const response = await upload(t, acme, tokens['research'], 'unmatched.csv', unmatched, false);
    assert.equal(response.statusCode, 202, response.body);
    const done = await finished(response.json().job_id);
    assert.equal(done.status, 'failed');
    assert.equal(done.attempts, 1, 'not retried: no attempt could take the file');
    assert.deepEqual(done.result, { status: 400, error: answered.json() });
    assert.equal(done.error, answered.json().detail);
  });

  it("another tenant's user cannot read the job (404), nor can a reader", async () => {
    const response = await upload(t, acme, tokens['research'], 'private.xlsx', await xlsx(orgRows('Private Org', 6)), true);
    const id = response.json().job_id as string;
    assert.equal((await t.request('beta', { method: 'GET', url: `/api/v1/jobs/${id}/`, token: tokens['beta'] })).statusCode, 404);
    assert.equal((await job(id, tokens['paywall'])).statusCode, 403);
    assert.equal((await finished(id)).status, 'succeeded');
  });

  it('all or nothing in short transactions: the app answers while the job runs, and shows nothing of the import until it is all written', async () => {
    const existing = await createOrg({ name_inc: 'Staged Org 02', notes: 'there before' });
    const before = await total();
    const bytes = await xlsx(orgRows('Staged Org', 10));
    let reached!: () => void;
    const paused = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    pauseAfterFirstBatch.set(sha256(bytes), { reached, release: new Promise<void>((resolve) => (release = resolve)) });
    const response = await upload(t, acme, tokens['research'], 'staged.xlsx', bytes, false);
    assert.equal(response.statusCode, 202, response.body);
    const id = response.json().job_id as string;

    await paused;
    // The job has written its first batch (a new record, and an edit of the existing one) and
    // waits: requests answer now, not after it, and none of it shows.
    const running = (await job(id)).json() as Job;
    assert.equal(running.status, 'running');
    assert.ok((running.percent ?? 0) > 0, 'the percent moves between batches');
    const list = await t.request(acme, { method: 'GET', url: `${ORGS}/?search=Staged&limit=50`, token: tokens['admin'] });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(list.json().results.map((row: { name_inc: string }) => row.name_inc), ['Staged Org 02']);
    assert.equal(await total(), before, 'staged rows are not counted');
    const shown = await getOrg(existing);
    assert.deepEqual(shown.emails, [], 'the edit is not seen');
    assert.equal(shown.hq_city, null);
    assert.deepEqual(await historyOf(existing), ['create'], 'nor its audit entry');
    assert.ok((await stagedLeft(id)).rows >= 2, 'the first batch is written, staged');
    release();

    const done = await finished(id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const report = done.result as ImportReport;
    assert.equal(report.created, 9);
    assert.equal(report.updated, 1);
    assert.equal(await total(), before + 9);
    assert.equal((await namesLike('Staged Org')).length, 10);
    const edited = await getOrg(existing);
    assert.deepEqual(edited.emails, ['info2@stagedorg.test']);
    assert.equal(edited.notes, 'there before');
    assert.deepEqual(await historyOf(existing), ['update', 'create']);
    assert.deepEqual(await stagedLeft(), { rows: 0, audit: 0, edits: 0, stages: 0 });
  });

  it('all or nothing: an error in the last batch leaves no row, no edit, and the counts as they were', async () => {
    const existing = await createOrg({ name_inc: 'Lastbatch Org 01', notes: 'untouched' });
    const before = await total();
    const bytes = await xlsx(orgRows('Lastbatch Org', 9, 9));
    const response = await upload(t, acme, tokens['research'], 'lastbatch.xlsx', bytes, false);
    assert.equal(response.statusCode, 202, response.body);
    const done = await finished(response.json().job_id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    const report = done.result as ImportReport;
    assert.equal(report.rolled_back, true);
    assert.deepEqual(report.errors.map((error) => [error.row, error.field]), [[10, 'emails']], 'the last row, in the last of three batches');
    assert.deepEqual(await namesLike('Lastbatch Org'), ['Lastbatch Org 01']);
    assert.equal(await total(), before);
    const shown = await getOrg(existing);
    assert.deepEqual(shown.emails, []);
    assert.equal(shown.hq_city, null);
    assert.deepEqual(await historyOf(existing), ['create']);
    assert.deepEqual(await stagedLeft(), { rows: 0, audit: 0, edits: 0, stages: 0 });
  });

  it('all or nothing: an attempt killed after its second batch leaves only hidden rows, which the retry discards before writing each row once', async () => {
    const existing = await createOrg({ name_inc: 'Killed Org 05', emails: ['old@killed.test'] });
    const before = await total();
    // The last row edits the record the first row created, two batches earlier.
    const rows = [...orgRows('Killed Org', 10), ['Killed Org 01', 'extra@killedorg.test', '', '', '']];
    const bytes = Buffer.from(rows.map((row) => row.join(',')).join('\n') + '\n');
    killAfterBatches.set(sha256(bytes), 2);
    const response = await upload(t, acme, tokens['research'], 'killed.csv', bytes, false);
    assert.equal(response.statusCode, 202, response.body);
    const done = await finished(response.json().job_id);
    assert.equal(done.status, 'succeeded', done.error ?? '');
    assert.equal(done.attempts, 2, 'the first attempt was killed');
    const report = done.result as ImportReport;
    assert.equal(report.created, 9);
    assert.equal(report.updated, 2);
    const names = await namesLike('Killed Org');
    assert.equal(names.length, 10);
    assert.equal(new Set(names).size, 10, 'each row once');
    assert.equal(await total(), before + 9);
    assert.deepEqual((await getOrg(existing)).emails, ['old@killed.test', 'info5@killedorg.test'], 'the edit applied once');
    const [first] = await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ emails: string[] }>(tx, sql`SELECT emails FROM organizations WHERE name_inc = 'Killed Org 01'`));
    assert.deepEqual(first!.emails, ['info1@killedorg.test', 'extra@killedorg.test']);
    assert.deepEqual(await historyOf(existing), ['update', 'create']);
    assert.deepEqual(await stagedLeft(), { rows: 0, audit: 0, edits: 0, stages: 0 });
  });
});

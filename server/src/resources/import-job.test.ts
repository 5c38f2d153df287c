/**
 * Uploads past IMPORT_JOB_ROWS import as a job (resources/import-job.ts): 202, the job's
 * result is the report the request would have given for the same file, rows are written
 * once even when an attempt dies after its first batch, all or nothing stays all or nothing,
 * the stored file is held while the job waits and let go when it ends, and another tenant
 * cannot read the job. The threshold is 5 rows here and batches are 3 rows, so small files
 * take every path.
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
  /** The same app with the default threshold: the synchronous answer for the same files. */
  let sync: TestContext;
  let acme: TenantRow;
  let syncTenant: TenantRow;
  let tokens: Record<string, string | undefined>;
  let syncToken: string;
  /** Files (by SHA-256) whose job's first attempt dies after its first batch. */
  const crashAfterFirstBatch = new Set<string>();

  before(async () => {
    t = await createTestApp({ IMPORT_JOB_ROWS: '5' });
    sync = await createTestApp();
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
      registry: importJobRegistry({
        batchRows: 3,
        afterBatch: async ({ job, payload }) => {
          if (job.attempt === 1 && crashAfterFirstBatch.delete(payload.sha256)) throw new Error('the worker died after the first batch');
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

  /** What the request answers for the same file when it is small enough (200 or a 400 import_failed with the report). */
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

  const heldFile = async (jobId: string) =>
    (await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ file_sha256: string | null }>(tx, sql`SELECT file_sha256 FROM jobs WHERE id = ${jobId}`)))[0]!
      .file_sha256;

  it('answers 202 past the threshold and holds the stored file while the job waits; small files keep the synchronous answer', async () => {
    const small = await upload(t, acme, tokens['research'], 'small.csv', Buffer.from('name_inc\nSmall One\nSmall Two\n'), false);
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

  it("another tenant's user cannot read the job (404), nor can a reader", async () => {
    const response = await upload(t, acme, tokens['research'], 'private.xlsx', await xlsx(orgRows('Private Org', 6)), true);
    const id = response.json().job_id as string;
    assert.equal((await t.request('beta', { method: 'GET', url: `/api/v1/jobs/${id}/`, token: tokens['beta'] })).statusCode, 404);
    assert.equal((await job(id, tokens['paywall'])).statusCode, 403);
    assert.equal((await finished(id)).status, 'succeeded');
  });
});

/**
 * A job writes through the engine like a person does: a handler run by the worker creates,
 * edits and merges organizations through the engine context the worker gives it
 * (`context.inTenant`: the job's tenant, a system actor acting for the user who queued the
 * job), and the records' history shows each write, attributed to that user. A job whose user
 * is disabled before it runs fails without running.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { organizations } from '../modules/organizations/organizations.resource.ts';
import { MergeService } from '../resources/merge.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { enqueue } from './queue.ts';
import { createJobRegistry } from './registry.ts';
import { Worker } from './worker.ts';

describe('a job writing through the engine', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('creates, edits and merges records with a system actor, and history shows it', async () => {
    const { acme, tokens } = await t.signInTwoTenants();
    const [admin] = await query<{ id: string; email: string }>(t.db.owner, sql`SELECT id, email FROM users WHERE email = 'admin@acme.test'`);
    const service = t.engine.services.get(organizations.kind);
    const merges = new MergeService(service);
    const ids: { survivor?: string; other?: string } = {};

    const registry = createJobRegistry([
      {
        ...t.engine.jobs,
        // This test's handler for the probe type: the engine's writes, one transaction each.
        'probe.echo': async ({ job, actor, inTenant }) => {
          if (job.createdBy !== admin!.id) throw new Error('queued by someone else');
          assert.deepEqual(actor, { kind: 'system', tenantId: acme.id, access: 'admin', onBehalfOf: { id: admin!.id, email: admin!.email } });
          const survivor = await inTenant((ctx) => service.create(ctx, { name_inc: 'Northwind Trading', hq_city: 'Oslo', visibility: 'paywalled' }));
          const other = await inTenant((ctx) => service.create(ctx, { name_inc: 'Northwind Trading AS', notes: 'found by a job', visibility: 'paywalled' }));
          await inTenant((ctx) => service.update(ctx, String(survivor['id']), { hq_city: 'Bergen' }));
          await inTenant((ctx) => merges.merge(ctx, String(survivor['id']), { other: other['id'] }));
          ids.survivor = String(survivor['id']);
          ids.other = String(other['id']);
          return { survivor: survivor['id'] };
        },
      },
    ]);
    const worker = new Worker({ db: t.db, files: t.files, registry, concurrency: 1, pollMs: 200, leaseMs: 30_000, log: { info: () => {}, warn: () => {}, error: () => {} } });
    await worker.start();
    try {
      const id = await t.db.withTenant({ tenantId: acme.id }, (tx) => enqueue(tx, { name: 'probe.echo', payload: { key: 'engine', sleep_ms: 0 }, createdBy: admin!.id }));
      for (;;) {
        const job = await t.request(acme, { method: 'GET', url: `/api/v1/jobs/${id}/`, token: tokens.admin });
        if (job.json().status === 'succeeded') break;
        assert.notEqual(job.json().status, 'failed', job.body);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      // Queued by a user who is disabled before it runs: failed at its first claim, not run.
      const [research] = await query<{ id: string }>(t.db.owner, sql`SELECT id FROM users WHERE email = 'research@acme.test'`);
      const refused = await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        const jobId = await enqueue(tx, { name: 'probe.echo', payload: { key: 'disabled', sleep_ms: 0 }, createdBy: research!.id });
        await tx.execute(sql`UPDATE users SET disabled = true WHERE id = ${research!.id}`);
        return jobId;
      });
      for (;;) {
        const job = (await t.request(acme, { method: 'GET', url: `/api/v1/jobs/${refused}/`, token: tokens.admin })).json();
        if (job.status === 'failed') {
          assert.equal(job.attempts, 1, 'no retries: no attempt could run it');
          assert.match(job.error, /no longer has an account/);
          break;
        }
        assert.notEqual(job.status, 'succeeded');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await worker.stop();
    }

    const record = await t.request(acme, { method: 'GET', url: `/api/v1/assets/organizations/${ids.survivor}/`, token: tokens.admin });
    assert.equal(record.statusCode, 200);
    assert.equal(record.json().hq_city, 'Bergen');
    assert.equal(record.json().notes, 'found by a job');
    const history = (await t.request(acme, { method: 'GET', url: `/api/v1/assets/organizations/${ids.survivor}/history/`, token: tokens.admin })).json().results;
    assert.deepEqual(history.map((entry: { action: string }) => entry.action), ['merge', 'update', 'create']);
    assert.equal(history[0].merged_id, ids.other);
    for (const entry of history) {
      assert.equal(entry.actor, 'system', 'written by the job, not by a person');
      assert.equal(entry.on_behalf_of?.email, 'admin@acme.test', 'on behalf of the user who queued the job');
    }
  });
});

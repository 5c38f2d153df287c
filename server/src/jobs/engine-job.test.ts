/**
 * A job writes through the engine like a person does: a handler run by the worker creates,
 * edits and merges organizations with a system actor acting for the user who queued the job,
 * and the records' history shows each write, attributed to that user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { CATALOG } from '../modules/registry.ts';
import { organizations } from '../modules/organizations/organizations.resource.ts';
import { jobRegistry } from '../modules/jobs.ts';
import { inTenant, systemActor } from '../resources/context.ts';
import { MergeService } from '../resources/merge.ts';
import { ResourceService } from '../resources/service.ts';
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
    const service = new ResourceService(organizations, CATALOG);
    const merges = new MergeService(service);
    const ids: { survivor?: string; other?: string } = {};

    const registry = createJobRegistry([
      {
        ...jobRegistry(),
        // This test's handler for the probe type: the engine's writes, one transaction each.
        'probe.echo': async ({ job, db }) => {
          const onBehalfOf = job.createdBy ? { id: admin!.id, email: admin!.email, access: 'admin' as const } : null;
          const actor = systemActor(job.tenantId, onBehalfOf);
          const survivor = await inTenant(db, actor, (ctx) => service.create(ctx, { name_inc: 'Northwind Trading', hq_city: 'Oslo', visibility: 'paywalled' }));
          const other = await inTenant(db, actor, (ctx) => service.create(ctx, { name_inc: 'Northwind Trading AS', notes: 'found by a job', visibility: 'paywalled' }));
          await inTenant(db, actor, (ctx) => service.update(ctx, String(survivor['id']), { hq_city: 'Bergen' }));
          await inTenant(db, actor, (ctx) => merges.merge(ctx, String(survivor['id']), { other: other['id'] }));
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

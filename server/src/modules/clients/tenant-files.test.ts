/**
 * A deleted tenant's stored files leave the store: the deletion (DELETE clients/{id}/) queues
 * `clients.remove_files` in the manager's tenant in its own transaction, and a worker then
 * removes the tenant's bytes — after the tenant row is gone — leaving every other tenant's.
 * On the local driver and on the S3 driver (s3rver), on whichever database the tests use.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { Worker } from '../../jobs/worker.ts';
import { FileStore, type StoredFile } from '../../storage/files.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { testDrivers } from '../../test/storage-drivers.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe("a deleted tenant's files", () => {
  let t: TestContext;
  let main: TenantRow;
  let manager: string;
  const drivers = testDrivers();

  before(async () => {
    t = await createTestApp();
    main = await t.createTenant('default', { isDefault: true });
    await t.createUser(main, 'root@main.test', { is_admin: true });
    manager = await t.login(main, 'root@main.test');
  });
  after(() => t?.close());

  for (const [kind, makeDriver] of drivers) {
    it(`are removed from the ${kind} store by a job once the deletion has committed`, async () => {
      const driver = makeDriver();
      const store = new FileStore(driver, t.db);
      try {
        const doomed = await t.createTenant(`doomed-${kind}`);
        const kept = await t.createTenant(`kept-${kind}`);
        const put = (tenant: TenantRow, text: string): Promise<StoredFile> => store.put(tenant.id, Readable.from([Buffer.from(text)]));
        const doomedFiles = [await put(doomed, `first ${kind}`), await put(doomed, `second ${kind}`)];
        const keptFile = await put(kept, `first ${kind}`);

        const deleted = await t.request(main, { method: 'DELETE', url: `/api/v1/clients/${doomed.id}/?confirm=${doomed.code}`, token: manager });
        assert.equal(deleted.statusCode, 200, deleted.body);
        assert.equal(deleted.json().deleted['stored_files'], 2);
        // The rows are gone with the tenant; the bytes wait for the job.
        for (const file of doomedFiles) assert.equal(await store.exists(file.key), true);

        // Queued in the manager's tenant, which outlives the deleted one.
        const [job] = await query<{ id: string; tenant_id: string; status: string }>(
          t.db.owner,
          sql`SELECT id, tenant_id, status FROM jobs WHERE name = 'clients.remove_files' AND payload->>'tenant_id' = ${doomed.id}`,
        );
        assert.ok(job, 'the deletion queued the job');
        assert.equal(job.tenant_id, main.id);
        assert.equal(job.status, 'queued');

        const worker = new Worker({ db: t.db, files: store, registry: t.engine.jobs, concurrency: 1, pollMs: 100, leaseMs: 30_000, log: silent });
        await worker.start();
        try {
          for (;;) {
            const [row] = await query<{ status: string; result: unknown; error: string | null }>(
              t.db.owner,
              sql`SELECT status, result, error FROM jobs WHERE id = ${job.id}`,
            );
            assert.notEqual(row!.status, 'failed', row!.error ?? '');
            if (row!.status === 'succeeded') {
              assert.deepEqual(row!.result, { removed: 2 });
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          await worker.stop();
        }
        for (const file of doomedFiles) assert.equal(await store.exists(file.key), false);
        assert.equal(await store.exists(keptFile.key), true, "another tenant's copy of the same bytes stays");

        // Run again (a retry after a crash): nothing left, nothing else touched.
        assert.equal(await store.removeDeletedTenant(doomed.id), 0);
        assert.equal(await store.exists(keptFile.key), true);
      } finally {
        driver.close();
      }
    });
  }
});

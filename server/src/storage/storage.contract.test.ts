/**
 * One contract, two drivers: every test here runs against the local folder
 * driver and against the S3 driver talking to a real S3-protocol server
 * (s3rver) on loopback — the driver interface itself, then the file store
 * (content addressing, sniffing, limits, the sweep) on top of each.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { APP_ROLE, query } from '../db/client.ts';
import { testDrivers } from '../test/storage-drivers.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { insertTenant } from '../tenancy/tenants.repository.ts';
import { fileKey, FileStore, sweepPeriodically, type SweepResult } from './files.ts';
import { FileNotFoundError, FileTooLargeError, RangeNotSatisfiableError, StorageError, type StorageDriver } from './storage.ts';

const MiB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sha256Of(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** `size` random bytes made on the fly in 64 KiB chunks, never whole in memory; `digest()` once consumed. */
function generated(size: number) {
  const hash = createHash('sha256');
  let digest: string | null = null;
  async function* chunks() {
    for (let sent = 0; sent < size; ) {
      const chunk = randomBytes(Math.min(64 * 1024, size - sent));
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
    digest = hash.digest('hex');
  }
  return { stream: Readable.from(chunks()), digest: () => digest };
}

/** A stream that sends `before` and then fails. */
function failing(before: Buffer, message = 'client went away'): Readable {
  return new Readable({
    read() {
      if (before.length > 0 && !this.readableEnded) {
        this.push(Buffer.from(before));
        before = Buffer.alloc(0);
      } else {
        this.destroy(new Error(message));
      }
    },
  });
}

/** Removes every staged object (a cutoff in the future) and says how many there were. */
const stagedLeft = (driver: StorageDriver) => driver.sweepStaged(-60_000);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

let testDb: TestDatabase;
const drivers = testDrivers();

before(async () => {
  testDb = await createTestDatabase();
  // A table that uses files, as raw data items will: a foreign key to stored_files.
  for (const statement of [
    `CREATE TABLE file_users (
       tenant_id uuid NOT NULL,
       id uuid NOT NULL DEFAULT gen_random_uuid(),
       file_sha256 text NOT NULL,
       PRIMARY KEY (tenant_id, id),
       FOREIGN KEY (tenant_id, file_sha256) REFERENCES stored_files (tenant_id, sha256)
     )`,
    `SELECT enable_tenant_isolation('file_users')`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON file_users TO ${APP_ROLE}`,
  ]) {
    await testDb.db.owner.execute(sql.raw(statement));
  }
});

after(async () => {
  await testDb?.close();
});

for (const [kind, makeDriver] of drivers) {
  describe(`storage driver: ${kind}`, () => {
    let driver: StorageDriver;
    before(async () => {
      driver = makeDriver();
      await driver.check();
    });
    after(() => driver.close());

    const put = async (key: string, bytes: Buffer) => driver.commit(await driver.stage(Readable.from([bytes])), key);

    it('stores, stats, reads whole and in ranges, and deletes', async () => {
      const bytes = Buffer.from('0123456789abcdefghij');
      await put('contract/a/object', bytes);
      assert.equal(await driver.exists('contract/a/object'), true);
      const info = await driver.stat('contract/a/object');
      assert.ok(info);
      assert.equal(info.size, 20);
      assert.ok(info.modifiedAt instanceof Date);
      assert.deepEqual(await readAll(await driver.get('contract/a/object')), bytes);
      assert.equal((await readAll(await driver.get('contract/a/object', { start: 0, end: 9 }))).toString(), '0123456789');
      assert.equal((await readAll(await driver.get('contract/a/object', { start: 15 }))).toString(), 'fghij');
      assert.equal((await readAll(await driver.get('contract/a/object', { start: 18, end: 500 }))).toString(), 'ij');
      await assert.rejects(driver.get('contract/a/object', { start: 20 }), RangeNotSatisfiableError);
      await driver.delete('contract/a/object');
      assert.equal(await driver.exists('contract/a/object'), false);
      assert.equal(await stagedLeft(driver), 0);
    });

    it('reports a missing key clearly, and deleting it is no error', async () => {
      await assert.rejects(driver.get('contract/missing'), (error) => error instanceof FileNotFoundError && error.key === 'contract/missing');
      await assert.rejects(driver.get('contract/missing', { start: 3 }), FileNotFoundError);
      assert.equal(await driver.stat('contract/missing'), null);
      assert.equal(await driver.exists('contract/missing'), false);
      await driver.delete('contract/missing');
    });

    it('refuses keys that could leave the storage area', async () => {
      for (const key of ['../escape', 'a/../../b', '/absolute', 'a//b', '.staging/x', 'a\u0000b', 'a\\b', '', 'a/']) {
        await assert.rejects(driver.get(key), StorageError, key);
        await assert.rejects(driver.delete(key), StorageError, key);
      }
      await assert.rejects(driver.get('contract/x', { start: -1 }), StorageError);
      await assert.rejects(driver.get('contract/x', { start: 5, end: 2 }), StorageError);
    });

    it('replaces an object whole on a second commit', async () => {
      await put('contract/replace', Buffer.from('first version'));
      await put('contract/replace', Buffer.from('second'));
      assert.equal((await readAll(await driver.get('contract/replace'))).toString(), 'second');
      await driver.delete('contract/replace');
    });

    it('leaves nothing behind when the incoming stream fails', async () => {
      await assert.rejects(driver.stage(failing(randomBytes(256 * 1024))), /client went away/);
      assert.equal(await stagedLeft(driver), 0);
    });

    it('deletes every object under a prefix, and nothing beside it', async () => {
      await put('purge/a/one', Buffer.from('one'));
      await put('purge/b/two', Buffer.from('two'));
      await put('purged/a/kept', Buffer.from('a sibling whose name starts the same'));
      assert.equal(await driver.deleteUnder('purge'), 2);
      assert.equal(await driver.exists('purge/a/one'), false);
      assert.equal(await driver.exists('purge/b/two'), false);
      assert.equal(await driver.exists('purged/a/kept'), true);
      assert.equal(await driver.deleteUnder('purge'), 0, 'again: nothing left, no error');
      for (const prefix of ['..', '', '.staging', 'a/../b']) await assert.rejects(driver.deleteUnder(prefix), StorageError, prefix);
      await driver.delete('purged/a/kept');
    });

    it('sweeps staged objects only once they are old enough', async () => {
      const staged = await driver.stage(Readable.from([Buffer.from('abandoned')]));
      assert.equal(await driver.sweepStaged(3_600_000), 0);
      assert.equal(await stagedLeft(driver), 1);
      await driver.discard(staged);
    });
  });

  describe(`file store over ${kind}`, () => {
    let driver: StorageDriver;
    let store: FileStore;
    let tenantA: string;
    let tenantB: string;

    before(async () => {
      driver = makeDriver();
      store = new FileStore(driver, testDb.db);
      const create = (code: string) =>
        testDb.db.withTenant({ tenantId: null, manageTenants: true }, (tx) => insertTenant(tx, { code, name: code }));
      tenantA = (await create(`${kind}-a`)).id;
      tenantB = (await create(`${kind}-b`)).id;
    });
    after(() => driver.close());

    const rows = (tenantId: string) =>
      testDb.db.withTenant({ tenantId }, (tx) =>
        query<{ sha256: string; size: string; content_type: string }>(tx, sql`SELECT sha256, size::text, content_type FROM stored_files ORDER BY sha256`),
      );

    it('streams a file larger than a multipart part, hashing and sizing it on the way', async () => {
      const source = generated(12 * MiB + 123);
      const stored = await store.put(tenantA, source.stream);
      assert.equal(stored.sha256, source.digest());
      assert.equal(stored.size, 12 * MiB + 123);
      assert.equal(stored.key, fileKey(tenantA, stored.sha256));
      assert.match(stored.key, new RegExp(`^${tenantA}/${stored.sha256.slice(0, 2)}/${stored.sha256}$`));
      assert.equal(stored.type, 'application/octet-stream');
      assert.equal(stored.created, true);
      assert.equal((await store.stat(stored.key))?.size, stored.size);
      assert.deepEqual(await sha256Of(await store.get(stored.key)), { sha256: stored.sha256, size: stored.size });
      const tail = await readAll(await store.get(stored.key, { start: stored.size - 10 }));
      assert.equal(tail.length, 10);
      assert.equal(await stagedLeft(driver), 0);
    });

    it('stores the same bytes once per tenant, and separately for another tenant', async () => {
      const first = await store.put(tenantA, Readable.from([PDF]));
      const again = await store.put(tenantA, Readable.from([PDF]));
      const other = await store.put(tenantB, Readable.from([PDF]));
      assert.equal(first.type, 'application/pdf');
      assert.equal(first.ext, 'pdf');
      assert.equal(first.created, true);
      assert.equal(again.created, false);
      assert.equal(again.key, first.key);
      assert.equal(other.created, true);
      assert.notEqual(other.key, first.key);
      assert.equal(other.sha256, first.sha256);
      assert.equal((await rows(tenantA)).filter((row) => row.sha256 === first.sha256).length, 1);
      assert.deepEqual(
        (await rows(tenantB)).map(({ sha256, size, content_type }) => ({ sha256, size, content_type })),
        [{ sha256: first.sha256, size: String(PDF.length), content_type: 'application/pdf' }],
      );
      assert.equal(await stagedLeft(driver), 0);
    });

    it('stores concurrent puts of the same content once', async () => {
      const bytes = randomBytes(300 * 1024);
      const results = await Promise.all(Array.from({ length: 5 }, () => store.put(tenantA, Readable.from([bytes]))));
      assert.equal(new Set(results.map((result) => result.key)).size, 1);
      assert.equal(results.filter((result) => result.created).length, 1);
      assert.deepEqual(await readAll(await store.get(results[0]!.key)), bytes);
      assert.equal((await rows(tenantA)).filter((row) => row.sha256 === results[0]!.sha256).length, 1);
      assert.equal(await stagedLeft(driver), 0);
    });

    it('refuses a file over the limit and stores nothing of it', async () => {
      const before = await rows(tenantA);
      const source = generated(6 * MiB);
      await assert.rejects(store.put(tenantA, source.stream, { maxBytes: 5 * MiB }), (error) => error instanceof FileTooLargeError && error.limitBytes === 5 * MiB);
      assert.deepEqual(await rows(tenantA), before);
      assert.equal(await stagedLeft(driver), 0);
      // Exactly at the limit is fine.
      const exact = await store.put(tenantA, Readable.from([randomBytes(1024)]), { maxBytes: 1024 });
      assert.equal(exact.size, 1024);
    });

    it('stores nothing when the incoming stream fails, and reports its error', async () => {
      const before = await rows(tenantA);
      await assert.rejects(store.put(tenantA, failing(randomBytes(7 * MiB))), /client went away/);
      assert.deepEqual(await rows(tenantA), before);
      assert.equal(await stagedLeft(driver), 0);
    });

    it('sweeps files no row uses once the grace period has passed, and only those', async () => {
      const unused = await store.put(tenantB, Readable.from([Buffer.from(`unused ${kind}`)]));
      const used = await store.put(tenantB, Readable.from([Buffer.from(`used ${kind}`)]));
      await testDb.db.withTenant({ tenantId: tenantB }, (tx) => query(tx, sql`INSERT INTO file_users (tenant_id, file_sha256) VALUES (${tenantB}, ${used.sha256})`));

      // Within the grace period nothing goes, used or not.
      assert.equal((await store.sweep({ olderThanMs: 3_600_000, tenantId: tenantB })).files, 0);
      await testDb.db.owner.execute(sql`UPDATE stored_files SET last_stored_at = now() - interval '2 hours' WHERE tenant_id = ${tenantB}`);

      const swept = await store.sweep({ olderThanMs: 3_600_000, tenantId: tenantB });
      // The PDF of the dedupe test is unused too.
      assert.equal(swept.files, 2);
      assert.equal(await store.exists(unused.key), false);
      assert.equal(await store.exists(used.key), true);
      assert.deepEqual((await rows(tenantB)).map((row) => row.sha256), [used.sha256]);

      // A used file cannot be removed under its row, and a removed one cannot be used.
      await assert.rejects(
        testDb.db.withTenant({ tenantId: tenantB }, (tx) => query(tx, sql`INSERT INTO file_users (tenant_id, file_sha256) VALUES (${tenantB}, ${unused.sha256})`)),
        (error) => (error as { cause?: { code?: string } }).cause?.code === '23503',
      );

      // Once its row is gone, it goes too.
      await testDb.db.withTenant({ tenantId: tenantB }, (tx) => query(tx, sql`DELETE FROM file_users WHERE file_sha256 = ${used.sha256}`));
      assert.deepEqual(await store.sweep({ olderThanMs: 3_600_000, tenantId: tenantB, sha256: [used.sha256] }), { files: 1, staged: 0 });
      assert.equal(await store.exists(used.key), false);
      assert.deepEqual(await rows(tenantB), []);

      // Put again after a sweep, the bytes are there again.
      const back = await store.put(tenantB, Readable.from([Buffer.from(`used ${kind}`)]));
      assert.equal(back.created, true);
      assert.equal((await readAll(await store.get(back.key))).toString(), `used ${kind}`);
    });

    it("removes a deleted tenant's files, and refuses while the tenant exists", async () => {
      const gone = (await testDb.db.withTenant({ tenantId: null, manageTenants: true }, (tx) => insertTenant(tx, { code: `${kind}-gone`, name: 'Gone' }))).id;
      const files = [await store.put(gone, Readable.from([Buffer.from(`gone one ${kind}`)])), await store.put(gone, Readable.from([PDF]))];
      const other = await store.put(tenantA, Readable.from([PDF]));
      await assert.rejects(store.removeDeletedTenant(gone), /still exists/);
      assert.equal(await store.exists(files[0]!.key), true);

      await testDb.db.owner.execute(sql`DELETE FROM stored_files WHERE tenant_id = ${gone}`);
      await testDb.db.owner.execute(sql`DELETE FROM tenants WHERE id = ${gone}`);
      assert.equal(await store.removeDeletedTenant(gone), 2);
      for (const file of files) assert.equal(await store.exists(file.key), false);
      assert.equal(await store.exists(other.key), true, 'the same bytes of another tenant stay');
      assert.equal(await store.removeDeletedTenant(gone), 0);
      await assert.rejects(store.removeDeletedTenant('not-a-tenant'), StorageError);
    });

    it('sweeps at once and on an interval when started, and stops cleanly', async () => {
      const leftover = await store.put(tenantB, Readable.from([Buffer.from(`leftover ${kind}`)]));
      await testDb.db.owner.execute(sql`UPDATE stored_files SET last_stored_at = now() - interval '2 hours' WHERE tenant_id = ${tenantB}`);
      const results: SweepResult[] = [];
      const stop = sweepPeriodically(store, { graceMs: 3_600_000, intervalMs: 60_000 }, {
        swept: (result) => results.push(result),
        failed: (error) => assert.fail(error as Error),
      });
      await stop();
      assert.deepEqual(results, [{ files: 2, staged: 0 }]);
      assert.equal(await store.exists(leftover.key), false);
    });
  });
}

/**
 * A multipart upload to S3 that does not complete is aborted, never left in the bucket
 * (s3.ts, docs/storage.md): a body that fails after more than one part, the size limit, a part
 * or the completion refused by the store, lib-storage's own abort failing, a client gone
 * mid-upload through the API, and an upload a killed process left (the sweep). Checked
 * against s3rver on loopback through the S3 API itself: ListMultipartUploads and
 * ListObjectsV2 (test/s3-server.ts adds the multipart listing and abort s3rver lacks).
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { query } from '../db/client.ts';
import { multipart } from '../test/multipart.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { createTestApp, hostOf, type TestContext } from '../test/test-app.ts';
import { FileStore } from './files.ts';
import { S3Driver } from './s3.ts';
import { FileTooLargeError, type StagedObject } from './storage.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';

const MiB = 1024 * 1024;

/** `size` random bytes in 64 KiB chunks; then the end, or with `fail` an error as a client gone would cause. */
function randomStream(size: number, { fail = false } = {}): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) {
        if (fail) this.destroy(new Error('client went away'));
        else this.push(null);
        return;
      }
      const chunk = randomBytes(Math.min(64 * 1024, size - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** The S3 driver, with every stage it began, settled or not (what a request left running). */
class ObservedS3Driver extends S3Driver {
  readonly stages: Array<Promise<unknown>> = [];
  override stage(body: Readable): Promise<StagedObject> {
    const staged = super.stage(body);
    this.stages.push(staged.catch(() => undefined));
    return staged;
  }
}

describe('S3: a multipart upload that does not complete is aborted', () => {
  let s3: TestS3Server;
  let client: S3Client;
  let driver: ObservedS3Driver;
  let bucket: string;

  /** What ListMultipartUploads answers: the pending uploads' keys. */
  const pendingUploads = async () =>
    ((await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).map((upload) => upload.Key);
  /** What ListObjectsV2 answers: every object's key. */
  const objectKeys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((object) => object.Key);
  /** Runs `fn`, which must begin a multipart upload, and asserts nothing of it is left. */
  const assertNothingLeft = async (what: string, fn: () => Promise<unknown>) => {
    const begun = s3.initiated;
    await fn();
    assert.ok(s3.initiated > begun, `${what}: a multipart upload was begun`);
    assert.deepEqual(await pendingUploads(), [], `${what}: no pending multipart upload`);
    assert.deepEqual(await objectKeys(), [], `${what}: no object`);
  };

  before(async () => {
    s3 = await startS3Server();
    bucket = s3.settings.bucket;
    const { accessKeyId, secretAccessKey } = s3.settings;
    client = new S3Client({
      region: s3.settings.region,
      endpoint: s3.settings.endpoint!,
      forcePathStyle: true,
      credentials: { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    driver = new ObservedS3Driver(s3.settings);
  });
  after(async () => {
    driver?.close();
    client?.destroy();
    await s3?.close();
  });

  it('the test server lists pending multipart uploads and aborts them, as S3 does', async () => {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'probe/one' }));
    assert.deepEqual(await pendingUploads(), ['probe/one']);
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'probe/one', UploadId }));
    assert.deepEqual(await pendingUploads(), []);
    await assert.rejects(client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'probe/one', UploadId })), { name: 'NoSuchUpload' });
  });

  it('a body that fails after more than one part', async () => {
    await assertNothingLeft('body failed', () => assert.rejects(driver.stage(randomStream(7 * MiB, { fail: true })), /client went away/));
  });

  it('the store refusing a part, and then completing', async () => {
    s3.failNext('UploadPart');
    await assertNothingLeft('part refused', () => assert.rejects(driver.stage(randomStream(12 * MiB))));
    s3.failNext('CompleteMultipartUpload');
    await assertNothingLeft('completion refused', () => assert.rejects(driver.stage(randomStream(6 * MiB))));
  });

  it("lib-storage's own abort failing: the driver aborts again", async () => {
    s3.failNext('UploadPart');
    s3.failNext('AbortMultipartUpload');
    await assertNothingLeft('abort refused once', () => assert.rejects(driver.stage(randomStream(12 * MiB))));
  });

  describe('through the file store and the API', () => {
    let testDb: TestDatabase;
    before(async () => {
      testDb = await createTestDatabase();
    });
    after(() => testDb?.close());

    it('the size limit tripping mid-upload', async () => {
      const store = new FileStore(driver, testDb.db);
      await assertNothingLeft('too large', () =>
        assert.rejects(store.put(randomUUID(), randomStream(12 * MiB), { maxBytes: 7 * MiB }), (error) => error instanceof FileTooLargeError),
      );
    });

    it("a client gone mid-upload through the API, and a part the store refuses there (a 500, not the client's 400)", async () => {
      let t: TestContext | undefined;
      try {
        t = await createTestApp({}, undefined, driver);
        const acme = await t.createTenant('acme');
        await t.createUser(acme, 'research@acme.test', { is_research: true });
        const token = await t.login(acme, 'research@acme.test');
        const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
        const stagesBefore = driver.stages.length;

        await assertNothingLeft('client gone', async () => {
          const boundary = 'faults-s3-abort';
          const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
          socket.on('error', () => {});
          await new Promise((resolve) => socket.once('connect', resolve));
          const partStored = s3.partStored();
          // Should the server answer before a part is stored (a refused request), the test fails rather than waits.
          const answered = new Promise<string>((resolve) => {
            let text = '';
            socket.on('data', (data: Buffer) => (text += data.toString()));
            socket.on('close', () => resolve(text));
          });
          socket.write(
            `POST /api/v1/raw-data/upload/ HTTP/1.1\r\nHost: ${hostOf(acme)}\r\nAuthorization: Bearer ${token}\r\n` +
              `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${40 * MiB}\r\n\r\n` +
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          );
          socket.write(randomBytes(7 * MiB));
          // The first part is in the bucket: the upload is multipart and under way. Then the client goes.
          const early = await Promise.race([partStored.then(() => null), answered]);
          if (early !== null) assert.fail(`the server answered before a part was stored: ${early.slice(0, 500)}`);
          socket.destroy();
          assert.equal(driver.stages.length, stagesBefore + 1);
          await Promise.all(driver.stages);
        });
        // The store refusing a part of an upload through the API: the server's failure (5xx), not the client's.
        s3.failNext('UploadPart');
        await assertNothingLeft('part refused under the API', async () => {
          const response = await t!.request(acme, { method: 'POST', url: '/api/v1/raw-data/upload/', token, ...multipart('large.bin', randomBytes(7 * MiB)) });
          assert.equal(response.statusCode, 500, response.body);
        });
        const stored = await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM stored_files`));
        assert.deepEqual(stored, [{ n: 0 }]);
      } finally {
        await t?.close();
      }
    });
  });

  it('the sweep aborts an upload a killed process left under .staging/, only once it is old enough, and nothing else', async () => {
    const staged = `.staging/${randomUUID()}`;
    const left = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: staged }));
    await client.send(new UploadPartCommand({ Bucket: bucket, Key: staged, UploadId: left.UploadId, PartNumber: 1, Body: randomBytes(5 * MiB) }));
    const other = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'not-staging/x' }));

    assert.equal(await driver.sweepStaged(3_600_000), 0, 'a fresh upload may still be running');
    assert.deepEqual((await pendingUploads()).sort(), [staged, 'not-staging/x'].sort());
    assert.equal(await driver.abortAbandonedUploads(-60_000), 1);
    assert.deepEqual(await pendingUploads(), ['not-staging/x']);

    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: 'not-staging/x', UploadId: other.UploadId }));
  });
});

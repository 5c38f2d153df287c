/**
 * receiveUpload through the real app (multipart plugin, error handler,
 * tenancy) on a route registered for the test, storing into the local driver.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { query } from '../db/client.ts';
import { createTestApp, hostOf, type TestContext } from '../test/test-app.ts';
import { multipart, multipartForm } from '../test/multipart.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { FileStore } from './files.ts';
import { LocalDriver } from './local.ts';
import { sanitizeFilename, receiveUpload } from './upload.ts';

const LIMIT = 64 * 1024;
const ROUTE = '/api/v1/test-upload/';

let ctx: TestContext;
let store: FileStore;
let dir: string;
let tenant: TenantRow;

/** Waits, without a deadline of its own, until `check` holds (the test runner's timeout bounds it). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(50);
}

const stagedFiles = async () => {
  try {
    return await readdir(path.join(dir, '.staging'));
  } catch {
    return [];
  }
};
const storedRows = () =>
  ctx.db.withTenant({ tenantId: tenant.id }, (tx) => query<{ sha256: string }>(tx, sql`SELECT sha256 FROM stored_files ORDER BY sha256`));

before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-upload-'));
  ctx = await createTestApp({}, (app) => {
    const querystring = Type.Object({ max: Type.Optional(Type.Integer({ minimum: 1, default: 1 })) }, { additionalProperties: false });
    app.withTypeProvider<TypeBoxTypeProvider>().post(ROUTE, { schema: { querystring } }, async (request) => {
      const maxFiles = request.query.max ?? 1;
      return receiveUpload(request, store, {
        tenantId: request.tenant!.id,
        maxFileBytes: LIMIT,
        maxFiles,
        fileFields: ['file', 'attachment'],
        maxFields: 3,
      });
    });
  });
  store = new FileStore(new LocalDriver(dir), ctx.db);
  tenant = await ctx.createTenant('acme');
});

after(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const post = (body: { payload: Buffer; headers: Record<string, string> }, url = ROUTE) =>
  ctx.request(tenant, { method: 'POST', url, payload: body.payload, headers: body.headers });

describe('receiveUpload', () => {
  it('stores a file under its hash and sniffs its type from the bytes, not from the client', async () => {
    const response = await post(multipart('report.png', 'plain words, not an image', { contentType: 'image/png' }));
    assert.equal(response.statusCode, 200, response.body);
    const [file] = response.json().files;
    assert.equal(file.filename, 'report.png');
    assert.equal(file.field, 'file');
    assert.equal(file.type, 'text/plain');
    assert.equal(file.size, 25);
    assert.match(file.sha256, /^[0-9a-f]{64}$/);
    assert.equal(file.key, `${tenant.id}/${file.sha256.slice(0, 2)}/${file.sha256}`);
    assert.equal(await store.exists(file.key), true);
  });

  it('returns text fields beside the files', async () => {
    const response = await post(
      multipartForm([
        { field: 'title', content: 'Quarterly notes' },
        { field: 'attachment', filename: 'q3.csv', content: 'a,b\n1,2\n' },
      ]),
    );
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().fields, { title: 'Quarterly notes' });
    assert.equal(response.json().files[0].type, 'text/csv');
    assert.equal(response.json().files[0].field, 'attachment');
  });

  it('keeps only a plain name of a hostile file name', async () => {
    const names: Array<[string, string]> = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\win.ini', 'win.ini'],
      ['/absolute/path/notes.txt', 'notes.txt'],
      ['..', 'file'],
      ['.hidden', 'hidden'],
      ['invoice\u202Etxt.exe', 'invoicetxt.exe'],
    ];
    for (const [raw, safe] of names) {
      const response = await post(multipart(raw, `content of ${raw}`));
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().files[0].filename, safe, raw);
    }
    // Nothing was written outside the store's folder layout: tenant folders and staging only.
    assert.deepEqual((await readdir(dir)).sort(), ['.staging', tenant.id].sort());
    assert.equal(sanitizeFilename(`${'a'.repeat(300)}.pdf`).length, 255);
    assert.ok(sanitizeFilename(`${'a'.repeat(300)}.pdf`).endsWith('.pdf'));
  });

  it('refuses a NUL in a file name, a field name or a value, naming the field', async () => {
    const inName = await post(multipart('evil\u0000.txt', 'x'));
    assert.equal(inName.statusCode, 400);
    assert.ok(inName.json().errors.file);
    const inValue = await post(multipartForm([{ field: 'title', content: 'a\u0000b' }]));
    assert.equal(inValue.statusCode, 400);
    assert.ok(inValue.json().errors.title);
  });

  it('answers a file over the limit with a 413 naming the field, and stores nothing of it', async () => {
    const rowsBefore = await storedRows();
    const response = await post(multipart('big.bin', Buffer.alloc(LIMIT + 1, 7), { field: 'attachment' }));
    assert.equal(response.statusCode, 413, response.body);
    assert.equal(response.json().code, 'file_too_large');
    assert.match(response.json().errors.attachment[0], /big\.bin.*larger than the limit of 64 KB/);
    assert.deepEqual(await storedRows(), rowsBefore);
    assert.deepEqual(await stagedFiles(), []);

    const exact = await post(multipart('exact.bin', Buffer.alloc(LIMIT, 8)));
    assert.equal(exact.statusCode, 200, exact.body);
    assert.equal(exact.json().files[0].size, LIMIT);
  });

  it('refuses files in other fields, too many files, repeated and too many fields, empty files and non-multipart bodies', async () => {
    const wrongField = await post(multipart('a.txt', 'x', { field: 'document' }));
    assert.equal(wrongField.statusCode, 400);
    assert.match(wrongField.json().errors.document[0], /"file" or "attachment"/);

    const tooMany = await post(
      multipartForm([
        { field: 'file', filename: 'a.txt', content: 'one' },
        { field: 'file', filename: 'b.txt', content: 'two' },
      ]),
    );
    assert.equal(tooMany.statusCode, 413);
    assert.equal(tooMany.json().code, 'too_many_files');
    assert.ok(tooMany.json().errors.file);

    const repeated = await post(
      multipartForm([
        { field: 'title', content: 'one' },
        { field: 'title', content: 'two' },
      ]),
    );
    assert.equal(repeated.statusCode, 400);
    assert.ok(repeated.json().errors.title);

    const manyFields = await post(multipartForm(['a', 'b', 'c', 'd'].map((field) => ({ field, content: 'x' }))));
    assert.equal(manyFields.statusCode, 413);

    const empty = await post(multipart('empty.txt', ''));
    assert.equal(empty.statusCode, 400);
    assert.match(empty.json().errors.file[0], /empty/);

    const noneChosen = await post(multipart('', ''));
    assert.equal(noneChosen.statusCode, 400);
    assert.match(noneChosen.json().errors.file[0], /No file was chosen/);

    const json = await ctx.request(tenant, { method: 'POST', url: ROUTE, payload: { file: 'x' } });
    assert.equal(json.statusCode, 400);
    assert.match(json.json().errors.file[0], /multipart\/form-data/);

    const malformed = await ctx.request(tenant, {
      method: 'POST',
      url: ROUTE,
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nno closing boundary',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    assert.equal(malformed.statusCode, 400, malformed.body);
    assert.deepEqual(await stagedFiles(), []);
  });

  it('stores many files of one request, the same bytes once', async () => {
    const response = await post(
      multipartForm([
        { field: 'file', filename: 'one.md', content: '# Same\n' },
        { field: 'attachment', filename: 'two.md', content: '# Same\n' },
        { field: 'file', filename: 'three.json', content: '{"a": 1}' },
      ]),
      `${ROUTE}?max=3`,
    );
    assert.equal(response.statusCode, 200, response.body);
    const files = response.json().files;
    assert.deepEqual(
      files.map((file: { filename: string; type: string }) => [file.filename, file.type]),
      [
        ['one.md', 'text/markdown'],
        ['two.md', 'text/markdown'],
        ['three.json', 'application/json'],
      ],
    );
    assert.equal(files[0].key, files[1].key);
    assert.equal(files[1].created, false);
  });

  it('removes the staged bytes of a client that goes away mid-upload', async () => {
    const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    const boundary = 'intelnotes-abort';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n` + 'Content-Type: application/octet-stream\r\n\r\n';
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${ROUTE} HTTP/1.1\r\nHost: ${hostOf(tenant)}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${LIMIT * 4}\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(LIMIT / 2, 1));
    // The upload is under way once its staged file exists.
    await eventually(async () => (await stagedFiles()).length > 0);
    socket.destroy();
    await eventually(async () => (await stagedFiles()).length === 0);
  });
});

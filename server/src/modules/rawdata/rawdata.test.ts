import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { multipart, multipartForm, type FormPart } from '../../test/multipart.ts';
import { testDrivers } from '../../test/storage-drivers.ts';
import { createTestApp, hostOf, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/raw-data';
const sha256 = (content: Buffer | string) => createHash('sha256').update(content).digest('hex');
const eventually = async (check: () => Promise<boolean>) => {
  while (!(await check())) await sleep(20);
};

for (const [driverKind, makeDriver] of testDrivers()) describe(`raw data API (${driverKind} store)`, () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    // A small per-file limit, so the 413 needs no big body.
    t = await createTestApp({ FILE_UPLOAD_LIMIT_BYTES: String(64 * 1024) }, undefined, makeDriver());
    ({ acme, beta, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const upload = (parts: FormPart[], url = `${BASE}/`, token = tokens['research'], tenant = acme, method: 'POST' | 'PATCH' = 'POST') =>
    t.request(tenant, { method, url, token, ...multipartForm(parts) });
  /** As the research user unless a token is given; null: a visitor without one. */
  const json = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, token: string | null | undefined = tokens['research'], tenant = acme) =>
    t.request(tenant, { method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
  const storedFiles = async (tenant = acme) =>
    t.db.withTenant({ tenantId: tenant.id }, (tx) => query<{ sha256: string }>(tx, sql`SELECT sha256 FROM stored_files ORDER BY sha256`));
  const holds = async (tenant = acme) => t.db.withTenant({ tenantId: tenant.id }, (tx) => query(tx, sql`SELECT id FROM stored_file_holds`));

  describe('buckets', () => {
    it('are unique per tenant ignoring case and listed by name', async () => {
      for (const name of ['Zeta', 'Alpha', 'Mid']) assert.equal((await json('POST', `${BASE}/buckets/`, { name })).statusCode, 201);
      const again = await json('POST', `${BASE}/buckets/`, { name: 'ALPHA' });
      assert.equal(again.statusCode, 400);
      assert.match(again.json().errors.name[0], /already exists/);
      const list = (await json('GET', `${BASE}/buckets/`)).json();
      assert.deepEqual(list.results.map((row: { name: string }) => row.name), ['Alpha', 'Mid', 'Zeta']);
      assert.equal((await json('POST', `${BASE}/buckets/`, { name: 'alpha' }, tokens['beta'], beta)).statusCode, 201, 'another tenant has its own names');
      assert.equal((await json('GET', `${BASE}/buckets/`, undefined, tokens['paywall'])).statusCode, 403);
    });
  });

  describe('items', () => {
    it('are created from a file with fields, or from text; hidden by default', async () => {
      const bucket = (await json('POST', `${BASE}/buckets/`, { name: 'Inbox' })).json();
      const created = await upload([
        { field: 'bucket', content: bucket.id },
        { field: 'title', content: 'Annual report' },
        { field: 'file', filename: '../../etc/report\u202egpj.pdf', content: '%PDF-1.4\n%fake pdf body\n', contentType: 'text/html' },
      ]);
      assert.equal(created.statusCode, 201, created.body);
      const item = created.json();
      assert.equal(item.file_name, 'reportgpj.pdf', 'the name is sanitized');
      assert.equal(item.file_type, 'application/pdf', 'the type is sniffed, not taken from the client');
      assert.equal(item.content_kind, 'pdf');
      assert.equal(item.processing_status, 'pending');
      assert.equal(item.visibility, 'hidden');
      assert.equal(item.bucket.id, bucket.id);
      assert.equal(item.duplicate_of, null);

      const text = await json('POST', `${BASE}/`, { text: 'Pasted note about Acme', source_url: 'https://www.example.com/a/', source_alias: 'Example' });
      assert.equal(text.statusCode, 201, text.body);
      assert.equal(text.json().content_kind, 'text');
      assert.equal(text.json().source.display_name, 'Example');

      const nothing = await json('POST', `${BASE}/`, { title: 'empty' });
      assert.equal(nothing.statusCode, 400);
      assert.ok(nothing.json().errors.file);
      assert.equal((await json('POST', `${BASE}/`, { text: 'x' }, tokens['paywall'])).statusCode, 403);
    });

    it('the same file twice is stored once and the second item is flagged as a duplicate of the first', async () => {
      const content = 'same bytes twice\n';
      const first = (await upload([{ field: 'file', filename: 'a.txt', content }])).json();
      const before = (await storedFiles()).length;
      const second = (await upload([{ field: 'file', filename: 'b.txt', content }])).json();
      assert.equal((await storedFiles()).length, before, 'stored once');
      assert.equal(second.duplicate_of.id, first.id);
      assert.equal(second.file_sha256, first.file_sha256);
      // Deleting the first keeps the file (the second uses it), and the flag goes.
      assert.equal((await json('DELETE', `${BASE}/${first.id}/`)).statusCode, 204);
      assert.ok((await storedFiles()).some((row) => row.sha256 === sha256(content)));
      assert.equal((await json('GET', `${BASE}/${second.id}/`)).json().duplicate_of, null);
      assert.equal((await json('DELETE', `${BASE}/${second.id}/`)).statusCode, 204);
      assert.ok(!(await storedFiles()).some((row) => row.sha256 === sha256(content)), 'the last user gone, the file goes');
    });

    it('downloads with Content-Disposition and nosniff; HTML and SVG never inline', async () => {
      const html = (await upload([{ field: 'file', filename: 'page.html', content: '<!DOCTYPE html><script>alert(1)</script>' }])).json();
      assert.equal(html.content_kind, 'html');
      const download = await json('GET', `${BASE}/${html.id}/file/?inline=true`);
      assert.equal(download.statusCode, 200);
      assert.equal(download.headers['x-content-type-options'], 'nosniff');
      assert.match(String(download.headers['content-disposition']), /^attachment; filename="page.html"/);
      assert.equal(download.headers['content-type'], 'application/octet-stream');
      const svg = (await upload([{ field: 'file', filename: 'x.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' }])).json();
      assert.match(String((await json('GET', `${BASE}/${svg.id}/file/?inline=true`)).headers['content-disposition']), /^attachment/);
      const pdf = (await upload([{ field: 'file', filename: 'doc.pdf', content: '%PDF-1.4\ninline me\n' }])).json();
      const inline = await json('GET', `${BASE}/${pdf.id}/file/?inline=true`);
      assert.match(String(inline.headers['content-disposition']), /^inline/);
      assert.equal(inline.body, '%PDF-1.4\ninline me\n');
      // Tenant A's file through tenant B's host: 404.
      assert.equal((await json('GET', `${BASE}/${pdf.id}/file/`, undefined, tokens['beta'], beta)).statusCode, 404);
      assert.equal((await json('GET', `${BASE}/${pdf.id}/`, undefined, tokens['beta'], beta)).statusCode, 404);
    });

    it('PATCH with a file replaces it (the old file leaves the store) and starts processing over', async () => {
      const item = (await upload([{ field: 'file', filename: 'v1.txt', content: 'version one\n' }])).json();
      const patched = await upload([{ field: 'file', filename: 'v2.txt', content: 'version two\n' }, { field: 'title', content: 'Versioned' }], `${BASE}/${item.id}/`, tokens['research'], acme, 'PATCH');
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().file_name, 'v2.txt');
      assert.equal(patched.json().title, 'Versioned');
      assert.ok(!(await storedFiles()).some((row) => row.sha256 === sha256('version one\n')));
      const renamed = await json('PATCH', `${BASE}/${item.id}/`, { title: 'Renamed', processing_status: 'completed' });
      assert.equal(renamed.statusCode, 200);
      assert.equal(renamed.json().processing_status, 'pending', 'the status is the server\'s');
    });
  });

  describe('multipart edge cases', () => {
    it('refuses no file, an empty file, a wrong field and an oversized file, leaving nothing', async () => {
      const files = (await storedFiles()).length;
      const empty = await upload([{ field: 'file', filename: 'empty.txt', content: '' }]);
      assert.equal(empty.statusCode, 400);
      assert.match(empty.json().errors.file[0], /empty/);
      const wrong = await upload([{ field: 'attachment', filename: 'a.txt', content: 'x' }]);
      assert.equal(wrong.statusCode, 400);
      assert.ok(wrong.json().errors.attachment);
      const big = await upload([{ field: 'file', filename: 'big.bin', content: Buffer.alloc(64 * 1024 + 1, 1) }]);
      assert.equal(big.statusCode, 413);
      assert.equal(big.json().code, 'file_too_large');
      const none = await upload([{ field: 'title', content: 'only a title' }]);
      assert.equal(none.statusCode, 400);
      // A file stored, then its item refused (a bucket that does not exist): the file goes too.
      const refused = await upload([{ field: 'file', filename: 'orphan.txt', content: 'would be orphaned\n' }, { field: 'bucket', content: '00000000-0000-4000-8000-000000000000' }]);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal((await storedFiles()).length, files, 'nothing stored');
      assert.equal((await holds()).length, 0);
    });

    it('a client gone mid-upload leaves no item, no hold and no file (the whole files it sent included)', async () => {
      const files = (await storedFiles()).length;
      const items = (await json('GET', `${BASE}/?limit=1`)).json().count;
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const boundary = 'rawdata-abort';
      const part = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
      const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST ${BASE}/upload/ HTTP/1.1\r\nHost: ${hostOf(acme)}\r\nAuthorization: Bearer ${tokens['research']}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n` +
          `${part('whole.txt')}a whole file before the cut\r\n${part('half.txt')}only half of`,
      );
      // The first file is stored (and held) once the second one starts arriving.
      await eventually(async () => (await holds()).length > 0);
      socket.destroy();
      // The holds end first, then the files go (after the holds' transaction commits).
      await eventually(async () => (await holds()).length === 0 && (await storedFiles()).length === files);
      assert.equal((await json('GET', `${BASE}/?limit=1`)).json().count, items);
    });

    it('takes 200 files in one request, each its own item with its own result', async () => {
      const parts: FormPart[] = [{ field: 'visibility', content: 'public' }];
      for (let index = 0; index < 200; index += 1) parts.push({ field: 'file', filename: `note-${index}.txt`, content: `note number ${index % 150}\n` });
      const response = await upload(parts, `${BASE}/upload/`);
      assert.equal(response.statusCode, 201, response.body.slice(0, 500));
      const results = response.json().results as Array<{ status: number; duplicate: boolean; item: { visibility: string } }>;
      assert.equal(results.length, 200);
      assert.ok(results.every((result) => result.status === 201 && result.item.visibility === 'public'));
      assert.equal(results.filter((result) => result.duplicate).length, 50);
      assert.equal((await holds()).length, 0);
      const tooMany = await upload([...parts, { field: 'file', filename: 'one-more.txt', content: 'x' }], `${BASE}/upload/`);
      assert.equal(tooMany.statusCode, 413);
      assert.equal(tooMany.json().code, 'too_many_files');
    });
  });

  describe('visibility per audience', () => {
    it('items, type counts and filters show each audience only what it may see', async () => {
      const hidden = (await json('POST', `${BASE}/`, { text: 'hidden note', title: 'vis-hidden' })).json();
      const paywalled = (await json('POST', `${BASE}/`, { text: 'paywalled note', title: 'vis-paywalled', visibility: 'paywalled' })).json();
      const counts = async (token: string | null) => (await json('GET', `${BASE}/type-counts/`, undefined, token)).json();
      const all = await counts(tokens['admin']!);
      const reader = await counts(tokens['paywall']!);
      const visitor = await counts(null);
      assert.ok(all.total > reader.total && reader.total > visitor.total, JSON.stringify([all.total, reader.total, visitor.total]));
      assert.equal(all.results.length, 12);
      const titles = async (token: string | null) =>
        (await json('GET', `${BASE}/?search=vis&limit=100`, undefined, token)).json().results.map((row: { title: string }) => row.title).sort();
      assert.deepEqual(await titles(tokens['admin']!), ['vis-hidden', 'vis-paywalled']);
      assert.deepEqual(await titles(tokens['paywall']!), ['vis-paywalled']);
      assert.deepEqual(await titles(null), []);
      assert.equal((await json('GET', `${BASE}/${hidden.id}/`, undefined, tokens['paywall'])).statusCode, 404);
      assert.equal((await json('GET', `${BASE}/${paywalled.id}/`, undefined, null)).statusCode, 404);
      const filters = async (token: string | null) => {
        const body = (await json('GET', `${BASE}/available-filters/`, undefined, token)).json();
        return Object.fromEntries(body.filters.map((filter: { name: string; values: Array<{ value: string; count: number }> }) => [filter.name, filter.values]));
      };
      const adminText = (await filters(tokens['admin']!))['content_kind'].find((entry: { value: string }) => entry.value === 'text');
      const readerText = (await filters(tokens['paywall']!))['content_kind'].find((entry: { value: string }) => entry.value === 'text');
      assert.ok(adminText.count > (readerText?.count ?? 0));
      const filtered = (await json('GET', `${BASE}/?content_kind=pdf&processing_status=pending`, undefined, tokens['admin'])).json();
      assert.ok(filtered.results.every((row: { content_kind: string }) => row.content_kind === 'pdf'));
    });
  });

  describe('dates', () => {
    it('filters by created_at and updated_at ranges (a date or a date-time), a bad value a 400 naming it', async () => {
      const all = (await json('GET', `${BASE}/?limit=1`)).json().count;
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const count = async (query: string) => {
        const response = await json('GET', `${BASE}/?limit=1&${query}`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json().count;
      };
      assert.equal(await count(`created_at_before=${tomorrow}`), all);
      assert.equal(await count(`created_at_after=${tomorrow}`), 0);
      assert.equal(await count(`updated_at_after=2000-01-01T00:00:00Z&updated_at_before=${tomorrow}`), all);
      const bad = await json('GET', `${BASE}/?created_at_after=yesterday`);
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.json().errors.created_at_after);
      const twice = await json('GET', `${BASE}/?created_at_after=2026-01-01,2026-02-01`);
      assert.equal(twice.statusCode, 400);
    });
  });

  describe('remove-batch', () => {
    it('deletes all or nothing, and removes files no longer used after commit', async () => {
      const a = (await upload([{ field: 'file', filename: 'batch-a.txt', content: 'batch a\n' }])).json();
      const b = (await upload([{ field: 'file', filename: 'batch-b.txt', content: 'batch b\n' }])).json();
      const missing = '00000000-0000-4000-8000-000000000001';
      const refused = await json('DELETE', `${BASE}/remove-batch/`, { ids: [a.id, missing] });
      assert.equal(refused.statusCode, 404);
      assert.match(refused.json().errors.ids[0], new RegExp(missing));
      assert.equal((await json('GET', `${BASE}/${a.id}/`)).statusCode, 200, 'nothing deleted');
      const removed = await json('DELETE', `${BASE}/remove-batch/`, { ids: [a.id, b.id] });
      assert.equal(removed.statusCode, 200);
      assert.equal(removed.json().deleted, 2);
      const left = (await storedFiles()).map((row) => row.sha256);
      assert.ok(!left.includes(sha256('batch a\n')) && !left.includes(sha256('batch b\n')));
      assert.equal((await json('DELETE', `${BASE}/remove-batch/`, { ids: [] })).statusCode, 400);
    });
  });

  describe('source URLs', () => {
    it('assign-source-url creates or reuses the normalized source; clear-source removes it', async () => {
      const item = (await json('POST', `${BASE}/`, { text: 'sourced' })).json();
      const assigned = await json('POST', `${BASE}/${item.id}/assign-source-url/`, { url: 'reuters.com/markets', alias: 'Reuters' });
      assert.equal(assigned.statusCode, 200, assigned.body);
      const other = (await json('POST', `${BASE}/`, { text: 'sourced too' })).json();
      const reused = (await json('POST', `${BASE}/${other.id}/assign-source-url/`, { url: 'https://www.reuters.com/markets/' })).json();
      assert.equal(reused.source.id, assigned.json().source.id);
      const bad = await json('POST', `${BASE}/${item.id}/assign-source-url/`, { url: 'not a url' });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.json().errors.url);
      const cleared = await json('DELETE', `${BASE}/${item.id}/clear-source/`);
      assert.equal(cleared.json().source, null);
      const filtered = (await json('GET', `${BASE}/?source=${reused.source.id}`)).json();
      assert.deepEqual(filtered.results.map((row: { id: string }) => row.id), [other.id]);
    });
  });

  describe('direct upload', () => {
    const content = Buffer.from('direct upload bytes\n');
    const initiate = (overrides: object = {}) =>
      json('POST', `${BASE}/direct-upload/initiate/`, { file_name: 'direct.txt', size: content.length, sha256: sha256(content), fields: { title: 'Direct' }, ...overrides });
    /** On S3 the URL is the bucket's own (presigned): the bytes go there over HTTP, not through the app. */
    type Answer = Awaited<ReturnType<typeof t.request>>;
    const put = async (url: string, body: Buffer): Promise<Pick<Answer, 'statusCode' | 'json'>> => {
      if (!/^https?:/.test(url)) return t.request(acme, { method: 'PUT', url, payload: body, headers: { 'content-type': 'application/octet-stream' } });
      const response = await fetch(url, { method: 'PUT', body: new Uint8Array(body) });
      const text = await response.text();
      return { statusCode: response.status, json: () => JSON.parse(text) };
    };
    const complete = (uploadId: string) => json('POST', `${BASE}/direct-upload/complete/`, { upload_id: uploadId });

    it('creates the item once the bytes match the announced size and hash', async () => {
      const started = (await initiate()).json();
      if (driverKind === 's3') {
        // The bucket's presigned URL; the bucket checks its signature (s3rver, the test double,
        // accepts any, so a tampered URL is not tested here).
        assert.match(started.upload_url, /^http:\/\/127\.0\.0\.1:\d+\/.+X-Amz-Expires=\d+.+X-Amz-Signature=/);
      } else {
        assert.match(started.upload_url, /\/direct-upload\/[0-9a-f-]+\/\?token=/);
        assert.equal((await put(started.upload_url.replace('token=', 'token=x'), content)).statusCode, 404, 'a wrong token');
      }
      // Our route answers 204; a bucket 200.
      assert.equal((await put(started.upload_url, content)).statusCode, driverKind === 's3' ? 200 : 204);
      const done = await complete(started.upload_id);
      assert.equal(done.statusCode, 201, done.body);
      assert.equal(done.json().title, 'Direct');
      assert.equal(done.json().file_sha256, sha256(content));
      assert.equal((await complete(started.upload_id)).statusCode, 404, 'once');
      assert.equal((await holds()).length, 0);
    });

    it('a wrong hash, a wrong size or an expired URL is a 400 naming the reason; nothing is created', async () => {
      const count = async () => (await json('GET', `${BASE}/?limit=1`)).json().count;
      const before = await count();
      const files = (await storedFiles()).length;
      const wrongHash = (await initiate({ sha256: sha256('other') })).json();
      await put(wrongHash.upload_url, content);
      const hashFailure = await complete(wrongHash.upload_id);
      assert.equal(hashFailure.statusCode, 400);
      assert.ok(hashFailure.json().errors.sha256);
      const wrongSize = (await initiate({ size: content.length + 5 })).json();
      await put(wrongSize.upload_url, content);
      const sizeFailure = await complete(wrongSize.upload_id);
      assert.equal(sizeFailure.statusCode, 400);
      // Our route counts the bytes; a bucket refuses a PUT whose length differs from the signed one.
      assert.ok(sizeFailure.json().errors.size ?? (driverKind === 's3' && sizeFailure.json().errors.upload), sizeFailure.body);
      const expired = (await initiate()).json();
      await t.db.withTenant({ tenantId: acme.id }, (tx) => query(tx, sql`UPDATE raw_data_direct_uploads SET expires_at = now() - interval '1 second' WHERE id = ${expired.upload_id}`));
      const late = await put(expired.upload_url, content);
      if (driverKind === 'local') {
        assert.equal(late.statusCode, 400);
        assert.match(late.json().errors.upload[0], /expired/);
      }
      const expiredFailure = await complete(expired.upload_id);
      assert.equal(expiredFailure.statusCode, 400);
      assert.match(expiredFailure.json().errors.upload[0], /expired/);
      assert.equal(await count(), before);
      assert.equal((await storedFiles()).length, files);
      assert.equal((await holds()).length, 0);
      const tooBig = await initiate({ size: 64 * 1024 + 1 });
      assert.equal(tooBig.statusCode, 413);
    });

    it('two complete/ calls (or PUTs) at once make one item and leave no hold behind', async () => {
      const started = (await initiate()).json();
      if (driverKind === 'local') {
        const puts = await Promise.all([put(started.upload_url, content), put(started.upload_url, content)]);
        assert.deepEqual(puts.map((answer) => answer.statusCode).sort(), [204, 409]);
      } else {
        assert.equal((await put(started.upload_url, content)).statusCode, 200);
      }
      const completes = await Promise.all([complete(started.upload_id), complete(started.upload_id)]);
      assert.deepEqual(completes.map((answer) => answer.statusCode).sort(), [201, 404], completes.map((answer) => answer.body).join('\n'));
      assert.equal((await holds()).length, 0);
    });
  });

  describe('export', () => {
    it('names the file YYYY-MM-DD_{tenant}_raw_data and streams xlsx, or a zip with the files', async () => {
      const day = new Date().toISOString().slice(0, 10);
      const item = (await upload([{ field: 'file', filename: 'exported.txt', content: 'exported bytes\n' }, { field: 'title', content: 'Exported' }])).json();
      const xlsx = await json('GET', `${BASE}/export/?search=exported`);
      assert.equal(xlsx.statusCode, 200, xlsx.body.slice(0, 300));
      assert.match(String(xlsx.headers['content-disposition']), new RegExp(`filename="${day}_acme_raw_data\\.xlsx"`));
      const zip = await t.request(acme, { method: 'GET', url: `${BASE}/export/?include=files&search=exported`, token: tokens['research'] });
      assert.equal(zip.statusCode, 200);
      assert.match(String(zip.headers['content-disposition']), new RegExp(`filename="${day}_acme_raw_data\\.zip"`));
      const entries = unzipSync(new Uint8Array(zip.rawPayload));
      assert.ok(entries[`${day}_acme_raw_data.xlsx`]);
      assert.equal(strFromU8(entries[`files/${item.id}_exported.txt`]!), 'exported bytes\n');
      const sheet = unzipSync(entries[`${day}_acme_raw_data.xlsx`]!);
      assert.match(strFromU8(sheet['xl/worksheets/sheet1.xml']!), /Exported/);
      // A reader's export holds only what they see.
      const readerZip = await t.request(acme, { method: 'GET', url: `${BASE}/export/?include=files&search=exported`, token: tokens['paywall'] });
      assert.deepEqual(Object.keys(unzipSync(new Uint8Array(readerZip.rawPayload))).filter((name) => name.startsWith('files/')), []);
    });
  });

  it('is served on a single-file multipart helper too (field file)', async () => {
    const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], ...multipart('helper.txt', 'helper\n') });
    assert.equal(response.statusCode, 201);
  });
});

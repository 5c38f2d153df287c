import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { multipartForm } from '../../test/multipart.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/raw-data';
const fixture = (name: string) => readFileSync(new URL(`../../processing/text/fixtures/${name}`, import.meta.url));
const REAL_DOCS = new URL('../../../../../shared/real-docs/unstructured-example-docs/', import.meta.url);

// What an item is (content_kind, migration 0190): every format processing reads has its family,
// from the type sniffed at upload — the type filter and its counts (available-filters) read it.
describe('raw data content kinds', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const upload = async (filename: string, content: Buffer) => {
    const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], ...multipartForm([{ field: 'file', filename, content }]) });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; file_type: string; content_kind: string };
  };

  it('files made by real tools get their family, not "other"', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('From: Ann <ann@example.com>\nTo: bob@example.com\nSubject: Q3\n\nHello Bob,\n', 'utf16le')]);
    const xhtml = Buffer.from('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Form 10-K</p></body></html>');
    const expected: Array<[string, Buffer, string]> = [
      ['memo.epub', fixture('memo.epub'), 'document'],
      ['memo.odt', fixture('memo.odt'), 'document'],
      ['memo.rtf', fixture('memo.rtf'), 'document'],
      ['memo.doc', fixture('memo.doc'), 'document'],
      ['slides.pptx', fixture('slides.pptx'), 'presentation'],
      ['slides.odp', fixture('slides.odp'), 'presentation'],
      ['ledger.xls', fixture('ledger.xls'), 'spreadsheet'],
      ['ledger.ods', fixture('ledger.ods'), 'spreadsheet'],
      ['pages.tiff', fixture('pages.tiff'), 'image'],
      ['scan.bmp', fixture('scan.bmp'), 'image'],
      ['scan.heic', fixture('scan.heic'), 'image'],
      ['mail-utf16.eml', utf16, 'email'],
      ['10-k.html', xhtml, 'html'],
    ];
    const msg = new URL('fake-email.msg', REAL_DOCS);
    if (existsSync(msg)) expected.push(['fake-email.msg', readFileSync(msg), 'email']);
    for (const [name, content, kind] of expected) {
      const item = await upload(name, content);
      assert.equal(item.content_kind, kind, `${name} (${item.file_type})`);
    }
    const filters = (await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/`, token: tokens['research'] })).json();
    const kinds = filters.filters.find((filter: { name: string }) => filter.name === 'content_kind').values as Array<{ value: string; count: number }>;
    assert.equal(kinds.find((entry) => entry.value === 'other')?.count ?? 0, 0, 'nothing here is "other"');
    assert.equal(kinds.find((entry) => entry.value === 'document')?.count, 4);
  });

  it('the generated column gives each type its family', async () => {
    const item = await upload('note.txt', Buffer.from('A note.\n'));
    const cases: Array<[string, string]> = [
      ['application/vnd.ms-outlook', 'email'],
      ['message/rfc822', 'email'],
      ['application/epub+zip', 'document'],
      ['application/vnd.oasis.opendocument.text', 'document'],
      ['application/vnd.oasis.opendocument.text-template', 'document'],
      ['application/rtf', 'document'],
      ['text/rtf', 'document'],
      ['application/vnd.ms-word.document.macroenabled.12', 'document'],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
      ['application/vnd.ms-powerpoint', 'presentation'],
      ['application/vnd.ms-powerpoint.presentation.macroenabled.12', 'presentation'],
      ['application/vnd.oasis.opendocument.presentation', 'presentation'],
      ['application/vnd.ms-excel', 'spreadsheet'],
      ['application/vnd.ms-excel.sheet.macroenabled.12', 'spreadsheet'],
      ['application/vnd.oasis.opendocument.spreadsheet', 'spreadsheet'],
      ['image/tiff', 'image'],
      ['image/heic', 'image'],
      ['application/xhtml+xml', 'html'],
      ['application/xml', 'text'],
      ['application/x-ndjson', 'text'],
      ['application/json', 'text'],
      ['audio/wav', 'audio'],
      ['application/x-cfb', 'other'],
      ['application/octet-stream', 'other'],
    ];
    await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
      for (const [type, kind] of cases) {
        const [row] = await query<{ content_kind: string }>(tx, sql`UPDATE raw_data SET file_type = ${type} WHERE id = ${item.id} RETURNING content_kind`);
        assert.equal(row?.content_kind, kind, type);
      }
    });
  });
});

// Nothing lost without a word (issue 26, docs/processing.md "Warnings"): whatever reading an
// item's file left out or could not read is stored with the item as sentences, shown as
// "completed with warnings" and filterable; an item that yields no text is never just completed.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { strToU8, zipSync } from 'fflate';
import type { Worker } from '../../jobs/worker.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { multipartForm } from '../../test/multipart.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { itemWarnings, PROCESSED_TEXT_MAX } from './rawdata.processing.ts';
import { MAX_PROCESSING_WARNINGS } from './rawdata.resource.ts';

const BASE = '/api/v1/raw-data';

describe('raw data processing: warnings', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  let worker: Worker | null = null;

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  afterEach(async () => {
    await worker?.stop();
    worker = null;
  });
  after(() => t.close());

  const json = (method: 'GET' | 'POST', url: string, payload?: object) => t.request(acme, { method, url, token: tokens['research'], ...(payload ? { payload } : {}) });
  const upload = async (filename: string, content: Buffer | string, contentType = 'application/octet-stream') => {
    const created = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], ...multipartForm([{ field: 'file', filename, content, contentType }]) });
    assert.equal(created.statusCode, 201, created.body);
    return created.json().id as string;
  };
  const completed = async (id: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = (await json('GET', `${BASE}/${id}/`)).json();
      if (row.processing_status === 'completed' || row.processing_status === 'error') {
        assert.equal(row.processing_status, 'completed', row.processing_error);
        return row as Record<string, unknown>;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for item ${id}`);
      await sleep(50);
    }
  };

  it('stores what reading left out with the item, says "no text" for an empty file, and filters by it', async () => {
    // A zip holding a note, a program (not readable) and a zip nested past the depth limit.
    let deep = zipSync({ 'bottom.txt': strToU8('Text at the bottom') });
    for (let level = 0; level < 4; level += 1) deep = zipSync({ [`level${level}.zip`]: deep });
    const bundle = zipSync({
      'note.txt': strToU8('Acme Holdings GmbH signed the contract in Lisbon.'),
      'tool.bin': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(60).fill(0)]),
      'deep.zip': deep,
    });
    const partial = await upload('bundle.zip', Buffer.from(bundle), 'application/zip');
    const empty = await upload('blank.txt', '   \n\n   ', 'text/plain');
    const clean = await upload('note.txt', 'Jane Doe joined Acme Holdings GmbH in 2024.', 'text/plain');
    const queued = await json('POST', `${BASE}/process/`, { ids: [partial, empty, clean] });
    assert.equal(queued.statusCode, 202, queued.body);
    worker = await t.startWorker();

    const withParts = await completed(partial);
    assert.equal(withParts['has_warnings'], true);
    const warnings = withParts['processing_warnings'] as string[];
    assert.ok(warnings.some((warning) => /^zip entry tool\.bin could not be read: Text cannot be read from this type of file \(application\/x-elf/.test(warning)), warnings.join('\n'));
    assert.ok(warnings.some((warning) => /was not read: it is nested more than 3 levels deep$/.test(warning)), warnings.join('\n'));

    const blank = await completed(empty);
    assert.deepEqual(blank['processing_warnings'], ['No text was found in the file']);
    assert.equal(blank['has_warnings'], true);

    const whole = await completed(clean);
    assert.deepEqual(whole['processing_warnings'], []);
    assert.equal(whole['has_warnings'], false);

    // Filterable, with counts.
    const flagged = (await json('GET', `${BASE}/?has_warnings=true&limit=50`)).json().results.map((row: { id: string }) => row.id).sort();
    assert.deepEqual(flagged, [partial, empty].sort());
    const unflagged = (await json('GET', `${BASE}/?has_warnings=false&limit=50`)).json().results.map((row: { id: string }) => row.id);
    assert.ok(unflagged.includes(clean) && !unflagged.includes(partial));
    const filters = (await json('GET', `${BASE}/available-filters/`)).json().filters as Array<{ name: string; type: string }>;
    assert.equal(filters.find((filter) => filter.name === 'has_warnings')?.type, 'boolean');

    // Processing again starts afresh: the old warnings go with the old result.
    await worker.stop();
    worker = null;
    await json('POST', `${BASE}/process/`, { ids: [empty] });
    const pending = (await json('GET', `${BASE}/${empty}/`)).json();
    assert.equal(pending.processing_status, 'pending');
    assert.deepEqual(pending.processing_warnings, []);
    assert.equal(pending.has_warnings, false);
  });

  it('says when only the start of a long text is kept, and keeps at most 50 warnings of 500 characters', () => {
    const long = itemWarnings({ text: 'x'.repeat(PROCESSED_TEXT_MAX + 5), segments: [], truncated: false, warnings: [], method: 'text' });
    assert.deepEqual(long, [`Only the first 200,000 of the text's 200,005 characters are kept for search and the text view; entities were found in all of it`]);
    const many = itemWarnings({ text: 'x', segments: [], truncated: false, warnings: Array.from({ length: 80 }, (_, index) => `attachment ${index} could not be read: ${'why '.repeat(200)}`), method: 'email' });
    assert.equal(many.length, MAX_PROCESSING_WARNINGS);
    assert.ok(many.every((warning) => warning.length <= 500));
    assert.equal(many.at(-1), 'And 31 more warnings');
  });
});

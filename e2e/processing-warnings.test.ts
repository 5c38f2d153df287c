// Nothing lost without a word, in the browser (docs/processing.md "Warnings"): a zip whose
// program entry cannot be read and a blank file are processed beside a clean note; the list
// says "Completed with warnings" for the two, its Warnings filter finds them, and the item's
// Processing panel lists what was not read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { multipartForm } from '../server/src/test/multipart.ts';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { browserUnavailable, DESKTOP, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('processing: warnings shown in the list and on the item', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let token: string;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    token = await server.login(demo, 'research@demo.test');
    const bundle = zipSync({
      'note.txt': strToU8('Acme Holdings GmbH signed the contract in Lisbon.'),
      'tool.bin': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(60).fill(0)]),
    });
    const files: Array<[string, Buffer, string]> = [
      ['bundle.zip', Buffer.from(bundle), 'application/zip'],
      ['blank.txt', Buffer.from('   \n\n  '), 'text/plain'],
      ['memo.txt', Buffer.from('Jane Doe joined Acme Holdings GmbH in 2024.'), 'text/plain'],
    ];
    for (const [filename, content, contentType] of files) {
      const created = await server.request(demo, { method: 'POST', url: '/api/v1/raw-data/', token, ...multipartForm([{ field: 'file', filename, content, contentType }]) });
      assert.equal(created.statusCode, 201, created.body);
      ids[filename] = (created.json() as { id: string }).id;
    }
    const queued = await server.request(demo, { method: 'POST', url: '/api/v1/raw-data/process/', token, payload: { ids: Object.values(ids) } });
    assert.equal(queued.statusCode, 202, queued.body);
    await server.startWorker();
  });

  it('says "Completed with warnings", filters by it, and lists the warnings on the item', async (t) => {
    const context = await browser.newContext({ viewport: DESKTOP });
    t.after(() => context.close());
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', '/rawdata?tab=1'), 'research@demo.test', 'research');
    const grid = page.getByRole('grid');
    await grid.getByRole('row', { name: /bundle\.zip.*Completed with warnings/ }).waitFor({ timeout: 120_000 });
    await grid.getByRole('row', { name: /blank\.txt.*Completed with warnings/ }).waitFor({ timeout: 120_000 });
    await grid.getByRole('row', { name: /memo\.txt.*Completed(?! with)/ }).waitFor({ timeout: 120_000 });
    await screenshots(page, 'processing-warnings-list');

    await page.getByLabel('Warnings').click();
    await page.getByRole('option', { name: /^Yes/ }).click();
    await grid.getByRole('row', { name: /memo\.txt/ }).waitFor({ state: 'detached' });
    assert.equal(await grid.getByRole('row', { name: /Completed with warnings/ }).count(), 2);

    await page.goto(server.url('demo', `/rawdata/${ids['bundle.zip']}/edit`));
    await page.getByTestId('processing-status').getByText('Completed with warnings').waitFor();
    const warnings = page.getByTestId('processing-warnings');
    await warnings.getByText(/zip entry tool\.bin could not be read/).waitFor();
    await screenshots(page, 'processing-warnings-item');

    await page.goto(server.url('demo', `/rawdata/${ids['blank.txt']}/edit`));
    await page.getByTestId('processing-warnings').getByText('No text was found in the file').waitFor();
  });
});

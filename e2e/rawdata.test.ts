import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { browserUnavailable, DESKTOP, screenshot, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/rawdata');
const FILES = [
  { name: 'harbour-report.pdf', type: 'application/pdf' },
  { name: 'harbour-chart.png', type: 'image/png' },
  { name: 'field-notes.txt', type: 'text/plain' },
];

interface Item {
  id: string;
  title: string | null;
  file_name: string | null;
  bucket: { id: string } | null;
  source: { id: string; display_name: string } | null;
  duplicate_of: { id: string } | null;
}

describe('raw data screens: quick collection with progress, duplicates, edit, source, bulk delete', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let token: string;
  let bucketId: string;

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    await server.createUser(demo, 'reader@demo.test');
    token = await server.login(demo, 'admin@demo.test');
    bucketId = await server.create(demo, token, 'raw-data/buckets', { name: 'Porto harbour' });
  });

  const items = async (): Promise<Item[]> => {
    const response = await server.request(demo, { method: 'GET', url: '/api/v1/raw-data/?limit=100', token });
    return (response.json() as { results: Item[] }).results;
  };
  /** A fresh context with `pathname` open, signed in (openSignedIn: no login page). */
  const open = async (email: string, level: string, pathname = '/') => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', pathname), email, level);
    return { context, page };
  };
  /** Drops files on the drop zone as a browser does: a drop event carrying a DataTransfer of real files. */
  const drop = async (page: Page, files: typeof FILES) => {
    const payload = files.map((file) => ({ ...file, base64: readFileSync(path.join(FIXTURES, file.name)).toString('base64') }));
    const dataTransfer = await page.evaluateHandle((entries) => {
      const transfer = new DataTransfer();
      for (const entry of entries) {
        const bytes = Uint8Array.from(atob(entry.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], entry.name, { type: entry.type }));
      }
      return transfer;
    }, payload);
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
  };
  const uploadRow = (page: Page, name: string) => page.getByTestId('upload-row').filter({ has: page.getByText(name, { exact: true }) });

  it('drops three files on the quick collection page and watches their progress bars finish; a second drop is flagged as a duplicate', async () => {
    const { context, page } = await open('admin@demo.test', 'admin');
    // The admin's "+" in the menu leads here.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Quick collection' }).click();
    await page.waitForURL((url) => url.pathname.replace(/\/$/, '') === '/shortcuts');
    await page.getByRole('heading', { name: 'Quick collection' }).waitFor();

    await page.getByLabel('Bucket').fill('Porto');
    await page.getByRole('option', { name: 'Porto harbour' }).click();

    // Every progress report the page receives is kept, to see the bars move from 0 to 100.
    await drop(page, FILES);
    for (const file of FILES) {
      const row = uploadRow(page, file.name);
      await row.and(page.locator('[data-state="saved"]')).waitFor();
      const bar = row.getByRole('progressbar', { name: `Upload of ${file.name}` });
      assert.equal(await bar.getAttribute('aria-valuenow'), '100', `${file.name}'s bar is full`);
      assert.equal((await row.getByTestId('upload-state').innerText()).trim(), 'Saved');
    }
    await screenshot(page, 'rawdata-quick-collection');
    const saved = await items();
    assert.deepEqual(saved.map((item) => item.file_name).sort(), FILES.map((file) => file.name).sort());
    assert.ok(saved.every((item) => item.bucket?.id === bucketId), 'each item went into the chosen bucket');

    // The same PDF again: saved, flagged, and the warning links to the first item.
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await drop(page, [FILES[0]!]);
    const warning = uploadRow(page, 'harbour-report.pdf').getByTestId('duplicate-warning');
    await warning.waitFor();
    await screenshot(page, 'rawdata-duplicate-warning');
    const first = saved.find((item) => item.file_name === 'harbour-report.pdf')!;
    await warning.getByRole('link', { name: 'harbour-report.pdf' }).click();
    await page.waitForURL((url) => url.pathname === `/rawdata/${first.id}/edit`);
    await page.getByRole('heading', { name: 'Edit harbour-report.pdf' }).waitFor();
    await context.close();
  });

  it('edits an item: its title, then a source URL with an alias, shown with the file and its status', async () => {
    const item = (await items()).find((entry) => entry.file_name === 'harbour-report.pdf' && entry.duplicate_of === null)!;
    const { context, page } = await open('admin@demo.test', 'admin', `/rawdata/${item.id}/edit`);
    const file = page.getByRole('region', { name: 'File' });
    await file.getByText('application/pdf').waitFor();
    await file.getByRole('button', { name: 'Download the file' }).waitFor();
    await page.getByTestId('processing-status').filter({ hasText: 'Pending' }).waitFor();

    const source = page.getByRole('region', { name: 'Source' });
    await source.getByLabel('Source URL').fill('https://www.portoharbour.example/reports/2026');
    await source.getByLabel('Alias').fill('Porto harbour authority');
    await source.getByRole('button', { name: 'Assign source' }).click();
    await page.getByTestId('current-source').getByRole('link', { name: 'Porto harbour authority' }).waitFor();

    await page.getByLabel('Title').fill('Harbour report 2026');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === `/rawdata/${item.id}/edit`);
    await page.getByRole('heading', { name: 'Edit Harbour report 2026' }).waitFor();
    await screenshot(page, 'rawdata-edit');

    const after = (await server.request(demo, { method: 'GET', url: `/api/v1/raw-data/${item.id}/`, token })).json() as Item;
    assert.equal(after.title, 'Harbour report 2026');
    assert.equal(after.source?.display_name, 'Porto harbour authority');

    await page.getByTestId('current-source').getByRole('button', { name: 'Clear source' }).click();
    await page.getByTestId('current-source').getByText('No source yet.').waitFor();
    await context.close();
  });

  it('selects items in the list and deletes them in one batch', async () => {
    const { context, page } = await open('admin@demo.test', 'admin', '/rawdata?tab=1');
    const grid = page.getByRole('grid', { name: 'Raw data' });
    const rowOf = (name: string) => grid.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    await rowOf('field-notes.txt').waitFor();
    await page.getByTestId('type-counts').getByText('PDF 2').waitFor();
    // The created-date range: nothing was created after tomorrow; today's range holds every item.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('Created from').fill(tomorrow);
    await rowOf('field-notes.txt').waitFor({ state: 'detached' });
    await page.getByLabel('Created from').fill(today);
    // The row is already shown under "Created from" alone: wait for the list the full range
    // asked for, or the checkbox below is clicked in a row that is about to be replaced.
    const rangeListed = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/v1/raw-data/' && url.searchParams.get('created_at_before') === tomorrow;
    });
    await page.getByLabel('Created to').fill(today);
    await rangeListed;
    await rowOf('field-notes.txt').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('created_to'), today);
    await rowOf('field-notes.txt').getByRole('checkbox').check();
    await rowOf('harbour-chart.png').getByRole('checkbox').check();
    const bar = page.getByTestId('bulk-actions');
    await bar.getByTestId('bulk-selected').filter({ hasText: '2 raw data items selected' }).waitFor();
    await screenshot(page, 'rawdata-list-selection');
    await bar.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete 2 items?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted 2 items.').waitFor();
    await rowOf('field-notes.txt').waitFor({ state: 'detached' });
    assert.deepEqual((await items()).map((item) => item.file_name).sort(), ['harbour-report.pdf', 'harbour-report.pdf']);

    // The buckets tab and a bucket's edit page.
    await page.getByRole('tab', { name: 'Buckets' }).click();
    await page.getByRole('grid', { name: 'Buckets' }).getByRole('link', { name: 'Porto harbour' }).click();
    await page.waitForURL((url) => url.pathname === `/rawdata/buckets/${bucketId}/edit`);
    await page.getByRole('heading', { name: 'Edit Porto harbour' }).waitFor();
    await context.close();
  });

  it('shows raw data to research users and admins only; the tab to admins', async () => {
    const research = await open('research@demo.test', 'research', '/rawdata?tab=1');
    await research.page.getByRole('grid', { name: 'Raw data' }).waitFor();
    assert.equal(await research.page.getByTestId('nav-tabs').getByRole('tab', { name: 'Raw Data' }).count(), 0);
    await research.context.close();

    const reader = await open('reader@demo.test', 'paywall', '/rawdata/quick-create');
    await reader.page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await reader.context.close();

    const admin = await open('admin@demo.test', 'admin');
    await admin.page.getByTestId('nav-tabs').getByRole('tab', { name: 'Raw Data' }).click();
    await admin.page.getByRole('heading', { name: 'Raw data', level: 1 }).waitFor();
    await admin.context.close();
  });
});

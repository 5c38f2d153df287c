import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, openSignedIn, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('organizations: list, form, detail, export and upload', { skip: unavailable ?? false }, () => {
  const workDir = mkdtempSync(path.join(tmpdir(), 'intelnotes-e2e-'));

  const { server, browser } = useServerAndBrowser(async () => {
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'reader@demo.test');
    const token = await server.login(demo, 'admin@demo.test');
    // Older than the named ones below, so they fill the second page of the default ordering.
    for (let index = 1; index <= 27; index += 1) {
      await server.create(demo, token, 'assets/organizations', { name_inc: `Bulk Org ${String(index).padStart(2, '0')}`, visibility: 'public' });
    }
    for (const [name, visibility] of [
      ['Seeded Public Org', 'public'],
      ['Seeded Paywalled Org', 'paywalled'],
      ['Seeded Hidden Org', 'hidden'],
    ] as const) {
      await server.create(demo, token, 'assets/organizations', { name_inc: name, visibility, hq_city: 'Porto' });
    }
    // Spreadsheet uploads are imported by a worker.
    await server.startWorker();
  });
  after(() => rmSync(workDir, { recursive: true, force: true }));

  /** Opens `pathname` of tenant demo signed in (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, email: string, level: string, pathname = '/') => openSignedIn(page, server.url('demo', pathname), email, level);

  const grid = (page: Page) => page.getByRole('grid', { name: 'Organizations' });

  it('an admin creates an organization, finds it, opens it and hides it', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test', 'admin', '/organizations?tab=1');
    await grid(page).getByRole('link', { name: 'Seeded Hidden Org' }).waitFor();
    await screenshots(page, 'organizations-list');

    await page.getByRole('link', { name: 'New organization' }).click();
    await page.getByRole('heading', { name: 'New organization' }).waitFor();
    await page.getByLabel('Legal name').fill('Acme Analytics Ltd');
    await page.getByLabel('HQ city').fill('Lisbon');
    const founding = page.getByRole('group', { name: 'Founding date' });
    await founding.getByLabel('Year').fill('2019');
    await founding.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'March' }).click();
    await page.getByLabel('Emails').fill('info@acme.test');
    await page.getByLabel('Emails').press('Enter');
    await page.getByLabel('Phones').fill('+351 21 123 4567,');
    await page.getByRole('radio', { name: /Public/ }).check();
    await screenshots(page, 'organization-form');
    await page.getByRole('button', { name: 'Create organization' }).click();

    await page.getByRole('heading', { level: 1, name: 'Acme Analytics Ltd' }).waitFor();
    await page.getByText('Organization “Acme Analytics Ltd” created.').waitFor();
    assert.equal(await page.locator('dd[data-field="founding_date"]').innerText(), 'March 2019');
    assert.match(await page.locator('dd[data-field="emails"]').innerText(), /info@acme\.test/);
    assert.equal(await page.getByTestId('visibility-chip').first().innerText(), 'Public');
    await screenshots(page, 'organization-detail');

    // Found in the list through the search box; the search is kept in the URL.
    await page.goto(server.url('demo', '/organizations?tab=1'));
    await page.getByLabel('Search organizations').fill('Acme');
    await page.waitForURL(/search=Acme/);
    assert.equal(new URL(page.url()).searchParams.get('tab'), '1');
    await grid(page).getByRole('link', { name: 'Acme Analytics Ltd' }).waitFor();
    await grid(page).getByRole('link', { name: 'Seeded Public Org' }).waitFor({ state: 'detached' });
    // A click on a cell not edited in the table (HQ city is: grid-editing.test.ts) opens the record.
    await grid(page).getByRole('row').filter({ has: page.getByRole('gridcell', { name: 'Lisbon' }) }).locator('[data-field="updated_at"]').click();
    await page.getByRole('heading', { level: 1, name: 'Acme Analytics Ltd' }).waitFor();

    // The incomplete date comes back as year and month; only the visibility is changed.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Acme Analytics Ltd' }).waitFor();
    const editFounding = page.getByRole('group', { name: 'Founding date' });
    assert.equal(await editFounding.getByLabel('Year').inputValue(), '2019');
    assert.equal(await editFounding.getByRole('combobox', { name: 'Month' }).innerText(), 'March');
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
    });
    await page.getByRole('radio', { name: /Hidden/ }).check();
    // Leaving with unsaved changes asks first; staying keeps them.
    await page.getByRole('tab', { name: 'People' }).click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.getByText('Your changes to this organization have not been saved.').waitFor();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'hidden' });
    assert.equal(await page.getByRole('radio', { name: /Hidden/ }).isChecked(), true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Organization “Acme Analytics Ltd” saved.').waitFor();
    assert.equal(await page.getByTestId('visibility-chip').first().innerText(), 'Hidden');
    assert.deepEqual(patches.map((body) => JSON.parse(body)), [{ visibility: 'hidden' }]);
    await context.close();
  });

  it('signed out, hidden and paywalled organizations are not listed', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(server.url('demo', '/organizations?tab=1'));
    await grid(page).getByRole('link', { name: 'Seeded Public Org' }).waitFor();
    const names = await grid(page).getByRole('link').allInnerTexts();
    assert.ok(!names.includes('Acme Analytics Ltd'), names.join(', '));
    assert.ok(!names.includes('Seeded Paywalled Org'), names.join(', '));
    assert.ok(!names.includes('Seeded Hidden Org'), names.join(', '));
    assert.equal(await page.getByRole('link', { name: 'New organization' }).count(), 0);
    await context.close();
  });

  it('the page, page size and ordering are kept in the URL', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const displayed = page.locator('.MuiTablePagination-displayedRows');
    await page.goto(server.url('demo', '/organizations?tab=1&page=2'));
    await grid(page).getByRole('link', { name: 'Bulk Org 01' }).waitFor();
    assert.match(await displayed.innerText(), /^26–/);
    // Still on the bookmarked page once everything has loaded.
    await page.waitForLoadState('networkidle');
    assert.equal(new URL(page.url()).searchParams.get('page'), '2');

    await grid(page).getByRole('columnheader', { name: 'Name' }).click();
    await page.waitForURL(/ordering=display_name/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('page'), null, 'a new ordering starts at the first page');
    assert.equal(url.searchParams.get('tab'), '1');
    // Sorted by name once the new page has loaded.
    await grid(page).getByRole('link').first().filter({ hasText: 'Bulk Org 01' }).waitFor();
    await displayed.filter({ hasText: /^1–25 of \d+$/ }).waitFor();
    await page.getByRole('combobox', { name: /Rows per page/ }).click();
    await page.getByRole('option', { name: '50' }).click();
    await page.waitForURL(/page_size=50/);

    await page.reload();
    await grid(page).getByRole('link', { name: 'Bulk Org 01' }).waitFor();
    assert.equal(await grid(page).getByRole('link').first().innerText(), 'Bulk Org 01');
    assert.match(await displayed.innerText(), /^1–\d+ of \d+$/);
    await context.close();
  });

  it('a paywall reader sees paywalled organizations but cannot edit', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'reader@demo.test', 'paywall', '/organizations?tab=1');
    await grid(page).getByRole('link', { name: 'Seeded Paywalled Org' }).waitFor();
    const names = await grid(page).getByRole('link').allInnerTexts();
    assert.ok(names.includes('Seeded Public Org'), names.join(', '));
    assert.ok(!names.includes('Seeded Hidden Org'), names.join(', '));
    assert.equal(await page.getByRole('link', { name: 'New organization' }).count(), 0);

    // The visibility filter is a bookmarkable URL.
    await page.goto(server.url('demo', '/organizations?tab=1&visibility=paywalled'));
    await grid(page).getByRole('link', { name: 'Seeded Paywalled Org' }).waitFor();
    await grid(page).getByRole('link', { name: 'Seeded Public Org' }).waitFor({ state: 'detached' });

    await grid(page).getByRole('link', { name: 'Seeded Paywalled Org' }).click();
    await page.getByRole('heading', { level: 1, name: 'Seeded Paywalled Org' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    await context.close();
  });

  it('an invalid email is shown on the field and in the summary', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test', 'admin', '/organizations/create');
    await page.getByLabel('Legal name').fill('Broken Email Org');
    await page.getByLabel('Emails').fill('ok@example.org');
    await page.getByLabel('Emails').press('Enter');
    await page.getByLabel('Emails').fill('not-an-email');
    await page.getByLabel('Emails').press('Enter');
    await page.getByRole('button', { name: 'Create organization' }).click();
    const summary = page.getByTestId('form-errors');
    await summary.waitFor();
    assert.match(await summary.innerText(), /Emails/);
    // The API names the second item (item_errors); the field shows its value, not its position.
    const emailsHelp = page.locator('[id$="-emails-helper-text"], .MuiFormHelperText-root.Mui-error').filter({ hasText: /email/i });
    await emailsHelp.first().waitFor();
    assert.equal(await emailsHelp.first().innerText(), '“not-an-email”: Enter a valid email address.');
    assert.equal(new URL(page.url()).pathname, '/organizations/create');
    await screenshots(page, 'organization-form-errors');
    await context.close();
  });

  it('exports the list as an xlsx file and imports a csv with a bad row', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test', 'admin', '/organizations?tab=1');
    await grid(page).getByRole('link', { name: 'Seeded Public Org' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);
    const saved = path.join(workDir, download.suggestedFilename());
    await download.saveAs(saved);
    assert.equal(readFileSync(saved).subarray(0, 2).toString('latin1'), 'PK', 'an xlsx file is a zip archive');

    const csv = path.join(workDir, 'organizations.csv');
    writeFileSync(csv, 'name_inc,emails,hq_city,visibility\nUploaded Good Org,good@upload.test,Faro,public\nUploaded Bad Org,not-an-email,Faro,public\n');
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Spreadsheet file').setInputFiles(csv);
    await dialog.getByLabel(/Keep good rows/).check();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const report = dialog.getByTestId('import-report');
    await report.waitFor();
    assert.match(await report.innerText(), /1 created · 0 updated · 1 failed/);
    const errorRow = report.getByRole('row').filter({ hasText: 'not-an-email' }).or(report.getByRole('row').filter({ hasText: 'Emails' }));
    await errorRow.first().waitFor();
    assert.match(await errorRow.first().innerText(), /^3\b/);
    await screenshots(page, 'organizations-upload-report', { viewportOnly: true });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await grid(page).getByRole('link', { name: 'Uploaded Good Org' }).waitFor();
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

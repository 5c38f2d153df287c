import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { useServerAndBrowser, browserUnavailable, DESKTOP, screenshot, screenshots, openSignedIn } from './support/browser.ts';

const unavailable = browserUnavailable();
const ORGS = '/api/v1/assets/organizations';

describe('bulk work in tables: selection, actions with undo, column chooser', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let token: string;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    token = await server.login(demo, 'admin@demo.test');
    const create = (url: string, payload: Record<string, unknown>) => server.create(demo, token, url, payload);
    // 26 rows in all: one more than a page, so the whole page can be widened to every match.
    for (let index = 1; index <= 22; index += 1) {
      await create(`${ORGS}/`, { name_inc: `Filler Org ${String(index).padStart(2, '0')}`, visibility: 'public' });
    }
    for (const name of ['Selected Alpha', 'Selected Beta', 'Selected Gamma', 'Left Alone']) {
      ids[name] = await create(`${ORGS}/`, { name_inc: name, visibility: 'public', hq_city: 'Porto' });
    }
    ids['Porto Watch'] = await create('/api/v1/lists/', { name: 'Porto Watch', kind: 'OrganizationsList', visibility: 'public' });
    await server.request(demo, { method: 'POST', url: `/api/v1/lists/${ids['Porto Watch']}/items/`, token, payload: { id: ids['Selected Alpha'] } });
    ids['Harbour Picks'] = await create('/api/v1/lists/', { name: 'Harbour Picks', kind: 'OrganizationsList', visibility: 'public' });
    await server.request(demo, { method: 'POST', url: `/api/v1/lists/${ids['Harbour Picks']}/items/`, token, payload: { id: ids['Selected Alpha'] } });
    for (const name of ['Seafood', 'Shipping']) ids[name] = await create('/api/v1/keywords/', { name, visibility: 'public' });
  });

  const grid = (page: Page, name = 'Organizations') => page.getByRole('grid', { name });
  const rowOf = (page: Page, name: string) => grid(page).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  const visibilityOf = async (name: string) => {
    const response = await server.request(demo, { method: 'GET', url: `${ORGS}/${ids[name]}/`, token });
    return (response.json() as { visibility: string }).visibility;
  };
  const keywordsOf = async (name: string) => {
    const response = await server.request(demo, { method: 'GET', url: `${ORGS}/${ids[name]}/`, token });
    return ((response.json() as { keywords: Array<{ display_name: string }> }).keywords ?? []).map((ref) => ref.display_name).sort();
  };
  /** The organizations whose rows the tests select. */
  const SELECTED = '/organizations?tab=1&search=selected';
  /** A fresh context with `pathname` open, signed in as the admin (openSignedIn: no login page). */
  const openAsAdmin = async (pathname = '/') => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', pathname), 'admin@demo.test', 'admin');
    return { context, page };
  };

  it('selects rows, hides them in one action and puts them back from the toast', async () => {
    const { context, page } = await openAsAdmin(SELECTED);
    await rowOf(page, 'Selected Gamma').waitFor();
    for (const name of ['Selected Alpha', 'Selected Beta', 'Selected Gamma']) {
      await rowOf(page, name).getByRole('checkbox').check();
    }
    const bar = page.getByTestId('bulk-actions');
    await bar.getByTestId('bulk-selected').filter({ hasText: '3 organizations selected' }).waitFor();
    await screenshots(page, 'bulk-selection');

    await bar.getByRole('button', { name: 'Visibility' }).click();
    await page.getByRole('menuitem', { name: 'Make hidden' }).click();
    const toast = page.locator('.Toastify__toast').filter({ hasText: '3 organizations set to hidden.' });
    await toast.waitFor();
    // The pointer on the toast pauses its auto-close (15 s) while the table is checked — once
    // it has slid in, so that it does not move away from under the pointer.
    await toast.evaluate((element) => Promise.allSettled(element.getAnimations().map((animation) => animation.finished)));
    await toast.hover();
    // The table is read again from the server after the change: its chips are the stored values.
    for (const name of ['Selected Alpha', 'Selected Beta', 'Selected Gamma']) {
      await rowOf(page, name).getByTestId('visibility-chip').filter({ hasText: /hidden/i }).waitFor();
    }
    // One shot, desktop only: screenshots() waits for animations, and the toast's runs until it closes.
    await screenshot(page, 'bulk-hidden-toast');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await page.locator('.Toastify__toast').filter({ hasText: 'Undone: 3 organizations put back.' }).waitFor();
    assert.equal(await visibilityOf('Left Alone'), 'public', 'an unselected row was never touched');
    for (const name of ['Selected Alpha', 'Selected Beta', 'Selected Gamma']) assert.equal(await visibilityOf(name), 'public', name);
    await rowOf(page, 'Selected Beta').getByTestId('visibility-chip').filter({ hasText: /public/i }).waitFor();
    await context.close();
  });

  /** Opens the Porto organizations and ticks the rows named. */
  const selectRows = async (page: Page, names: string[]) => {
    // Opened there already by openAsAdmin(SELECTED): no second app start.
    if (page.url() !== server.url('demo', SELECTED)) await page.goto(server.url('demo', SELECTED));
    await rowOf(page, 'Selected Gamma').waitFor();
    for (const name of names) await rowOf(page, name).getByRole('checkbox').check();
    const bar = page.getByTestId('bulk-actions');
    await bar.getByTestId('bulk-selected').filter({ hasText: `${names.length} organization${names.length === 1 ? '' : 's'} selected` }).waitFor();
    return bar;
  };
  /** Picks a record by typing the start of its name into a picker, then choosing it. */
  const pick = async (page: Page, picker: string, name: string) => {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: picker }).fill(name.slice(0, 4));
    await page.getByRole('option', { name }).click();
  };

  it('adds the selected rows to a list chosen in a dialog', async () => {
    const { context, page } = await openAsAdmin(SELECTED);
    const bar = await selectRows(page, ['Selected Beta', 'Selected Gamma']);
    await bar.getByRole('button', { name: 'Add to list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add 2 organizations to a list' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Add', exact: true }).isDisabled(), true, 'nothing to add to before a list is chosen');
    await pick(page, 'List', 'Harbour Picks');
    await screenshots(page, 'bulk-add-to-list', { viewportOnly: true });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.Toastify__toast').filter({ hasText: 'Added 2 organizations to “Harbour Picks”.' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await bar.waitFor({ state: 'detached' });
    const items = await server.request(demo, { method: 'GET', url: `/api/v1/lists/${ids['Harbour Picks']}/items/`, token });
    const names = (items.json() as { results: Array<{ id: string }> }).results.map((row) => Object.keys(ids).find((name) => ids[name] === row.id)).sort();
    assert.deepEqual(names, ['Selected Alpha', 'Selected Beta', 'Selected Gamma'], 'added after the item already there');
    await context.close();
  });

  it('adds keywords to the selected rows and removes them again through the keyword dialogs', async () => {
    const { context, page } = await openAsAdmin(SELECTED);
    let bar = await selectRows(page, ['Selected Alpha', 'Selected Beta']);
    await bar.getByRole('button', { name: 'Keywords' }).click();
    await page.getByRole('menuitem', { name: 'Add keywords…' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add keywords to 2 organizations' });
    await dialog.waitFor();
    await pick(page, 'Keywords', 'Seafood');
    await pick(page, 'Keywords', 'Shipping');
    await screenshots(page, 'bulk-add-keywords', { viewportOnly: true });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.Toastify__toast').filter({ hasText: 'Added Seafood, Shipping to 2 organizations.' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(await keywordsOf('Selected Alpha'), ['Seafood', 'Shipping']);
    assert.deepEqual(await keywordsOf('Selected Beta'), ['Seafood', 'Shipping']);
    assert.deepEqual(await keywordsOf('Selected Gamma'), [], 'an unselected row was never touched');

    bar = await selectRows(page, ['Selected Alpha']);
    await bar.getByRole('button', { name: 'Keywords' }).click();
    await page.getByRole('menuitem', { name: 'Remove keywords…' }).click();
    dialog = page.getByRole('dialog', { name: 'Remove keywords from 1 organization' });
    await dialog.waitFor();
    await pick(page, 'Keywords', 'Seafood');
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.locator('.Toastify__toast').filter({ hasText: 'Removed Seafood from 1 organization.' }).waitFor();
    assert.deepEqual(await keywordsOf('Selected Alpha'), ['Shipping']);
    assert.deepEqual(await keywordsOf('Selected Beta'), ['Seafood', 'Shipping'], 'only the selected row lost it');
    await context.close();
  });

  it('exports only the selected rows', async () => {
    const { context, page } = await openAsAdmin(SELECTED);
    const bar = await selectRows(page, ['Selected Alpha', 'Selected Gamma']);
    await bar.getByRole('button', { name: 'Export selected' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV (.csv)' }).click()]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    assert.match(text, /Selected Alpha/);
    assert.match(text, /Selected Gamma/);
    assert.doesNotMatch(text, /Selected Beta|Left Alone|Filler Org/, 'rows not selected stay out of the file');
    await page.locator('.Toastify__toast').filter({ hasText: `Downloaded ${download.suggestedFilename()}.` }).waitFor();
    await context.close();
  });

  it('offers every matching row once the page is selected, and asks before deleting', async () => {
    const { context, page } = await openAsAdmin('/organizations?tab=1');
    await grid(page).getByRole('link').first().waitFor();
    await grid(page).getByRole('checkbox', { name: 'Select all rows' }).check();
    const bar = page.getByTestId('bulk-actions');
    await bar.getByTestId('bulk-selected').filter({ hasText: '25 organizations selected' }).waitFor();
    await bar.getByRole('button', { name: 'Select all 26 organizations matching' }).click();
    await bar.getByTestId('bulk-selected').filter({ hasText: 'All 26 organizations matching selected' }).waitFor();
    await bar.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete 26 organizations?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await bar.waitFor({ state: 'detached' });
    const count = await server.request(demo, { method: 'GET', url: `${ORGS}/?limit=1`, token });
    assert.equal((count.json() as { count: number }).count, 26, 'nothing was deleted');
    await context.close();
  });

  it('remembers the columns and density chosen for a table across a reload', async () => {
    const { context, page } = await openAsAdmin('/organizations?tab=1');
    await grid(page).getByRole('columnheader', { name: 'HQ city' }).waitFor();
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'HQ city' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Created' }).click();
    await page.getByRole('menuitemradio', { name: 'Compact' }).click();
    await screenshots(page, 'bulk-column-chooser', { viewportOnly: true });
    await page.keyboard.press('Escape');
    await grid(page).getByRole('columnheader', { name: 'HQ city' }).waitFor({ state: 'detached' });

    await page.reload();
    await grid(page).getByRole('columnheader', { name: 'Created' }).waitFor();
    assert.equal(await grid(page).getByRole('columnheader', { name: 'HQ city' }).count(), 0);
    const stored = await page.evaluate(() => window.localStorage.getItem('intelnotes.table.organizations'));
    assert.deepEqual(JSON.parse(stored ?? 'null')?.density, 'compact');

    // Other tables keep their own choice.
    await page.goto(server.url('demo', '/lists?tab=1'));
    await grid(page, 'Lists').getByRole('link', { name: 'Porto Watch' }).waitFor();
    await grid(page, 'Lists').getByRole('columnheader', { name: 'Items' }).waitFor();
    const items = grid(page, 'Lists').getByRole('row').filter({ hasText: 'Porto Watch' }).locator('[data-field="item_count"]');
    assert.equal((await items.textContent())?.trim(), '1');
    await page.getByRole('button', { name: 'Export' }).waitFor();
    await page.getByRole('button', { name: 'Upload' }).waitFor();
    await screenshots(page, 'bulk-lists-table');
    await context.close();
  });
});

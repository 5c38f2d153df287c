import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { browserUnavailable, DESKTOP, launchBrowser, screenshot, screenshots, signInAt, startServer, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();
const ORGS = '/api/v1/assets/organizations';

describe('bulk work in tables: selection, actions with undo, column chooser', { skip: unavailable ?? false }, () => {
  let server: E2EServer;
  let browser: Browser;
  let demo: TenantRow;
  let token: string;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startServer();
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    token = await server.login(demo, 'admin@demo.test');
    const create = async (url: string, payload: Record<string, unknown>) => {
      const response = await server.request(demo, { method: 'POST', url, token, payload });
      assert.equal(response.statusCode, 201, response.body);
      return (response.json() as { id: string }).id;
    };
    // 26 rows in all: one more than a page, so the whole page can be widened to every match.
    for (let index = 1; index <= 22; index += 1) {
      await create(`${ORGS}/`, { name_inc: `Filler Org ${String(index).padStart(2, '0')}`, visibility: 'public' });
    }
    for (const name of ['Selected Alpha', 'Selected Beta', 'Selected Gamma', 'Left Alone']) {
      ids[name] = await create(`${ORGS}/`, { name_inc: name, visibility: 'public', hq_city: 'Porto' });
    }
    const list = await create('/api/v1/lists/', { name: 'Porto Watch', kind: 'OrganizationsList', visibility: 'public' });
    await server.request(demo, { method: 'POST', url: `/api/v1/lists/${list}/items/`, token, payload: { id: ids['Selected Alpha'] } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const grid = (page: Page, name = 'Organizations') => page.getByRole('grid', { name });
  const rowOf = (page: Page, name: string) => grid(page).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  const visibilityOf = async (name: string) => {
    const response = await server.request(demo, { method: 'GET', url: `${ORGS}/${ids[name]}/`, token });
    return (response.json() as { visibility: string }).visibility;
  };
  const openAsAdmin = async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signInAt(page, server.url('demo', '/login'), 'admin@demo.test', 'admin');
    return { context, page };
  };

  it('selects rows, hides them in one action and puts them back from the toast', async () => {
    const { context, page } = await openAsAdmin();
    await page.goto(server.url('demo', '/organizations?tab=1&search=selected'));
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

  it('offers every matching row once the page is selected, and asks before deleting', async () => {
    const { context, page } = await openAsAdmin();
    await page.goto(server.url('demo', '/organizations?tab=1'));
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
    const { context, page } = await openAsAdmin();
    await page.goto(server.url('demo', '/organizations?tab=1'));
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

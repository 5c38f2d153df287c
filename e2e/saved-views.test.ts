import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { useServerAndBrowser, browserUnavailable, DESKTOP, screenshots, openSignedIn, navigateInApp } from './support/browser.ts';

const unavailable = browserUnavailable();
const ORGS = '/api/v1/assets/organizations';

/**
 * Saved views and group-by (issue 28 item 2, docs/web.md "Saved views", "Grouping"): a research
 * user saves the table's settings, opens the view again from its link, shares it; a teammate
 * sees the shared view and not the private one, makes it their default and gets it on a bare
 * list; readers get no Views menu; rows group under headers with the page's counts.
 */
describe('saved views and group-by', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let research: string;

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    await server.createUser(demo, 'mate@demo.test', { is_research: true });
    await server.createUser(demo, 'reader@demo.test', {});
    research = await server.login(demo, 'research@demo.test');
    const create = (url: string, payload: Record<string, unknown>) => server.create(demo, research, url, payload);
    for (const [name, city, type] of [
      ['Porto Fisheries', 'Porto', 'Private'], ['Porto Shipping', 'Porto', 'Private'], ['Porto Council Fund', 'Porto', 'Public'],
      ['Douro Co-op', 'Porto', null], ['Lisbon Trams', 'Lisbon', 'Public'], ['Faro Hotels', 'Faro', 'Private'],
    ] as const) {
      await create(`${ORGS}/`, { name_inc: name, hq_city: city, ownership_type: type, visibility: 'public' });
    }
    for (const [caption, year] of [['Seed round', 2021], ['Series A', 2022], ['Series B', 2022], ['Bridge', 2021]] as const) {
      await create('/api/v1/assets/ledger/', { caption, year, visibility: 'public' });
    }
    // A private view of the research user's: never shown to the teammate.
    await create('/api/v1/views/', { name: 'Only mine', resource: 'organizations', state: { search: 'Faro' } });
  });

  const grid = (page: Page, name = 'Organizations') => page.getByRole('grid', { name });
  const names = async (page: Page, name = 'Organizations') =>
    (await grid(page, name).getByRole('link').allTextContents()).map((text) => text.trim()).sort();
  const open = async (email: string, level: string, pathname: string) => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', pathname), email, level);
    return { context, page };
  };
  const viewsMenu = async (page: Page) => {
    await page.getByRole('button', { name: 'Views' }).click();
    return page.getByRole('menu');
  };
  const groupHeader = (page: Page, label: string, count: number, name = 'Organizations') =>
    grid(page, name).getByRole('row').filter({ hasText: label }).filter({ hasText: `${count} ${count === 1 ? 'row' : 'rows'} on this page` });
  let viewId = '';

  it('a research user groups the table, saves it as a view and opens it again from its link', async () => {
    const { context, page } = await open('research@demo.test', 'research', '/organizations?tab=1&hq_city=Porto');
    await grid(page).getByRole('link', { name: 'Porto Fisheries' }).waitFor();
    await page.getByRole('button', { name: /^Group/ }).click();
    await page.getByRole('menuitemradio', { name: 'Ownership type' }).click();
    await groupHeader(page, 'Private', 2).waitFor();
    await groupHeader(page, 'Public', 1).waitFor();
    await groupHeader(page, 'Not set', 1).waitFor();
    // A header folds its group.
    await groupHeader(page, 'Private', 2).getByRole('button', { name: /Hide Ownership type: Private/ }).click();
    await grid(page).getByRole('link', { name: 'Porto Fisheries' }).waitFor({ state: 'detached' });
    await groupHeader(page, 'Private', 2).getByRole('button', { name: /Show Ownership type: Private/ }).click();
    await grid(page).getByRole('link', { name: 'Porto Fisheries' }).waitFor();
    await screenshots(page, 'saved-views-grouped');

    await (await viewsMenu(page)).getByRole('menuitem', { name: 'Save current view as…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the current view' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Give the view a name.').waitFor();
    await dialog.getByLabel('Name').fill('Porto by ownership');
    await screenshots(page, 'saved-views-save-dialog', { viewportOnly: true });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('active-view').filter({ hasText: /^Porto by ownership$/ }).waitFor();
    viewId = new URL(page.url()).searchParams.get('view') ?? '';
    assert.match(viewId, /^[0-9a-f-]{36}$/, page.url());

    // A change of the table shows the view as edited; Update saves it into the view.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Notes' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('active-view').filter({ hasText: 'Porto by ownership (edited)' }).waitFor();
    await (await viewsMenu(page)).getByRole('menuitem', { name: 'Update “Porto by ownership”' }).click();
    await page.getByTestId('active-view').filter({ hasText: /^Porto by ownership$/ }).waitFor();
    await screenshots(page, 'saved-views-active', { hideToasts: true });

    // The link of the view alone opens it whole: its filter, grouping and columns.
    await page.goto(server.url('demo', `/organizations?view=${viewId}`));
    await page.getByTestId('active-view').filter({ hasText: /^Porto by ownership$/ }).waitFor();
    await groupHeader(page, 'Private', 2).waitFor();
    assert.deepEqual(await names(page), ['Douro Co-op', 'Porto Council Fund', 'Porto Fisheries', 'Porto Shipping']);
    await grid(page).getByRole('columnheader', { name: 'Notes' }).waitFor();
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('hq_city'), 'Porto');
    assert.equal(url.searchParams.get('group_by'), 'ownership_type');

    // Shared with the team from the menu.
    const menu = await viewsMenu(page);
    await menu.getByRole('menuitem', { name: 'Only mine' }).waitFor();
    await menu.getByRole('menuitemcheckbox', { name: 'Shared with the team' }).click();
    await page.locator('.Toastify__toast').filter({ hasText: '“Porto by ownership” is shared with the team.' }).waitFor();
    await context.close();
  });

  it('a teammate sees the shared view and not the private one, and makes it their default', async () => {
    assert.ok(viewId, 'the first test saved the view');
    const { context, page } = await open('mate@demo.test', 'research', '/organizations?tab=1');
    await grid(page).getByRole('link', { name: 'Faro Hotels' }).waitFor();
    const menu = await viewsMenu(page);
    await menu.getByText('Shared by the team').waitFor();
    await menu.getByRole('menuitem', { name: /Porto by ownership/ }).waitFor();
    assert.equal(await menu.getByRole('menuitem', { name: /Only mine/ }).count(), 0, 'a private view is its owner\'s alone');
    await screenshots(page, 'saved-views-teammate-menu', { viewportOnly: true });
    await menu.getByRole('menuitem', { name: /Porto by ownership/ }).click();
    await page.getByTestId('active-view').filter({ hasText: /^Porto by ownership$/ }).waitFor();
    await groupHeader(page, 'Private', 2).waitFor();
    // Not theirs: no update, rename, share or delete — but their default, if they like.
    const own = await viewsMenu(page);
    await own.getByRole('menuitemcheckbox', { name: 'My default view' }).waitFor();
    assert.equal(await own.getByRole('menuitem', { name: /Rename|Delete|Update/ }).count(), 0);
    assert.equal(await own.getByRole('menuitemcheckbox', { name: 'Shared with the team' }).count(), 0);
    await own.getByRole('menuitemcheckbox', { name: 'My default view' }).click();
    await page.locator('.Toastify__toast').filter({ hasText: 'This list now opens with “Porto by ownership” for you.' }).waitFor();

    // The list opened bare opens with the default view.
    await page.goto(server.url('demo', '/organizations?tab=1'));
    await page.getByTestId('active-view').filter({ hasText: /^Porto by ownership$/ }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('view'), viewId);
    // The bare list's rows show until the view's own have loaded: its grouping of its two private ones says they have.
    await groupHeader(page, 'Private', 2).waitFor();
    assert.deepEqual(await names(page), ['Douro Co-op', 'Porto Council Fund', 'Porto Fisheries', 'Porto Shipping']);
    // Cleared, the list shows everything and stays so.
    await page.getByTestId('active-view').locator('.MuiChip-deleteIcon').click();
    await grid(page).getByRole('link', { name: 'Faro Hotels' }).waitFor();
    assert.equal(await page.getByTestId('active-view').count(), 0);
    assert.equal(await groupHeader(page, 'Private', 2).count(), 0, 'no grouping without the view');

    // Another user's private view by its link is no view for them.
    const privateId = ((await server.request(demo, { method: 'GET', url: '/api/v1/views/?resource=organizations', token: research })).json() as { results: Array<{ id: string; name: string }> })
      .results.find((view) => view.name === 'Only mine')!.id;
    await navigateInApp(page, server.url('demo', `/organizations?view=${privateId}`));
    await grid(page).getByRole('link', { name: 'Lisbon Trams' }).waitFor();
    assert.equal(await page.getByTestId('active-view').count(), 0);
    await context.close();
  });

  it('the owner saves a view as their default, renames it and deletes it', async () => {
    const { context, page } = await open('research@demo.test', 'research', '/organizations?tab=1&search=lisbon');
    await grid(page).getByRole('link', { name: 'Lisbon Trams' }).waitFor();
    await (await viewsMenu(page)).getByRole('menuitem', { name: 'Save current view as…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the current view' });
    await dialog.getByLabel('Name').fill('Lisbon only');
    await dialog.getByLabel('Make it my default view of this list').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('active-view').filter({ hasText: /^Lisbon only$/ }).waitFor();
    const menu = await viewsMenu(page);
    await menu.getByRole('menuitem', { name: /Lisbon only/ }).filter({ hasText: 'Your default' }).waitFor();
    await menu.getByRole('menuitem', { name: 'Rename…' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the view' });
    await rename.getByLabel('Name').fill('Lisbon trams');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByTestId('active-view').filter({ hasText: /^Lisbon trams$/ }).waitFor();
    // The bare list opens with it, until it is deleted.
    await page.goto(server.url('demo', '/organizations?tab=1'));
    await page.getByTestId('active-view').filter({ hasText: /^Lisbon trams$/ }).waitFor();
    await (await viewsMenu(page)).getByRole('menuitem', { name: 'Delete view…' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this view?' }).getByRole('button', { name: 'Delete' }).click();
    await page.locator('.Toastify__toast').filter({ hasText: 'Deleted the view “Lisbon trams”.' }).waitFor();
    await grid(page).getByRole('link', { name: 'Faro Hotels' }).waitFor();
    assert.equal(await page.getByTestId('active-view').count(), 0);
    await page.goto(server.url('demo', '/organizations?tab=1'));
    await grid(page).getByRole('link', { name: 'Faro Hotels' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('view'), null, 'no default any more');
    await context.close();
  });

  it('a paywall reader gets no Views menu, and can still group', async () => {
    const { context, page } = await open('reader@demo.test', 'paywall', '/ledger?tab=1');
    await grid(page, 'Ledger').getByRole('link', { name: 'Series A' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Views' }).count(), 0);
    await page.getByRole('button', { name: /^Group/ }).click();
    await page.getByRole('menuitemradio', { name: 'Year' }).click();
    // Ledger entries order by year, so each year's rows come together.
    await groupHeader(page, '2021', 2, 'Ledger').waitFor();
    await groupHeader(page, '2022', 2, 'Ledger').waitFor();
    const rows = (await grid(page, 'Ledger').getByRole('row').allTextContents()).slice(1).map((text) => text.replace(/\s+/g, ' '));
    const first2022 = rows.findIndex((text) => text.includes('2022 rows') || /^.*2022.*2 rows on this page/.test(text));
    assert.ok(first2022 > 0, rows.join(' | '));
    assert.ok(rows.slice(first2022 + 1).every((text) => !/Seed round|Bridge/.test(text)), `2021's rows come before 2022's: ${rows.join(' | ')}`);
    await screenshots(page, 'saved-views-ledger-by-year');
    await context.close();
  });
});

/**
 * Lists in the browser: the /lists page filtered by type, creating a list, its page with items
 * added, moved and removed, a rename whose old address still leads to it, deletion, and who
 * may do what.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, openSignedIn, navigateInApp, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('lists: list page by type, create, items, rename, delete', { skip: unavailable ?? false }, () => {
  let token: string;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    // admin@, research@ and reader@demo.test
    token = (await server.signInAudiences(demo)).admin!;
    const post = (url: string, payload: Record<string, unknown>) => server.create(demo, token, url, payload);
    ids['keyword'] = await post('/api/v1/keywords/', { name: 'robotics' });
    for (const [name, visibility] of [
      ['Acme Robotics', 'public'],
      ['Beta Analytics', 'public'],
      ['Gamma Labs', 'paywalled'],
      ['Hidden Holdings', 'hidden'],
    ] as const) {
      ids[name] = await post('/api/v1/assets/organizations/', { name_inc: name, visibility });
    }
    ids['Founders'] = await post('/api/v1/lists/', { name: 'Founders', kind: 'PeopleList', description: 'People who started companies' });
    ids['Reading'] = await post('/api/v1/lists/', { name: 'Reading', kind: 'LibraryList', visibility: 'paywalled' });
    ids['Secret picks'] = await post('/api/v1/lists/', { name: 'Secret picks', kind: 'OrganizationsList', visibility: 'hidden' });
  });

  /** Opens a page of tenant demo signed in (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, pathname: string, email: string, level: string) => openSignedIn(page, server.url('demo', pathname), email, level);

  const grid = (page: Page, name: string) => page.getByRole('grid', { name });
  const itemNames = (page: Page) => page.getByTestId('list-item').getByRole('link').allInnerTexts();
  /** Waits (up to 10 s) until the list's items read `expected`, in order: items load after the heading. */
  const expectItems = async (page: Page, expected: string[]) => {
    const deadline = Date.now() + 10_000;
    let names = await itemNames(page);
    while (JSON.stringify(names) !== JSON.stringify(expected) && Date.now() < deadline) {
      await page.waitForTimeout(100);
      names = await itemNames(page);
    }
    assert.deepEqual(names, expected);
  };

  it('an admin creates an organizations list, fills it, reorders it, renames it and deletes it', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // The launcher's link: the lists page filtered by type.
    await signIn(page, '/lists?tab=1&type=OrganizationsList', 'admin@demo.test', 'admin');
    await page.getByRole('heading', { level: 1, name: 'Organizations lists' }).waitFor();
    await grid(page, 'Organizations lists').getByRole('link', { name: 'Secret picks' }).waitFor();
    assert.equal(await grid(page, 'Organizations lists').getByRole('link', { name: 'Founders' }).count(), 0);
    assert.equal(await page.getByRole('tab', { name: 'Organizations lists' }).getAttribute('aria-selected'), 'true');

    await page.getByRole('link', { name: 'New organizations list' }).click();
    await page.waitForURL((url) => url.pathname === '/lists/create' && url.searchParams.get('type') === 'OrganizationsList');
    await page.getByRole('heading', { name: 'New organizations list' }).waitFor();
    await page.getByLabel('Name').fill('Watch List');
    await page.getByLabel('Description').fill('Companies we follow closely.');
    await page.getByRole('combobox', { name: 'Keywords' }).fill('robo');
    await page.getByRole('option', { name: 'robotics' }).click();
    await screenshots(page, 'list-form', { hideToasts: true });
    await page.getByRole('button', { name: 'Create list' }).click();

    // Saved, then shown at its own address.
    await page.waitForURL((url) => url.pathname === '/lists/organizations/watch-list');
    await page.getByRole('heading', { level: 1, name: 'Watch List' }).waitFor();
    await page.getByText('List “Watch List” created.').waitFor();
    assert.match(await page.locator('dd[data-field="description"]').innerText(), /Companies we follow closely\./);
    assert.match(await page.locator('dd[data-field="keywords"]').innerText(), /robotics/);
    assert.match(await page.locator('dd[data-field="auto_tagging"]').innerText(), /^On/);
    await page.getByTestId('no-items').waitFor();

    // Items: added by name, in order; a hidden organization is offered to an admin too.
    const picker = page.getByRole('combobox', { name: 'Add an organization' });
    for (const name of ['Acme Robotics', 'Beta Analytics', 'Hidden Holdings']) {
      await picker.fill(name.split(' ')[0]!);
      await page.getByRole('option', { name }).click();
      await page.getByText(`Added “${name}” to the list, with the list's keywords.`).waitFor();
      await page.getByTestId('list-item').getByRole('link', { name }).waitFor();
    }
    await expectItems(page, ['Acme Robotics', 'Beta Analytics', 'Hidden Holdings']);
    assert.equal(await page.getByTestId('items-count').innerText(), '3');

    await page.getByRole('button', { name: 'Move “Beta Analytics” up' }).click();
    await page.getByTestId('list-item').first().getByRole('link', { name: 'Beta Analytics' }).waitFor();
    await expectItems(page, ['Beta Analytics', 'Acme Robotics', 'Hidden Holdings']);
    await page.getByRole('button', { name: 'Move “Beta Analytics” down' }).click();
    await page.getByTestId('list-item').first().getByRole('link', { name: 'Acme Robotics' }).waitFor();
    await page.getByRole('button', { name: 'Remove “Hidden Holdings” from the list' }).click();
    await page.getByText('Removed “Hidden Holdings” from the list.').waitFor();
    await page.getByTestId('list-item').getByRole('link', { name: 'Hidden Holdings' }).waitFor({ state: 'detached' });
    await expectItems(page, ['Acme Robotics', 'Beta Analytics']);
    await screenshots(page, 'list-detail', { hideToasts: true });

    // The item's page: the list's keyword (auto-tagging) and the list among its lists.
    await page.getByTestId('list-item').getByRole('link', { name: 'Beta Analytics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Beta Analytics' }).waitFor();
    assert.match(await page.locator('dd[data-field="keywords"]').innerText(), /robotics/);
    const membership = page.getByRole('link', { name: 'Watch List' });
    await membership.first().waitFor();
    assert.equal(await membership.first().getAttribute('href'), '/lists/organizations/watch-list');
    await membership.first().click();
    await page.getByRole('heading', { level: 1, name: 'Watch List' }).waitFor();

    // Renamed: a new address, and the old one still leads to the list.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL((url) => url.pathname === '/lists/organizations/watch-list/edit');
    await page.getByRole('heading', { name: 'Edit Watch List' }).waitFor();
    await page.getByLabel('Name').fill('Radar List');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === '/lists/organizations/radar-list');
    await page.getByRole('heading', { level: 1, name: 'Radar List' }).waitFor();
    await page.goto(server.url('demo', '/lists/organizations/watch-list'));
    await page.waitForURL((url) => url.pathname === '/lists/organizations/radar-list');
    await page.getByRole('heading', { level: 1, name: 'Radar List' }).waitFor();
    await expectItems(page, ['Acme Robotics', 'Beta Analytics']);

    // Listed under its type, not under another.
    await page.goto(server.url('demo', '/lists?tab=1'));
    await grid(page, 'Lists').getByRole('link', { name: 'Radar List' }).waitFor();
    await page.getByRole('tab', { name: 'People lists' }).click();
    await page.waitForURL((url) => url.searchParams.get('type') === 'PeopleList' && url.searchParams.get('tab') === '1');
    await grid(page, 'People lists').getByRole('link', { name: 'Radar List' }).waitFor({ state: 'detached' });
    await grid(page, 'People lists').getByRole('link', { name: 'Founders' }).waitFor();
    await screenshots(page, 'lists-people', { hideToasts: true });
    await page.getByRole('tab', { name: 'Organizations lists' }).click();
    await grid(page, 'Organizations lists').getByRole('link', { name: 'Radar List' }).click();
    await page.getByRole('heading', { level: 1, name: 'Radar List' }).waitFor();

    // Deleted: back on the lists of its type; the organizations stay.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this list?' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/lists' && url.searchParams.get('type') === 'OrganizationsList');
    await page.getByText('List “Radar List” deleted.').waitFor();
    await grid(page, 'Organizations lists').getByRole('link', { name: 'Secret picks' }).waitFor();
    assert.equal(await grid(page, 'Organizations lists').getByRole('link', { name: 'Radar List' }).count(), 0);
    const org = await server.request('demo', { method: 'GET', url: `/api/v1/assets/organizations/${ids['Beta Analytics']}/`, token });
    assert.equal(org.statusCode, 200);
    assert.deepEqual(org.json().lists_as_item, []);
    await page.goto(server.url('demo', '/lists/organizations/radar-list'));
    await page.getByRole('heading', { name: 'List not found' }).waitFor();
    await context.close();
  });

  it('choosing the type comes first when none is given', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, '/lists?tab=1', 'research@demo.test', 'research');
    await page.getByRole('link', { name: 'New list' }).click();
    await page.getByRole('heading', { name: 'New list' }).waitFor();
    await screenshots(page, 'list-create-choose-type', { hideToasts: true });
    await page.getByRole('link', { name: /People list/ }).click();
    await page.getByRole('heading', { name: 'New people list' }).waitFor();
    await page.getByLabel('Name').fill('Advisors');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.waitForURL((url) => url.pathname === '/lists/people/advisors');
    await page.getByRole('heading', { level: 1, name: 'Advisors' }).waitFor();
    await page.getByText('People list', { exact: true }).waitFor();
    await context.close();
  });

  it('readers see what they may, without controls to change it', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const list = await server.request('demo', { method: 'POST', url: '/api/v1/lists/', token, payload: { name: 'Open picks', kind: 'OrganizationsList' } });
    const listId = list.json().id as string;
    for (const name of ['Acme Robotics', 'Gamma Labs', 'Hidden Holdings']) {
      await server.request('demo', { method: 'POST', url: `/api/v1/lists/${listId}/items/`, token, payload: { id: ids[name] } });
    }

    // Signed out: public items only, no controls; the paywalled list is locked, the hidden one not found.
    await page.goto(server.url('demo', '/lists/organizations/open-picks'));
    await page.getByRole('heading', { level: 1, name: 'Open picks' }).waitFor();
    await page.getByTestId('list-item').first().waitFor();
    await expectItems(page, ['Acme Robotics']);
    assert.equal(await page.getByRole('link', { name: 'Edit' }).count(), 0);
    assert.equal(await page.getByRole('combobox', { name: 'Add an organization' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /Remove/ }).count(), 0);
    // Empty fields wait behind a switch; the curators' flag is not for readers.
    const field = (name: string) => page.locator(`dd[data-field="${name}"]`);
    assert.match(await field('auto_tagging').innerText(), /^On/);
    assert.equal(await field('description').count(), 0, 'an empty description is hidden');
    assert.equal(await field('keywords').count(), 0, 'no keywords: hidden');
    assert.equal(await field('show_on_dashboard').count(), 0);
    await page.getByRole('switch', { name: 'Show empty fields (2)' }).check();
    await field('description').getByText('Not set').waitFor();
    await field('keywords').getByText('Not set').waitFor();
    assert.equal(await field('show_on_dashboard').count(), 0, 'not even among the empty fields');
    await screenshots(page, 'list-detail-empty-fields');
    // From here on the pages are reached inside the app (navigateInApp): one app start per user.
    await navigateInApp(page, server.url('demo', '/lists/library/reading'));
    await page.getByRole('heading', { level: 1, name: 'This list is locked' }).waitFor();
    assert.equal(await page.getByText('Reading', { exact: true }).count(), 0, 'nothing of the list shows');
    await navigateInApp(page, server.url('demo', '/lists/organizations/secret-picks'));
    await page.getByRole('heading', { name: 'List not found' }).waitFor();
    await navigateInApp(page, server.url('demo', '/lists?tab=1'));
    await grid(page, 'Lists').getByRole('link', { name: 'Founders' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'New list' }).count(), 0);

    // Route guards: sign-in for visitors, access denied for readers.
    await navigateInApp(page, server.url('demo', '/lists/create'));
    await page.waitForURL((url) => url.pathname === '/login');
    await navigateInApp(page, server.url('demo', '/lists/people/founders/edit'));
    await page.waitForURL((url) => url.pathname === '/login');

    await signIn(page, '/lists/organizations/open-picks', 'reader@demo.test', 'paywall');
    await page.getByTestId('list-item').nth(1).waitFor();
    await expectItems(page, ['Acme Robotics', 'Gamma Labs']);
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    await navigateInApp(page, server.url('demo', '/lists/library/reading'));
    await page.getByRole('heading', { level: 1, name: 'Reading' }).waitFor();
    await navigateInApp(page, server.url('demo', '/lists/organizations/secret-picks'));
    await page.getByRole('heading', { name: 'List not found' }).waitFor();
    await navigateInApp(page, server.url('demo', '/lists/create'));
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await navigateInApp(page, server.url('demo', '/lists/people/founders/edit'));
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

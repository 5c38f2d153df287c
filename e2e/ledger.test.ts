import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, type E2EServer, openSignedIn, navigateInApp, DESKTOP, screenshots, clickUntilVisible } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('ledger: entries and their investments', { skip: unavailable ?? false }, () => {
  let demo: Awaited<ReturnType<E2EServer['createTenant']>>;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    // admin@, research@ and reader@demo.test
    const token = (await server.signInAudiences(demo)).admin!;
    const create = (path: string, payload: Record<string, unknown>) => server.create(demo, token, path, payload);
    ids['northwind'] = await create('assets/organizations', { name_inc: 'Northwind Capital', visibility: 'public' });
    ids['ada'] = await create('assets/people', { name_given: 'Ada', name_family: 'Lovelace', visibility: 'public' });
    ids['public'] = await create('assets/ledger', { caption: 'Seeded public entry', year: 2020, quarter: 'Q3', visibility: 'public', organizations: [ids['northwind']] });
    ids['paywalled'] = await create('assets/ledger', { caption: 'Seeded paywalled entry', year: 2021, visibility: 'paywalled' });
    ids['hidden'] = await create('assets/ledger', { caption: 'Seeded hidden entry', year: 2022, visibility: 'hidden' });
    await create('assets/investments', {
      ledger_entry: ids['public'], owner_person: ids['ada'], inv_vehicle_type: 'FA', inv_currency: 'EUR', visibility: 'public', admin_notes: 'Only for admins',
    });
  });

  /** Opens `pathname` of tenant demo signed in (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, email: string, level: string, pathname = '/') => openSignedIn(page, server.url('demo', pathname), email, level);

  const grid = (page: Page) => page.getByRole('grid', { name: 'Ledger' });
  const field = (page: Page, name: string) => page.locator(`dd[data-field="${name}"]`);
  const investments = (page: Page) => page.getByTestId('investments-section');

  /** Chooses an option of a select, waiting until its menu has gone. */
  async function choose(page: Page, scope: Page | ReturnType<Page['getByRole']>, label: string, option: string): Promise<void> {
    await scope.getByRole('combobox', { name: label }).click();
    await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
    // The menu fades out after the list has gone; until then it takes the clicks.
    await page.waitForFunction(() => document.querySelector('.MuiMenu-root') === null);
  }

  /** Picks the one option of a relation picker matching `name`, after typing part of it. */
  async function pick(page: Page, scope: Page | ReturnType<Page['getByRole']>, label: string, typed: string, name: string): Promise<void> {
    await scope.getByRole('combobox', { name: label }).fill(typed);
    await page.getByRole('listbox').getByRole('option', { name, exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'detached' });
  }

  it('a research user creates an entry, finds it, edits it, adds an investment, sees it on the owner, and deletes the entry', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'research@demo.test', 'research', '/ledger?tab=1');
    await grid(page).getByRole('link', { name: 'Seeded public entry' }).waitFor();
    await grid(page).getByRole('link', { name: 'Seeded paywalled entry' }).waitFor();
    // Research users are curators: they see hidden entries too.
    await grid(page).getByRole('link', { name: 'Seeded hidden entry' }).waitFor();
    const headers = await grid(page).getByRole('columnheader').allInnerTexts();
    assert.deepEqual(headers.map((text) => text.trim()).filter(Boolean), ['Caption / symbol', 'Year', 'Quarter', 'Organizations', 'Visibility', 'Updated']);
    await screenshots(page, 'ledger-list');

    await page.getByRole('link', { name: 'New ledger entry' }).click();
    await page.getByRole('heading', { name: 'New ledger entry' }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Quarter' }).innerText(), 'Q1', 'the quarter starts at Q1');
    await page.getByLabel('Caption').fill('Northwind fund II close');
    await page.getByLabel('Symbol').fill('NWF2');
    await page.getByLabel('Year').fill('2023');
    await choose(page, page, 'Quarter', 'Q2');
    await page.getByLabel('Data').fill('Final close at 450m.');
    await pick(page, page, 'Organizations', 'North', 'Northwind Capital');
    await page.getByLabel('URL').fill('news.example.com/northwind-ii');
    await page.getByRole('radio', { name: /Paywalled/ }).check();
    await screenshots(page, 'ledger-form');
    await page.getByRole('button', { name: 'Create ledger entry' }).click();

    // The toast first: it closes by itself, the heading stays.
    await page.getByText('Ledger entry “Northwind fund II close” created.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Northwind fund II close' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal(await field(page, 'year').innerText(), '2023');
    assert.equal(await field(page, 'quarter').innerText(), 'Q2');
    assert.match(await field(page, 'organizations').innerText(), /Northwind Capital/);
    assert.match(await field(page, 'url').innerText(), /https:\/\/news\.example\.com\/northwind-ii/);
    await investments(page).getByText('No investments in this ledger entry yet.').waitFor();

    // Listed, found by its symbol.
    await page.goto(server.url('demo', '/ledger?tab=1'));
    await page.getByLabel('Search ledger').fill('NWF2');
    await page.waitForURL(/search=NWF2/);
    await grid(page).getByRole('link', { name: 'Northwind fund II close' }).waitFor();
    await grid(page).getByRole('link', { name: 'Seeded public entry' }).waitFor({ state: 'detached' });
    await grid(page).getByRole('link', { name: 'Northwind fund II close' }).click();
    await page.getByRole('heading', { level: 1, name: 'Northwind fund II close' }).waitFor();

    // Edited: only the year changes.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Northwind fund II close' }).waitFor();
    const patches: string[] = [];
    const recordPatch = (request: { method(): string; url(): string; postData(): string | null }) => {
      if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
    };
    page.on('request', recordPatch);
    await page.getByLabel('Year').fill('2024');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Ledger entry “Northwind fund II close” saved.').waitFor();
    assert.equal(await field(page, 'year').innerText(), '2024');
    assert.deepEqual(patches.map((body) => JSON.parse(body)), [{ year: 2024 }]);
    page.off('request', recordPatch);

    // An investment added from the entry's page, in a dialog.
    // Right after the save the page reads the entry again: the click is repeated if it was lost.
    const dialog = page.getByRole('dialog', { name: 'Add investment' });
    await clickUntilVisible(investments(page).getByRole('button', { name: 'Add investment' }), dialog);
    assert.equal(await dialog.getByRole('combobox', { name: 'Ledger entry' }).count(), 0, 'the entry is the page’s own');
    assert.equal(await dialog.getByLabel('Admin notes').count(), 0, 'admin notes are for admins');
    await pick(page, dialog, 'Held by (organization)', 'North', 'Northwind Capital');
    assert.equal(await dialog.getByRole('combobox', { name: 'Held by (organization)' }).inputValue(), 'Northwind Capital');
    await choose(page, dialog, 'Vehicle type', 'VC');
    await choose(page, dialog, 'Currency (ISO 4217)', 'USD');
    await dialog.getByLabel('Ownership %').fill('150');
    await dialog.getByRole('radio', { name: /Public/ }).check();
    await dialog.getByRole('button', { name: 'Create investment' }).click();
    await dialog.getByTestId('form-errors').filter({ hasText: 'Ownership %' }).waitFor();
    await screenshots(page, 'ledger-investment-form-error', { viewportOnly: true });
    await dialog.getByLabel('Ownership %').fill('12.5');
    await dialog.getByRole('button', { name: 'Create investment' }).click();
    await page.getByText('Investment “VC · USD · 12.5%” created.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = investments(page).getByRole('row').filter({ hasText: 'VC · USD · 12.5%' });
    await row.waitFor();
    assert.match(await row.innerText(), /Northwind Capital/);
    assert.match(await row.innerText(), /12\.5%/);
    await screenshots(page, 'ledger-detail');

    // Its details, then an edit of the percentage in the same dialog form.
    await row.getByRole('button', { name: 'VC · USD · 12.5%', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'VC · USD · 12.5%' });
    assert.equal(await details.locator('dd[data-field="inv_currency"]').innerText(), 'USD');
    assert.equal(await details.locator('dd[data-field="admin_notes"]').count(), 0);
    assert.equal(await details.locator('dd[data-field="show_on_dashboard"]').innerText(), 'No', 'curators see their flags');
    await details.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit VC · USD · 12.5%' });
    assert.equal(await edit.getByRole('combobox', { name: 'Held by (organization)' }).inputValue(), 'Northwind Capital');
    await edit.getByLabel('Ownership %').fill('15');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Investment “VC · USD · 15%” saved.').waitFor();
    await investments(page).getByRole('row').filter({ hasText: 'VC · USD · 15%' }).waitFor();

    // Seen on the owner's page, linking back to the entry.
    await page.goto(server.url('demo', `/organizations/${ids['northwind']}`));
    await page.getByRole('heading', { level: 1, name: 'Northwind Capital' }).waitFor();
    const held = investments(page).getByRole('row').filter({ hasText: 'VC · USD · 15%' });
    await held.waitFor();
    assert.equal(await held.getByRole('link', { name: 'Northwind fund II close' }).getAttribute('href'), `/ledger/${id}`);
    await screenshots(page, 'organization-investments');

    // Deleting the entry deletes its investments.
    await held.getByRole('link', { name: 'Northwind fund II close' }).click();
    await page.getByRole('heading', { level: 1, name: 'Northwind fund II close' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Ledger entry “Northwind fund II close” deleted.').waitFor();
    await grid(page).getByRole('link', { name: 'Seeded public entry' }).waitFor();
    assert.equal(await grid(page).getByRole('link', { name: 'Northwind fund II close' }).count(), 0);
    await page.goto(server.url('demo', `/organizations/${ids['northwind']}`));
    await investments(page).getByText('This organization holds no investments yet.').waitFor();
    await context.close();
  });

  it('an admin adds an investment from a person’s page, with admin notes', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test', 'admin', `/people/${ids['ada']}`);
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await investments(page).getByRole('row').filter({ hasText: 'FA · EUR' }).waitFor();

    await investments(page).getByRole('button', { name: 'Add investment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add investment' });
    assert.equal(await dialog.getByRole('combobox', { name: 'Held by (person)' }).count(), 0);
    assert.equal(await dialog.getByRole('combobox', { name: 'Held by (organization)' }).count(), 0);
    await pick(page, dialog, 'Ledger entry', 'hidden', 'Seeded hidden entry');
    await choose(page, dialog, 'Currency (ISO 4217)', 'CHF');
    await dialog.getByLabel('Admin notes').fill('Held through a trust.');
    await screenshots(page, 'person-investment-form', { viewportOnly: true });
    await dialog.getByRole('button', { name: 'Create investment' }).click();
    await page.getByText('Investment “Investment · CHF” created.').waitFor();
    const row = investments(page).getByRole('row').filter({ hasText: 'Investment · CHF' });
    await row.getByRole('link', { name: 'Seeded hidden entry' }).waitFor();
    await row.getByRole('button', { name: 'Investment · CHF', exact: true }).click();
    assert.equal(await page.getByRole('dialog').locator('dd[data-field="admin_notes"]').innerText(), 'Held through a trust.');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // Deleted from the person's page.
    await row.getByRole('button', { name: 'Delete Investment · CHF' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Investment “Investment · CHF” deleted.').waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('signed out, only public entries and investments show, without write buttons', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(server.url('demo', '/ledger?tab=1'));
    await grid(page).getByRole('link', { name: 'Seeded public entry' }).waitFor();
    const names = await grid(page).getByRole('link').allInnerTexts();
    assert.ok(!names.includes('Seeded paywalled entry'), names.join(', '));
    assert.ok(!names.includes('Seeded hidden entry'), names.join(', '));
    assert.equal(await page.getByRole('link', { name: 'New ledger entry' }).count(), 0);

    await grid(page).getByRole('link', { name: 'Seeded public entry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Seeded public entry' }).waitFor();
    const row = investments(page).getByRole('row').filter({ hasText: 'FA · EUR' });
    await row.waitFor();
    assert.match(await row.innerText(), /Ada Lovelace/);
    assert.equal(await investments(page).getByRole('button', { name: 'Add investment' }).count(), 0);
    assert.equal(await row.getByRole('button', { name: /^Edit/ }).count(), 0);
    await row.getByRole('button', { name: 'FA · EUR', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'FA · EUR' });
    assert.equal(await details.locator('dd[data-field="admin_notes"]').count(), 0);
    assert.equal(await details.locator('dd[data-field="private_url"]').count(), 0);
    assert.equal(await details.getByRole('button', { name: 'Edit' }).count(), 0);
    // Empty fields wait behind a switch, as on detail pages; curators' flags are not for readers.
    assert.equal(await details.locator('dd[data-field="inv_currency"]').innerText(), 'EUR');
    assert.equal(await details.locator('dd[data-field="inv_date"]').count(), 0, 'an empty field is hidden');
    assert.equal(await details.locator('dd[data-field="show_on_dashboard"]').count(), 0);
    await details.getByRole('switch', { name: /Show empty fields/ }).check();
    await details.locator('dd[data-field="inv_date"]').getByText('Not set').waitFor();
    assert.equal(await details.locator('dd[data-field="show_on_dashboard"]').count(), 0, 'not even among the empty fields');
    await screenshots(page, 'ledger-investment-details-empty-fields', { viewportOnly: true });
    await context.close();
  });

  it('a paywall reader cannot open the create or edit pages', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'reader@demo.test', 'paywall', '/ledger/create');
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await screenshots(page, 'ledger-create-denied');
    await navigateInApp(page, server.url('demo', `/ledger/${ids['paywalled']}/edit`));
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await navigateInApp(page, server.url('demo', `/ledger/${ids['paywalled']}`));
    await page.getByRole('heading', { level: 1, name: 'Seeded paywalled entry' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Edit' }).count(), 0);
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedGeography } from '../server/src/modules/geos/geo-seed.ts';
import { browserUnavailable, launchBrowser, screenshot, startServer, type E2EServer, signInAt, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('taxonomy: keywords, terminology, geos and cities, URLs, tagging rules', { skip: unavailable ?? false }, () => {
  let server: E2EServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    server = await startServer();
    const main = await server.createTenant('main', { isDefault: true, name: 'Main' });
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(main, 'manager@main.test', { is_admin: true });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    await server.createUser(demo, 'reader@demo.test');
    // Countries and regions; the cities take seconds and are not needed here.
    await seedGeography(server.db, { cities: false });
    const token = await server.login(demo, 'research@demo.test');
    for (const name of ['Fintech', 'Payments']) {
      const response = await server.request(demo, { method: 'POST', url: '/api/v1/keywords/', token, payload: { name } });
      assert.equal(response.statusCode, 201, response.body);
    }
    browser = await launchBrowser();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: DESKTOP });
    contexts.push(context);
    return context.newPage();
  }

  const signIn = (page: Page, tenant: string | null, email: string, level: string) => signInAt(page, server.url(tenant, '/login'), email, level);

  async function pick(page: Page, label: string, typed: string, option: string): Promise<void> {
    const input = page.getByRole('combobox', { name: label });
    await input.click();
    await input.pressSequentially(typed, { delay: 40 });
    await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  }

  async function remove(page: Page, toast: string): Promise<void> {
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(toast).waitFor();
  }

  const grid = (page: Page, name: string) => page.getByRole('grid', { name });

  it('keywords: create, list, edit, refuse a duplicate, delete; ?tab=1 shows the geos', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research');
    await page.goto(server.url('demo', '/keywords'));
    await grid(page, 'Keywords').getByRole('link', { name: 'Fintech' }).waitFor();
    await page.getByRole('link', { name: 'New keyword' }).click();
    await page.getByRole('heading', { name: 'New keyword' }).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Climate');
    await page.getByLabel('Description').fill('Climate risk and the energy transition.');
    await page.getByRole('button', { name: 'Create keyword' }).click();
    await page.getByRole('heading', { level: 1, name: 'Climate' }).waitFor();
    await page.getByText('Keyword “Climate” created.').waitFor();

    await page.goto(server.url('demo', '/keywords'));
    await grid(page, 'Keywords').getByRole('link', { name: 'Climate' }).waitFor();
    await screenshots(page, 'keywords-list');
    await grid(page, 'Keywords').getByRole('link', { name: 'Climate' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Climate' }).waitFor();
    // A name another keyword has, ignoring case, is refused on the field.
    await page.getByRole('textbox', { name: /^Name/ }).fill('fintech');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('form-errors').getByText(/already exists/).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Climate tech');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Keyword “Climate tech” saved.').waitFor();
    await remove(page, 'Keyword “Climate tech” deleted.');
    assert.equal(new URL(page.url()).pathname, '/keywords');
    assert.equal(new URL(page.url()).searchParams.get('tab'), null);

    await page.getByRole('tab', { name: 'Geos' }).click();
    await page.waitForURL(/tab=1/);
    // Alphabetical by default.
    await grid(page, 'Countries and regions').getByRole('link').first().filter({ hasText: 'Afghanistan' }).waitFor();
    // Only tenant managers add geos.
    assert.equal(await page.getByRole('link', { name: 'New geo' }).count(), 0);
    await screenshots(page, 'keywords-geos-tab');
  });

  it('terminology: research writes terms; everyone reads the glossary', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research');
    for (const [term, definition] of [
      ['EBITDA', 'Earnings before interest, taxes, depreciation and amortization.'],
      ['Burn rate', 'How fast a company spends its cash.\nUsually per month.'],
    ] as const) {
      await page.goto(server.url('demo', '/terminology'));
      await page.getByRole('link', { name: 'New term' }).click();
      await page.getByRole('textbox', { name: /^Term/ }).fill(term);
      await page.getByLabel('Definition').fill(definition);
      if (term === 'EBITDA') await pick(page, 'Keywords', 'fin', 'Fintech');
      await page.getByRole('button', { name: 'Create term' }).click();
      await page.getByText(`Term “${term}” created.`).waitFor();
    }

    const visitor = await newPage();
    await visitor.goto(server.url('demo', '/terminology'));
    const entries = visitor.getByTestId('glossary-entry');
    await entries.first().waitFor();
    assert.deepEqual(await visitor.getByRole('heading', { level: 3 }).allInnerTexts(), ['Burn rate', 'EBITDA']);
    assert.deepEqual(await visitor.getByRole('heading', { level: 2 }).allInnerTexts(), ['B', 'E']);
    assert.equal(await visitor.getByRole('link', { name: 'New term' }).count(), 0);
    assert.equal(await visitor.getByRole('link', { name: /^Edit/ }).count(), 0);
    await screenshots(visitor, 'terminology-glossary');
    await visitor.getByLabel('Search terms and definitions').fill('cash');
    await visitor.waitForURL(/search=cash/);
    await visitor.getByRole('heading', { level: 3, name: 'EBITDA' }).waitFor({ state: 'detached' });
    assert.deepEqual(await visitor.getByRole('heading', { level: 3 }).allInnerTexts(), ['Burn rate']);
    // A keyword chip shows the terms that carry it.
    await visitor.goto(server.url('demo', '/terminology'));
    await visitor.getByRole('button', { name: 'Fintech' }).click();
    await visitor.getByRole('heading', { level: 3, name: 'Burn rate' }).waitFor({ state: 'detached' });
    assert.deepEqual(await visitor.getByRole('heading', { level: 3 }).allInnerTexts(), ['EBITDA']);

    await page.goto(server.url('demo', '/terminology'));
    await page.getByRole('link', { name: 'Edit Burn rate' }).click();
    await page.getByRole('heading', { name: 'Edit Burn rate' }).waitFor();
    await page.getByRole('textbox', { name: /^Term/ }).fill('Cash burn');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Term “Cash burn” saved.').waitFor();
    await remove(page, 'Term “Cash burn” deleted.');
    assert.equal(new URL(page.url()).pathname, '/terminology');
    await page.getByRole('heading', { level: 3, name: 'EBITDA' }).waitFor();
  });

  it('geos and cities: a tenant manager adds and edits them; every tenant reads them', async () => {
    const page = await newPage();
    await signIn(page, null, 'manager@main.test', 'admin');
    await page.goto(server.url(null, '/geos?search=european'));
    await grid(page, 'Countries and regions').getByRole('link', { name: 'European Union' }).waitFor();
    await page.getByRole('link', { name: 'New geo' }).click();
    await page.getByRole('heading', { name: 'New geo' }).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill('German-speaking Europe');
    await page.getByLabel(/^Code/).fill('dach');
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'region' }).click();
    await pick(page, 'Countries (of a region)', 'Germ', 'Germany');
    await pick(page, 'Countries (of a region)', 'Austr', 'Austria');
    await page.getByRole('button', { name: 'Create geo' }).click();
    await page.getByText('Geo “German-speaking Europe” created.').waitFor();
    assert.equal(await page.locator('dd[data-field="code"]').innerText(), 'DACH');
    // Shared records are never deleted.
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('DACH countries');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Geo “DACH countries” saved.').waitFor();

    await page.goto(server.url(null, '/geos?tab=1'));
    await page.getByRole('link', { name: 'New city' }).click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Graz');
    await pick(page, 'Country', 'Austr', 'Austria');
    await page.getByLabel('Population').fill('291072');
    await page.getByRole('button', { name: 'Create city' }).click();
    await page.getByText('City “Graz” created.').waitFor();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Population').fill('292000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('City “Graz” saved.').waitFor();

    const visitor = await newPage();
    await visitor.goto(server.url('demo', '/geos?search=dach'));
    await grid(visitor, 'Countries and regions').getByRole('link', { name: 'DACH countries' }).waitFor();
    await visitor.getByLabel('Search countries and regions').fill('germany');
    await grid(visitor, 'Countries and regions').getByRole('link', { name: 'Germany' }).waitFor();
    await grid(visitor, 'Countries and regions').getByRole('link', { name: 'DACH countries' }).waitFor({ state: 'detached' });
    await screenshots(visitor, 'geos-page');
    await visitor.getByRole('tab', { name: 'Cities' }).click();
    await grid(visitor, 'Cities').getByRole('link', { name: 'Graz' }).waitFor();
  });

  it('URLs: research adds, lists, edits and deletes sources; a duplicate is refused', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research');
    await page.goto(server.url('demo', '/urls?tab=0'));
    await page.getByRole('link', { name: 'New source url' }).click();
    await page.getByRole('textbox', { name: /^URL/ }).fill('www.reuters.com/markets/');
    await page.getByLabel('Alias').fill('Reuters markets');
    await page.getByRole('button', { name: 'Create source url' }).click();
    await page.getByText('Source URL “Reuters markets” created.').waitFor();
    assert.equal(await page.locator('dd[data-field="url"]').innerText(), 'https://www.reuters.com/markets/');

    await page.goto(server.url('demo', '/urls/create'));
    await page.getByRole('textbox', { name: /^URL/ }).fill('http://reuters.com/markets');
    await page.getByRole('button', { name: 'Create source url' }).click();
    await page.getByTestId('form-errors').getByText(/already a source/).waitFor();

    await page.goto(server.url('demo', '/urls?tab=0'));
    await grid(page, 'URLs').getByRole('link', { name: 'Reuters markets' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Alias').fill('Reuters');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Source URL “Reuters” saved.').waitFor();
    await page.goto(server.url('demo', '/urls'));
    await grid(page, 'URLs').getByRole('link', { name: 'Reuters' }).waitFor();
    await screenshots(page, 'urls-list');
    await grid(page, 'URLs').getByRole('link', { name: 'Reuters' }).click();
    await remove(page, 'Source URL “Reuters” deleted.');
  });

  it('tagging rules: the rule tester marks matches live; saved rules tag organizations', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research');
    await page.goto(server.url('demo', '/taggingrules'));
    await page.getByRole('link', { name: 'New tagging rule' }).click();
    await page.getByRole('heading', { name: 'New tagging rule' }).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Fintech');
    await page.getByRole('textbox', { name: /^Pattern/ }).fill('fintech');
    await pick(page, 'Keywords', 'fin', 'Fintech');
    await page.getByLabel('Sample text').fill('Fintech startups and fintechs: FINTECH.');
    await page.getByTestId('rule-test-status').filter({ hasText: '2 matches.' }).waitFor();
    assert.deepEqual(await page.getByTestId('rule-test-highlight').locator('mark').allInnerTexts(), ['Fintech', 'FINTECH']);
    // Case-sensitive: only the exact spelling.
    await page.getByLabel('Case-sensitive').check();
    await page.getByTestId('rule-test-status').filter({ hasText: 'No match.' }).waitFor();
    await page.getByLabel('Case-sensitive').uncheck();
    await page.getByTestId('rule-test-status').filter({ hasText: '2 matches.' }).waitFor();
    await screenshots(page, 'tagging-rule-form');
    await page.getByRole('button', { name: 'Create tagging rule' }).click();
    await page.getByText('Tagging rule “Fintech” created.').waitFor();

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Fintech' }).waitFor();
    await page.getByRole('combobox', { name: 'Match' }).click();
    await page.getByRole('option', { name: 'regex' }).click();
    await page.getByRole('textbox', { name: /^Pattern/ }).fill('(fin)\\1');
    await page.getByLabel('Sample text').fill('finfin');
    await page.getByTestId('rule-test-error').filter({ hasText: /Backreferences/ }).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('form-errors').getByText(/Backreferences/).waitFor();
    await page.getByRole('textbox', { name: /^Pattern/ }).fill('fin(tech|ance)');
    await page.getByLabel('Sample text').fill('fintech and finance');
    await page.getByTestId('rule-test-status').filter({ hasText: '2 matches.' }).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Tagging rule “Fintech” saved.').waitFor();

    await page.goto(server.url('demo', '/taggingrules'));
    await grid(page, 'Tagging rules').getByRole('link', { name: 'Fintech' }).waitFor();

    // The rule tags an organization whose text matches.
    await page.goto(server.url('demo', '/organizations/create'));
    await page.getByLabel('Legal name').fill('Ledgerly Finance');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByText('Organization “Ledgerly Finance” created.').waitFor();
    assert.match(await page.locator('dd[data-field="keywords"]').innerText(), /Fintech/);

    await page.goto(server.url('demo', '/taggingrules'));
    await grid(page, 'Tagging rules').getByRole('link', { name: 'Fintech' }).click();
    await remove(page, 'Tagging rule “Fintech” deleted.');
  });

  it('guards: paywall readers may not open URLs or tagging rules; only tenant managers add geos', async () => {
    const reader = await newPage();
    await signIn(reader, 'demo', 'reader@demo.test', 'paywall');
    for (const route of ['/urls', '/taggingrules', '/taggingrules/create', '/keywords/create']) {
      await reader.goto(server.url('demo', route));
      await reader.getByRole('heading', { name: 'Access denied' }).waitFor();
    }
    const admin = await newPage();
    await signIn(admin, 'demo', 'admin@demo.test', 'admin');
    for (const route of ['/geos/create', '/cities/create']) {
      await admin.goto(server.url('demo', route));
      await admin.getByRole('heading', { name: 'Access denied' }).waitFor();
    }
    await screenshot(admin, 'geos-create-access-denied');
    // The admin of a tenant reads geos but is offered no way to change them.
    await admin.goto(server.url('demo', '/geos?search=germany'));
    await grid(admin, 'Countries and regions').getByRole('link', { name: 'Germany' }).waitFor();
    assert.equal(await admin.getByRole('link', { name: 'New geo' }).count(), 0);
    await grid(admin, 'Countries and regions').getByRole('link', { name: 'Germany' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Germany' }).waitFor();
    assert.equal(await admin.getByRole('link', { name: 'Edit' }).count(), 0);

    const visitor = await newPage();
    await visitor.goto(server.url('demo', '/urls'));
    await visitor.waitForURL(/\/login/);
  });
});

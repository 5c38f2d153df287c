/**
 * The shared, metadata-driven components on a real resource (organizations): the relation
 * picker, relation chips and filters, the lists widget, the history panel, and — on metadata
 * adjusted in the browser, since organizations have no such fields — number inputs,
 * write-restricted fields and resources that cannot be deleted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page, Route } from 'playwright-core';
import type { FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { useServerAndBrowser, browserUnavailable, screenshot, openSignedIn, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('shared components: relations, lists, history, numbers', { skip: unavailable ?? false }, () => {
  let adminToken: string;
  const keywordIds: Record<string, string> = {};
  const listIds: Record<string, string> = {};
  let orgId = '';

  const { server, browser } = useServerAndBrowser(async () => {
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    adminToken = await server.login(demo, 'admin@demo.test');
    for (const name of ['Fintech', 'Payments', 'Open Banking', 'Insurtech']) {
      keywordIds[name] = await server.create(demo, adminToken, 'keywords', { name });
    }
    for (const name of ['Watchlist', 'Portfolio companies']) {
      listIds[name] = await server.create(demo, adminToken, 'lists', { name, kind: 'OrganizationsList', visibility: 'public', auto_tagging: false });
    }
    // A people list must never be offered for an organization.
    await server.create(demo, adminToken, 'lists', { name: 'Watch people', kind: 'PeopleList' });
    await server.create(demo, adminToken, 'assets/organizations', { name_inc: 'Untagged Org', visibility: 'public' });
  });

  /** Opens `pathname` of tenant demo signed in (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, email: string, level: string, pathname = '/') => openSignedIn(page, server.url('demo', pathname), email, level);

  /** Picks an option of a relation picker by typing part of its name; Enter takes the highlighted one. */
  async function pick(page: Page, label: string, typed: string, option: string, { keyboard = false } = {}): Promise<void> {
    const input = page.getByRole('combobox', { name: label });
    await input.click();
    const searched = page.waitForResponse((response) => new URL(response.url()).searchParams.get('search') === typed);
    // Typed key by key, as a person would: the search waits for a pause.
    await input.pressSequentially(typed, { delay: 40 });
    await searched;
    const choice = page.getByRole('listbox').getByRole('option', { name: option, exact: true });
    await choice.waitFor();
    if (keyboard) {
      // Only the typed text's matches are offered, the first highlighted.
      assert.equal(await page.getByRole('listbox').getByRole('option').count(), 1);
      await input.press('Enter');
    } else {
      await choice.click();
    }
  }

  /** The chips of a field on the detail page, once shown. */
  async function chips(page: Page, field: string): Promise<string[]> {
    const items = page.locator(`dd[data-field="${field}"] li`);
    await items.first().waitFor();
    return items.allInnerTexts();
  }

  it('an admin tags an organization with keywords through the picker, edits them and reads the history', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/keywords/') searches.push(url.searchParams.get('search') ?? '');
    });
    await signIn(page, 'admin@demo.test', 'admin', '/organizations/create');
    await page.getByLabel('Legal name').fill('Relation Test Org');
    await page.getByRole('radio', { name: /Public/ }).check();
    await pick(page, 'Keywords', 'fin', 'Fintech');
    await pick(page, 'Keywords', 'paym', 'Payments', { keyboard: true });
    const form = page.getByRole('form', { name: 'New organization' });
    assert.deepEqual(await form.locator('.MuiAutocomplete-tag, .MuiChip-root').filter({ hasText: /Fintech|Payments/ }).allInnerTexts(), ['Fintech', 'Payments']);
    // Typing pauses before searching: no request per keystroke.
    assert.ok(!searches.includes('f') && !searches.includes('fi') && !searches.includes('pa'), searches.join(' | '));
    assert.ok(searches.includes('fin') && searches.includes('paym'), searches.join(' | '));

    // Open with a partial name: the options as the picker shows them.
    const picker = page.getByRole('combobox', { name: 'Keywords' });
    await picker.fill('tech');
    await page.getByRole('listbox').getByRole('option', { name: 'Insurtech' }).waitFor();
    await screenshot(page, 'relation-picker-1280', { fullPage: false });
    await picker.press('Escape');

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/assets/organizations/') posts.push(request.postData() ?? '');
    });
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { level: 1, name: 'Relation Test Org' }).waitFor();
    orgId = new URL(page.url()).pathname.split('/').pop()!;
    assert.deepEqual(JSON.parse(posts[0]!).keywords, [keywordIds['Fintech'], keywordIds['Payments']], 'ids are sent');
    assert.deepEqual(await chips(page, 'keywords'), ['Fintech', 'Payments']);
    // Keyword chips open the keyword's page (which lists the records tagged with it).
    assert.deepEqual(
      await page.locator('dd[data-field="keywords"] a').evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
      [`/keywords/${keywordIds['Fintech']}`, `/keywords/${keywordIds['Payments']}`],
    );

    // Edit: Backspace removes the last chip, then another keyword is added.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Relation Test Org' }).waitFor();
    const editPicker = page.getByRole('combobox', { name: 'Keywords' });
    await editPicker.click();
    await editPicker.press('Backspace');
    await pick(page, 'Keywords', 'open', 'Open Banking', { keyboard: true });
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
    });
    await page.getByLabel('HQ city').fill('Lisbon');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Organization “Relation Test Org” saved.').waitFor();
    assert.deepEqual(JSON.parse(patches[0]!), { hq_city: 'Lisbon', keywords: [keywordIds['Fintech'], keywordIds['Open Banking']] });
    assert.deepEqual(await chips(page, 'keywords'), ['Fintech', 'Open Banking']);

    // The history: the edit (newest first) and the creation, with the changed fields.
    const panel = page.getByTestId('history-panel');
    await panel.getByText('2 entries').waitFor();
    await panel.getByRole('button', { name: /History/ }).click();
    const entries = panel.getByTestId('history-entry');
    await entries.nth(1).waitFor();
    assert.deepEqual(await entries.evaluateAll((items) => items.map((item) => item.getAttribute('data-action'))), ['update', 'create']);
    const edit = entries.nth(0);
    assert.match(await edit.innerText(), /Edited\s+by admin@demo\.test/);
    assert.match(await edit.locator('time').innerText(), /just now · \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    const keywordChange = edit.locator('tr[data-change="keywords"]');
    assert.deepEqual(
      (await keywordChange.locator('td').allInnerTexts()).map((text) => text.trim()).filter(Boolean),
      ['Fintech, Payments', 'Fintech, Open Banking'],
    );
    assert.match(await edit.locator('tr[data-change="hq_city"]').innerText(), /HQ city\s+—?\s*(Not set)?\s*Lisbon/);
    const created = entries.nth(1);
    assert.match(await created.innerText(), /Created\s+by admin@demo\.test/);
    assert.match(await created.locator('tr[data-change="name_inc"]').innerText(), /Legal name\s+Relation Test Org/);
    assert.match(await created.locator('tr[data-change="keywords"]').innerText(), /Fintech, Payments/);
    // Empty and internal values are not listed for a creation.
    assert.equal(await created.locator('tr[data-change="emails"], tr[data-change="suggested_fields"], tr[data-change="founding_date_incomplete_day"]').count(), 0);
    await panel.locator('.MuiCollapse-entered').waitFor();
    await screenshots(page, 'organization-detail-history');
    await context.close();
  });

  it('an admin adds the organization to lists and takes it out again; the history shows it', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test', 'admin', `/organizations/${orgId}`);
    const lists = page.getByTestId('record-lists');
    await lists.getByText('Not in any list yet.').waitFor();

    const addBox = lists.getByRole('combobox', { name: 'Add to list' });
    await addBox.click();
    const options = page.getByRole('listbox').getByRole('option');
    await options.first().waitFor();
    assert.deepEqual((await options.allInnerTexts()).sort(), ['Portfolio companies', 'Watchlist'], 'only organizations lists are offered');
    await page.getByRole('option', { name: 'Watchlist' }).click();
    await page.getByText('Added to “Watchlist”.').waitFor();
    const watchlist = lists.getByRole('link', { name: 'Watchlist' });
    await watchlist.waitFor();
    assert.equal(await watchlist.getAttribute('href'), '/lists/organizations/watchlist');

    await pick(page, 'Add to list', 'portfolio', 'Portfolio companies', { keyboard: true });
    await page.getByText('Added to “Portfolio companies”.').waitFor();
    await lists.getByRole('link', { name: 'Portfolio companies' }).waitFor();
    // Lists the record is in are not offered again.
    await addBox.click();
    await page.getByText('No other lists.').waitFor();
    await addBox.press('Escape');
    await screenshots(page, 'organization-detail-lists');

    await lists.getByRole('button', { name: 'Remove from Watchlist' }).click();
    await page.getByText('Removed from “Watchlist”.').waitFor();
    await lists.getByRole('link', { name: 'Watchlist' }).waitFor({ state: 'detached' });
    const saved = await server.request('demo', { method: 'GET', url: `/api/v1/assets/organizations/${orgId}/`, token: adminToken });
    assert.deepEqual(saved.json().lists, [listIds['Portfolio companies']]);

    // The history refreshes after each change, lists by name.
    const panel = page.getByTestId('history-panel');
    await panel.getByText('5 entries', { exact: false }).waitFor();
    await panel.getByRole('button', { name: /History/ }).click();
    const latest = panel.getByTestId('history-entry').first();
    assert.match(
      await latest.locator('tr[data-change="lists"]').innerText(),
      /Lists\s+(Watchlist, Portfolio companies|Portfolio companies, Watchlist)\s+Portfolio companies$/,
    );
    await context.close();
  });

  it('a research user sees the chips and lists but no history; a visitor cannot change lists', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'research@demo.test', 'research', `/organizations/${orgId}`);
    await page.getByRole('heading', { level: 1, name: 'Relation Test Org' }).waitFor();
    assert.deepEqual(await chips(page, 'keywords'), ['Fintech', 'Open Banking']);
    await page.getByTestId('record-lists').getByRole('link', { name: 'Portfolio companies' }).waitFor();
    await page.getByTestId('record-lists').getByRole('combobox', { name: 'Add to list' }).waitFor();
    assert.equal(await page.getByTestId('history-panel').count(), 0);
    assert.equal(await page.getByText('History', { exact: true }).count(), 0);
    await context.close();

    const visitor = await browser.newPage({ viewport: DESKTOP });
    await visitor.goto(server.url('demo', `/organizations/${orgId}`));
    await visitor.getByRole('heading', { level: 1, name: 'Relation Test Org' }).waitFor();
    await visitor.getByTestId('record-lists').getByRole('link', { name: 'Portfolio companies' }).waitFor();
    assert.equal(await visitor.getByRole('combobox', { name: 'Add to list' }).count(), 0);
    assert.equal(await visitor.getByRole('button', { name: /Remove from/ }).count(), 0);
    assert.equal(await visitor.getByTestId('history-panel').count(), 0);
    await visitor.close();
  });

  it('without a lists resource on the server, the lists still show and adding is switched off', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.route(/\/api\/v1\/lists\//, (route) =>
      route.fulfill({ status: 404, json: { detail: 'Not found.', code: 'not_found' } }),
    );
    await signIn(page, 'admin@demo.test', 'admin', `/organizations/${orgId}`);
    const lists = page.getByTestId('record-lists');
    await lists.getByRole('link', { name: 'Portfolio companies' }).waitFor();
    await lists.getByText('Adding to lists is not available yet: this server does not offer lists.').waitFor();
    assert.equal(await lists.getByRole('combobox', { name: 'Add to list' }).isDisabled(), true);
    await screenshot(page, 'organization-detail-lists-unavailable-1280');
    await context.close();
  });

  it('the list filters by keyword: names shown, ids in the URL', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(server.url('demo', '/organizations?tab=1'));
    const grid = page.getByRole('grid', { name: 'Organizations' });
    await grid.getByRole('link', { name: 'Untagged Org' }).waitFor();
    await page.getByRole('combobox', { name: 'Keywords' }).click();
    const options = page.getByRole('listbox').getByRole('option');
    await options.first().waitFor();
    assert.deepEqual((await options.allInnerTexts()).map((text) => text.split('\n')[0]).sort(), ['Fintech', 'Open Banking']);
    await page.getByRole('option', { name: /Open Banking/ }).click();
    await page.waitForURL((url) => url.searchParams.get('keywords') === keywordIds['Open Banking']);
    await grid.getByRole('link', { name: 'Untagged Org' }).waitFor({ state: 'detached' });
    await grid.getByRole('link', { name: 'Relation Test Org' }).waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'organizations-keyword-filter-1280');
    await page.close();
  });

  it('a ledger entry: the year refuses what is out of range; related organizations show by name and link to their page', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'admin@demo.test', 'admin', '/ledger/create');
    await page.getByLabel('Caption').fill('Revenue 2024');
    const year = page.getByRole('textbox', { name: 'Year', exact: true });
    await page.getByText('A whole number between 1000 and 9999.', { exact: true }).waitFor();
    await year.fill('99999');
    await year.blur();
    await page.getByText('Enter a number between 1000 and 9999; 99,999 is too large.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create ledger entry' }).click();
    await page.getByTestId('form-errors').filter({ hasText: 'Year: Enter a number between 1000 and 9999' }).waitFor();
    await year.fill('2024');
    await pick(page, 'Organizations', 'relation', 'Relation Test Org');
    await page.getByRole('radio', { name: /Public/ }).check();
    await page.getByRole('button', { name: 'Create ledger entry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Revenue 2024' }).waitFor();
    const ledgerId = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal(await page.locator('dd[data-field="year"]').innerText(), '2024');
    const orgChip = page.locator('dd[data-field="organizations"]').getByRole('link', { name: 'Relation Test Org' });
    assert.equal(await orgChip.getAttribute('href'), `/organizations/${orgId}`);
    await screenshot(page, 'ledger-entry-related-1280');

    await page.goto(server.url('demo', '/ledger?tab=1'));
    const row = page.getByRole('grid', { name: 'Ledger' }).getByRole('row').filter({ hasText: 'Revenue 2024' });
    await row.getByRole('gridcell', { name: 'Relation Test Org' }).waitFor();
    await row.getByRole('link', { name: 'Revenue 2024' }).click();
    await page.locator('dd[data-field="organizations"]').getByRole('link', { name: 'Relation Test Org' }).click();
    await page.getByRole('heading', { level: 1, name: 'Relation Test Org' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/organizations/${orgId}`);

    // A relation to two kinds of record: the options come grouped by kind, the chips link to each page.
    await page.goto(server.url('demo', '/library/create'));
    await page.getByRole('textbox', { name: /^Title/ }).fill('Annual report');
    const assets = page.getByRole('combobox', { name: 'Organizations and ledger entries' });
    assert.equal(await assets.getAttribute('placeholder'), 'Search organizations or ledger entries');
    await assets.click();
    await page.getByRole('listbox').getByRole('option', { name: 'Revenue 2024' }).waitFor();
    assert.deepEqual(await page.locator('.MuiAutocomplete-groupLabel').allInnerTexts(), ['Organization', 'Ledger entry']);
    await screenshot(page, 'relation-picker-grouped-1280');
    await page.getByRole('listbox').getByRole('option', { name: 'Revenue 2024' }).click();
    await pick(page, 'Organizations and ledger entries', 'relation', 'Relation Test Org', { keyboard: true });
    await page.getByRole('button', { name: 'Create library entry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Annual report' }).waitFor();
    const assetLinks = page.locator('dd[data-field="assets"] a');
    await assetLinks.first().waitFor();
    assert.deepEqual(
      (await assetLinks.evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')]))).sort(),
      [['Relation Test Org', `/organizations/${orgId}`], ['Revenue 2024', `/ledger/${ledgerId}`]],
    );
    await context.close();
  });

  describe('on adjusted metadata', () => {
    /** Serves GET resources/ with the organizations' metadata changed by `change`. */
    async function adjustMetadata(page: Page, change: (meta: ResourceMeta) => ResourceMeta): Promise<void> {
      // Answered by the test server itself: Node does not resolve the tenant's *.localhost host.
      await page.route('**/api/v1/resources/', async (route: Route) => {
        const response = await server.request('demo', { method: 'GET', url: '/api/v1/resources/' });
        const metas = response.json() as ResourceMeta[];
        await route.fulfill({ json: metas.map((meta) => (meta.kind === 'organizations' ? change(meta) : meta)) });
      });
    }

    const field = (base: FieldMeta, patch: Partial<FieldMeta>): FieldMeta => ({ ...base, ...patch });

    it('integer and decimal inputs refuse what is not a number or out of range, before anything is sent', async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await adjustMetadata(page, (meta) => {
        const template = meta.fields.find((entry) => entry.name === 'hq_city')!;
        const number = { max_length: null, multiline: false, choices: null, default: null, filterable: false, orderable: false, relation: null };
        return {
          ...meta,
          fields: [
            ...meta.fields,
            field(template, { ...number, name: 'employees', kind: 'integer', min: 0, max: 100000, required: true }),
            field(template, { ...number, name: 'ownership_percentage', kind: 'decimal', min: 0, max: 100 }),
          ],
        };
      });
      await signIn(page, 'admin@demo.test', 'admin', '/organizations/create');
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/assets/organizations')) posts.push(request.postData() ?? '');
      });

      const employees = page.getByRole('textbox', { name: 'Employees' });
      assert.equal(await employees.getAttribute('required'), '', 'required fields are marked');
      assert.equal(await employees.getAttribute('inputmode'), 'numeric');
      await page.getByText('A whole number between 0 and 100,000.', { exact: true }).waitFor();
      await employees.fill('250000');
      await employees.blur();
      await page.getByText('Enter a number between 0 and 100,000; 250,000 is too large.', { exact: true }).waitFor();
      await employees.fill('12.5');
      await employees.blur();
      await page.getByText('Enter a whole number between 0 and 100,000, e.g. 42.', { exact: true }).waitFor();
      const share = page.getByRole('textbox', { name: 'Ownership percentage' });
      await share.fill('-3');
      await share.blur();
      await page.getByText('Enter a number between 0 and 100; -3 is too small.', { exact: true }).waitFor();
      await share.fill('abc');
      await page.getByLabel('Legal name').fill('Numbers Org');
      await page.getByRole('button', { name: 'Create organization' }).click();
      const summary = page.getByTestId('form-errors');
      await summary.waitFor();
      assert.match(await summary.innerText(), /Employees: Enter a whole number between 0 and 100,000, e\.g\. 42\./);
      assert.match(await summary.innerText(), /Ownership percentage: Enter a number between 0 and 100, e\.g\. 12\.5\./);
      await screenshots(page, 'number-fields-errors');

      await employees.fill('');
      await share.fill('');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await summary.filter({ hasText: 'Employees: This field is required.' }).waitFor();
      assert.equal(posts.length, 0, 'nothing is sent while a number is wrong');

      // A valid value is sent as a number (the real server does not know the field and says so).
      await employees.fill('42');
      await share.fill('12.5');
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByText(/Could not save the organization/).waitFor();
      assert.deepEqual(
        (({ employees: sentEmployees, ownership_percentage: sentShare }) => ({ sentEmployees, sentShare }))(JSON.parse(posts[0]!)),
        { sentEmployees: 42, sentShare: 12.5 },
      );
      await context.close();
    });

    it('fields a user may not write are read-only on edit and left out of a new record; no Delete when not deletable', async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await adjustMetadata(page, (meta) => ({
        ...meta,
        deletable: false,
        fields: meta.fields.map((entry) =>
          entry.name === 'notes'
            ? field(entry, { write_access: 'admin' })
            : entry.name === 'name_dba'
              ? field(entry, { immutable: true })
              : entry.name === 'keywords'
                ? field(entry, { immutable: true })
                : entry,
        ),
      }));
      await signIn(page, 'research@demo.test', 'research', '/organizations/create');
      await page.getByLabel('Legal name').waitFor();
      assert.equal(await page.getByLabel('Notes', { exact: true }).count(), 0, 'admins-only field left out of a new record');
      await page.getByLabel('Trading name (DBA)').waitFor();

      await page.goto(server.url('demo', `/organizations/${orgId}/edit`));
      await page.getByRole('heading', { name: 'Edit Relation Test Org' }).waitFor();
      const notes = page.getByRole('group', { name: 'Notes' });
      await notes.waitFor();
      assert.match(await notes.innerText(), /Only admins can change this\./);
      const keywords = page.getByRole('group', { name: 'Keywords' });
      assert.match(await keywords.innerText(), /Fintech[\s\S]*Open Banking[\s\S]*Set when created; it cannot be changed\./);
      assert.equal(await page.getByRole('combobox', { name: 'Keywords' }).count(), 0);
      await screenshots(page, 'organization-form-read-only');

      await page.getByLabel('Legal name').fill('Relation Test Org Renamed');
      const patches: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
      });
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { level: 1, name: 'Relation Test Org Renamed' }).waitFor();
      assert.deepEqual(JSON.parse(patches[0]!), { name_inc: 'Relation Test Org Renamed' });
      await page.getByRole('link', { name: 'Edit' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
      await context.close();
    });
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

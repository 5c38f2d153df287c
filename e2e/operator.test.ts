import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { useServerAndBrowser, browserUnavailable, openSignedIn, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

const QUESTION = 'organizations in Berlin founded after 2015';

/** The seeded organizations: city, founding date (or none) and visibility. */
const ORGANIZATIONS = [
  ['Spree Robotics', 'Berlin', '2018', 'public'],
  ['Kreuzberg Solar', 'Berlin', '2020-05', 'public'],
  ['Hidden Berlin Ventures', 'Berlin', '2019', 'hidden'],
  ['Mitte Analytics', 'Berlin', '2012', 'public'],
  ['Berlin Undated', 'Berlin', null, 'public'],
  ['Early Berlin Works', 'Berlin', '2015-12-31', 'public'],
  ['Munich Motors', 'Munich', '2019', 'public'],
] as const;

const sorted = (names: Iterable<string>) => [...names].sort();

describe('the Operator and organizations/subquery', { skip: unavailable ?? false }, () => {
  const { server, browser } = useServerAndBrowser(async () => {
    const tenant = await server.createTenant('opdemo', { name: 'Operator Demo' });
    await server.createUser(tenant, 'research@opdemo.test', { is_research: true });
    const token = await server.login(tenant, 'research@opdemo.test');
    const ids: Record<string, string> = {};
    for (const [name, city, founded, visibility] of ORGANIZATIONS) {
      ids[name] = await server.create(tenant, token, 'assets/organizations', { name_inc: name, hq_city: city, founding_date: founded, visibility });
    }
    await server.create(tenant, token, 'lists', { name: 'Berlin Watch', kind: 'OrganizationsList', visibility: 'public', auto_tagging: false });
    await server.create(tenant, token, 'lists', { name: 'Founders', kind: 'PeopleList', visibility: 'public', auto_tagging: false });
    const person = await server.create(tenant, token, 'assets/people', { name_given: 'Greta', name_family: 'Lindqvist', visibility: 'public' });
    await server.create(tenant, token, 'assets/ledger', { caption: 'Spree seed', year: 2021, visibility: 'public', organizations: [ids['Spree Robotics']], people: [person] });
  });

  const grid = (page: Page) => page.getByRole('grid', { name: 'Organizations' });

  /** The names in the table once its footer counts `count` rows (every row on one page). */
  const rowNames = async (page: Page, count: number) => {
    await page.getByText(`1–${count} of ${count}`, { exact: true }).waitFor();
    return sorted(await grid(page).getByRole('row').getByRole('link').allInnerTexts());
  };

  it('answers a question with the expected organizations, widens when a chip is removed, opens and exports the subquery', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await openSignedIn(page, server.url('opdemo', '/operator'), 'research@opdemo.test', 'research');
    await page.getByRole('tab', { name: 'Operator', selected: true }).waitFor();
    await screenshots(page, 'operator-start');
    await page.getByLabel('Ask a question').fill(QUESTION);
    await page.getByLabel('Ask a question').press('Enter');
    // The question is in the address: a shareable link.
    await page.waitForURL((url) => url.searchParams.get('ask') === QUESTION && url.searchParams.get('tab') === '1');

    const conditions = page.getByRole('list', { name: 'Query conditions' });
    const founded = conditions.getByRole('listitem').filter({ hasText: 'Founding date after 2015' });
    await founded.waitFor();
    await conditions.getByRole('listitem').filter({ hasText: 'HQ city is Berlin' }).waitFor();
    await page.getByRole('status').filter({ hasText: /Berlin/ }).waitFor();
    // A research user sees the hidden one too; 2015-12-31 is not after 2015, nor is an unknown date.
    assert.deepEqual(await rowNames(page, 3), ['Hidden Berlin Ventures', 'Kreuzberg Solar', 'Spree Robotics']);
    await screenshots(page, 'operator-answer');

    // Removed by keyboard: the chip takes the focus, Delete removes it; the server checks the edit.
    await founded.focus();
    await page.keyboard.press('Delete');
    await founded.waitFor({ state: 'detached' });
    assert.deepEqual(await rowNames(page, 6), ['Berlin Undated', 'Early Berlin Works', 'Hidden Berlin Ventures', 'Kreuzberg Solar', 'Mitte Analytics', 'Spree Robotics']);
    await page.getByText('Edited by hand.').waitFor();
    // The focus stays in the query: on "Add condition". Taken away before the screenshots, whose
    // wait for animations would never end on a focused button's pulsing ripple.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add condition');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshots(page, 'operator-edited');

    await page.getByRole('link', { name: 'Open as organizations subquery' }).click();
    await page.waitForURL((url) => url.pathname === '/organizations/subquery');
    assert.equal(new URL(page.url()).searchParams.get('hq_city'), 'Berlin');
    assert.equal(new URL(page.url()).searchParams.get('founding_date__gt'), null);
    await page.getByRole('heading', { name: 'Organizations subquery' }).waitFor();
    const subqueryRows = ['Berlin Undated', 'Early Berlin Works', 'Hidden Berlin Ventures', 'Kreuzberg Solar', 'Mitte Analytics', 'Spree Robotics'];
    assert.deepEqual(await rowNames(page, 6), subqueryRows);

    // Built by hand: founded before 2016 (YYYY-MM-DD checked before it is sent).
    await page.getByRole('button', { name: 'Add condition' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add condition' });
    await dialog.getByRole('combobox', { name: 'Field' }).click();
    await page.getByRole('option', { name: 'Founding date' }).click();
    await dialog.getByRole('combobox', { name: 'Comparison' }).click();
    await page.getByRole('option', { name: 'before', exact: true }).click();
    await dialog.getByLabel('Value').fill('last year');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await dialog.getByText('Give a date as YYYY, YYYY-MM or YYYY-MM-DD.').waitFor();
    await screenshots(page, 'operator-subquery-condition-dialog', { viewportOnly: true });
    await dialog.getByLabel('Value').fill('2016');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await page.waitForURL((url) => url.searchParams.get('founding_date__lt') === '2016');
    assert.deepEqual(await rowNames(page, 2), ['Early Berlin Works', 'Mitte Analytics']);

    // The address is the query: a reload shows the same chips and rows.
    await page.reload();
    await page.getByRole('list', { name: 'Query conditions' }).getByRole('listitem').filter({ hasText: 'Founding date before 2016' }).waitFor();
    await page.getByRole('list', { name: 'Query conditions' }).getByRole('listitem').filter({ hasText: 'HQ city is Berlin' }).waitFor();
    assert.deepEqual(await rowNames(page, 2), ['Early Berlin Works', 'Mitte Analytics']);
    await screenshots(page, 'operator-subquery');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);
    const sheet = await readSheet(await download.path());
    const header = sheet[0]!.map(String);
    const nameColumn = header.findIndex((cell) => /legal name|name_inc/i.test(cell));
    assert.ok(nameColumn >= 0, `a name column among ${header.join(', ')}`);
    assert.deepEqual(sorted(sheet.slice(1).map((row) => String(row[nameColumn]))), ['Early Berlin Works', 'Mitte Analytics']);
    await context.close();
  });

  it('runs nothing for a question it only partly understood: shows the understood chips and the words left out, then runs them on one click', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openSignedIn(page, server.url('opdemo', '/operator'), 'research@opdemo.test', 'research');
    await page.getByLabel('Ask a question').fill('organizations in Berln with a good ESG score');
    await page.getByLabel('Ask a question').press('Enter');

    const conditions = page.getByRole('list', { name: 'Query conditions' });
    await conditions.getByRole('listitem').filter({ hasText: 'HQ city is Berlin' }).waitFor();
    const leftOut = page.getByRole('alert').filter({ hasText: 'Not understood, so left out' });
    await leftOut.waitFor();
    assert.match(await leftOut.innerText(), /ESG/);
    // The misspelt city was read against the tenant's own values, and says so.
    await page.getByText(/“Berln” as “Berlin”/).waitFor();
    // No table until the user accepts the part that was understood.
    await page.getByText('Part of the question was not understood, so nothing was run').waitFor();
    assert.equal(await grid(page).count(), 0);
    await screenshots(page, 'operator-partial');

    await page.getByRole('button', { name: 'Run without them' }).click();
    assert.deepEqual(await rowNames(page, 6), ['Berlin Undated', 'Early Berlin Works', 'Hidden Berlin Ventures', 'Kreuzberg Solar', 'Mitte Analytics', 'Spree Robotics']);
    await context.close();
  });

  it('answers about lists, and about people through a link filter (issue 27)', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openSignedIn(page, server.url('opdemo', `/search?tab=1&ask=${encodeURIComponent('which organization lists do we have?')}`), 'research@opdemo.test', 'research');
    await page.getByRole('listitem', { name: 'Kind of record: Lists' }).waitFor();
    await page.getByRole('grid', { name: 'Lists' }).getByRole('link', { name: 'Berlin Watch' }).waitFor();
    assert.equal(await page.getByRole('grid', { name: 'Lists' }).getByRole('link', { name: 'Founders' }).count(), 0);
    await screenshots(page, 'operator-lists');

    await page.goto(server.url('opdemo', `/search?tab=1&ask=${encodeURIComponent('people linked to Spree Robotics')}`));
    await page.getByRole('list', { name: 'Query conditions' }).getByRole('listitem').filter({ hasText: 'Spree Robotics' }).waitFor();
    await page.getByRole('grid', { name: 'People' }).getByRole('link', { name: 'Greta Lindqvist' }).waitFor();
    await screenshots(page, 'operator-linked');

    // The link filter's chip is named like a relation's, and is edited and removed like one.
    const chips = page.getByRole('list', { name: 'Query conditions' });
    const linked = chips.getByRole('listitem').filter({ hasText: 'Linked organizations is Spree Robotics' });
    await linked.click();
    const dialog = page.getByRole('dialog', { name: 'Edit condition' });
    await dialog.getByRole('combobox', { name: 'Field' }).filter({ hasText: 'Linked organizations' }).waitFor();
    await dialog.getByRole('button', { name: 'Spree Robotics' }).or(dialog.getByText('Spree Robotics')).first().waitFor();
    await dialog.getByRole('combobox', { name: 'Comparison' }).click();
    await page.getByRole('option', { name: 'is none of' }).click();
    await dialog.getByRole('button', { name: 'Save condition' }).click();
    const excluded = chips.getByRole('listitem').filter({ hasText: /Linked organizations is (?:not|none of) Spree Robotics/ });
    await excluded.waitFor();
    await page.getByText('Nothing matches this query.').waitFor();
    await screenshots(page, 'operator-linked-edited');
    await excluded.focus();
    await page.keyboard.press('Delete');
    await excluded.waitFor({ state: 'detached' });
    await page.getByRole('grid', { name: 'People' }).getByRole('link', { name: 'Greta Lindqvist' }).waitFor();
    await context.close();
  });

  it("never shows an anonymous visitor's Operator query a hidden organization", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(server.url('opdemo', `/search?tab=1&ask=${encodeURIComponent(QUESTION)}`));
    await page.getByRole('list', { name: 'Query conditions' }).getByRole('listitem').filter({ hasText: 'Founding date after 2015' }).waitFor();
    assert.deepEqual(await rowNames(page, 2), ['Kreuzberg Solar', 'Spree Robotics']);
    await screenshots(page, 'operator-visitor');

    // Asked by name, the hidden organization is no name the visitor's question can resolve.
    await page.goto(server.url('opdemo', `/search?tab=1&ask=${encodeURIComponent('organizations named Hidden Berlin Ventures')}`));
    // Whatever the parser makes of it — a table (of the visible rows, or none) or a refusal.
    await page.getByText(/^1–\d+ of \d+$/).or(page.getByText(/^(Nothing matches this query|No results found)\.$/)).or(page.getByRole('alert')).first().waitFor();
    assert.equal(await page.getByText('Hidden Berlin Ventures', { exact: true }).count(), 0);

    // Nor does a shared subquery link.
    await page.goto(server.url('opdemo', '/organizations/subquery?hq_city=Berlin&founding_date__gt=2015'));
    assert.deepEqual(await rowNames(page, 2), ['Kreuzberg Solar', 'Spree Robotics']);
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

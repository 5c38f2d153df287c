// The review screens in the browser (docs/review.md "Screens"): the suggestions tab of
// /organizations (keyboard j/k/a/r, bulk accept and reject with a summary, new suggestions
// arriving live), the review page (snippets with the mention marked, similar records, edit then
// accept, accept into an existing record), the people's tab, and no tab for paywall readers.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { publish } from '../server/src/events/bus.ts';
import type { ProvenanceInput } from '../server/src/modules/review/review.repository.ts';
import { inTenant, systemActor } from '../server/src/resources/context.ts';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { browserUnavailable, DESKTOP, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('review screens: suggestions lists, keyboard, bulk, review page, live arrival', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let token: string;
  let northwindId: string;
  const rawItem = randomUUID();
  const otherItem = randomUUID();
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    await server.createUser(demo, 'reader@demo.test');
    token = await server.login(demo, 'research@demo.test');
    northwindId = await server.create(demo, token, 'assets/organizations', { name_inc: 'Northwind Traders', emails: ['info@northwind.test'] });
    const at = (snippet: string, name: string, source = rawItem, mentions = 1, confidence: number | null = null): ProvenanceInput => {
      const start = snippet.indexOf(name);
      // Offsets are in the source's whole text: here the snippet sits 500 characters into it.
      return { source: { kind: 'raw_data', id: source }, snippet, start: 500 + start, end: 500 + start + name.length, mentions, confidence };
    };
    const organizations: Array<[string, Record<string, unknown>, ProvenanceInput[]]> = [
      ['Acme Corp', { name_inc: 'Acme Corp' }, [
        at('Shares of Acme Corp rose 4% after the harbour deal was signed.', 'Acme Corp', rawItem, 3, 0.95),
        at('A spokesman for ACME corp declined to comment.', 'ACME corp', otherItem, 1, 0.7),
      ]],
      ['Globex Corporation', { name_inc: 'Globex Corporation' }, [at('Globex Corporation opened an office in Porto.', 'Globex Corporation', rawItem, 1, 0.62)]],
      ['Initech', { name_inc: 'Initech' }, [at('Initech staff moved to the new site.', 'Initech', rawItem, 1, 0.88)]],
      ['Northwind Trading', { name_inc: 'Northwind Trading' }, [at('The cargo belonged to Northwind Trading, the filing says.', 'Northwind Trading', otherItem, 2, 0.7)]],
      ['Umbrella Group', { name_inc: 'Umbrella Group' }, [at('Umbrella Group bought the warehouse.', 'Umbrella Group', rawItem, 1, 0.81)]],
      ['Vandelay Industries', { name_inc: 'Vandelay Industries' }, [at('Vandelay Industries imports latex.', 'Vandelay Industries', rawItem, 1, 0.66)]],
      ['Hooli', { name_inc: 'Hooli' }, [at('Hooli announced a new phone.', 'Hooli', rawItem, 1, 0.99)]],
      ['Zorin Holdings', { name_inc: 'Zorin Holdings' }, [at('Zorin Holdings was fined.', 'Zorin Holdings')]],
    ];
    const orgs = server.engine.reviews.byTypeCode('ORG');
    const people = server.engine.reviews.byTypeCode('PER');
    await inTenant(server.db, systemActor(demo.id), async (ctx) => {
      for (const [name, values, provenance] of organizations) ids[name] = String((await orgs.suggest(ctx, values, provenance))!['id']);
      ids['Ada Lovelace'] = String((await people.suggest(ctx, { name_given: 'Ada', name_family: 'Lovelace' }, [at('Ada Lovelace wrote the first program.', 'Ada Lovelace')]))!['id']);
    });
  });

  const api = (method: 'GET' | 'POST', url: string) => server.request(demo, { method, url: `/api/v1/${url}`, token });
  const statusOf = async (segment: string, id: string) => {
    for (const status of ['active', 'suggested'] as const) {
      const path = status === 'active' ? `assets/${segment}/${id}/` : `suggested-entities/${segment}/${id}/`;
      if ((await api('GET', path)).statusCode === 200) return status;
    }
    return 'gone or rejected';
  };

  /** A fresh context with `pathname` open, signed in (openSignedIn: no login page). */
  async function open(t: TestContext, email: string, level: string, pathname = '/'): Promise<Page> {
    const context = await browser.newContext({ viewport: DESKTOP });
    t.after(() => context.close());
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', pathname), email, level);
    return page;
  }

  const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  /** The id of the row holding the keyboard focus. */
  const focusedRowId = (page: Page) => page.evaluate(() => document.activeElement?.closest<HTMLElement>('[role="row"]')?.dataset['id'] ?? null);
  /** Takes the focus off any input, as a reader who stops typing does. */
  const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify__toast').filter({ hasText: text });

  it('lists the suggestions in a tab of /organizations and reviews them with j, k, a and r', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', '/organizations?tab=1');
    await page.getByRole('tab', { name: 'Suggestions (8)' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === '2');
    await page.getByRole('link', { name: 'Acme Corp', exact: true }).waitFor();
    // Name order, so the keys walk a known sequence.
    await page.goto(server.url('demo', '/organizations?tab=2&ordering=display_name'));
    await row(page, 'Acme Corp').waitFor();
    await page.getByTestId('keyboard-hint').getByText('accept').waitFor();
    const acme = row(page, 'Acme Corp');
    assert.equal(await acme.getByRole('gridcell').nth(2).innerText(), '4', 'mentions over both sources');
    assert.equal(await acme.getByRole('gridcell').nth(3).innerText(), '2', 'sources');
    await screenshots(page, 'review-list');

    // Keys typed in the search box are text, not shortcuts.
    const search = page.getByLabel('Search suggested organizations');
    await search.click();
    await page.keyboard.type('jar');
    assert.equal(await search.inputValue(), 'jar');
    await search.fill('');
    await blur(page);

    await page.keyboard.press('j');
    assert.equal(await focusedRowId(page), ids['Acme Corp']);
    await page.keyboard.press('j');
    assert.equal(await focusedRowId(page), ids['Globex Corporation']);
    await page.keyboard.press('k');
    assert.equal(await focusedRowId(page), ids['Acme Corp']);

    await page.keyboard.press('a');
    await toast(page, 'Organization “Acme Corp” accepted.').waitFor();
    await acme.waitFor({ state: 'detached' });
    // The focus goes to the row that took its place.
    await page.waitForFunction((id) => document.activeElement?.closest<HTMLElement>('[role="row"]')?.dataset['id'] === id, ids['Globex Corporation']);
    await page.keyboard.press('r');
    await toast(page, 'Rejected the suggested organization “Globex Corporation”.').waitFor();
    await row(page, 'Globex Corporation').waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Suggestions (6)' }).waitFor();

    assert.equal(await statusOf('organizations', ids['Acme Corp']!), 'active');
    assert.equal(await statusOf('organizations', ids['Globex Corporation']!), 'gone or rejected');
    const counted = await api('GET', 'assets/organizations/count/?status=rejected');
    assert.equal(counted.json().count, 1);

    // The accepted one is an organization now, in the list of the first tab.
    await page.getByRole('tablist', { name: 'Organizations and suggestions' }).getByRole('tab', { name: 'Organizations' }).click();
    await row(page, 'Acme Corp').waitFor();
    assert.equal(await row(page, 'Globex Corporation').count(), 0);
  });

  it('lists suggestions most confident first and shows how sure processing was', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', '/organizations?tab=2');
    await row(page, 'Hooli').waitFor();
    const header = page.getByRole('columnheader', { name: 'Confidence' });
    assert.equal(await header.getAttribute('aria-sort'), 'descending', 'the order the list is in, without asking for one');
    const names = await page.locator('[role="row"][data-id] [data-field="display_name"]').allInnerTexts();
    const confidences = await page.locator('[role="row"][data-id] [data-field="confidence"]').allInnerTexts();
    // Acme Corp and Globex Corporation were decided by the test before; Zorin Holdings was suggested without a confidence.
    assert.deepEqual(names, ['Hooli', 'Initech', 'Umbrella Group', 'Northwind Trading', 'Vandelay Industries', 'Zorin Holdings']);
    assert.deepEqual(confidences, ['99%', '88%', '81%', '70%', '66%', '']);
    await screenshots(page, 'review-list-confidence');

    // Ordered the other way when asked (unknown confidence still last).
    await page.goto(server.url('demo', '/organizations?tab=2&ordering=confidence'));
    await page.waitForFunction(() => document.querySelector('[role="row"][data-id] [data-field="display_name"]')?.textContent === 'Vandelay Industries');
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');

    // The review page says it too, and its "next" follows the list's default order.
    await page.goto(server.url('demo', '/organizations?tab=2'));
    await page.getByRole('link', { name: 'Hooli', exact: true }).click();
    await page.getByText('99% confidence').waitFor();
    await page.keyboard.press('j');
    await page.waitForURL((url) => url.pathname === `/suggested-entities/organizations/${ids['Initech']}/edit`);
    await page.getByText('88% confidence').waitFor();
  });

  it('opens a suggestion with Enter: highlighted snippets, sources, similar records; edit then accept', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', '/organizations?tab=2&ordering=display_name');
    await row(page, 'Initech').waitFor();
    await blur(page);
    // Hooli, then Initech.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    assert.equal(await focusedRowId(page), ids['Initech']);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/suggested-entities/organizations/${ids['Initech']}/edit` && url.searchParams.get('ordering') === 'display_name');
    await page.getByRole('heading', { name: 'Initech', level: 1 }).waitFor();
    const snippet = page.getByTestId('provenance').first();
    assert.equal(await snippet.locator('mark').innerText(), 'Initech');
    assert.equal(await snippet.getByRole('link', { name: 'Open the raw data item' }).getAttribute('href'), `/rawdata/${rawItem}/edit`);

    // Edit, then accept: the edit is saved (PATCH) and the record made of it.
    await page.getByLabel('HQ city').fill('Austin');
    await page.getByRole('button', { name: 'Accept as new organization' }).click();
    await toast(page, 'Organization “Initech” accepted.').waitFor();
    // On to the next suggestion of the list (name order): Northwind Trading.
    await page.getByRole('heading', { name: 'Northwind Trading', level: 1 }).waitFor();
    const record = await api('GET', `assets/organizations/${ids['Initech']}/`);
    assert.equal(record.statusCode, 200);
    assert.equal(record.json().hq_city, 'Austin');
  });

  it('accepts a suggestion into the existing record it resembles', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', `/suggested-entities/organizations/${ids['Northwind Trading']}/edit?ordering=display_name`);
    await page.getByRole('heading', { name: 'Northwind Trading', level: 1 }).waitFor();
    const snippet = page.getByTestId('provenance');
    assert.equal(await snippet.locator('mark').innerText(), 'Northwind Trading');
    await snippet.getByText('2 mentions').waitFor();
    const similar = page.getByTestId('similar-records');
    await similar.getByRole('link', { name: 'Northwind Traders' }).waitFor();
    await page.getByLabel('HQ city').fill('Seattle');
    await screenshots(page, 'review-page', { hideToasts: true });

    await page.getByRole('button', { name: 'Accept into Northwind Traders' }).click();
    await toast(page, 'Merged “Northwind Trading” into Organization “Northwind Traders”.').waitFor();
    await page.getByRole('heading', { name: 'Umbrella Group', level: 1 }).waitFor();

    const merged = await api('GET', `assets/organizations/${northwindId}/`);
    assert.equal(merged.json().name_inc, 'Northwind Traders', 'the record keeps its own name');
    assert.equal(merged.json().hq_city, 'Seattle', 'and gains the values it lacked');
    assert.equal(await statusOf('organizations', ids['Northwind Trading']!), 'gone or rejected');
  });

  it('accepts and rejects a selection, one call each, and sums up what someone else decided first', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', '/organizations?tab=2&ordering=display_name');
    for (const name of ['Umbrella Group', 'Vandelay Industries']) await row(page, name).getByRole('checkbox').check();
    const bar = page.getByTestId('bulk-actions');
    await bar.getByText('2 organizations selected').waitFor();
    await bar.getByRole('button', { name: 'Accept', exact: true }).click();
    await toast(page, 'Accepted 2 suggested organizations.').waitFor();
    assert.equal(await statusOf('organizations', ids['Umbrella Group']!), 'active');
    assert.equal(await statusOf('organizations', ids['Vandelay Industries']!), 'active');
    // The accepted rows leave the list; the rows still shown stay usable while it is read again.
    await row(page, 'Vandelay Industries').waitFor({ state: 'detached' });
    await bar.waitFor({ state: 'hidden' });

    for (const name of ['Hooli', 'Zorin Holdings']) await row(page, name).getByRole('checkbox').check();
    // Someone else rejects Hooli meanwhile.
    assert.equal((await api('POST', `assets/organizations/${ids['Hooli']}/reject_suggestion/`)).statusCode, 204);
    await bar.getByRole('button', { name: 'Reject', exact: true }).click();
    await toast(page, 'Rejected 1 suggested organization; 1 had already been reviewed.').waitFor();
    assert.equal(await statusOf('organizations', ids['Zorin Holdings']!), 'gone or rejected');
    await page.getByText('No suggested organizations to review.').waitFor();
  });

  it('shows a suggestion arriving live in the open list', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', '/organizations?tab=2');
    await page.getByText('No suggested organizations to review.').waitFor();
    await page.getByRole('img', { name: 'Live updates: connected' }).waitFor();
    const orgs = server.engine.reviews.byTypeCode('ORG');
    await inTenant(server.db, systemActor(demo.id), async (ctx) => {
      const suggestion = await orgs.suggest(ctx, { name_inc: 'Stark Industries' }, [{ source: { kind: 'raw_data', id: rawItem }, snippet: 'Stark Industries won the bid.', start: 0, end: 16 }]);
      await publish(ctx, 'new_suggested_organization', { id: String(suggestion!['id']), name: 'Stark Industries', raw_data_id: rawItem, updated_at: new Date().toISOString() });
    });
    await row(page, 'Stark Industries').waitFor();
    await page.getByRole('tab', { name: 'Suggestions (1)' }).waitFor();
  });

  it('reviews suggested people the same way', async (t) => {
    const page = await open(t, 'research@demo.test', 'research', '/people?tab=2');
    await row(page, 'Ada Lovelace').getByRole('link').click();
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    assert.equal(await page.getByTestId('provenance').locator('mark').innerText(), 'Ada Lovelace');
    await blur(page);
    await page.keyboard.press('r');
    await toast(page, 'Rejected the suggested person “Ada Lovelace”.').waitFor();
    // Nothing left: back to the list.
    await page.waitForURL((url) => url.pathname === '/people' && url.searchParams.get('tab') === '2');
    await page.getByText('No suggested people to review.').waitFor();
  });

  it('never shows the suggestions to a paywall reader', async (t) => {
    const page = await open(t, 'reader@demo.test', 'paywall', '/organizations');
    await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
    await page.getByRole('grid').waitFor();
    // The header's navigation tabs are there; the list page's own are not.
    await page.getByRole('tab', { name: 'Organizations' }).waitFor();
    assert.equal(await page.getByRole('tablist', { name: 'Organizations and suggestions' }).count(), 0);
    assert.equal(await page.getByRole('tab', { name: /^Suggestions/ }).count(), 0);
    await page.goto(server.url('demo', '/organizations?tab=2'));
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    assert.equal(await page.getByText('Stark Industries').count(), 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, DESKTOP, screenshots, openSignedIn, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('relations both ways: the shared Related section and keyword pages', { skip: unavailable ?? false }, () => {
  let demo: Awaited<ReturnType<E2EServer['createTenant']>>;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    const token = await server.login(demo, 'admin@demo.test');
    const create = (path: string, payload: Record<string, unknown>) => server.create(demo, token, path, payload);
    ids['fintech'] = await create('keywords', { name: 'Fintech', visibility: 'public' });
    ids['ada'] = await create('assets/people', { name_given: 'Ada', name_family: 'Lovelace', keywords: [ids['fintech']], visibility: 'public' });
    ids['acme'] = await create('assets/organizations', { name_inc: 'Acme Corp', hq_city: 'Berlin', keywords: [ids['fintech']], visibility: 'public' });
    ids['revenue'] = await create('assets/ledger', { caption: 'Acme revenue 2024', year: 2024, organizations: [ids['acme']], people: [ids['ada']], visibility: 'public' });
    await create('library', {
      title: 'Open Banking Report', type: 'Report', publish_date: '2024-03', publisher: 'Financial Times', authors: [ids['ada']], assets: [ids['acme']], keywords: [ids['fintech']], visibility: 'public',
    });
    // Enough essays for the group to need a second page.
    for (let index = 1; index <= 12; index += 1) await create('library', { title: `Essay ${String(index).padStart(2, '0')}`, type: 'Essay/Thoughts/Whitepaper/Opinion/Post', authors: [ids['ada']], visibility: 'public' });
    // Written last, so first in the group's order (-updated_at) for those who may see it.
    await create('library', { title: 'Hidden Board Memo', type: 'Deck/Memo/Presentation', authors: [ids['ada']], visibility: 'hidden' });
    await create('assets/investments', { ledger_entry: ids['revenue'], owner_person: ids['ada'], ownership_percentage: 10, visibility: 'public' });
  });

  async function withPage(run: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      await run(await context.newPage());
    } finally {
      await context.close();
    }
  }

  const related = (page: Page) => page.getByTestId('related-section');
  const groupOf = (page: Page, key: string) => related(page).locator(`[data-related-group="${key}"]`);
  const itemNames = (page: Page, key: string) => groupOf(page, key).locator('[data-related-item] > div > :first-child').allInnerTexts();

  it("a person's page lists what they wrote and appear in, paged, each linked — hidden entries only for admins", async () => {
    await withPage(async (page) => {
      await page.goto(server.url('demo', `/people/${ids['ada']}`));
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      const library = groupOf(page, 'library.authors');
      await library.getByRole('heading', { name: 'Library entries as author' }).waitFor();
      assert.equal(await library.getByRole('heading').evaluate((heading) => heading.nextElementSibling?.textContent), '13', 'the hidden memo is not counted for a visitor');
      const firstPage = await itemNames(page, 'library.authors');
      assert.equal(firstPage.length, 10);
      assert.ok(!firstPage.includes('Hidden Board Memo'));
      await groupOf(page, 'ledger_entries.people').getByRole('link', { name: 'Acme revenue 2024' }).waitFor();
      // The investments they hold are in the investments table, not twice.
      assert.equal(await groupOf(page, 'investments.owner_person').count(), 0);
      await page.getByTestId('investments-section').waitFor();
      await screenshots(page, 'backlinks-person');

      await library.getByRole('button', { name: 'Go to page 2' }).click();
      // Wait for the second page itself: while it loads the group may briefly hold no rows at all.
      await page.waitForFunction(() => document.querySelectorAll('[data-related-group="library.authors"] [data-related-item]').length === 3);
      const secondPage = await itemNames(page, 'library.authors');
      assert.equal(secondPage.length, 3);
      assert.equal(new Set([...firstPage, ...secondPage]).size, 13, 'the pages do not overlap');

      await groupOf(page, 'ledger_entries.people').getByRole('link', { name: 'Acme revenue 2024' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme revenue 2024' }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/ledger/${ids['revenue']}`);
    });

    await withPage(async (page) => {
      await openSignedIn(page, server.url('demo', `/people/${ids['ada']}`), 'admin@demo.test', 'admin');
      const library = groupOf(page, 'library.authors');
      await library.getByRole('heading', { name: 'Library entries as author' }).waitFor();
      assert.equal(await library.getByRole('heading').evaluate((heading) => heading.nextElementSibling?.textContent), '14');
      await library.getByRole('link', { name: 'Hidden Board Memo' }).waitFor();
      await library.getByTestId('visibility-chip').filter({ hasText: 'Hidden' }).waitFor();
    });
  });

  it("a keyword chip opens the keyword's page, which lists the records tagged with it by kind", async () => {
    await withPage(async (page) => {
      await page.goto(server.url('demo', `/organizations/${ids['acme']}`));
      await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor();
      await groupOf(page, 'library.assets').getByRole('link', { name: 'Open Banking Report' }).waitFor();
      await groupOf(page, 'ledger_entries.organizations').getByRole('link', { name: 'Acme revenue 2024' }).waitFor();
      await page.locator('dd[data-field="keywords"]').getByRole('link', { name: 'Fintech' }).click();

      await page.getByRole('heading', { level: 1, name: 'Fintech' }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/keywords/${ids['fintech']}`);
      await related(page).locator('[data-related-group]').first().waitFor();
      const groups = await related(page).locator('[data-related-group] h3').allInnerTexts();
      assert.deepEqual(groups, ['Organizations', 'People', 'Library entries']);
      assert.deepEqual(await itemNames(page, 'organizations.keywords'), ['Acme Corp']);
      assert.deepEqual(await itemNames(page, 'people.keywords'), ['Ada Lovelace']);
      assert.equal(await groupOf(page, 'organizations.keywords').locator('[data-related-item]').first().locator('p').innerText(), 'Berlin', 'the second line');
      await screenshots(page, 'backlinks-keyword');
      await groupOf(page, 'library.keywords').getByRole('link', { name: 'Open Banking Report' }).click();
      await page.getByRole('heading', { level: 1, name: 'Open Banking Report' }).waitFor();
      // Lists hold library entries (the Lists box shows those), and intelbook facts cite them as
      // sources: the Related box is there, saying nothing cites this one yet.
      await page.getByTestId('record-lists').waitFor();
      await related(page).getByText('Nothing refers to this library entry yet.').waitFor();
    });
  });
});

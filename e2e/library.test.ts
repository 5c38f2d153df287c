import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, type E2EServer, openSignedIn, navigateInApp, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

const PAYWALL_LINK = 'https://members.example.com/reports/open-banking-2024';

describe('library: list, form, detail, the paywall link and search', { skip: unavailable ?? false }, () => {
  let demo: Awaited<ReturnType<E2EServer['createTenant']>>;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    // admin@, research@ and reader@demo.test
    const token = (await server.signInAudiences(demo)).admin!;
    const create = (path: string, payload: Record<string, unknown>) => server.create(demo, token, path, payload);
    ids['ada'] = await create('assets/people', { name_given: 'Ada', name_family: 'Lovelace', visibility: 'public' });
    ids['acme'] = await create('assets/organizations', { name_inc: 'Acme Corp', visibility: 'public' });
    ids['revenue'] = await create('assets/ledger', { caption: 'Acme revenue 2024', year: 2024, visibility: 'public' });
    ids['report'] = await create('library', {
      title: 'Open Banking Report',
      abstract: 'How open banking changes payments in Europe.',
      type: 'Report',
      publish_date: '2024-03',
      publisher: 'Financial Times',
      public_link: 'https://ft.example.com/open-banking',
      paywall_link: PAYWALL_LINK,
      authors: [ids['ada']],
      assets: [ids['acme'], ids['revenue']],
      visibility: 'public',
    });
    ids['book'] = await create('library', { title: 'Paywalled Markets Book', type: 'Book', publisher: 'Penguin', visibility: 'paywalled' });
    ids['memo'] = await create('library', { title: 'Hidden Board Memo', type: 'Deck/Memo/Presentation', visibility: 'hidden' });
  });

  /** Opens `pathname` of tenant demo signed in (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, email: string, level: string, pathname = '/') => openSignedIn(page, server.url('demo', pathname), email, level);

  /** A fresh browser context for one test, closed even when the test fails (open pages would hold connections). */
  async function withPage(options: { viewport: typeof DESKTOP }, run: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext(options);
    try {
      await run(await context.newPage());
    } finally {
      await context.close();
    }
  }

  const grid = (page: Page) => page.getByRole('grid', { name: 'Library' });
  const field = (page: Page, name: string) => page.locator(`dd[data-field="${name}"]`);

  it('a research user creates an entry, finds it, opens it, edits it and deletes it', async () => {
    await withPage({ viewport: DESKTOP }, async (page) => {
      await signIn(page, 'research@demo.test', 'research', '/library?tab=1');
      await grid(page).getByRole('link', { name: 'Open Banking Report' }).waitFor();
      await grid(page).getByRole('link', { name: 'Paywalled Markets Book' }).waitFor();
      // Research users are the team's curators: hidden entries are listed for them too.
      await grid(page).getByRole('link', { name: 'Hidden Board Memo' }).waitFor();
      const headers = await grid(page).getByRole('columnheader').allInnerTexts();
      assert.deepEqual(headers.map((text) => text.trim()).filter(Boolean), ['Title', 'Type', 'Publish date', 'Publisher', 'Authors', 'Visibility', 'Updated']);
      await screenshots(page, 'library-list');

      await page.getByRole('link', { name: 'New library entry' }).click();
      await page.getByRole('heading', { name: 'New library entry' }).waitFor();
      await page.getByLabel('Title').fill('Payments Podcast Episode 12');
      await page.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'Podcast', exact: true }).click();
      const published = page.getByRole('group', { name: 'Publish date' });
      await published.getByLabel('Year').fill('2023');
      await published.getByRole('combobox', { name: 'Month' }).click();
      await page.getByRole('option', { name: 'May' }).click();
      await page.getByLabel('Publisher').fill('Payments Weekly');
      await page.getByLabel('Public link').fill('podcasts.example.com/payments/12');
      await page.getByLabel('Paywall link').fill('https://members.example.com/podcasts/12');
      const authors = page.getByRole('combobox', { name: 'Authors' });
      await authors.fill('Ada');
      await page.getByRole('option', { name: 'Ada Lovelace' }).click();
      // Any visibility: research users read hidden entries too.
      await page.getByRole('radio', { name: /Paywalled/ }).check();
      await screenshots(page, 'library-form');
      await page.getByRole('button', { name: 'Create library entry' }).click();

      await page.getByRole('heading', { level: 1, name: 'Payments Podcast Episode 12' }).waitFor();
      await page.getByText('Library entry “Payments Podcast Episode 12” created.').waitFor();
      const id = new URL(page.url()).pathname.split('/').pop()!;
      assert.equal(await field(page, 'type').innerText(), 'Podcast');
      assert.equal(await field(page, 'publish_date').innerText(), 'May 2023');
      assert.equal(await field(page, 'public_link').getByRole('link').getAttribute('href'), 'https://podcasts.example.com/payments/12');
      assert.equal(await field(page, 'paywall_link').getByRole('link').getAttribute('href'), 'https://members.example.com/podcasts/12');
      assert.equal(await field(page, 'authors').getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href'), `/people/${ids['ada']}`);
      assert.equal(await page.getByTestId('visibility-chip').first().innerText(), 'Paywalled');
      await screenshots(page, 'library-detail');

      // Found in the list through the search box and the type filter, both kept in the URL.
      await page.goto(server.url('demo', '/library?tab=1'));
      await page.getByLabel('Search library').fill('payments podcast');
      await page.waitForURL(/search=payments/);
      await grid(page).getByRole('link', { name: 'Payments Podcast Episode 12' }).waitFor();
      await grid(page).getByRole('link', { name: 'Open Banking Report' }).waitFor({ state: 'detached' });
      await page.goto(server.url('demo', '/library?tab=1&type=Podcast'));
      await grid(page).getByRole('link', { name: 'Payments Podcast Episode 12' }).waitFor();
      await grid(page).getByRole('link', { name: 'Open Banking Report' }).waitFor({ state: 'detached' });
      assert.match(await grid(page).getByRole('row').filter({ hasText: 'Payments Podcast Episode 12' }).innerText(), /Ada Lovelace/);
      await grid(page).getByRole('link', { name: 'Payments Podcast Episode 12' }).click();
      await page.waitForURL((url) => url.pathname === `/library/${id}`);

      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit Payments Podcast Episode 12' }).waitFor();
      const editPublished = page.getByRole('group', { name: 'Publish date' });
      assert.equal(await editPublished.getByLabel('Year').inputValue(), '2023');
      const patches: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PATCH') patches.push(request.postData() ?? '');
    });
    await page.getByLabel('Publisher').fill('Payments Monthly');
    await page.getByLabel('Favourite').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Library entry “Payments Podcast Episode 12” saved.').waitFor();
    assert.equal(await field(page, 'publisher').innerText(), 'Payments Monthly');
    assert.equal(await field(page, 'is_fav').innerText(), 'Yes');
    assert.deepEqual(patches.map((body) => JSON.parse(body)), [{ publisher: 'Payments Monthly', is_fav: true }]);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Library entry “Payments Podcast Episode 12” deleted.').waitFor();
    await page.waitForURL((url) => url.pathname === '/library');
    await grid(page).getByRole('link', { name: 'Open Banking Report' }).waitFor();
    assert.equal(await grid(page).getByRole('link', { name: 'Payments Podcast Episode 12' }).count(), 0);
    });
  });

  it('a public visitor sees a public entry without its paywall link', async () => {
    await withPage({ viewport: DESKTOP }, async (page) => {
      await page.goto(server.url('demo', '/library?tab=1'));
      await grid(page).getByRole('link', { name: 'Open Banking Report' }).waitFor();
      const titles = await grid(page).getByRole('link').allInnerTexts();
      assert.ok(!titles.includes('Paywalled Markets Book'), titles.join(', '));
      assert.ok(!titles.includes('Hidden Board Memo'), titles.join(', '));
      assert.equal(await page.getByRole('link', { name: 'New library entry' }).count(), 0);

      await grid(page).getByRole('link', { name: 'Open Banking Report' }).click();
      await page.getByRole('heading', { level: 1, name: 'Open Banking Report' }).waitFor();
      assert.equal(await field(page, 'public_link').getByRole('link').getAttribute('href'), 'https://ft.example.com/open-banking');
      assert.equal(await field(page, 'authors').getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href'), `/people/${ids['ada']}`);
      assert.equal(await field(page, 'assets').getByRole('link', { name: 'Acme Corp' }).getAttribute('href'), `/organizations/${ids['acme']}`);
      assert.equal(await field(page, 'assets').getByRole('link', { name: 'Acme revenue 2024' }).getAttribute('href'), `/ledger/${ids['revenue']}`);
      assert.equal(await field(page, 'paywall_link').count(), 0);
      assert.ok(!(await page.content()).includes('members.example.com'), 'the paywall link is nowhere on the page');
      assert.equal(await page.getByRole('link', { name: 'Edit' }).count(), 0);
      await screenshots(page, 'library-detail-public');
    });
  });

  it('a paywall reader sees the paywall link but may not create entries', async () => {
    await withPage({ viewport: DESKTOP }, async (page) => {
      await signIn(page, 'reader@demo.test', 'paywall', `/library/${ids['report']}`);
      await page.getByRole('heading', { level: 1, name: 'Open Banking Report' }).waitFor();
      const link = field(page, 'paywall_link').getByRole('link');
      assert.equal(await link.getAttribute('href'), PAYWALL_LINK);
      assert.equal(await link.getAttribute('target'), '_blank');
      assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);

      await navigateInApp(page, server.url('demo', '/library?tab=1'));
      await grid(page).getByRole('link', { name: 'Paywalled Markets Book' }).waitFor();

      await navigateInApp(page, server.url('demo', '/library/create'));
      await page.getByRole('heading', { name: 'Access denied' }).waitFor();
      await navigateInApp(page, server.url('demo', `/library/${ids['report']}/edit`));
      await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    });
  });

  it('the search dialog finds a library entry and opens it', async () => {
    await withPage({ viewport: DESKTOP }, async (page) => {
      await page.goto(server.url('demo'));
      await page.getByTestId('home-card-library').getByTestId('entity-count').waitFor();
      await page.keyboard.press('Control+F');
      const dialog = page.getByRole('dialog', { name: 'Search' });
      await dialog.getByPlaceholder('Type for quick search, enter for advanced search').fill('open banking');
      const hit = dialog.getByRole('option', { name: /Open Banking Report/ });
      await hit.waitFor();
      assert.match(await hit.innerText(), /Library/);
      // The Library chip keeps library entries.
      await dialog.getByRole('button', { name: 'Library' }).click();
      await hit.waitFor();
      await hit.click();
      await page.waitForURL((url) => url.pathname === `/library/${ids['report']}`);
      await page.getByRole('heading', { level: 1, name: 'Open Banking Report' }).waitFor();
    });
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

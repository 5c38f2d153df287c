import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserUnavailable, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();

/**
 * The advanced search (/search, tab 0): result types as chips with their counts, the selected
 * type's hits with the search words highlighted (in the name and in the field that matched),
 * its filters, ordering and paging — all in the URL, shared by link and stepped through with
 * back and forward; the empty and failed searches' messages.
 */
describe('advanced search', { skip: unavailable ?? false }, () => {
  const { server, browser } = useServerAndBrowser(async () => {
    const tenant = await server.createTenant('find', { name: 'Find Research' });
    const token = (await server.signInAudiences(tenant)).admin!;
    const create = (path: string, payload: Record<string, unknown>) => server.create(tenant, token, path, payload);
    await create('keywords', { name: 'lithium' });
    // 27 names starting with the word, odd ones in Berlin: more than a page of 25.
    for (let index = 1; index <= 27; index += 1) {
      await create('assets/organizations', {
        name_dba: `Lithium Co ${String(index).padStart(2, '0')}`,
        hq_city: index % 2 === 1 ? 'Berlin' : 'Santiago',
        visibility: 'public',
      });
    }
    await create('assets/organizations', { name_dba: 'Zürich Lithium AG', hq_city: 'Zürich', visibility: 'public' });
    await create('assets/organizations', {
      name_dba: 'Andes Minerals',
      hq_city: 'Santiago',
      notes: 'A family business since 1950. Extracts lithium brine in the Atacama desert for battery makers.',
      visibility: 'public',
    });
    await create('assets/organizations', { name_dba: 'Secret Lithium Holdings', visibility: 'paywalled' });
    await create('assets/people', { name_given: 'Amelia', name_family: 'Hart', notes: 'Board member of a lithium refiner.', visibility: 'public' });
    // Names a search finds through a transliteration (Lindquist, Mueller).
    await create('assets/people', { name_given: 'Karin', name_family: 'Lindqvist', visibility: 'public' });
    await create('assets/people', { name_given: 'Hans', name_family: 'Müller', visibility: 'public' });
    await create('library', { title: 'The lithium report 2023', type: 'Report', visibility: 'public' });
    await create('lists', { name: 'Lithium watchlist', kind: 'OrganizationsList', visibility: 'public' });
    await create('assets/ledger', { caption: 'Copper royalties', year: 2024, visibility: 'public' });
  });

  const url = (path: string) => server.url('find', path);
  const chipCount = async (page: Page, type: string) =>
    (await page.getByTestId(`search-type-${type}`).getByTestId('search-type-count').innerText()).trim();
  const hits = (page: Page) => page.getByTestId('search-hit');
  const hitNames = (page: Page) => hits(page).getByRole('link').allInnerTexts();
  const total = (page: Page) => page.getByTestId('search-results-total');
  const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

  it('counts each result type, shows the first with hits, and highlights the words', async () => {
    const page = await browser.newPage();
    await page.goto(url('/search?q=lithium'));
    await page.getByTestId('search-type-keywords').getByText('1').waitFor();
    await page.getByTestId('search-type-organizations').getByText('29').waitFor();
    // A visitor counts the public organizations only: the paywalled one is not among them.
    assert.deepEqual(
      await Promise.all(['keywords', 'people', 'organizations', 'ledgers', 'library', 'lists'].map((type) => chipCount(page, type))),
      ['1', '1', '29', '0', '1', '1'],
    );
    // No type asked: the first type with hits (Keywords), without writing it into the URL.
    await page.getByRole('heading', { name: 'Keywords', level: 2 }).waitFor();
    assert.equal(param(page, 'type'), null);
    assert.equal(await page.getByTestId('search-type-keywords').getAttribute('aria-pressed'), 'true');

    await page.getByTestId('search-type-organizations').click();
    await page.waitForURL((next) => next.searchParams.get('type') === 'organizations');
    await total(page).getByText('29 results for “lithium”').waitFor();
    assert.equal(await hits(page).count(), 25);
    const names = await hitNames(page);
    assert.equal(names[0], 'Lithium Co 01', 'names starting with the word come first (relevance)');
    assert.equal(await hits(page).first().locator('mark').innerText(), 'Lithium');

    // Page 2: the name with the word inside it, then the record that matched in its notes.
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.waitForURL((next) => next.searchParams.get('page') === '2');
    await page.getByRole('link', { name: 'Andes Minerals' }).waitFor();
    assert.deepEqual(await hitNames(page), ['Lithium Co 26', 'Lithium Co 27', 'Zürich Lithium AG', 'Andes Minerals']);
    const andes = hits(page).filter({ hasText: 'Andes Minerals' });
    const match = andes.getByTestId('search-hit-match');
    assert.match(await match.innerText(), /^Notes: …?.*Extracts lithium brine in the Atacama/);
    assert.equal(await match.locator('mark').innerText(), 'lithium');
    await screenshots(page, 'search-organizations-page-2');

    // Back returns to page 1, forward to page 2 again.
    await page.goBack();
    await page.waitForURL((next) => next.searchParams.get('page') === null && next.searchParams.get('type') === 'organizations');
    await page.getByRole('link', { name: 'Lithium Co 01' }).waitFor();
    await page.goForward();
    await page.getByRole('link', { name: 'Andes Minerals' }).waitFor();
    await page.close();
  });

  it('filters and orders the selected type; the link reproduces it; back undoes each step', async () => {
    const page = await browser.newPage();
    await page.goto(url('/search?q=lithium&type=organizations'));
    await total(page).getByText('29 results for “lithium”').waitFor();

    await page.getByRole('combobox', { name: 'HQ city' }).click();
    await page.getByRole('option', { name: /^Berlin/ }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((next) => next.searchParams.get('hq_city') === 'Berlin');
    await total(page).getByText('14 results for “lithium”').waitFor();

    await page.getByRole('combobox', { name: 'Order by' }).click();
    await page.getByRole('option', { name: 'Trading name (DBA), Z to A' }).click();
    await page.waitForURL((next) => next.searchParams.get('ordering') === '-name_dba');
    await page.waitForFunction(() => document.querySelector('[data-testid="search-hit"] a')?.textContent === 'Lithium Co 27');
    await screenshots(page, 'search-filtered-ordered');

    // The link alone shows the same search.
    const shared = await browser.newPage();
    await shared.goto(page.url());
    await total(shared).getByText('14 results for “lithium”').waitFor();
    assert.equal((await hitNames(shared))[0], 'Lithium Co 27');
    assert.equal((await shared.getByRole('combobox', { name: 'Order by' }).innerText()).trim(), 'Trading name (DBA), Z to A');
    await shared.close();

    // Back: the ordering goes, then the filter.
    await page.goBack();
    await page.waitForURL((next) => next.searchParams.get('ordering') === null && next.searchParams.get('hq_city') === 'Berlin');
    assert.equal((await page.getByRole('combobox', { name: 'Order by' }).innerText()).trim(), 'Relevance');
    await page.goBack();
    await total(page).getByText('29 results for “lithium”').waitFor();

    // Another type starts afresh: its own filters, first page, relevance.
    await page.getByTestId('search-type-people').click();
    await page.waitForURL((next) => next.searchParams.get('type') === 'people' && next.searchParams.get('hq_city') === null);
    const amelia = hits(page).filter({ hasText: 'Amelia Hart' });
    assert.equal(await amelia.getByTestId('search-hit-match').locator('mark').innerText(), 'lithium');
    await page.close();
  });

  it('matches without case or accents, and a new search from the box', async () => {
    const page = await browser.newPage();
    await page.goto(url('/search?q=ZURICH&type=organizations'));
    const hit = hits(page).filter({ hasText: 'Zürich Lithium AG' });
    await hit.waitFor();
    assert.equal(await hit.getByRole('link').locator('mark').innerText(), 'Zürich');

    await page.getByRole('textbox', { name: 'Search', exact: true }).fill('atacama brine');
    await page.getByRole('textbox', { name: 'Search', exact: true }).press('Enter');
    await page.waitForURL((next) => next.searchParams.get('q') === 'atacama brine' && next.searchParams.get('type') === null);
    const andes = hits(page).filter({ hasText: 'Andes Minerals' });
    await andes.waitFor();
    assert.deepEqual(await andes.getByTestId('search-hit-match').locator('mark').allInnerTexts(), ['brine', 'Atacama']);
    await page.close();
  });

  it('marks names matched through a transliteration', async () => {
    const page = await browser.newPage();
    await page.goto(url('/search?q=lindquist&type=people'));
    const karin = hits(page).filter({ hasText: 'Karin Lindqvist' });
    await karin.waitFor();
    assert.equal(await karin.getByRole('link').locator('mark').innerText(), 'Lindqvist');
    await page.goto(url('/search?q=mueller&type=people'));
    const hans = hits(page).filter({ hasText: 'Hans Müller' });
    await hans.waitFor();
    assert.equal(await hans.getByRole('link').locator('mark').innerText(), 'Müller');
    await screenshots(page, 'search-transliteration');
    await page.close();
  });

  it('a paywalled record is found by a signed-in reader only', async () => {
    const visitor = await browser.newPage();
    await visitor.goto(url('/search?q=secret'));
    await visitor.getByText('No results found.').waitFor();
    assert.equal(await chipCount(visitor, 'organizations'), '0');
    await visitor.close();

    const reader = await browser.newPage();
    await openSignedIn(reader, url('/search?q=secret'), 'reader@find.test', 'paywall');
    await reader.getByRole('link', { name: 'Secret Lithium Holdings' }).waitFor();
    await reader.close();
  });

  it('finds the records of a mistyped word, saying nothing matched as typed', async () => {
    const page = await browser.newPage();
    await page.goto(url('/search?q=atacamma'));
    const andes = hits(page).filter({ hasText: 'Andes Minerals' });
    await andes.waitFor();
    assert.match((await total(page).innerText()).trim(), /^No exact matches for “atacamma”\. 1 result for similar words$/);
    // The word like the one typed that it matched (the answer's similar_words) is marked where the record has it.
    assert.deepEqual(await andes.getByTestId('search-hit-match').locator('mark').allInnerTexts(), ['Atacama']);
    await screenshots(page, 'search-similar-words');
    await page.close();
  });

  it('says when nothing is found and when the search fails', async () => {
    const page = await browser.newPage();
    await page.goto(url('/search?q=qwxyzzy'));
    await page.getByText('No results found.').waitFor();
    await screenshots(page, 'search-no-results');

    await page.route(
      (address) => address.pathname.startsWith('/api/v1/') && address.searchParams.has('search'),
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.goto(url('/search?q=lithium'));
    await page.getByText('Could not search. Please try again later.').waitFor();
    await page.close();
  });
});

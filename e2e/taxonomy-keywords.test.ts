import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserUnavailable, screenshots, gotoUnlessThere } from './support/browser.ts';
import { taxonomyFixture } from './support/taxonomy.ts';

const unavailable = browserUnavailable();

describe('taxonomy: keywords and terminology', { skip: unavailable ?? false }, () => {
  const { url, newPage, signIn, pick, remove, grid } = taxonomyFixture();

  it('keywords: create, list, edit, refuse a duplicate, delete; ?tab=1 shows the geos', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research', '/keywords');
    await grid(page, 'Keywords').getByRole('link', { name: 'Fintech' }).waitFor();
    await page.getByRole('link', { name: 'New keyword' }).click();
    await page.getByRole('heading', { name: 'New keyword' }).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Climate');
    await page.getByLabel('Description').fill('Climate risk and the energy transition.');
    await page.getByRole('button', { name: 'Create keyword' }).click();
    await page.getByRole('heading', { level: 1, name: 'Climate' }).waitFor();
    await page.getByText('Keyword “Climate” created.').waitFor();

    await page.goto(url('demo', '/keywords'));
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
    await signIn(page, 'demo', 'research@demo.test', 'research', '/terminology');
    for (const [term, definition] of [
      ['EBITDA', 'Earnings before interest, taxes, depreciation and amortization.'],
      ['Burn rate', 'How fast a company spends its cash.\nUsually per month.'],
    ] as const) {
      await gotoUnlessThere(page, url('demo', '/terminology'));
      await page.getByRole('link', { name: 'New term' }).click();
      await page.getByRole('textbox', { name: /^Term/ }).fill(term);
      await page.getByLabel('Definition').fill(definition);
      if (term === 'EBITDA') await pick(page, 'Keywords', 'fin', 'Fintech');
      await page.getByRole('button', { name: 'Create term' }).click();
      await page.getByText(`Term “${term}” created.`).waitFor();
    }

    const visitor = await newPage();
    await visitor.goto(url('demo', '/terminology'));
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
    await visitor.goto(url('demo', '/terminology'));
    await visitor.getByRole('button', { name: 'Fintech' }).click();
    await visitor.getByRole('heading', { level: 3, name: 'Burn rate' }).waitFor({ state: 'detached' });
    assert.deepEqual(await visitor.getByRole('heading', { level: 3 }).allInnerTexts(), ['EBITDA']);

    await page.goto(url('demo', '/terminology'));
    await page.getByRole('link', { name: 'Edit Burn rate' }).click();
    await page.getByRole('heading', { name: 'Edit Burn rate' }).waitFor();
    await page.getByRole('textbox', { name: /^Term/ }).fill('Cash burn');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Term “Cash burn” saved.').waitFor();
    await remove(page, 'Term “Cash burn” deleted.');
    assert.equal(new URL(page.url()).pathname, '/terminology');
    await page.getByRole('heading', { level: 3, name: 'EBITDA' }).waitFor();
  });
});

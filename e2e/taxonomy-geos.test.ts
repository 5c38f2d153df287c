import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserUnavailable, screenshot, screenshots, navigateInApp } from './support/browser.ts';
import { taxonomyFixture } from './support/taxonomy.ts';

const unavailable = browserUnavailable();

describe('taxonomy: geos and cities', { skip: unavailable ?? false }, () => {
  const { url, newPage, signIn, pick, grid } = taxonomyFixture();

  it('geos and cities: a tenant manager adds and edits them; every tenant reads them', async () => {
    const page = await newPage();
    await signIn(page, null, 'manager@main.test', 'admin', '/geos?search=european');
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

    await page.goto(url(null, '/geos?tab=1'));
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
    await visitor.goto(url('demo', '/geos?search=dach'));
    await grid(visitor, 'Countries and regions').getByRole('link', { name: 'DACH countries' }).waitFor();
    await visitor.getByLabel('Search countries and regions').fill('germany');
    await grid(visitor, 'Countries and regions').getByRole('link', { name: 'Germany' }).waitFor();
    await grid(visitor, 'Countries and regions').getByRole('link', { name: 'DACH countries' }).waitFor({ state: 'detached' });
    await screenshots(visitor, 'geos-page');
    await visitor.getByRole('tab', { name: 'Cities' }).click();
    await grid(visitor, 'Cities').getByRole('link', { name: 'Graz' }).waitFor();
  });

  it('guards: only tenant managers add geos and cities; a tenant admin reads them', async () => {
    const admin = await newPage();
    await signIn(admin, 'demo', 'admin@demo.test', 'admin', '/geos/create');
    for (const route of ['/geos/create', '/cities/create']) {
      await navigateInApp(admin, url('demo', route));
      await admin.getByRole('heading', { name: 'Access denied' }).waitFor();
    }
    await screenshot(admin, 'geos-create-access-denied');
    // The admin of a tenant reads geos but is offered no way to change them.
    await admin.goto(url('demo', '/geos?search=germany'));
    await grid(admin, 'Countries and regions').getByRole('link', { name: 'Germany' }).waitFor();
    assert.equal(await admin.getByRole('link', { name: 'New geo' }).count(), 0);
    await grid(admin, 'Countries and regions').getByRole('link', { name: 'Germany' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Germany' }).waitFor();
    assert.equal(await admin.getByRole('link', { name: 'Edit' }).count(), 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServerAndBrowser, browserUnavailable, screenshot, DESKTOP } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('people: the shared form and detail page', { skip: unavailable ?? false }, () => {
  const { server, browser } = useServerAndBrowser(async () => {
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
  });

  it('a research user creates a person with a birthday without a year, edits and deletes them', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(server.url('demo', '/login'));
    await page.getByLabel('Email', { exact: true }).fill('research@demo.test');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('access-level').filter({ hasText: 'research' }).waitFor();

    await page.goto(server.url('demo', '/people?tab=1'));
    await page.getByText('No people yet.').waitFor();
    await page.getByRole('link', { name: 'New person' }).click();
    await page.getByLabel('Given name').fill('Ada');
    await page.getByLabel('Family name').fill('Lovelace');
    const birth = page.getByRole('group', { name: 'Birth date' });
    await birth.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'December' }).click();
    await birth.getByRole('combobox', { name: 'Day' }).click();
    await page.getByRole('option', { name: '10', exact: true }).click();
    await page.getByRole('combobox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: 'F', exact: true }).click();
    // The date met has the same year / month / day boxes as every date.
    const met = page.getByRole('group', { name: 'Date met' });
    await met.getByLabel('Year').fill('2024');
    await met.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'May', exact: true }).click();
    await met.getByRole('combobox', { name: 'Day' }).click();
    await page.getByRole('option', { name: '17', exact: true }).click();
    // Any visibility: research users read hidden records too (server/src/resources/visibility.ts).
    await page.getByRole('radio', { name: /Paywalled/ }).check();
    await page.getByRole('button', { name: 'Create person' }).click();

    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    assert.equal(await page.locator('dd[data-field="birth_date"]').innerText(), '10 December');
    assert.equal(await page.locator('dd[data-field="met_event_date"]').innerText(), '17 May 2024');
    assert.equal(await page.getByTestId('visibility-chip').first().innerText(), 'Paywalled');
    await screenshot(page, 'person-detail-1280');

    await page.getByRole('link', { name: 'Edit' }).click();
    const editBirth = page.getByRole('group', { name: 'Birth date' });
    assert.equal(await editBirth.getByLabel('Year').inputValue(), '');
    assert.equal(await editBirth.getByRole('combobox', { name: 'Month' }).innerText(), 'December');
    await editBirth.getByLabel('Year').fill('1815');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Person “Ada Lovelace” saved.').waitFor();
    assert.equal(await page.locator('dd[data-field="birth_date"]').innerText(), '10 December 1815');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Person “Ada Lovelace” deleted.').waitFor();
    await page.getByText('No people yet.').waitFor();
    assert.equal(new URL(page.url()).pathname, '/people');
    await context.close();
  });

  it('tabs other than the list and the suggestions say they are not available yet; the suggestions ask a visitor to sign in', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('demo', '/people?tab=3'));
    await page.getByTestId('not-available-yet').waitFor();
    // ?tab=2 is the suggested people (e2e/review.test.ts): research users and admins only.
    await page.goto(server.url('demo', '/people?tab=2'));
    await page.waitForURL((url) => url.pathname === '/login');
    await page.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

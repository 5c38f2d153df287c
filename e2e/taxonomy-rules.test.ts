import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserUnavailable, screenshots, navigateInApp } from './support/browser.ts';
import { taxonomyFixture } from './support/taxonomy.ts';

const unavailable = browserUnavailable();

describe('taxonomy: URLs and tagging rules', { skip: unavailable ?? false }, () => {
  const { url, newPage, signIn, pick, remove, grid } = taxonomyFixture();

  it('URLs: research adds, lists, edits and deletes sources; a duplicate is refused', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research', '/urls?tab=0');
    await page.getByRole('link', { name: 'New source url' }).click();
    await page.getByRole('textbox', { name: /^URL/ }).fill('www.reuters.com/markets/');
    await page.getByLabel('Alias').fill('Reuters markets');
    await page.getByRole('button', { name: 'Create source url' }).click();
    await page.getByText('Source URL “Reuters markets” created.').waitFor();
    assert.equal(await page.locator('dd[data-field="url"]').innerText(), 'https://www.reuters.com/markets/');

    await page.goto(url('demo', '/urls/create'));
    await page.getByRole('textbox', { name: /^URL/ }).fill('http://reuters.com/markets');
    await page.getByRole('button', { name: 'Create source url' }).click();
    await page.getByTestId('form-errors').getByText(/already a source/).waitFor();

    await page.goto(url('demo', '/urls?tab=0'));
    await grid(page, 'URLs').getByRole('link', { name: 'Reuters markets' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Alias').fill('Reuters');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Source URL “Reuters” saved.').waitFor();
    await page.goto(url('demo', '/urls'));
    await grid(page, 'URLs').getByRole('link', { name: 'Reuters' }).waitFor();
    await screenshots(page, 'urls-list');
    await grid(page, 'URLs').getByRole('link', { name: 'Reuters' }).click();
    await remove(page, 'Source URL “Reuters” deleted.');
  });

  it('tagging rules: the rule tester marks matches live; saved rules tag organizations', async () => {
    const page = await newPage();
    await signIn(page, 'demo', 'research@demo.test', 'research', '/taggingrules');
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

    await page.goto(url('demo', '/taggingrules'));
    await grid(page, 'Tagging rules').getByRole('link', { name: 'Fintech' }).waitFor();

    // The rule tags an organization whose text matches.
    await page.goto(url('demo', '/organizations/create'));
    await page.getByLabel('Legal name').fill('Ledgerly Finance');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByText('Organization “Ledgerly Finance” created.').waitFor();
    assert.match(await page.locator('dd[data-field="keywords"]').innerText(), /Fintech/);

    await page.goto(url('demo', '/taggingrules'));
    await grid(page, 'Tagging rules').getByRole('link', { name: 'Fintech' }).click();
    await remove(page, 'Tagging rule “Fintech” deleted.');
  });

  it('guards: paywall readers may not open URLs or tagging rules, visitors are sent to sign in', async () => {
    const reader = await newPage();
    await signIn(reader, 'demo', 'reader@demo.test', 'paywall', '/urls');
    for (const route of ['/urls', '/taggingrules', '/taggingrules/create', '/keywords/create']) {
      await navigateInApp(reader, url('demo', route));
      await reader.getByRole('heading', { name: 'Access denied' }).waitFor();
    }
    const visitor = await newPage();
    await visitor.goto(url('demo', '/urls'));
    await visitor.waitForURL(/\/login/);
  });
});

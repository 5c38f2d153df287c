import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserUnavailable, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();

/**
 * The CAGR calculator (/cagr) solving each missing value and refusing bad ones, its inputs in
 * the URL; the payment success page (/checkout) signing the reader in with the token a payment
 * returned and leading back to what they were reading; the unlock offers visitors see on
 * locked counts, driven by the tenant's payment link and message.
 */
describe('CAGR calculator, checkout and unlock offers', { skip: unavailable ?? false }, () => {
  let entryId = '';
  let tenant: Awaited<ReturnType<typeof server.createTenant>>;
  const { server, browser } = useServerAndBrowser(async () => {
    tenant = await server.createTenant('pay', { name: 'Pay Research' });
    const token = (await server.signInAudiences(tenant)).admin!;
    const settings = await server.request(tenant, {
      method: 'PATCH',
      url: '/api/v1/settings/',
      token,
      payload: { payment_access_link: 'https://pay.example.test/subscribe', payment_access_message: 'Subscribe to read every note.' },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    entryId = await server.create(tenant, token, 'library', { title: 'Deep Dive Report', type: 'Report', visibility: 'paywalled' });
    await server.create(tenant, token, 'library', { title: 'Open Letter', type: 'Essay/Thoughts/Whitepaper/Opinion/Post', visibility: 'public' });
  });

  const url = (path: string) => server.url('pay', path);
  const answer = (page: Page) => page.getByTestId('cagr-answer');
  const helper = (page: Page, label: string) => page.locator(`[id="${label}-helper-text"]`);
  const IDS: Record<string, string> = {
    'Start value': 'cagr-start',
    'End value': 'cagr-end',
    'Growth rate per period': 'cagr-rate',
    Periods: 'cagr-periods',
    'Start date': 'cagr-from',
    'End date': 'cagr-to',
  };
  /** A field by its label (checked) — the result's heading can read like one, so it is found by id. */
  const field = (page: Page, label: string) => page.locator(`input#${IDS[label]}`).and(page.getByLabel(label, { exact: true }));
  const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

  /** Empties the form, then types the given values (a null leaves the field empty). */
  async function calculate(page: Page, values: Record<string, string>): Promise<void> {
    await page.getByRole('button', { name: 'Clear' }).click();
    // Typed into before the form is empty, a field's value would mix with the old ones.
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLInputElement>('form[aria-label="CAGR inputs"] input')].every((input) => input.value === ''));
    for (const [label, value] of Object.entries(values)) await field(page, label).fill(value);
  }

  it('solves for whichever value is left empty, and keeps the inputs in the URL', async () => {
    const page = await browser.newPage({ locale: 'en-US' });
    await page.goto(url('/cagr?start=100&end=200&periods=5'));
    await answer(page).getByText('14.87%').waitFor();
    await page.getByText('Compound annual growth rate', { exact: true }).waitFor();
    await page.getByTestId('growth-chart').waitFor();
    assert.equal(await page.getByTestId('cagr-sentence').innerText(), '100 grows to 200 in 5 periods at 14.87% a period.');
    await screenshots(page, 'cagr-rate');

    await calculate(page, { 'Start value': '1000', 'Growth rate per period': '10', Periods: '2' });
    await answer(page).getByText('1,210', { exact: true }).waitFor();
    assert.deepEqual(params(page), { start: '1000', rate: '10', periods: '2' });
    assert.equal(await helper(page, 'cagr-end').innerText(), 'Calculated below');

    await calculate(page, { 'End value': '1,210', 'Growth rate per period': '10', Periods: '2' });
    await answer(page).getByText('1,000', { exact: true }).waitFor();
    assert.equal(params(page)['end'], '1210', 'the URL holds the plain number');

    await calculate(page, { 'Start value': '1000', 'End value': '2000', 'Growth rate per period': '7' });
    await answer(page).getByText('10.24', { exact: true }).waitFor();

    // Dates instead of periods: calendar years between them.
    await calculate(page, { 'Start value': '100', 'End value': '200' });
    await page.getByRole('button', { name: 'Start and end dates' }).click();
    await field(page, 'Start date').fill('2020-01-01');
    await field(page, 'End date').fill('2025-01-01');
    await answer(page).getByText('14.87%').waitFor();
    assert.deepEqual(params(page), { start: '100', end: '200', by: 'dates', from: '2020-01-01', to: '2025-01-01' });
    // With the end date empty, the years are solved and the date they end on is given.
    await field(page, 'End date').fill('');
    await field(page, 'Growth rate per period').fill('10');
    await answer(page).getByText('7.27').waitFor();
    await answer(page).getByText(/until Apr \d+, 2027/).waitFor();
    await screenshots(page, 'cagr-dates');

    // Typed a key at a time, a decimal point survives the URL's plain number ("1." is 1 there).
    await page.getByRole('button', { name: 'Number of periods' }).click();
    await calculate(page, { 'Start value': '100', 'End value': '200' });
    await field(page, 'Periods').pressSequentially('2.5');
    assert.equal(await field(page, 'Periods').inputValue(), '2.5');
    await answer(page).getByText('31.95%').waitFor();
    assert.equal(params(page)['periods'], '2.5');

    // Back and forward bring each calculation's values back into the form.
    await page.goto(url('/cagr?start=1&end=4&periods=2'));
    await answer(page).getByText('100.00%').waitFor();
    await page.goBack();
    await answer(page).getByText('31.95%').waitFor();
    assert.equal(await field(page, 'Periods').inputValue(), '2.5');
    await page.goForward();
    await answer(page).getByText('100.00%').waitFor();
    assert.equal(await field(page, 'End value').inputValue(), '4');

    // The link reproduces the calculation, in the reader's own notation.
    const german = await browser.newPage({ locale: 'de-DE' });
    await german.goto(url('/cagr?start=1000.5&end=1210&periods=2'));
    await answer(german).waitFor();
    assert.match(await answer(german).innerText(), /^9,97\s?%$/);
    assert.equal(await field(german, 'Start value').inputValue(), '1000,5');
    await german.close();
    await page.close();
  });

  it('refuses impossible values with a message on the field', async () => {
    const page = await browser.newPage({ locale: 'en-US' });
    await page.goto(url('/cagr?start=-5&end=200&periods=5'));
    await helper(page, 'cagr-start').getByText('The start value must be above zero.').waitFor();
    await page.getByText('Correct the values marked above to see the result.').waitFor();
    assert.equal(await field(page, 'Start value').getAttribute('aria-invalid'), 'true');
    await screenshots(page, 'cagr-invalid');

    await calculate(page, { 'Start value': 'abc', 'End value': '200', Periods: '5' });
    await helper(page, 'cagr-start').getByText('Enter a number, e.g. 1250.5.').waitFor();
    assert.equal(params(page)['start'], 'abc', 'what is not a number stays in the link, so its reader sees the message too');

    await calculate(page, { 'Start value': '100', 'End value': '200', 'Growth rate per period': '-100' });
    await helper(page, 'cagr-rate').getByText('The growth rate must be above −100 %.').waitFor();

    await calculate(page, { 'Start value': '100', 'End value': '50', 'Growth rate per period': '5' });
    await helper(page, 'cagr-end').getByText('A positive rate only grows: the end value must be above the start value.').waitFor();

    await calculate(page, { 'Start value': '100', 'End value': '200', 'Growth rate per period': '5', Periods: '3' });
    await page.getByText('Leave one value empty: the calculator fills it in.').waitFor();

    await calculate(page, { 'Start value': '100' });
    await page.getByText('Fill in three of the four values: the calculator finds the one left empty.').waitFor();

    await page.getByRole('button', { name: 'Start and end dates' }).click();
    await calculate(page, { 'Start value': '100', 'End value': '200', 'Start date': '2024-05-01', 'End date': '2023-05-01' });
    await helper(page, 'cagr-to').getByText('The end date must be after the start date.').waitFor();
    await page.close();
  });

  it('checkout signs in with the returned token, drops it from the address and leads back', async () => {
    const token = await server.login(tenant, 'reader@pay.test');
    const page = await browser.newPage();
    await page.goto(url(`/checkout?token=${encodeURIComponent(token)}&next=${encodeURIComponent(`/library/${entryId}`)}`));
    await page.getByRole('heading', { name: 'Thank you for your payment' }).waitFor();
    await page.getByText('You are signed in as reader@pay.test.').waitFor();
    await page.getByTestId('access-level').filter({ hasText: 'paywall' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('token'), null, 'the token is gone from the address');
    assert.equal(new URL(page.url()).searchParams.get('next'), `/library/${entryId}`);
    assert.equal(await page.evaluate(() => history.length), 2, 'the entry with the token was replaced, not added to');
    await screenshots(page, 'checkout-signed-in');

    await page.getByRole('link', { name: 'Continue reading' }).click();
    await page.waitForURL((next) => next.pathname === `/library/${entryId}`);
    await page.getByRole('heading', { name: 'Deep Dive Report' }).waitFor();
    await page.close();
  });

  it('checkout refuses a bad token and any return address off the site', async () => {
    const page = await browser.newPage();
    await page.goto(url('/checkout?token=not-a-token&next=//evil.test/steal'));
    await page.getByText('This sign-in link has expired or is no longer valid.').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('token'), null);
    await page.getByTestId('access-level').filter({ hasText: 'public' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Go to the home page' }).getAttribute('href'), '/');
    await page.getByTestId('checkout').getByRole('link', { name: 'Login' }).waitFor();
    await screenshots(page, 'checkout-refused');
    await page.close();
  });

  it('a visitor is offered to unlock the locked counts; a signed-in reader is not', async () => {
    const page = await browser.newPage();
    await page.goto(url('/'));
    const offer = page.getByTestId('locked-offer');
    await offer.getByText('1 more note is locked').waitFor();
    await offer.getByText('Subscribe to read every note.').waitFor();
    assert.equal(await offer.getByRole('link', { name: 'Unlock' }).getAttribute('href'), 'https://pay.example.test/subscribe');
    await screenshots(page, 'unlock-offer-home');

    await page.goto(url('/library'));
    await page.getByTestId('locked-offer').getByText('1 more library entry is locked').waitFor();
    assert.equal(await page.getByTestId('locked-offer').getByRole('link', { name: 'Unlock' }).getAttribute('href'), 'https://pay.example.test/subscribe');
    await page.getByTestId('locked-offer').getByRole('link', { name: 'Login' }).click();
    await page.waitForURL((next) => next.pathname === '/login');
    await page.close();

    const reader = await browser.newPage();
    await openSignedIn(reader, url('/library'), 'reader@pay.test', 'paywall');
    await reader.getByRole('link', { name: 'Deep Dive Report' }).waitFor();
    assert.equal(await reader.getByTestId('locked-offer').count(), 0);
    await reader.close();
  });
});

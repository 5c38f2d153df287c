/**
 * Small things users notice at once (issue 12, point 5): the browser tab names the page, the
 * search chips leave the focus in the search box, the default tenant's header reads its name
 * once, detail pages hide empty fields and curators' flags, forms come in sections, phone
 * numbers read one way, the merge picker tells records apart, the launcher locks what a visitor
 * may not open — each done once in the shared shell and resource screens.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, screenshots, signInAt, openSignedIn, navigateInApp, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();

type Tenant = Awaited<ReturnType<E2EServer['createTenant']>>;

describe('polish: titles, search chips, header', { skip: unavailable ?? false }, () => {
  let demo: Tenant;
  let adminToken: string;
  const ids: Record<string, string> = {};

  const create = (path: string, payload: Record<string, unknown>) => server.create(demo, adminToken, path, payload);

  /** The document title once it settles on `expected`. */
  async function waitForTitle(page: Page, expected: string): Promise<void> {
    await page.waitForFunction((title) => document.title === title, expected, { timeout: 10_000 }).catch(async () => {
      assert.equal(await page.title(), expected);
    });
  }

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo' });
    await server.createTenant('default', { isDefault: true, name: 'intelnotes' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'reader@demo.test');
    adminToken = await server.login(demo, 'admin@demo.test');
    ids['acme'] = await create('assets/organizations', {
      name_inc: 'Acme Corp',
      visibility: 'public',
      show_on_dashboard: true,
      hq_city: 'Springfield',
      emails: ['info@acme.test'],
      // Typed three ways; shown one way.
      phones: ['+1 (212) 555-0100', '0044 20 7946 0958', '+33 1 42 68 53 00 ext 12'],
    });
    ids['acme2'] = await create('assets/organizations', { name_inc: 'Acme Corp', visibility: 'public', hq_city: 'Shelbyville', emails: ['sales@acme2.test'] });
  });

  it('names every page in the browser tab: record · section · tenant', async () => {
    // Moving between pages inside the app (navigateInApp), as a visitor does: one app start per user.
    const page = await browser.newPage();
    await page.goto(server.url('demo', `/organizations/${ids['acme']}`));
    await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor();
    await waitForTitle(page, 'Acme Corp · Organizations · Demo');

    await navigateInApp(page, server.url('demo', '/organizations?tab=1'));
    await waitForTitle(page, 'Organizations · Demo');
    await navigateInApp(page, server.url('demo', '/'));
    await waitForTitle(page, 'Demo');
    await navigateInApp(page, server.url('demo', '/no/such/page'));
    await waitForTitle(page, "Oops, we can't find a pulse... · Demo");
    await navigateInApp(page, server.url('demo', `/organizations/00000000-0000-4000-8000-000000000000`));
    await waitForTitle(page, 'Organization not found · Organizations · Demo');

    await openSignedIn(page, server.url('demo', `/organizations/${ids['acme']}/edit`), 'admin@demo.test', 'admin');
    await waitForTitle(page, 'Edit Acme Corp · Organizations · Demo');
    await navigateInApp(page, server.url('demo', '/people/create'));
    await waitForTitle(page, 'New person · People · Demo');
    await navigateInApp(page, server.url('demo', '/settings'));
    await waitForTitle(page, 'Settings · Demo');
    await page.close();
  });

  it('detail pages hide empty fields until asked and never show curators\' flags to readers', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('demo', `/organizations/${ids['acme']}`));
    await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor();
    const field = (name: string) => page.locator(`dd[data-field="${name}"]`);
    assert.equal(await field('name_inc').innerText(), 'Acme Corp');
    assert.equal(await field('notes').count(), 0, 'an empty field is hidden');
    assert.equal(await field('show_on_dashboard').count(), 0, 'a curators\' flag is not for readers');
    const toggle = page.getByRole('switch', { name: /Show empty fields/ });
    await toggle.check();
    await field('notes').getByText('Not set').waitFor();
    assert.equal(await field('show_on_dashboard').count(), 0, 'not even among the empty fields');
    await screenshots(page, 'polish-detail-empty-fields');

    // Writers curate: they see the flags.
    await openSignedIn(page, server.url('demo', `/organizations/${ids['acme']}`), 'admin@demo.test', 'admin');
    await field('show_on_dashboard').waitFor();
    assert.equal(await field('show_on_dashboard').innerText(), 'Yes');

    // Forms are grouped into sections, visibility and sharing last; every date has the same boxes.
    await page.goto(server.url('demo', '/people/create'));
    const form = page.getByRole('form', { name: 'New person' });
    await form.getByRole('heading', { level: 2, name: 'Identity' }).waitFor();
    assert.deepEqual(await form.getByRole('heading', { level: 2 }).allInnerTexts(), ['Identity', 'Contact', 'Dates', 'Details', 'Visibility and sharing']);
    const dates = form.locator('section[data-section="dates"]');
    for (const name of ['Birth date', 'Date met']) {
      const group = dates.getByRole('group', { name });
      await group.getByLabel('Year').waitFor();
      await group.getByRole('combobox', { name: 'Month' }).waitFor();
      await group.getByRole('combobox', { name: 'Day' }).waitFor();
    }
    assert.equal(await form.locator('section[data-section="sharing"]').getByLabel('Favourite').count(), 1);
    await screenshots(page, 'polish-form-sections');
    await page.close();
  });

  it('phone numbers read in one international format; the merge picker offers only other records, told apart', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, server.url('demo', `/organizations/${ids['acme']}`), 'admin@demo.test', 'admin');
    const phones = page.locator('dd[data-field="phones"] a');
    await phones.first().waitFor();
    assert.deepEqual(await phones.allInnerTexts(), ['+1 212 555 0100', '+44 20 7946 0958', '+33 1 42 68 53 00 ext. 12']);
    assert.equal(await phones.first().getAttribute('href'), 'tel:+12125550100');

    await page.getByRole('button', { name: 'Merge duplicate' }).click();
    const dialog = page.getByRole('dialog', { name: /Merge a duplicate/ });
    await dialog.getByLabel('Duplicate organization').fill('Acme');
    const options = page.getByRole('listbox').getByRole('option');
    await options.first().waitFor();
    // Two records are called Acme Corp: only the other one is offered, with its city and email.
    assert.equal(await options.count(), 1);
    assert.equal(await options.first().getAttribute('aria-label'), 'Acme Corp');
    assert.equal(await options.first().getByTestId('option-detail').innerText(), 'Shelbyville · sales@acme2.test');
    await screenshots(page, 'polish-merge-picker', { viewportOnly: true });
    await page.close();
  });

  it('the launcher locks what a visitor may not open; Intelbooks goes to one place from everywhere', async () => {
    const page = await browser.newPage();
    await signInAt(page, server.url('demo', '/login'), 'reader@demo.test', 'paywall');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    const launcher = menu.getByRole('navigation', { name: 'Launcher' });
    await launcher.waitFor();
    const locked = async (label: string) => {
      const entry = launcher.getByRole('button', { name: new RegExp(`^${label}`) });
      assert.equal(await entry.getAttribute('data-locked'), 'true', label);
      assert.equal(await entry.getAttribute('aria-disabled'), 'true', label);
      return entry.innerText();
    };
    assert.match(await locked('Users'), /For admins/);
    assert.match(await locked('Raw data'), /For research and admin users/);
    await locked('URLs');
    assert.equal(await launcher.getByRole('link', { name: 'Users' }).count(), 0, 'no link to "Access denied"');
    // Public pages stay links, and the intelbooks entry leads where the tab and the card do.
    await launcher.getByRole('link', { name: 'Keywords' }).waitFor();
    assert.equal(await launcher.getByRole('link', { name: 'Intelbooks' }).getAttribute('href'), '/facts/view');
    await screenshots(page, 'polish-launcher-locked', { viewportOnly: true });
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await menu.waitFor({ state: 'hidden' });
    await page.goto(server.url('demo', '/'));
    await page.getByTestId('home-card-intelbooks').waitFor();
    assert.equal(await page.getByTestId('nav-tabs').getByRole('tab', { name: 'Intelbooks' }).getAttribute('href'), '/facts/view');
    assert.equal(await page.getByTestId('home-card-intelbooks').getByRole('link').first().getAttribute('href'), '/facts/view');
    await page.close();
  });

  it('a search chip keeps the focus in the search box', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('demo', '/'));
    await page.getByRole('button', { name: 'Search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    const box = dialog.getByRole('combobox', { name: 'Search' });
    await box.fill('acm');
    const chip = dialog.getByRole('group', { name: 'Filter results by type' }).getByRole('button', { name: 'Organizations' });
    await chip.click();
    assert.equal(await chip.getAttribute('aria-pressed'), 'true');
    assert.equal(await box.evaluate((element) => element === document.activeElement), true, 'the search box still has the focus');
    // Typing goes on where it left off.
    await page.keyboard.type('e');
    assert.equal(await box.inputValue(), 'acme');
    await dialog.getByRole('option', { name: /Acme Corp/ }).first().waitFor();
    await chip.click();
    assert.equal(await chip.getAttribute('aria-pressed'), 'false');
    assert.equal(await box.evaluate((element) => element === document.activeElement), true);
    await screenshots(page, 'polish-search-chip', { viewportOnly: true });
    await page.close();
  });

  it("the default tenant's header reads its name once", async () => {
    const page = await browser.newPage();
    await page.goto(server.url(null, '/'));
    await page.getByRole('link', { name: 'intelnotes home' }).waitFor();
    await page.getByRole('link', { name: /Login/ }).first().waitFor();
    assert.equal(await page.getByTestId('tenant-name').count(), 0, 'the name "intelnotes" is the wordmark already');
    const header = await page.locator('header').innerText();
    assert.equal(header.match(/intelnotes/g)?.length, 1 + (header.match(/intelnotes's/g)?.length ?? 0), header);
    await screenshots(page, 'polish-default-header');
    // Another tenant's name stands beside the wordmark.
    await page.goto(server.url('demo', '/'));
    await page.getByTestId('tenant-name').filter({ hasText: 'Demo' }).waitFor();
    await page.close();
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, screenshot, type E2EServer, signInAt, openSignedIn } from './support/browser.ts';

const unavailable = browserUnavailable();

type Tenant = Awaited<ReturnType<E2EServer['createTenant']>>;

describe('the application shell', { skip: unavailable ?? false }, () => {
  let acme: Tenant;
  const organizationIds: Record<string, string> = {};

  /** Signs in through the login page and waits for the header to show the access level. */
  const signIn = (page: Page, tenantCode: string | null, email: string, level: string) => signInAt(page, server.url(tenantCode, '/login'), email, level);

  /** Waits for the open/close transitions inside the page to finish, for screenshots. */
  async function settled(page: Page): Promise<void> {
    // A cancelled animation rejects its promise; only the end of each one matters here.
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((animation) => animation.finished)));
  }

  const { server, browser } = useServerAndBrowser(async () => {
    acme = await server.createTenant('acme', { name: 'Acme Research' });
    const main = await server.createTenant('default', { isDefault: true, name: 'intelnotes' });
    await server.createUser(acme, 'admin@acme.test', { is_admin: true });
    await server.createUser(acme, 'researcher@acme.test', { is_research: true });
    await server.createUser(acme, 'reader@acme.test');
    await server.createUser(main, 'admin@main.test', { is_admin: true });
    const token = await server.login(acme, 'researcher@acme.test');
    for (const [name, visibility] of [
      ['Zephyr Analytics', 'public'],
      ['Borealis Capital', 'public'],
      ['Paywalled Holdings', 'paywalled'],
      ['Hidden Ventures', 'hidden'],
    ] as const) {
      organizationIds[name] = await server.create(acme, token, 'assets/organizations', { name_dba: name, visibility });
    }
  });

  it('a visitor sees public counts with the paywalled ones behind a lock', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('acme'));
    const organizations = page.getByTestId('home-card-organizations');
    await organizations.getByTestId('paywall-lock').waitFor();
    const shown = await organizations.getByTestId('entity-count').locator('[aria-hidden="true"]').first().innerText();
    assert.match(shown.replace(/\s+/g, ' '), /^2 \| 1$/);
    // No list exists yet: the lists card shows a dash.
    assert.match(await page.getByTestId('home-card-lists').getByTestId('entity-count').innerText(), /^—/);
    await page.getByText("Login to read Acme Research's intel notes").first().waitFor();
    // The footer: year, version, open-data link, the invitation to run an instance.
    const footer = page.locator('footer');
    await footer.getByText(`© ${new Date().getFullYear()}`).waitFor();
    assert.equal(await footer.getByTestId('app-version').innerText(), 'v1.0.0');
    assert.equal(
      await footer.getByRole('link', { name: 'Open data' }).getAttribute('href'),
      'https://opendata.intelnotes.org',
    );
    await footer.getByText('Want intel notes for your own team?').waitFor();
    await footer.getByRole('link', { name: 'Set up your own instance.' }).waitFor();
    await screenshot(page, 'shell-home-signed-out');

    await page.getByTestId('home-card-organizations').click();
    await page.waitForURL((url) => url.pathname === '/organizations');
    await page.close();
  });

  it('a signed-in admin sees totals including hidden items', async () => {
    const page = await browser.newPage();
    await signIn(page, 'acme', 'admin@acme.test', 'admin');
    const count = page.getByTestId('home-card-organizations').getByTestId('entity-count');
    await count.filter({ hasText: '4' }).waitFor();
    assert.equal(await page.getByTestId('home-card-organizations').getByTestId('paywall-lock').count(), 0);
    await screenshot(page, 'shell-home-signed-in');
    await page.close();
  });

  it('Cmd+F and Ctrl+F open the search dialog; typing finds a public organization; Enter searches', async () => {
    const page = await browser.newPage();
    // The page's timers run on Playwright's clock (flowing like real time until paused), so
    // the typing pause below is exact however slow the machine is.
    await page.clock.install();
    await page.goto(server.url('acme'));
    await page.getByTestId('home-card-organizations').getByTestId('entity-count').waitFor();
    const searchCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/search/') searchCalls.push(request.url());
    });

    await page.keyboard.press('Meta+F');
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.keyboard.press('Control+F');
    await dialog.waitFor();
    const input = dialog.getByPlaceholder('Type for quick search, enter for advanced search');
    assert.ok(await input.evaluate((element) => element === document.activeElement), 'the search box has the focus');
    // Without text: shortcuts with counts, the admin-only ones hidden from a visitor.
    const shortcuts = dialog.getByRole('listbox', { name: 'Shortcuts' });
    await shortcuts.getByRole('option', { name: /Organizations/ }).waitFor();
    assert.equal(await shortcuts.getByRole('option', { name: /RawData/ }).count(), 0);
    assert.equal(await shortcuts.getByRole('option', { name: /Emails/ }).count(), 0);
    await settled(page);
    await screenshot(page, 'shell-search-dialog');

    // Typing in bursts sends one request, after the pause. The clock stands still while keys
    // are pressed and moves only as the test says: 300 ms between the bursts (under the
    // 500 ms search pause), then past the pause.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await input.pressSequentially('zeph');
    await page.clock.runFor(300);
    await input.pressSequentially('yr');
    assert.equal(searchCalls.length, 0, 'nothing is sent while typing');
    await page.clock.runFor(600);
    await page.clock.resume();
    const hit = dialog.getByRole('option', { name: /Zephyr Analytics/ });
    await hit.waitFor();
    assert.equal(searchCalls.length, 1, searchCalls.join('\n'));
    assert.equal(new URL(searchCalls[0]!).searchParams.get('q'), 'zephyr');
    await settled(page);
    await screenshot(page, 'shell-search-results');

    // A filter chip of another type hides the result; clearing it brings it back.
    await dialog.getByRole('button', { name: 'People' }).click();
    await dialog.getByText('No results found.').waitFor();
    await dialog.getByRole('button', { name: 'People' }).click();
    await hit.waitFor();
    // The Keywords chip asks the API for keywords too (they are not among the default result types).
    const keywordSearch = page.waitForRequest((request) => new URL(request.url()).searchParams.get('type') === 'Keyword');
    await dialog.getByRole('button', { name: 'Keywords' }).click();
    await keywordSearch;
    await dialog.getByText('No results found.').waitFor();
    await dialog.getByRole('button', { name: 'Keywords' }).click();
    await hit.waitFor();

    // Arrow keys move through the results; Enter opens the selected one.
    await input.press('ArrowDown');
    assert.equal(await hit.getAttribute('aria-selected'), 'true');
    await input.press('Enter');
    await page.waitForURL((url) => url.pathname === `/organizations/${organizationIds['Zephyr Analytics']}`);
    await dialog.waitFor({ state: 'hidden' });

    // Enter with nothing selected goes to the advanced search.
    await page.keyboard.press('Control+F');
    await input.fill('zephyr');
    await input.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'zephyr');
    await page.getByRole('heading', { name: /Organizations/ }).waitFor();
    await page.getByRole('link', { name: 'Zephyr Analytics' }).waitFor();
    await screenshot(page, 'shell-search-page');

    // A visitor cannot find a paywalled organization.
    await page.keyboard.press('Control+F');
    await input.fill('Paywalled Holdings');
    await dialog.getByText('No results found.').waitFor();
    await dialog.getByRole('button', { name: 'Clear search' }).click();
    assert.equal(await input.inputValue(), '');
    await dialog.getByRole('button', { name: 'Ask to Operator' }).click();
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('tab') === '1');
    await page.getByRole('textbox', { name: 'Ask a question' }).waitFor();
    await page.close();
  });

  it('a 401 in the middle of a session signs out and lands on /login', async () => {
    const page = await browser.newPage();
    await signIn(page, 'acme', 'reader@acme.test', 'paywall');
    const token = await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('persist:intelnotes') ?? '{}') as { session?: string };
      return (JSON.parse(stored.session ?? '{}') as { token?: string }).token ?? null;
    });
    assert.ok(token, 'the session token is persisted');
    const revoked = await server.request(acme, { method: 'POST', url: '/api/v1/auth/logout/', token });
    assert.equal(revoked.statusCode, 204);

    await page.keyboard.press('Control+F');
    await page.getByPlaceholder('Type for quick search, enter for advanced search').fill('zephyr');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByTestId('access-level').filter({ hasText: 'public' }).waitFor();
    await page.getByText('Your session has expired. Please sign in again.').first().waitFor();
    const storedToken = await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('persist:intelnotes') ?? '{}') as { session?: string };
      return (JSON.parse(stored.session ?? '{}') as { token?: string | null }).token ?? null;
    });
    assert.equal(storedToken, null);
    await page.close();
  });

  it('an unknown tenant shows the 404 page', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('nosuchtenant', '/organizations'));
    await page.getByText("Oops, we can't find a pulse...").waitFor();
    assert.equal(await page.getByTestId('nav-tabs').count(), 0);
    await page.close();
  });

  it('unknown paths show the 404 page; /cagr and /operator are built', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('acme', '/no/such/page'));
    await page.getByText("Oops, we can't find a pulse...").waitFor();
    await page.goto(server.url('acme', '/cagr'));
    await page.getByRole('heading', { name: 'CAGR calculator' }).waitFor();
    await page.goto(server.url('acme', '/operator'));
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('tab') === '1');
    await page.close();
  });

  it('tabs show from the md breakpoint up and are hidden on a 375 px phone', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 812 } });
    await phone.goto(server.url('acme'));
    await phone.getByTestId('home-card-organizations').getByTestId('paywall-lock').waitFor();
    assert.equal(await phone.getByTestId('nav-tabs').isVisible(), false);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
    await screenshot(phone, 'shell-home-375');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('dialog', { name: 'Menu' }).waitFor();
    await settled(phone);
    await screenshot(phone, 'shell-menu-375');
    await phone.close();

    const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await desktop.goto(server.url('acme', '/organizations'));
    const tabs = desktop.getByTestId('nav-tabs');
    await tabs.waitFor();
    assert.equal(await tabs.getByRole('tab', { name: 'Organizations' }).getAttribute('aria-selected'), 'true');
    await desktop.close();
  });

  it('admin-only tabs are hidden from visitors and readers and shown to admins', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('acme'));
    const tabs = page.getByTestId('nav-tabs');
    await tabs.getByRole('tab', { name: 'Keywords' }).waitFor();
    const labels = async () => (await tabs.getByRole('tab').allInnerTexts()).map((label) => label.trim());
    assert.deepEqual(await labels(), ['Keywords', 'People', 'Organizations', 'Ledger', 'Library', 'Lists', 'Intelbooks']);

    await signIn(page, 'acme', 'reader@acme.test', 'paywall');
    assert.deepEqual(await labels(), ['Keywords', 'People', 'Organizations', 'Ledger', 'Library', 'Lists', 'Intelbooks']);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByTestId('access-level').filter({ hasText: 'public' }).waitFor();

    await signIn(page, 'acme', 'admin@acme.test', 'admin');
    await tabs.getByRole('tab', { name: 'Raw Data' }).waitFor();
    assert.deepEqual(await labels(), [
      'Raw Data',
      'Keywords',
      'Emails',
      'People',
      'Organizations',
      'Ledger',
      'Library',
      'Lists',
      'Intelbooks',
    ]);
    assert.equal(await tabs.getByRole('tab', { name: 'Raw Data' }).getAttribute('href'), '/rawdata?tab=1');
    assert.equal(await tabs.getByRole('tab', { name: 'Intelbooks' }).getAttribute('href'), '/facts/view');

    // Clicking the active tab reloads the page: it navigates to the tab and fetches afresh.
    await tabs.getByRole('tab', { name: 'Organizations' }).click();
    await page.waitForURL((url) => url.pathname === '/organizations' && url.searchParams.get('tab') === '1');
    const refetched = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/api/v1/'));
    await tabs.getByRole('tab', { name: 'Organizations' }).click();
    await refetched;
    await page.close();
  });

  it('the menu shows the account, admin shortcuts and the launcher', async () => {
    const page = await browser.newPage();
    await signIn(page, 'acme', 'admin@acme.test', 'admin');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    await menu.getByText('admin@acme.test').waitFor();
    await menu.getByRole('button', { name: 'Quick collection' }).waitFor();
    await menu.getByRole('button', { name: 'Settings' }).waitFor();
    await menu.getByRole('button', { name: 'Logout' }).waitFor();
    for (const group of ['Collection', 'Processing', 'Sharing', 'Other']) {
      await menu.getByRole('heading', { name: group }).waitFor();
    }
    assert.equal(await menu.getByRole('link', { name: 'Tenants' }).count(), 0, 'acme admins do not manage tenants');
    assert.equal(await menu.getByRole('button', { name: /Prompts/ }).getAttribute('aria-disabled'), 'true');
    assert.equal(await menu.getByRole('link', { name: /Contact us/ }).getAttribute('href'), 'https://t.me/intelnotes');
    await settled(page);
    await screenshot(page, 'shell-menu-open');

    await menu.getByRole('link', { name: 'Organizations lists' }).click();
    await page.waitForURL((url) => url.pathname === '/lists' && url.searchParams.get('type') === 'OrganizationsList');
    await menu.waitFor({ state: 'hidden' });

    // On /lists the page index is dropped before going on.
    await page.goto(server.url('acme', '/lists?tab=1&offset=50&page=2'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'People', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/people');
    await menu.waitFor({ state: 'hidden' });
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/lists');
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('offset'), null);
    assert.equal(back.searchParams.get('page'), null);
    assert.equal(back.searchParams.get('tab'), '1');

    // /menu/ shows the menu as a page.
    await page.goto(server.url('acme', '/menu/'));
    await page.getByRole('heading', { name: 'Menu', level: 1 }).waitFor();
    await page.close();
  });

  it('admins of the default tenant get the Tenants entry; visitors an Unlock button', async () => {
    const page = await browser.newPage();
    await page.goto(server.url(null));
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.getByRole('button', { name: 'Unlock' }).waitFor();
    assert.equal(await menu.getByRole('button', { name: 'Settings' }).count(), 0);
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await menu.waitFor({ state: 'hidden' });

    await signIn(page, null, 'admin@main.test', 'admin');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Tenants' }).click();
    await page.waitForURL((url) => url.pathname === '/clients/');
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    await page.close();
  });

  it('route guards: sign-in for visitors, access denied for lower levels', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('acme', '/organizations/create'));
    await page.waitForURL((url) => url.pathname === '/login');

    // Signing in is sign-in.test.ts's (and this file's 401 and tab tests'): opened signed in.
    await openSignedIn(page, server.url('acme', '/organizations/create'), 'reader@acme.test', 'paywall');
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await screenshot(page, 'shell-access-denied');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByTestId('access-level').filter({ hasText: 'public' }).waitFor();

    // Signing in from a guarded page returns to it.
    await page.goto(server.url('acme', '/settings'));
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email', { exact: true }).fill('researcher@acme.test');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    // Raw data is research material: a researcher opens its list.
    await page.goto(server.url('acme', '/rawdata'));
    await page.getByRole('heading', { name: 'Raw data' }).first().waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Access denied' }).count(), 0);
    await page.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

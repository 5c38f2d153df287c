import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Request } from 'playwright-core';
import { browserUnavailable, launchBrowser, startServer, type E2EServer, signInAt, DESKTOP, screenshots } from './support/browser.ts';

const unavailable = browserUnavailable();

const PASSWORD = 'correct horse battery staple';

type Tenant = Awaited<ReturnType<E2EServer['createTenant']>>;

describe('admin screens: users, tenants and settings', { skip: unavailable ?? false }, () => {
  let server: E2EServer;
  let browser: Browser;
  let demo: Tenant;

  before(async () => {
    server = await startServer();
    const main = await server.createTenant('default', { isDefault: true, name: 'intelnotes' });
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    const brand = await server.createTenant('brand', { name: 'Brand' });
    await server.createUser(main, 'admin@main.test', { is_admin: true });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'reader@demo.test');
    await server.createUser(brand, 'admin@brand.test', { is_admin: true });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Signs in through the login page and waits for the menu button of the signed-in shell. */
  const signIn = (page: Page, tenantCode: string | null, email: string) => signInAt(page, server.url(tenantCode, '/login'), email, undefined, PASSWORD);

  /** The error shown under a form field. */
  const fieldError = (page: Page, text: string) => page.locator('.MuiFormHelperText-root.Mui-error').filter({ hasText: text });

  const signInStatus = async (tenant: Tenant | string, email: string, password: string) => {
    const response = await server.request(tenant, { method: 'POST', url: '/api/v1/auth/login/', payload: { email, password } });
    return { status: response.statusCode, code: (response.json() as { code?: string }).code };
  };

  it('an admin creates a user, finds it in the list, edits it and disables it', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'demo', 'admin@demo.test');
    await page.goto(server.url('demo', '/users'));
    const grid = page.getByRole('grid', { name: 'Users' });
    await grid.getByRole('link', { name: 'admin@demo.test' }).waitFor();

    await page.getByRole('link', { name: 'New user' }).click();
    await page.getByRole('heading', { name: 'New user' }).waitFor();
    // One answer of the API names every field at fault, and the form marks each of them.
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel(/^Password/).fill('short');
    const refused = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/v1/users/');
    await page.getByRole('button', { name: 'Create user' }).click();
    assert.deepEqual(Object.keys(((await (await refused).json()) as { errors: object }).errors).sort(), ['email', 'password']);
    await fieldError(page, 'Enter a valid email address.').waitFor();
    await fieldError(page, 'Use at least 10 characters.').waitFor();
    assert.equal(await page.getByTestId('form-errors').getByRole('listitem').count(), 2, 'the summary lists both');
    // An email already in use comes back as an error under the field.
    await page.getByLabel('Email').fill('Admin@demo.test');
    await page.getByLabel(/^Password/).fill('analyst password 1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByTestId('form-errors').waitFor();
    await fieldError(page, 'A user with this email already exists.').waitFor();
    await screenshots(page, 'admin-user-form-errors', { hideToasts: true });

    await page.getByLabel('Email').fill('analyst@demo.test');
    await page.getByLabel('Alias').fill('Ana');
    await page.getByLabel('Research', { exact: true }).check();
    await screenshots(page, 'admin-user-form', { hideToasts: true });
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User “analyst@demo.test” created.').waitFor();
    await page.waitForURL((url) => url.pathname === '/users');
    const row = grid.getByRole('row').filter({ hasText: 'analyst@demo.test' });
    await row.getByText('Research', { exact: true }).waitFor();
    assert.equal((await signInStatus(demo, 'analyst@demo.test', 'analyst password 1')).status, 200);
    await screenshots(page, 'admin-users-list', { hideToasts: true });

    // Found by search; the search is kept in the URL.
    await page.getByLabel('Search users').fill('ana');
    await page.waitForURL(/search=ana/);
    await grid.getByRole('link', { name: 'admin@demo.test' }).waitFor({ state: 'detached' });
    await grid.getByRole('link', { name: 'analyst@demo.test' }).click();

    await page.getByRole('heading', { name: 'Edit analyst@demo.test' }).waitFor();
    await screenshots(page, 'admin-user-edit', { hideToasts: true });
    await page.getByLabel('Alias').fill('Ana Lyst');
    await page.getByLabel('Admin', { exact: true }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('User “analyst@demo.test” saved.').waitFor();
    await page.waitForURL((url) => url.pathname === '/users');
    await grid.getByRole('row').filter({ hasText: 'Ana Lyst' }).getByText('Admin', { exact: true }).waitFor();

    // A new password set by the admin signs the user out and replaces the old one.
    await grid.getByRole('link', { name: 'analyst@demo.test' }).click();
    await page.getByRole('heading', { name: 'Edit analyst@demo.test' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await fieldError(page, 'Use at least 10 characters.').waitFor();
    await page.getByLabel('New password').fill('a fresh password 2');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password of “analyst@demo.test” changed.', { exact: false }).waitFor();
    assert.equal((await signInStatus(demo, 'analyst@demo.test', 'a fresh password 2')).status, 200);

    await page.getByLabel('Disabled', { exact: true }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The toast of the first save may still be on screen (toasts stay 5 s).
    await page.getByText('User “analyst@demo.test” saved.').last().waitFor();
    await page.waitForURL((url) => url.pathname === '/users');
    await grid.getByRole('row').filter({ hasText: 'analyst@demo.test' }).getByTestId('user-status').filter({ hasText: 'Disabled' }).waitFor();
    assert.deepEqual(await signInStatus(demo, 'analyst@demo.test', 'a fresh password 2'), { status: 401, code: 'account_disabled' });

    // The status filter is a bookmarkable URL.
    await page.goto(server.url('demo', '/users?disabled=true'));
    await grid.getByRole('link', { name: 'analyst@demo.test' }).waitFor();
    await grid.getByRole('link', { name: 'admin@demo.test' }).waitFor({ state: 'detached' });

    // Admins cannot lock themselves out.
    await page.goto(server.url('demo', '/users'));
    await grid.getByRole('link', { name: 'admin@demo.test' }).click();
    await page.getByRole('heading', { name: 'Edit admin@demo.test' }).waitFor();
    assert.equal(await page.getByLabel('Admin', { exact: true }).isDisabled(), true);
    assert.equal(await page.getByLabel('Disabled', { exact: true }).isDisabled(), true);
    await page.getByText('You cannot remove your own admin access.').waitFor();
    await context.close();
  });

  it('a tenant manager creates, edits and deletes a tenant, typing its code to confirm', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, null, 'admin@main.test');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Tenants' }).click();
    const grid = page.getByRole('grid', { name: 'Tenants' });
    await grid.getByRole('link', { name: 'demo', exact: true }).waitFor();
    await screenshots(page, 'admin-tenants-list', { hideToasts: true });

    await page.getByRole('link', { name: 'New tenant' }).click();
    await page.getByRole('heading', { name: 'New tenant' }).waitFor();
    // Sent empty, the form flags every required field in one round, and sends nothing.
    const sent: string[] = [];
    const onRequest = (request: Request) => {
      if (request.method() === 'POST') sent.push(request.url());
    };
    page.on('request', onRequest);
    await page.getByRole('button', { name: 'Create tenant' }).click();
    const required = [
      'Choose the tenant’s code (its address).',
      'This field is required.',
      'A new tenant needs its first admin to be usable.',
      'Choose the first admin’s password.',
    ];
    for (const message of required) await fieldError(page, message).waitFor();
    const summary = page.getByTestId('form-errors');
    assert.equal(await summary.getByRole('listitem').count(), required.length, 'the summary lists them all');
    // The focus goes to the first of them.
    await page.waitForFunction((id) => document.activeElement?.id === id, await page.getByLabel('Code').getAttribute('id'));
    await screenshots(page, 'admin-tenant-form-required', { hideToasts: true });
    page.off('request', onRequest);
    assert.deepEqual(sent, [], 'nothing is sent while required fields are empty');
    await page.getByLabel('Code').fill('WWW');
    assert.equal(await page.getByLabel('Code').inputValue(), 'www', 'the code is lower-cased as typed');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme Labs');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    // The form asks for the first admin before calling the API.
    await fieldError(page, 'A new tenant needs its first admin to be usable.').waitFor();
    await page.getByLabel('First admin email').fill('owner');
    await page.getByLabel('First admin password').fill('short');
    // The API's one answer names every field at fault, and the form marks them all.
    const refused = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/v1/clients/');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    assert.deepEqual(Object.keys(((await (await refused).json()) as { errors: object }).errors).sort(), ['admin_email', 'admin_password', 'code']);
    await fieldError(page, 'This code is reserved.').waitFor();
    await fieldError(page, 'Enter a valid email address.').waitFor();
    await fieldError(page, 'Use at least 10 characters.').waitFor();
    assert.equal(await summary.getByRole('listitem').count(), 3, 'the summary lists all three');
    await screenshots(page, 'admin-tenant-form-errors', { hideToasts: true });
    await page.getByLabel('First admin email').fill('owner@acme-labs.test');
    await page.getByLabel('First admin password').fill('owner password 1');

    await page.getByLabel('Code').fill('acme-labs');
    await page.getByText(/Address: acme-labs\.localhost:\d+/).waitFor();
    await page.getByLabel('Payment access link').fill('acme-labs.example/subscribe');
    await page.getByLabel('Payment access message').fill('Subscribe to read the paywalled notes.');
    await screenshots(page, 'admin-tenant-form', { hideToasts: true });
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByText(/Tenant “Acme Labs” created at acme-labs\.localhost:\d+\./).waitFor();
    await page.waitForURL((url) => url.pathname === '/clients');
    await grid.getByRole('link', { name: 'acme-labs', exact: true }).waitFor();
    assert.equal((await signInStatus('acme-labs', 'owner@acme-labs.test', 'owner password 1')).status, 200);

    await grid.getByRole('link', { name: 'acme-labs', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Acme Labs' }).waitFor();
    assert.equal(await page.getByLabel('Payment access link').inputValue(), 'https://acme-labs.example/subscribe');
    assert.equal(await page.getByLabel('Code').isDisabled(), true);
    await screenshots(page, 'admin-tenant-edit', { hideToasts: true });
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Acme Laboratories');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Tenant “Acme Laboratories” saved.').waitFor();
    await grid.getByRole('row').filter({ hasText: 'Acme Laboratories' }).waitFor();

    // The public tenant info of the new host follows at once.
    const tenantPage = await context.newPage();
    await tenantPage.goto(server.url('acme-labs', '/'));
    await tenantPage.getByTestId('tenant-name').filter({ hasText: 'Acme Laboratories' }).waitFor();

    await grid.getByRole('link', { name: 'acme-labs', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Acme Laboratories' }).waitFor();
    await page.getByRole('button', { name: 'Delete tenant' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete Acme Laboratories?' });
    const confirm = dialog.getByRole('button', { name: 'Delete tenant and all its data' });
    assert.equal(await confirm.isDisabled(), true, 'nothing can be deleted before the code is typed');
    await dialog.getByLabel('Type acme-labs to confirm').fill('acme');
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Type acme-labs to confirm').fill('acme-labs');
    await screenshots(page, 'admin-tenant-delete-dialog', { viewportOnly: true, hideToasts: true });
    await confirm.click();
    await page.getByText(/Tenant “Acme Laboratories” deleted: removed .*users?/).waitFor();
    await page.waitForURL((url) => url.pathname === '/clients');
    await grid.getByRole('link', { name: 'demo', exact: true }).waitFor();
    assert.equal(await grid.getByRole('link', { name: 'acme-labs', exact: true }).count(), 0);

    await tenantPage.reload();
    await tenantPage.getByText('There is no workspace at this address.').waitFor();
    assert.equal((await signInStatus('demo', 'admin@demo.test', PASSWORD)).status, 200, 'other tenants are untouched');

    // The default tenant cannot be deleted.
    await grid.getByRole('link', { name: 'default', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit intelnotes' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete tenant' }).isDisabled(), true);
    await page.getByText('The default tenant cannot be deleted.').waitFor();
    await context.close();
  });

  it("an admin changes the settings from the menu and sees the header and footer follow", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'brand', 'admin@brand.test');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/settings');
    await page.getByRole('textbox', { name: 'Workspace name' }).waitFor();
    await screenshots(page, 'admin-settings', { hideToasts: true });

    await page.getByRole('textbox', { name: 'Open-data link' }).fill('not a link');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await fieldError(page, 'Enter a valid web address.').waitFor();
    await screenshots(page, 'admin-settings-errors', { hideToasts: true });

    await page.getByRole('textbox', { name: 'Open-data link' }).fill('data.brand.example');
    await page.getByRole('textbox', { name: 'Workspace name' }).fill('Brand Intelligence');
    await page.getByLabel('Footer text').fill('Run by Brand Ltd · hello@brand.example');
    await page.getByLabel('Show the access level').uncheck();
    await page.getByLabel('Show the invitation to set up an instance').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    const footer = page.locator('footer');
    await page.getByTestId('tenant-name').filter({ hasText: 'Brand Intelligence' }).waitFor();
    await footer.getByTestId('footer-text').filter({ hasText: 'Run by Brand Ltd · hello@brand.example' }).waitFor();
    assert.equal(await page.getByTestId('access-level').count(), 0);
    assert.equal(await footer.getByText('Want intel notes for your own team?').count(), 0);
    assert.equal(await footer.getByRole('link', { name: 'Open data' }).getAttribute('href'), 'https://data.brand.example/');
    assert.equal(await page.getByRole('textbox', { name: 'Open-data link' }).inputValue(), 'https://data.brand.example/', 'the form shows what was saved');
    await screenshots(page, 'admin-settings-applied', { hideToasts: true });

    // Signed-out visitors get the same header and footer.
    const visitor = await browser.newContext({ viewport: DESKTOP });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(server.url('brand', '/'));
    await visitorPage.getByTestId('tenant-name').filter({ hasText: 'Brand Intelligence' }).waitFor();
    await visitorPage.locator('footer').getByTestId('footer-text').waitFor();
    assert.equal(await visitorPage.getByTestId('access-level').count(), 0);
    await visitorPage.getByRole('banner').getByRole('link', { name: "Login to read Brand Intelligence's intel notes" }).waitFor();

    // Hiding the name and the open-data link; the copyright and version stay.
    await page.getByLabel('Show the workspace name').uncheck();
    await page.getByLabel('Show the open-data link').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').last().waitFor();
    await page.getByTestId('tenant-name').waitFor({ state: 'detached' });
    assert.equal(await footer.getByRole('link', { name: 'Open data' }).count(), 0);
    await footer.getByTestId('app-version').waitFor();
    await visitorPage.reload();
    await visitorPage.locator('footer').getByTestId('footer-text').waitFor();
    assert.equal(await visitorPage.getByTestId('tenant-name').count(), 0);
    await visitor.close();
    await context.close();
  });

  it('route guards: paywall readers and admins of other tenants see access denied', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'demo', 'reader@demo.test');
    for (const pathname of ['/users', '/users/create', '/settings', '/clients']) {
      await page.goto(server.url('demo', pathname));
      await page.getByRole('heading', { name: 'Access denied' }).waitFor();
      assert.equal(await page.getByRole('grid').count(), 0, pathname);
    }
    await page.goto(server.url('demo', '/users'));
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await screenshots(page, 'admin-users-access-denied', { hideToasts: true });
    await context.close();

    const admin = await browser.newContext({ viewport: DESKTOP });
    const adminPage = await admin.newPage();
    await signIn(adminPage, 'demo', 'admin@demo.test');
    await adminPage.goto(server.url('demo', '/clients'));
    await adminPage.getByRole('heading', { name: 'Access denied' }).waitFor();
    await adminPage.getByText('admins of the main intelnotes workspace').waitFor();
    await admin.close();

    const visitor = await browser.newContext({ viewport: DESKTOP });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(server.url('demo', '/users'));
    await visitorPage.waitForURL((url) => url.pathname === '/login');
    await visitor.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

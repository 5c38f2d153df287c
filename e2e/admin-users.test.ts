import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserUnavailable, DESKTOP, screenshots, navigateInApp } from './support/browser.ts';
import { adminFixture } from './support/admin.ts';

const unavailable = browserUnavailable();

/** Admin screens, split by area (see support/admin.ts): users, and who may open the admin screens. */
describe('admin screens: users and route guards', { skip: unavailable ?? false }, () => {
  const { server, browser, signIn, fieldError, signInStatus } = adminFixture();

  it('an admin creates a user, finds it in the list, edits it and disables it', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'demo', 'admin@demo.test', '/users');
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
    assert.equal((await signInStatus('demo', 'analyst@demo.test', 'analyst password 1')).status, 200);
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
    assert.equal((await signInStatus('demo', 'analyst@demo.test', 'a fresh password 2')).status, 200);

    await page.getByLabel('Disabled', { exact: true }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The toast of the first save may still be on screen (toasts stay 5 s).
    await page.getByText('User “analyst@demo.test” saved.').last().waitFor();
    await page.waitForURL((url) => url.pathname === '/users');
    await grid.getByRole('row').filter({ hasText: 'analyst@demo.test' }).getByTestId('user-status').filter({ hasText: 'Disabled' }).waitFor();
    assert.deepEqual(await signInStatus('demo', 'analyst@demo.test', 'a fresh password 2'), { status: 401, code: 'account_disabled' });

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

  it('route guards: paywall readers and admins of other tenants see access denied', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'demo', 'reader@demo.test', '/users');
    for (const pathname of ['/users', '/users/create', '/settings', '/clients']) {
      await navigateInApp(page, server.url('demo', pathname));
      await page.getByRole('heading', { name: 'Access denied' }).waitFor();
      assert.equal(await page.getByRole('grid').count(), 0, pathname);
    }
    await page.goto(server.url('demo', '/users'));
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await screenshots(page, 'admin-users-access-denied', { hideToasts: true });
    await context.close();

    const admin = await browser.newContext({ viewport: DESKTOP });
    const adminPage = await admin.newPage();
    await signIn(adminPage, 'demo', 'admin@demo.test', '/clients');
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

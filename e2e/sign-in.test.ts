import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServerAndBrowser, browserUnavailable, screenshot } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('signing in on a tenant subdomain', { skip: unavailable ?? false }, () => {
  const { server, browser } = useServerAndBrowser(async () => {
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createTenant('default', { isDefault: true, name: 'intelnotes' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
  });

  it('shows the tenant name and invites a visitor to sign in', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('demo'));
    await page.getByTestId('tenant-name').filter({ hasText: 'Demo Research' }).waitFor();
    assert.equal(await page.getByTestId('access-level').innerText(), 'public');
    await page.getByText("Login to read Demo Research's intel notes").first().waitFor();
    await screenshot(page, 'home-signed-out');
    await page.close();
  });

  it('a wrong password shows the error; the right one signs in as admin', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('demo', '/login'));
    await page.getByLabel('Email', { exact: true }).fill('admin@demo.test');
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid email or password.').waitFor();
    await screenshot(page, 'login-error');

    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('access-level').filter({ hasText: 'admin' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await screenshot(page, 'home-signed-in');

    // The session survives a reload (persisted under the persist: prefix).
    await page.reload();
    await page.getByTestId('access-level').filter({ hasText: 'admin' }).waitFor();
    const keys = await page.evaluate(() => Object.keys(localStorage));
    assert.ok(keys.some((key) => key.startsWith('persist:')), keys.join(','));

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByTestId('access-level').filter({ hasText: 'public' }).waitFor();
    await page.close();
  });

  it('an unknown tenant shows the 404 page', async () => {
    const page = await browser.newPage();
    await page.goto(server.url('nosuchtenant'));
    await page.getByText("Oops, we can't find a pulse...").waitFor();
    await screenshot(page, 'unknown-tenant');
    await page.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

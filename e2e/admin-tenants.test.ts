import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Request } from 'playwright-core';
import { TEST_PASSWORD } from '@intelnotes/server/testing';
import { browserUnavailable, DESKTOP, screenshots } from './support/browser.ts';
import { adminFixture } from './support/admin.ts';

const unavailable = browserUnavailable();

/** Admin screens, split by area (see support/admin.ts): tenants, managed from the default tenant. */
describe('admin screens: tenants', { skip: unavailable ?? false }, () => {
  const { server, browser, signIn, fieldError, signInStatus } = adminFixture();

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
    assert.equal((await signInStatus('demo', 'admin@demo.test', TEST_PASSWORD)).status, 200, 'other tenants are untouched');

    // The default tenant cannot be deleted.
    await grid.getByRole('link', { name: 'default', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit intelnotes' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete tenant' }).isDisabled(), true);
    await page.getByText('The default tenant cannot be deleted.').waitFor();
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

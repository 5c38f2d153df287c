/**
 * The taxonomy browser tests' shared fixture (one server and browser per test file): tenants
 * `main` (default, with a tenant manager) and `demo` (admin, research, paywall reader), the
 * countries and regions, and the keywords Fintech and Payments.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedGeography } from '../../server/src/modules/geos/geo-seed.ts';
import { DESKTOP, launchBrowser, signInAt, startServer, type E2EServer } from './browser.ts';

/** Registers the fixture's before/after hooks in the calling suite and returns its helpers. */
export function taxonomyFixture() {
  let server!: E2EServer;
  let browser!: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    server = await startServer();
    const main = await server.createTenant('main', { isDefault: true, name: 'Main' });
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(main, 'manager@main.test', { is_admin: true });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    await server.createUser(demo, 'reader@demo.test');
    // Countries and regions; the cities take seconds and are not needed here.
    await seedGeography(server.db, { cities: false });
    const token = await server.login(demo, 'research@demo.test');
    for (const name of ['Fintech', 'Payments']) {
      const response = await server.request(demo, { method: 'POST', url: '/api/v1/keywords/', token, payload: { name } });
      assert.equal(response.statusCode, 201, response.body);
    }
    browser = await launchBrowser();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  return {
    url: (tenant: string | null, pathname?: string) => server.url(tenant, pathname),

    async newPage(): Promise<Page> {
      const context = await browser.newContext({ viewport: DESKTOP });
      contexts.push(context);
      return context.newPage();
    },

    signIn: (page: Page, tenant: string | null, email: string, level: string) => signInAt(page, server.url(tenant, '/login'), email, level),

    /** Types into a combobox and picks an option from its list. */
    async pick(page: Page, label: string, typed: string, option: string): Promise<void> {
      const input = page.getByRole('combobox', { name: label });
      await input.click();
      await input.pressSequentially(typed, { delay: 40 });
      await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
    },

    /** Deletes the record on the page, confirming, and waits for the toast. */
    async remove(page: Page, toast: string): Promise<void> {
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText(toast).waitFor();
    },

    grid: (page: Page, name: string) => page.getByRole('grid', { name }),
  };
}

/**
 * The taxonomy browser tests' shared fixture (one server and browser per test file, through
 * useServerAndBrowser): tenants `main` (default, with a tenant manager) and `demo` (admin,
 * research, paywall reader), the countries and regions, and the keywords Fintech and Payments.
 */
import type { Page } from 'playwright-core';
import { seedGeography } from '../../server/src/modules/geos/geo-seed.ts';
import { DESKTOP, openSignedIn, useServerAndBrowser } from './browser.ts';

/** Registers the fixture's before/after hooks in the calling suite and returns its helpers. */
export function taxonomyFixture() {
  const { server, browser } = useServerAndBrowser(async () => {
    const main = await server.createTenant('main', { isDefault: true, name: 'Main' });
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(main, 'manager@main.test', { is_admin: true });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    await server.createUser(demo, 'reader@demo.test');
    // Countries and regions; the cities take seconds and are not needed here.
    await seedGeography(server.db, { cities: false });
    const token = await server.login(demo, 'research@demo.test');
    for (const name of ['Fintech', 'Payments']) await server.create(demo, token, 'keywords', { name });
  });

  return {
    url: (tenant: string | null, pathname?: string) => server.url(tenant, pathname),

    /** A page in a context of its own (closed with the browser by the fixture's after hook). */
    async newPage(): Promise<Page> {
      const context = await browser.newContext({ viewport: DESKTOP });
      return context.newPage();
    },

    /**
     * Opens `pathname` (the home page by default) signed in, once the header shows `level`:
     * openSignedIn, no login page — signing in is sign-in.test.ts's.
     */
    signIn: (page: Page, tenant: string | null, email: string, level: string, pathname = '/') => openSignedIn(page, server.url(tenant, pathname), email, level),

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

/**
 * The admin browser tests' shared fixture (one server and browser per test file, through
 * useServerAndBrowser): the default tenant `default` (named intelnotes, with a tenant manager),
 * `demo` (an admin and a paywall reader) and `brand` (an admin), all with the test password.
 */
import type { Page } from 'playwright-core';
import { openSignedIn, useServerAndBrowser } from './browser.ts';

/** Registers the fixture's before/after hooks in the calling suite and returns its helpers. */
export function adminFixture() {
  const { server, browser } = useServerAndBrowser(async () => {
    const main = await server.createTenant('default', { isDefault: true, name: 'intelnotes' });
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    const brand = await server.createTenant('brand', { name: 'Brand' });
    await server.createUser(main, 'admin@main.test', { is_admin: true });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'reader@demo.test');
    await server.createUser(brand, 'admin@brand.test', { is_admin: true });
  });

  return {
    server,
    browser,

    /**
     * Opens `pathname` (the home page by default) signed in (test password) and waits for the
     * Logout button: openSignedIn, no login page — signing in is sign-in.test.ts's.
     */
    signIn: (page: Page, tenantCode: string | null, email: string, pathname = '/') => openSignedIn(page, server.url(tenantCode, pathname), email),

    /** The error shown under a form field. */
    fieldError: (page: Page, text: string) => page.locator('.MuiFormHelperText-root.Mui-error').filter({ hasText: text }),

    /** How the API answers a sign-in (status and error code), without a browser. */
    async signInStatus(tenant: string, email: string, password: string) {
      const response = await server.request(tenant, { method: 'POST', url: '/api/v1/auth/login/', payload: { email, password } });
      return { status: response.statusCode, code: (response.json() as { code?: string }).code };
    },
  };
}

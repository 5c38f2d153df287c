/**
 * Browser-test support: the real server (built web app + API on a fresh test
 * database) listening on a free port, and Debian's Chromium driven by
 * playwright-core. Pages are opened on http://{tenant}.localhost:{port}, which
 * Chromium resolves to loopback, so subdomain tenancy is exercised for real.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { createTestApp, TEST_PASSWORD, type TestContext } from '@intelnotes/server/testing';
import { chromium, errors, type Browser, type Locator, type Page } from 'playwright-core';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Screenshots for people to look at: the test run's temporary folder (scripts/test.mjs prints it), never the work tree. */
export const ARTIFACTS_DIR = process.env['TEST_ARTIFACTS_DIR'] ?? path.join(os.tmpdir(), 'intelnotes-test-artifacts');

/**
 * Screenshots are taken only when asked for (TEST_SCREENSHOTS=1): capturing and encoding full
 * pages at two widths is work for Chromium that no assertion needs, in every run of the suite.
 */
const SCREENSHOTS = process.env['TEST_SCREENSHOTS'] === '1';

/**
 * Debian's old headless shell (package chromium-headless-shell) when it is installed, else its
 * full Chromium: the same engine without a browser's user interface, and in these tests it used
 * half the CPU of `chromium --headless` (docs/BENCHMARKS.md "Test suite"). Playwright runs its
 * own headless tests on the shell for the same reason.
 */
export const CHROMIUM_PATH =
  process.env['CHROMIUM_PATH'] ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((candidate) => existsSync(candidate)) ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can. */
export function browserUnavailable(): string | null {
  if (!existsSync(CHROMIUM_PATH)) {
    return `Chromium not found at ${CHROMIUM_PATH} (install it with "apt-get install -y chromium chromium-headless-shell" or set CHROMIUM_PATH)`;
  }
  if (!existsSync(path.join(repoRoot, 'web/dist/index.html'))) return 'web/dist is not built (npm test builds it)';
  return null;
}

type Tenant = Awaited<ReturnType<TestContext['createTenant']>>;

export interface E2EServer extends TestContext {
  port: number;
  url(tenantCode: string | null, pathname?: string): string;
  /**
   * Seeds a record through the API (POST, expecting 201) and returns its id. `path` is under
   * /api/v1 ('assets/organizations', 'lists') or a full path ('/api/v1/lists/').
   */
  create(tenant: Tenant | string, token: string, path: string, payload: Record<string, unknown>): Promise<string>;
}

/** The app's dependencies a test may give it (createTestApp's): e.g. a mail transport that keeps what it sends. */
export type E2EDeps = Parameters<typeof createTestApp>[3];

/** Starts the app on a fresh database; `env` adds settings (e.g. IMPORT_WAIT_SECONDS), `deps` replaces dependencies (the mail transport). */
async function startServer(env: Record<string, string> = {}, deps: E2EDeps = {}): Promise<E2EServer> {
  // E2E_WEB_DIST serves a build of one's own while others rebuild web/dist in a shared tree.
  const context = await createTestApp({ ...env, WEB_DIST: process.env['E2E_WEB_DIST'] ?? path.join(repoRoot, 'web/dist') }, undefined, undefined, deps);
  await context.app.listen({ host: '127.0.0.1', port: 0 });
  const address = context.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(context, {
    port,
    url: (tenantCode: string | null, pathname = '/') =>
      `http://${tenantCode ? `${tenantCode}.` : ''}localhost:${port}${pathname}`,
    async create(tenant: Tenant | string, token: string, path: string, payload: Record<string, unknown>) {
      const url = path.startsWith('/') ? path : `/api/v1/${path}/`;
      const response = await context.request(tenant, { method: 'POST', url, token, payload });
      assert.equal(response.statusCode, 201, `POST ${url}: ${response.body}`);
      return (response.json() as { id: string }).id;
    },
  });
}

/** A handle filled by a before() hook: it forwards to the object once there, and says so when read too early. */
function lateHandle<T extends object>(name: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const target = current();
      if (!target) throw new Error(`The ${name} is not there yet: use it in tests and hooks, not while the suite is being declared.`);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The fixture of most browser test files, in the calling describe(): a before() hook starts the
 * server on a fresh database, runs `seed` (tenants, users, records — through the `server`
 * returned, which is there by then) and launches the browser; an after() hook closes both. The
 * `server` and `browser` returned are handles filled by that hook, so a suite declares
 * `const { server, browser } = useServerAndBrowser(seed)` once and uses them in its tests and
 * helpers as the objects themselves. `env` adds settings to the server's (startServer), `deps`
 * gives it dependencies of the test's (a `MemoryMailTransport`, to read the mail it sends).
 */
export function useServerAndBrowser(seed?: () => Promise<void>, env: Record<string, string> = {}, deps: E2EDeps = {}): { server: E2EServer; browser: Browser } {
  let server: E2EServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startServer(env, deps);
    await seed?.();
    browser = await sharedBrowser();
  });
  after(async () => {
    // The browser stays for the worker's next file; what this file opened in it goes.
    await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
    await server?.close();
  });
  return { server: lateHandle('server', () => server), browser: lateHandle('browser', () => browser) };
}

let launched: Promise<Browser> | null = null;

/**
 * One Chromium per test worker, launched by the first browser test file it runs (Playwright
 * gives it a fresh temporary profile, and closes it when the worker exits). Launched again if
 * it crashed.
 */
function sharedBrowser(): Promise<Browser> {
  const current = launched;
  if (current) return current.then((browser) => (browser.isConnected() ? browser : ((launched = null), sharedBrowser())));
  return (launched = launchBrowser());
}

async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Saves a screenshot (full page unless told otherwise) under test-artifacts/ for people to look at. A capture that
 * times out (Chromium on a loaded machine) is reported, not failed: screenshots are for reading,
 * and every test asserts what it checks on the page itself.
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  try {
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage });
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    console.warn(`screenshot ${name}: ${error.message.split('\n')[0]}`);
  }
}

/**
 * Clicks `button` until `target` shows: a click that lands while the page re-renders what holds
 * the button (a refetch after a save) can open a dialog that the re-render closes at once.
 */
export async function clickUntilVisible(button: Locator, target: Locator, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await button.click();
    try {
      await target.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/** The two widths every screen is looked at in. */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 800 };

/**
 * Screenshots of the page at desktop and phone width (`<name>-1280.png`, `<name>-375.png`),
 * leaving the page at desktop width. `viewportOnly` while a dialog is open: a full-page capture
 * would show the page beyond the dialog's backdrop. `hideToasts` hides the toasts showing now
 * (hidden, not removed: the toast library still owns those elements and removes them itself).
 */
export async function screenshots(page: Page, name: string, { viewportOnly = false, hideToasts = false } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  const take = (file: string) => screenshot(page, file, { fullPage: !viewportOnly });
  if (hideToasts) {
    await page.locator('.Toastify__toast').evaluateAll((toasts) => toasts.forEach((toast) => ((toast as HTMLElement).style.visibility = 'hidden')));
  }
  await page.setViewportSize(DESKTOP);
  await settleLayout(page);
  await take(`${name}-1280`);
  await page.setViewportSize(PHONE);
  // The data grid measures its width with a ResizeObserver; let it lay out again.
  await page.waitForTimeout(500);
  await take(`${name}-375`);
  await page.setViewportSize(DESKTOP);
  await settleLayout(page);
}

/**
 * Waits until the page has laid itself out for a new viewport: media-query listeners (the
 * header's, dialogs' full-screen switch) run in the next rendering step and re-render what
 * depends on them, then transitions play. A click sent before that can land where a button was
 * — the CAGR test's Clear click after its screenshots was lost so in CI.
 */
async function settleLayout(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let frame = 0; frame < 3; frame += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
    await Promise.allSettled(document.getAnimations().map((animation) => animation.finished));
  });
}

/** Where the web app keeps its session (redux-persist's "persist:" + app/store.ts's key). */
const SESSION_STORAGE_KEY = 'persist:intelnotes';

/**
 * Opens `url` already signed in as `email`, without the login page, and waits until the header
 * shows the access level `level` (or, without one, the Logout button). For tests that need a
 * signed-in user but are not about signing in (those use signInAt): the session is what the
 * login page leaves behind — the API's login answer, kept in local storage as the app persists
 * it — written from a static file of the tenant's origin (no app boot), so the test pays one
 * app start instead of two (the login page's, then its page's: docs/BENCHMARKS.md "Where CI
 * stands"). The sign-in itself still goes through the real API, from the page, on that host.
 */
export async function openSignedIn(page: Page, url: string, email: string, level?: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto(new URL('/favicon.svg', url).href);
  const failure = await page.evaluate(
    async ({ email, password, key }) => {
      const response = await fetch('/api/v1/auth/login/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (!response.ok) return `login ${email}: ${response.status} ${await response.text()}`;
      const user = (await response.json()) as Record<string, unknown>;
      // The fields app/session.slice.ts keeps (userFields), stored as redux-persist does:
      // each persisted slice JSON-encoded inside the JSON object.
      const session = Object.fromEntries(
        ['token', 'email', 'alias', 'id', 'is_admin', 'is_research', 'asset_id', 'tenant_id', 'can_manage_tenants'].map((field) => [field, user[field] ?? null]),
      );
      localStorage.setItem(key, JSON.stringify({ session: JSON.stringify(session), _persist: JSON.stringify({ version: -1, rehydrated: true }) }));
      return null;
    },
    { email, password, key: SESSION_STORAGE_KEY },
  );
  assert.equal(failure, null, failure ?? undefined);
  await page.goto(url);
  if (level) await page.getByTestId('access-level').filter({ hasText: level }).waitFor();
  else await page.getByRole('button', { name: 'Logout' }).waitFor();
}

/**
 * Goes to `url` unless the page shows it already — e.g. the first of several routes a test
 * visits in turn, opened signed in by openSignedIn: an app start saved, the same page checked.
 */
export async function gotoUnlessThere(page: Page, url: string): Promise<void> {
  if (page.url() !== url) await page.goto(url);
}

/**
 * Goes to `url` inside the running app, as its own links do — a History API entry React Router
 * renders without reloading — when the page shows the app on that origin; else loads it (goto).
 * Nothing when the page is there already. For a test that visits routes in turn (titles, route
 * guards) where a reload is not what it tests: each page load is an app start, Chromium's
 * largest cost in these tests (docs/BENCHMARKS.md "Where CI stands"). Data the app fetched
 * before stays cached for a while, as in real use: after changing data behind the app's back,
 * load the page (goto) to see it.
 */
export async function navigateInApp(page: Page, url: string): Promise<void> {
  const target = new URL(url);
  const current = page.url();
  if (current === target.href) return;
  const inApp =
    current.startsWith('http') &&
    new URL(current).origin === target.origin &&
    (await page.evaluate(() => document.getElementById('root')?.hasChildNodes() ?? false));
  if (!inApp) {
    await page.goto(url);
    return;
  }
  await page.evaluate((href) => {
    // The entry the router itself writes on a push: its index one past the current one.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: index + 1 }, '', href);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, target.pathname + target.search + target.hash);
  await page.waitForURL(target.href);
}

/**
 * Signs in on a tenant's login page (`loginUrl`) and waits until the header shows the access
 * level `level` — or, without one, the Logout button. Tests about signing in use this; others
 * open their page signed in (openSignedIn), one app start cheaper.
 */
export async function signInAt(page: Page, loginUrl: string, email: string, level?: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto(loginUrl);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (level) await page.getByTestId('access-level').filter({ hasText: level }).waitFor();
  else await page.getByRole('button', { name: 'Logout' }).waitFor();
}

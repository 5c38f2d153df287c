// Live events in the browser (docs/events.md, docs/web.md): a signed-in user's header shows the
// stream connected, a visitor's shows no indicator, and an event the server publishes —
// new suggested organizations — appears as a toast that stays open and leads to the suggested tab;
// an open raw data table follows a row's processing as the worker announces it.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { publish } from '../server/src/events/bus.ts';
import { inTenant, systemActor } from '../server/src/resources/context.ts';
import { useServerAndBrowser, browserUnavailable, DESKTOP, screenshots, signInAt, openSignedIn, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('live events: the header indicator and the suggested organizations toast', { skip: unavailable ?? false }, () => {
  let acme: Awaited<ReturnType<E2EServer['createTenant']>>;

  const { server, browser } = useServerAndBrowser(async () => {
    acme = await server.createTenant('acme', { name: 'Acme Research' });
    await server.createUser(acme, 'research@acme.test', { is_research: true });
    await server.createUser(acme, 'admin@acme.test', { is_admin: true });
  });

  /** A page of its own (a fresh browser context, so no session carries over), closed after the test. */
  async function newPage(t: TestContext): Promise<Page> {
    const page = await browser.newPage({ viewport: DESKTOP });
    t.after(() => page.close());
    return page;
  }

  const indicator = (page: Page) => page.getByTestId('live-status');

  it('shows no indicator to a visitor', async (t) => {
    const page = await newPage(t);
    await page.goto(server.url('acme', '/'));
    await page.getByTestId('access-level').filter({ hasText: 'public' }).waitFor();
    assert.equal(await indicator(page).count(), 0);
  });

  it('says connected once signed in, and shows published suggestions in a toast that stays open', async (t) => {
    const page = await newPage(t);
    await signInAt(page, server.url('acme', '/login'), 'research@acme.test', 'research');
    await page.getByRole('img', { name: 'Live updates: connected' }).waitFor();
    assert.equal(await indicator(page).getAttribute('data-status'), 'connected');

    const longName = `Consolidated ${'Very '.repeat(30)}Long Holdings`;
    const items = [longName, 'Globex', 'Initech', 'Umbrella'].map((name, n) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, name }));
    await inTenant(server.db, systemActor(acme.id), (ctx) =>
      publish(ctx, 'new_suggested_organizations', { raw_data_id: null, count: 4, items }),
    );

    const toast = page.locator('.Toastify__toast').filter({ hasText: 'new suggested organizations' });
    await toast.waitFor();
    assert.equal(
      (await toast.innerText()).split('\n')[0]?.trim(),
      `4 new suggested organizations: ${longName.slice(0, 100).trimEnd()}…, Globex, Initech and 1 more`,
    );
    await screenshots(page, 'live-events-toast', { viewportOnly: true });

    // It stays open past the usual 5 s auto-close.
    await page.waitForTimeout(6_000);
    assert.equal(await toast.isVisible(), true);

    // A click anywhere on it goes to the suggested organizations (SPEC §4) and closes it.
    await toast.getByText(/^4 new suggested organizations/).click();
    await page.waitForURL((url) => url.pathname === '/organizations' && url.search === '?tab=2');
    await toast.waitFor({ state: 'detached' });
    assert.equal(await indicator(page).getAttribute('data-status'), 'connected', 'the stream outlives navigation');

    // From the keyboard: its button does the same.
    await page.getByRole('link', { name: 'intelnotes home' }).click();
    await inTenant(server.db, systemActor(acme.id), (ctx) =>
      publish(ctx, 'new_suggested_organizations', { raw_data_id: null, count: 1, items: [{ id: items[1]!.id, name: 'Globex' }] }),
    );
    const second = page.locator('.Toastify__toast').filter({ hasText: 'New suggested organization: Globex' });
    await second.getByRole('button', { name: 'Review' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/organizations' && url.search === '?tab=2');
    await second.waitFor({ state: 'detached' });
  });

  it('an open raw data table shows a row moving through processing as its events arrive', async (t) => {
    const token = await server.login(acme, 'admin@acme.test');
    const id = await server.create(acme, token, 'raw-data', { title: 'Harbour notes', text: 'Ships seen in Porto.' });
    const page = await newPage(t);
    await openSignedIn(page, server.url('acme', '/rawdata?tab=1'), 'admin@acme.test', 'admin');
    await page.getByRole('img', { name: 'Live updates: connected' }).waitFor();
    const row = page.getByRole('grid').getByRole('row').filter({ has: page.getByRole('link', { name: 'Harbour notes', exact: true }) });
    await row.getByText('pending', { exact: false }).waitFor();

    // Another process changes the row and announces it in the same transaction (as the
    // processing worker of issue 16 will); nothing on the page is clicked or reloaded.
    const announce = (status: string, event: 'raw_data_update' | 'raw_data_process_complete') =>
      inTenant(server.db, systemActor(acme.id), async (ctx) => {
        await ctx.tx.execute(sql`UPDATE raw_data SET processing_status = ${status}, updated_at = now() WHERE id = ${id}`);
        await publish(ctx, event, { id, processing_status: status as 'processing' | 'completed', updated_at: new Date().toISOString() });
      });
    await announce('processing', 'raw_data_update');
    await row.getByText('processing', { exact: false }).waitFor();
    await announce('completed', 'raw_data_process_complete');
    await row.getByText('completed', { exact: false }).waitFor();
  });
});

/**
 * Merging duplicate organizations in the browser: pick the duplicate, compare the two field by
 * field, keep a value per field, merge (the duplicate's page is gone, its list membership moved),
 * then undo from the toast and find both records back.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, screenshot, type E2EServer, openSignedIn, DESKTOP } from './support/browser.ts';

type TenantRow = Awaited<ReturnType<E2EServer['createTenant']>>;

const unavailable = browserUnavailable();
const ORGS = '/api/v1/assets/organizations';

describe('merging duplicates', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let admin: string;
  const ids: Record<string, string> = {};

  const create = (payload: Record<string, unknown>) => server.create(demo, admin, `${ORGS}/`, payload);

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'reader@demo.test');
    admin = await server.login(demo, 'admin@demo.test');
    ids['survivor'] = await create({ name_inc: 'Globex Corporation', hq_city: 'Springfield', visibility: 'public' });
    ids['duplicate'] = await create({ name_inc: 'Globex Corp', hq_city: 'Cypress Creek', notes: 'Imported from the old CRM', visibility: 'public' });
    const list = await server.request(demo, { method: 'POST', url: '/api/v1/lists/', token: admin, payload: { name: 'Suppliers', kind: 'OrganizationsList' } });
    assert.equal(list.statusCode, 201, list.body);
    ids['list'] = list.json().id;
    const member = await server.request(demo, { method: 'PATCH', url: `${ORGS}/${ids['duplicate']}/`, token: admin, payload: { lists: [ids['list']] } });
    assert.equal(member.statusCode, 200, member.body);
  });

  /** Opens `pathname` of tenant demo signed in (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, email: string, level: string, pathname = '/') => openSignedIn(page, server.url('demo', pathname), email, level);

  it('merges a duplicate with a choice per field, and undoes it from the toast', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    try {
      await signIn(page, 'admin@demo.test', 'admin', `/organizations/${ids['survivor']}`);
      await page.getByRole('heading', { name: 'Globex Corporation' }).waitFor();
      await page.getByRole('button', { name: 'Merge duplicate' }).click();

      const dialog = page.getByRole('dialog', { name: /Merge a duplicate/ });
      await dialog.getByLabel('Duplicate organization').fill('Globex Corp');
      await page.getByRole('option', { name: 'Globex Corp', exact: true }).click();
      const table = dialog.getByRole('table', { name: 'Values to keep' });
      await table.waitFor();
      // The survivor keeps its name; the duplicate's city is chosen; its notes fill an empty field.
      assert.equal(await dialog.getByRole('radio', { name: 'Legal name: keep this' }).isChecked(), true);
      await dialog.getByRole('radio', { name: 'HQ city: keep the duplicate' }).check();
      assert.equal(await dialog.getByRole('radio', { name: 'Notes: keep the duplicate' }).isChecked(), true);
      await dialog.getByText('Moves to this organization: 1 list.').waitFor();
      await screenshot(page, 'merge-preview');
      await dialog.getByRole('button', { name: 'Merge' }).click();

      const toast = page.getByRole('alert').filter({ hasText: 'was merged into' });
      await toast.waitFor();
      await page.locator('[data-field="hq_city"]').filter({ hasText: 'Cypress Creek' }).waitFor();
      await page.locator('[data-field="notes"]').filter({ hasText: 'Imported from the old CRM' }).waitFor();
      await page.getByRole('link', { name: 'Suppliers' }).waitFor();
      await screenshot(page, 'merge-done');
      assert.equal((await server.request(demo, { method: 'GET', url: `${ORGS}/${ids['duplicate']}/`, token: admin })).statusCode, 404);

      await toast.getByRole('button', { name: 'Undo' }).click();
      await page.getByRole('alert').filter({ hasText: 'The merge was undone.' }).waitFor();
      await page.locator('[data-field="hq_city"]').filter({ hasText: 'Springfield' }).waitFor();
      const restored = await server.request(demo, { method: 'GET', url: `${ORGS}/${ids['duplicate']}/`, token: admin });
      assert.equal(restored.statusCode, 200, restored.body);
      assert.deepEqual(restored.json().lists, [ids['list']]);

      // The history panel tells the story.
      await page.getByRole('button', { name: /History/ }).click();
      await page.getByText('Merge undone').first().waitFor();
      await screenshot(page, 'merge-history');
    } finally {
      await page.close();
    }
  });

  it('offers no merge to readers who may not write', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    try {
      await signIn(page, 'reader@demo.test', 'paywall', `/organizations/${ids['survivor']}`);
      await page.getByRole('heading', { name: 'Globex Corporation' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Merge duplicate' }).count(), 0);
    } finally {
      await page.close();
    }
  });
});

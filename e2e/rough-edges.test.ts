/**
 * The rough edges a walk-through found (issue 28, "Rough edges seen" and item 6), each as the
 * person who met it sees it: a visitor's link to a paywalled record, toasts over the header and
 * page actions, /rawdata on a phone, addresses differing in case or written in punycode, and
 * the small things — "Html" beside "HTML", uneven top tabs, a clipped filter label.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { multipartForm } from '../server/src/test/multipart.ts';
import { TEST_PASSWORD } from '@intelnotes/server/testing';
import { browserUnavailable, DESKTOP, screenshot, screenshots, signInAt, useServerAndBrowser, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();
const PHONE_390 = { width: 390, height: 844 };

type Tenant = Awaited<ReturnType<E2EServer['createTenant']>>;
interface Box { x: number; y: number; width: number; height: number }

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is laid out');
  return box;
}

describe('rough edges (issue 28)', { skip: unavailable ?? false }, () => {
  let demo: Tenant;
  let adminToken: string;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    adminToken = (await server.signInAudiences(demo)).admin!;
    const create = (path: string, payload: Record<string, unknown>) => server.create(demo, adminToken, path, payload);
    ids['acme'] = await create('assets/organizations', { name_inc: 'Acme Corp', visibility: 'public' });
    ids['vault'] = await create('assets/organizations', { name_inc: 'Vault Holdings', hq_city: 'Zug', notes: 'Secret notes', visibility: 'paywalled' });
    ids['ghost'] = await create('assets/organizations', { name_inc: 'Ghost Ltd', visibility: 'hidden' });
    ids['insider'] = await create('assets/people', { name_given: 'Ina', name_family: 'Insider', visibility: 'paywalled' });
    ids['deal'] = await create('assets/ledger', { caption: 'Vault revenue 2024', year: 2024, visibility: 'paywalled' });
    ids['report'] = await create('library', { title: 'Open Banking Report', type: 'Report', assets: [ids['acme']], visibility: 'public' });
    ids['book'] = await create('library', { title: 'Paywalled Markets Book', type: 'Book', visibility: 'paywalled' });
    ids['watchlist'] = await create('lists', { name: 'Paid Watchlist', kind: 'OrganizationsList', visibility: 'paywalled' });
    // Raw data of two kinds: pasted text and an HTML page.
    for (let index = 1; index <= 3; index += 1) await create('raw-data', { title: `Harbour notes ${index}`, text: `Ships seen in Porto, day ${index}.` });
    const html = await server.request(demo, {
      method: 'POST', url: '/api/v1/raw-data/', token: adminToken,
      ...multipartForm([{ field: 'file', filename: 'harbour.html', content: '<!doctype html><html><head><title>Harbour</title></head><body><p>Porto harbour news.</p></body></html>', contentType: 'text/html' }]),
    });
    assert.equal(html.statusCode, 201, html.body);
  });

  const newPage = async (t: TestContext, viewport = DESKTOP): Promise<Page> => {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    t.after(() => context.close());
    return context.newPage();
  };
  const signIn = (page: Page, who: 'admin' | 'research' | 'reader', level: string) => signInAt(page, server.url('demo', '/login'), `${who}@demo.test`, level);

  it('a visitor opening a paywalled record\'s link sees it locked with the sign-in offer, asked for once, and reads it after signing in', async (t) => {
    // The API sends nothing of the record to a visitor: a distinct code, the kind's label only.
    for (const [path, id, label] of [['assets/organizations', ids['vault'], 'organization'], ['assets/people', ids['insider'], 'person'], ['assets/ledger', ids['deal'], 'ledger entry'], ['library', ids['book'], 'library entry']] as const) {
      const answer = await server.request(demo, { method: 'GET', url: `/api/v1/${path}/${id}/` });
      assert.equal(answer.statusCode, 403, answer.body);
      assert.deepEqual(answer.json(), { code: 'paywalled', detail: `This ${label} is for signed-in readers.` });
    }
    // A hidden record stays "not found": its existence never shows.
    const hidden = await server.request(demo, { method: 'GET', url: `/api/v1/assets/organizations/${ids['ghost']}/` });
    assert.equal(hidden.statusCode, 404);

    const page = await newPage(t);
    const detailCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/v1/assets/organizations/${ids['vault']}/`) detailCalls.push(request.url());
    });
    await page.goto(server.url('demo', `/organizations/${ids['vault']}`));
    const locked = page.getByTestId('locked-record');
    await locked.getByRole('heading', { level: 1, name: 'This organization is locked' }).waitFor();
    assert.match(await locked.innerText(), /Sign in with an account that includes it to read it\./);
    assert.equal(await page.getByText('Vault Holdings').count(), 0, 'nothing of the record shows');
    assert.equal(await page.getByText('not found').count(), 0);
    await page.waitForFunction(() => document.title.startsWith('Locked organization'));
    await screenshots(page, 'rough-edges-locked-organization');
    assert.equal(detailCalls.length, 1, `the detail is asked for once: ${detailCalls.join(', ')}`);

    // The same offer on the other kinds' pages.
    await page.goto(server.url('demo', `/people/${ids['insider']}`));
    await page.getByRole('heading', { level: 1, name: 'This person is locked' }).waitFor();
    await page.goto(server.url('demo', `/library/${ids['book']}`));
    await page.getByRole('heading', { level: 1, name: 'This library entry is locked' }).waitFor();
    await page.goto(server.url('demo', '/lists/organizations/paid-watchlist'));
    await page.getByRole('heading', { level: 1, name: 'This list is locked' }).waitFor();
    assert.equal(await page.getByText('Paid Watchlist').count(), 0, 'nothing of the list shows');
    await page.goto(server.url('demo', `/organizations/${ids['ghost']}`));
    await page.getByRole('heading', { level: 1, name: 'Organization not found' }).waitFor();

    // Login leads back to the record, which a paywall reader reads.
    await page.goto(server.url('demo', `/organizations/${ids['vault']}`));
    await locked.getByRole('link', { name: 'Login' }).click();
    await page.getByLabel('Email', { exact: true }).fill('reader@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vault Holdings' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/organizations/${ids['vault']}`);
  });

  it('toasts cover neither the header\'s e-mail and Logout nor the page\'s actions', async (t) => {
    const page = await newPage(t);
    await signIn(page, 'research', 'research');
    await page.goto(server.url('demo', '/library?tab=1'));
    const create = page.getByRole('link', { name: 'New library entry' });
    await create.waitFor();
    await page.getByRole('button', { name: 'Export' }).click();
    const toast = page.locator('.Toastify__toast').filter({ hasText: 'Downloaded' });
    await toast.waitFor();
    // Wait for the toast's entrance to finish before measuring it.
    await page.evaluate(() => Promise.allSettled(document.getAnimations().map((animation) => animation.finished)));
    const toastBox = await boxOf(toast);
    await screenshot(page, 'rough-edges-toast-1280', { fullPage: false });
    for (const [name, target] of [
      ['Logout', page.getByRole('button', { name: 'Logout' })],
      ['the e-mail', page.getByText('research@demo.test').first()],
      ['New library entry', create],
      ['Export', page.getByRole('button', { name: 'Export' })],
      ['the footer\'s link', page.getByRole('link', { name: 'Set up your own instance' })],
      ['the paging', page.getByRole('button', { name: /next page/i })],
    ] as const) {
      if (!(await target.isVisible())) continue;
      assert.ok(!overlaps(toastBox, await boxOf(target)), `the toast is over ${name}`);
    }
    // Nothing a user could click lies under it.
    const covered = await page.evaluate((box) => {
      const found: string[] = [];
      for (let x = box.x + 4; x < box.x + box.width; x += 24) {
        for (let y = box.y + 4; y < box.y + box.height; y += 12) {
          for (const element of document.elementsFromPoint(x, y)) {
            if (element.closest('.Toastify')) continue;
            const interactive = element.closest('a, button, input, select, textarea, [role="button"], [role="tab"], [role="row"], [role="checkbox"]');
            if (interactive) found.push(interactive.outerHTML.slice(0, 80));
          }
        }
      }
      return [...new Set(found)];
    }, toastBox);
    assert.deepEqual(covered, []);
  });

  it('/rawdata at 390 px: the buttons keep one line each, nothing runs past the gutter, the filters fold away and the table starts on the first screen', async (t) => {
    const page = await newPage(t, PHONE_390);
    await signIn(page, 'admin', 'admin');
    await page.goto(server.url('demo', '/rawdata?tab=1'));
    const grid = page.getByRole('grid', { name: 'Raw data' });
    await grid.getByText('Harbour notes 1').waitFor();

    for (const name of ['Quick collection', 'New raw data item']) {
      const button = page.getByRole('link', { name });
      const lineHeight = await button.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      const box = await boxOf(button);
      assert.ok(box.height < 2 * lineHeight + 12, `${name} keeps one line (${box.height} px high)`);
    }
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.ok(widths.scroll <= widths.client, `nothing runs past the page: ${widths.scroll} > ${widths.client}`);
    // The filters are folded behind one button; the table's first row shows on the first screen.
    assert.equal(await page.getByLabel('Created from').count(), 0);
    const firstRow = await boxOf(grid.getByRole('row').nth(1));
    assert.ok(firstRow.y + firstRow.height <= PHONE_390.height, `the first row ends at ${firstRow.y + firstRow.height} px`);
    await screenshot(page, 'rough-edges-rawdata-390', { fullPage: false });

    // Opened, the filters stay inside the gutter; a set filter is counted on the closed button.
    await page.getByRole('button', { name: 'Filters' }).click();
    const from = page.getByLabel('Created from');
    await from.waitFor();
    const main = await boxOf(page.getByRole('group', { name: 'Filters' }));
    for (const field of await page.getByRole('group', { name: 'Filters' }).locator('.MuiTextField-root, .MuiAutocomplete-root').all()) {
      const box = await boxOf(field);
      assert.ok(box.x >= main.x - 1 && box.x + box.width <= main.x + main.width + 1, 'a filter runs past the gutter');
    }
    await screenshot(page, 'rough-edges-rawdata-390-filters', { fullPage: false });
    await from.fill('2020-01-01');
    await page.getByRole('button', { name: 'Hide filters' }).click();
    await page.getByRole('button', { name: 'Filters' }).filter({ hasText: '1' }).waitFor();
  });

  it('raw data types read the same in the type column, its filter and the type chips ("HTML")', async (t) => {
    const page = await newPage(t);
    await signIn(page, 'admin', 'admin');
    await page.goto(server.url('demo', '/rawdata?tab=1'));
    const grid = page.getByRole('grid', { name: 'Raw data' });
    await grid.getByRole('gridcell', { name: 'HTML', exact: true }).waitFor();
    assert.equal(await grid.getByRole('gridcell', { name: 'Html', exact: true }).count(), 0);
    const chips = page.getByTestId('type-counts');
    await chips.getByText('HTML 1', { exact: true }).waitFor();
    await chips.getByText('Text 3', { exact: true }).waitFor();
    await page.getByLabel('Content kind').or(page.getByLabel('Type', { exact: true })).first().click();
    await page.getByRole('option', { name: /^HTML/ }).waitFor();
    await page.keyboard.press('Escape');
    await screenshots(page, 'rough-edges-rawdata-types', { hideToasts: true });
  });

  it('the top tabs are spaced evenly, and the library filter shows its whole label', async (t) => {
    const page = await newPage(t);
    await signIn(page, 'admin', 'admin');
    await page.goto(server.url('demo', '/library?tab=1'));
    const tabs = page.getByTestId('nav-tabs').getByRole('tab');
    await tabs.first().waitFor();
    const paddings = await tabs.evaluateAll((elements) =>
      elements.map((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return Math.round(element.getBoundingClientRect().width - range.getBoundingClientRect().width);
      }));
    assert.ok(paddings.length >= 9, `${paddings.length} tabs`);
    assert.ok(Math.max(...paddings) - Math.min(...paddings) <= 2, `the space around each label differs: ${paddings.join(', ')}`);

    const label = page.locator('label').filter({ hasText: 'Organizations and ledger entries' });
    await label.waitFor();
    const clipped = await label.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    assert.equal(clipped, false, 'the filter label is cut');
    await screenshot(page, 'rough-edges-library-filters-1280', { fullPage: false });
  });

  it('e-mail addresses differing only in case are one item; an international domain reads in Unicode in the list and on the domains tab', async (t) => {
    const LIST = '/api/v1/dxlist';
    const pasted = await server.request(demo, {
      method: 'POST', url: `${LIST}/bulk_create/parse_text/`, token: adminToken,
      payload: { raw_text: 'jane@Example.com, JANE@example.com and info@Bücher.de, INFO@xn--bcher-kva.de' },
    });
    assert.equal(pasted.statusCode, 200, pasted.body);
    const body = pasted.json() as { created: Array<{ email: string }>; duplicates: Array<{ email: string }> };
    assert.deepEqual(body.created.map((item) => item.email).sort(), ['info@bücher.de', 'jane@example.com']);
    assert.equal(body.duplicates.length, 2);
    // Typed again by hand in another case: refused, naming the field.
    const again = await server.request(demo, { method: 'POST', url: `${LIST}/`, token: adminToken, payload: { email: 'Jane@EXAMPLE.COM' } });
    assert.equal(again.statusCode, 400, again.body);
    assert.deepEqual(again.json().errors, { email: ['This address is already in the list.'] });

    const page = await newPage(t);
    await signIn(page, 'admin', 'admin');
    await page.goto(server.url('demo', '/emails?tab=1'));
    const grid = page.getByRole('grid').first();
    await grid.getByText('info@bücher.de', { exact: true }).waitFor();
    assert.equal(await grid.getByText(/xn--/).count(), 0, 'no punycode in the address list');
    assert.equal(await grid.getByText(/^jane@example\.com$/i).count(), 1);
    await screenshots(page, 'rough-edges-emails', { hideToasts: true });
    await page.getByRole('tab', { name: /Domains/ }).click();
    await page.getByRole('grid').first().getByText('bücher.de', { exact: true }).waitFor();
  });
});

/**
 * Editing in the table (docs/web.md "Editing in the table"): a research user edits text, a date,
 * a visibility, a number, a choice and a relation in the cells; a refused value shows the
 * server's message on the cell and is rolled back; a block pasted from a spreadsheet and a
 * fill-down send one PATCH per row; Undo in the toast puts a value back; readers get no way to
 * edit; the admin's history shows the change made in the table.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, DESKTOP, navigateInApp, openSignedIn, screenshot, screenshots, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();
const ORGS = '/api/v1/assets/organizations';
const LEDGER = '/api/v1/assets/ledger';

describe('editing in the table', { skip: unavailable ?? false }, () => {
  let demo: Awaited<ReturnType<E2EServer['createTenant']>>;
  let token: string;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    token = (await server.signInAudiences(demo)).admin!;
    const create = (path: string, payload: Record<string, unknown>) => server.create(demo, token, path, payload);
    for (const [name, city] of [['Grid Alpha', 'Lisbon'], ['Grid Beta', 'Madrid'], ['Grid Gamma', 'Oslo']] as const) {
      ids[name] = await create('assets/organizations', { name_inc: name, hq_city: city, visibility: 'public' });
    }
    ids['Northwind'] = await create('assets/organizations', { name_inc: 'Northwind Capital', visibility: 'public' });
    for (const [caption, year] of [['Entry 1', 2010], ['Entry 2', 2011], ['Entry 3', 2012], ['Entry 4', 2013]] as const) {
      ids[caption] = await create('assets/ledger', { caption, year, quarter: 'Q1', visibility: 'public' });
    }
    ids['Overview'] = await create('facts/sections', { name: 'Overview', position: 1 });
  });

  const grid = (page: Page, name: string) => page.getByRole('grid', { name });
  const rowOf = (page: Page, table: string, name: string) => grid(page, table).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  const cell = (page: Page, table: string, name: string, field: string) => rowOf(page, table, name).locator(`[data-field="${field}"]`);
  const editor = (page: Page) => page.getByTestId('cell-editor');
  const record = async (path: string, id: string) => (await server.request(demo, { method: 'GET', url: `${path}/${id}/`, token })).json() as Record<string, unknown>;
  /** The PATCH bodies the page sends from now on. */
  const patches = (page: Page) => {
    const sent: Array<{ url: string; body: Record<string, unknown> }> = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') sent.push({ url: request.url(), body: JSON.parse(request.postData() ?? '{}') as Record<string, unknown> });
    });
    return sent;
  };
  const focusedField = (page: Page) => page.evaluate(() => document.activeElement?.closest('[role=gridcell]')?.getAttribute('data-field') ?? null);
  const focusedRow = (page: Page) => page.evaluate(() => document.activeElement?.closest('[role=row]')?.textContent ?? '');
  /** Pastes `text` as a spreadsheet puts it on the clipboard, onto the focused cell. */
  const paste = (page: Page, text: string) =>
    page.evaluate((data) => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', data);
      document.activeElement?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, text);
  const waitForToast = (page: Page, text: string | RegExp) => page.locator('.Toastify__toast').filter({ hasText: text }).last();
  const open = async (email: string, level: string, pathname: string) => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', pathname), email, level);
    return { context, page };
  };
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`never happened: ${what}`);
  };
  const textOf = async (locator: Locator) => (await locator.innerText()).trim();

  it('a research user edits text, a date and a visibility in the organizations table, and undoes from the toast', async () => {
    const { context, page } = await open('research@demo.test', 'research', '/organizations?tab=1&search=grid&ordering=name_inc');
    const sent = patches(page);
    const TABLE = 'Organizations';
    await rowOf(page, TABLE, 'Grid Gamma').waitFor();
    assert.ok((await grid(page, TABLE).locator('.grid-editable').count()) > 0, 'editable cells are marked');

    // Text: a double click opens the editor; Enter saves and moves down.
    await cell(page, TABLE, 'Grid Alpha', 'hq_city').dblclick();
    await editor(page).getByLabel('HQ city').fill('Porto');
    await screenshots(page, 'grid-edit-text', { viewportOnly: true });
    await editor(page).getByLabel('HQ city').press('Enter');
    await editor(page).waitFor({ state: 'detached' });
    await cell(page, TABLE, 'Grid Alpha', 'hq_city').filter({ hasText: 'Porto' }).waitFor();
    await waitForToast(page, 'Saved HQ city of “Grid Alpha”.').waitFor();
    await until(async () => (await record(ORGS, ids['Grid Alpha']!))['hq_city'] === 'Porto', 'hq_city saved');
    assert.deepEqual(sent[0], { url: server.url('demo', `${ORGS}/${ids['Grid Alpha']}/`), body: { hq_city: 'Porto' } }, 'one PATCH with the one field');
    assert.equal(await focusedField(page), 'hq_city', 'the active cell moved down');
    assert.match(await focusedRow(page), /Grid Beta/);

    // Escape cancels: nothing sent.
    await page.keyboard.press('F2');
    await editor(page).getByLabel('HQ city').fill('Never saved');
    await page.keyboard.press('Escape');
    await editor(page).waitFor({ state: 'detached' });
    assert.equal(await textOf(cell(page, TABLE, 'Grid Beta', 'hq_city')), 'Madrid');

    // Tab saves and moves right, to the next editable column (ownership type).
    await page.keyboard.type('Bilbao');
    await editor(page).getByLabel('HQ city').press('Tab');
    await cell(page, TABLE, 'Grid Beta', 'hq_city').filter({ hasText: 'Bilbao' }).waitFor();
    assert.equal(await focusedField(page), 'ownership_type');

    // Undo from the toast: another PATCH puts Madrid back.
    const toast = waitForToast(page, 'Saved HQ city of “Grid Beta”.');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await waitForToast(page, 'Undone: HQ city put back.').waitFor();
    await until(async () => (await record(ORGS, ids['Grid Beta']!))['hq_city'] === 'Madrid', 'undone');
    await cell(page, TABLE, 'Grid Beta', 'hq_city').filter({ hasText: 'Madrid' }).waitFor();
    assert.deepEqual(sent.at(-1)?.body, { hq_city: 'Madrid' });

    // An incomplete date: the year alone, in the form's three boxes.
    await cell(page, TABLE, 'Grid Gamma', 'founding_date').click();
    await page.keyboard.press('Enter');
    await editor(page).getByRole('group', { name: 'Founding date' }).waitFor();
    await screenshots(page, 'grid-edit-date', { viewportOnly: true });
    await editor(page).getByLabel('Year').fill('2019');
    await editor(page).getByLabel('Year').press('Enter');
    await cell(page, TABLE, 'Grid Gamma', 'founding_date').filter({ hasText: '2019' }).waitFor();
    await until(async () => (await record(ORGS, ids['Grid Gamma']!))['founding_date'] === '2019', 'founding_date saved');

    // Visibility, through the form's radio buttons.
    await cell(page, TABLE, 'Grid Gamma', 'visibility').dblclick();
    await editor(page).getByRole('radio', { name: /Hidden/ }).check();
    await editor(page).getByRole('radio', { name: /Hidden/ }).press('Enter');
    await cell(page, TABLE, 'Grid Gamma', 'visibility').getByTestId('visibility-chip').filter({ hasText: /hidden/i }).waitFor();
    await until(async () => (await record(ORGS, ids['Grid Gamma']!))['visibility'] === 'hidden', 'visibility saved');
    assert.equal(sent.length, 5, 'one request per change');
    await screenshots(page, 'grid-edited', { hideToasts: true });

    // On a phone (390 px) the editor opens under the cell, inside the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await cell(page, TABLE, 'Grid Beta', 'founding_date').dblclick();
    await editor(page).getByRole('group', { name: 'Founding date' }).waitFor();
    const box = await editor(page).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the editor fits the screen: ${JSON.stringify(box)}`);
    await screenshot(page, 'grid-edit-date-390', { fullPage: false });
    await page.keyboard.press('Escape');
    await editor(page).waitFor({ state: 'detached' });
    await context.close();
  });

  it('numbers, choices and relations in the ledger; a refused value is shown on the cell and rolled back', async () => {
    const { context, page } = await open('research@demo.test', 'research', '/ledger?tab=1&ordering=caption');
    const sent = patches(page);
    const TABLE = 'Ledger';
    await rowOf(page, TABLE, 'Entry 4').waitFor();

    // A number: typing into the cell starts the editor with what is typed.
    await cell(page, TABLE, 'Entry 1', 'year').click();
    await page.keyboard.type('2001');
    assert.equal(await editor(page).getByLabel('Year').inputValue(), '2001');
    await page.keyboard.press('Enter');
    await cell(page, TABLE, 'Entry 1', 'year').filter({ hasText: '2001' }).waitFor();
    await until(async () => (await record(LEDGER, ids['Entry 1']!))['year'] === 2001, 'year saved');
    assert.deepEqual(sent[0]?.body, { year: 2001 });

    // A choice: the menu opens with the editor; picking saves.
    await cell(page, TABLE, 'Entry 1', 'quarter').dblclick();
    await page.getByRole('option', { name: 'Q3', exact: true }).click();
    await cell(page, TABLE, 'Entry 1', 'quarter').filter({ hasText: 'Q3' }).waitFor();
    await until(async () => (await record(LEDGER, ids['Entry 1']!))['quarter'] === 'Q3', 'quarter saved');

    // A relation, through the form's picker.
    await cell(page, TABLE, 'Entry 2', 'organizations').dblclick();
    await editor(page).getByRole('combobox', { name: 'Organizations' }).fill('North');
    await page.getByRole('option', { name: 'Northwind Capital' }).click();
    await screenshots(page, 'grid-edit-relation', { viewportOnly: true });
    await editor(page).getByRole('combobox', { name: 'Organizations' }).press('Enter');
    await cell(page, TABLE, 'Entry 2', 'organizations').filter({ hasText: 'Northwind Capital' }).waitFor();
    await until(async () => JSON.stringify((await record(LEDGER, ids['Entry 2']!))['organizations']).includes(ids['Northwind']!), 'relation saved');
    assert.deepEqual(sent.at(-1)?.body, { organizations: [ids['Northwind']] });

    // A value the server refuses: its message on the cell, the stored value back.
    await cell(page, TABLE, 'Entry 3', 'year').dblclick();
    await editor(page).getByLabel('Year').fill('12345');
    await editor(page).getByLabel('Year').press('Enter');
    const error = cell(page, TABLE, 'Entry 3', 'year').getByTestId('cell-error');
    await error.waitFor();
    assert.match(await error.innerText(), /9999/);
    assert.match(await textOf(cell(page, TABLE, 'Entry 3', 'year')), /^2012/);
    await waitForToast(page, 'Could not save Year: see the marked cell.').waitFor();
    assert.equal((await record(LEDGER, ids['Entry 3']!))['year'], 2012, 'nothing stored');
    await screenshots(page, 'grid-cell-error', { hideToasts: true });

    // A 3-row block from a spreadsheet, pasted at the year of the first row: one PATCH per row.
    const before = sent.length;
    await cell(page, TABLE, 'Entry 1', 'year').click();
    await paste(page, '2021\tQ2\n2022\tq3\n2023\tQ4\n');
    await waitForToast(page, 'Saved Year, Quarter in 3 rows.').waitFor();
    await until(async () => (await record(LEDGER, ids['Entry 3']!))['quarter'] === 'Q4', 'pasted');
    const pasted = sent.slice(before);
    assert.equal(pasted.length, 3, 'one request per row');
    assert.deepEqual(pasted.map((patch) => patch.body).sort((a, b) => Number(a['year']) - Number(b['year'])), [
      { year: 2021, quarter: 'Q2' },
      { year: 2022, quarter: 'Q3' },
      { year: 2023, quarter: 'Q4' },
    ]);
    assert.equal((await record(LEDGER, ids['Entry 4']!))['year'], 2013, 'the row below the block untouched');
    // The error of the refused change went with the value that replaced it.
    await cell(page, TABLE, 'Entry 3', 'year').getByTestId('cell-error').waitFor({ state: 'detached' });

    // Fill-down: Shift+click marks a range in a column; Ctrl+D copies its first cell down.
    await cell(page, TABLE, 'Entry 2', 'quarter').click();
    await cell(page, TABLE, 'Entry 4', 'quarter').click({ modifiers: ['Shift'] });
    assert.equal(await grid(page, TABLE).locator('.grid-range').count(), 3);
    await screenshot(page, 'grid-range-1280');
    const beforeFill = sent.length;
    await page.keyboard.press('Control+d');
    await waitForToast(page, 'Saved Quarter in 2 rows.').waitFor();
    await until(async () => (await record(LEDGER, ids['Entry 4']!))['quarter'] === 'Q3', 'filled down');
    assert.equal((await record(LEDGER, ids['Entry 3']!))['quarter'], 'Q3');
    assert.deepEqual(sent.slice(beforeFill).map((patch) => patch.body), [{ quarter: 'Q3' }, { quarter: 'Q3' }]);

    // A relation pasted by name: found among the records the picker offers; a name not found is said on its cell.
    await cell(page, TABLE, 'Entry 3', 'organizations').click();
    await paste(page, 'Northwind Capital\nNobody Corp');
    await waitForToast(page, 'Saved Organizations of “Entry 3”.').waitFor();
    await until(async () => JSON.stringify((await record(LEDGER, ids['Entry 3']!))['organizations']).includes(ids['Northwind']!), 'relation pasted');
    assert.match(await cell(page, TABLE, 'Entry 4', 'organizations').getByTestId('cell-error').innerText(), /Not found: Nobody Corp\./);
    assert.deepEqual((await record(LEDGER, ids['Entry 4']!))['organizations'], []);
    await context.close();
  });

  it('visitors and paywall readers get no way to edit', async () => {
    for (const who of ['visitor', 'reader'] as const) {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      const url = server.url('demo', '/organizations?tab=1&search=grid&ordering=name_inc');
      if (who === 'visitor') await page.goto(url);
      else await openSignedIn(page, url, 'reader@demo.test', 'paywall');
      await rowOf(page, 'Organizations', 'Grid Alpha').waitFor();
      assert.equal(await page.locator('.grid-editable').count(), 0, `${who}: no editable cell`);
      await cell(page, 'Organizations', 'Grid Alpha', 'hq_city').evaluate((element) => (element as HTMLElement).focus());
      await page.keyboard.press('F2');
      await page.keyboard.type('x');
      await paste(page, 'Pasted');
      assert.equal(await editor(page).count(), 0, `${who}: no editor`);
      assert.equal(await textOf(cell(page, 'Organizations', 'Grid Alpha', 'hq_city')), 'Porto');
      if (who === 'reader') await screenshots(page, 'grid-reader');
      await context.close();
    }
  });

  it('the admin reads the change made in the table in the record history', async () => {
    const { context, page } = await open('admin@demo.test', 'admin', `/organizations/${ids['Grid Alpha']}`);
    const panel = page.getByTestId('history-panel');
    await panel.getByRole('button', { name: /History/ }).click();
    const edit = panel.getByTestId('history-entry').first();
    await edit.waitFor();
    assert.match(await edit.innerText(), /Edited\s+by research@demo\.test/);
    assert.match(await edit.locator('tr[data-change="hq_city"]').innerText(), /Lisbon\s+Porto/);

    // Admins also edit the resources only they write (intelbook sections).
    await navigateInApp(page, server.url('demo', '/sections'));
    await cell(page, 'Sections', 'Overview', 'position').dblclick();
    await editor(page).getByLabel('Position').fill('5');
    await editor(page).getByLabel('Position').press('Enter');
    await cell(page, 'Sections', 'Overview', 'position').filter({ hasText: '5' }).waitFor();
    await until(async () => (await record('/api/v1/facts/sections', ids['Overview']!))['position'] === 5, 'position saved');
    await context.close();
  });
});

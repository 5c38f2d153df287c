import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, DESKTOP, screenshots, openSignedIn } from './support/browser.ts';

const unavailable = browserUnavailable();

/** Research users are the team's curators: the hidden records they create stay theirs to read. */
describe('research users curate hidden records', { skip: unavailable ?? false }, () => {
  const { server, browser } = useServerAndBrowser(async () => {
    const demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
  });

  /** Opens `pathname` signed in as the research user (openSignedIn: no login page; signing in is sign-in.test.ts's). */
  const signIn = (page: Page, pathname: string) => openSignedIn(page, server.url('demo', pathname), 'research@demo.test', 'research');

  it('a research user creates a hidden organization, reloads its page and finds it in the list', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, '/organizations/create');
    await page.getByLabel('Legal name').fill('Quiet Harbour Capital');
    // New organizations are hidden by default.
    assert.equal(await page.getByRole('radio', { name: /Hidden/ }).isChecked(), true);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { level: 1, name: 'Quiet Harbour Capital' }).waitFor();
    assert.equal(await page.getByTestId('visibility-chip').first().innerText(), 'Hidden');
    const detailUrl = page.url();

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Quiet Harbour Capital' }).waitFor();
    assert.equal(page.url(), detailUrl);
    assert.equal(await page.getByText("Oops, we can't find a pulse...").count(), 0);
    await screenshots(page, 'research-hidden-organization');

    await page.goto(server.url('demo', '/organizations?tab=1'));
    await page.getByRole('grid', { name: 'Organizations' }).getByRole('link', { name: 'Quiet Harbour Capital' }).waitFor();

    // A visitor does not see it.
    const visitor = await browser.newContext({ viewport: DESKTOP });
    const anonymous = await visitor.newPage();
    await anonymous.goto(detailUrl);
    await anonymous.getByText(/not found|can't find/i).first().waitFor();
    await visitor.close();
    await context.close();
  });

  it('a research user creates a hidden library entry and a hidden keyword, and reloads both', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, '/library/create');
    await page.getByRole('heading', { name: 'New library entry' }).waitFor();
    await page.getByLabel('Title').fill('Harbour dossier');
    assert.equal(await page.getByRole('radio', { name: /Hidden/ }).isChecked(), true);
    await page.getByRole('button', { name: 'Create library entry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour dossier' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Harbour dossier' }).waitFor();
    assert.equal(await page.getByTestId('visibility-chip').first().innerText(), 'Hidden');

    await page.goto(server.url('demo', '/keywords/create'));
    await page.getByRole('heading', { name: 'New keyword' }).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill('harbours');
    await page.getByRole('radio', { name: /Hidden/ }).check();
    await page.getByRole('button', { name: 'Create keyword' }).click();
    await page.getByRole('heading', { level: 1, name: 'harbours' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'harbours' }).waitFor();
    await screenshots(page, 'research-hidden-keyword');
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);

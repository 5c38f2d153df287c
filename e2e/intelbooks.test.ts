/**
 * Intelbooks in the browser (issue 18): an admin makes a section, builds nested facts in the
 * editor (added in place, with visibility, moved with the keyboard and by drag and drop), shares
 * a subtree; a visitor with no account opens the link and sees only its public facts, with the
 * paywalled ones counted behind a lock and the tenant's offer; the link is a 404 on another
 * tenant's host and once revoked. The reader filters and searches, and prints clean; deleting a
 * subtree says first how many facts go.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { browserUnavailable, DESKTOP, screenshot, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('intelbooks: editor, share codes, reader', { skip: unavailable ?? false }, () => {
  let shareUrl = '';
  let shareCode = '';
  let adminToken = '';
  let keywordId = '';

  const { server, browser } = useServerAndBrowser(async () => {
    const books = await server.createTenant('books', { name: 'Books Research' });
    const other = await server.createTenant('other', { name: 'Other Research' });
    const token = (adminToken = (await server.signInAudiences(books)).admin!);
    await server.createUser(other, 'admin@other.test', { is_admin: true });
    const response = await server.request(books, {
      method: 'PATCH',
      url: '/api/v1/settings/',
      token,
      payload: { payment_access_link: 'https://pay.books.test/join', payment_access_message: 'Subscribe to read every fact.' },
    });
    assert.equal(response.statusCode, 200, response.body);
    await server.create(books, token, '/api/v1/facts/categories/', { name: 'Deals', position: 1 });
    keywordId = await server.create(books, token, '/api/v1/keywords/', { name: 'fundraising' });
  });

  /** The editor's row of the fact whose text reads `text` (its own row, not its children's). */
  const row = (page: Page, text: string): Locator => page.locator('[data-editor-fact]').filter({ has: page.getByTestId('editor-fact-text').filter({ hasText: text }) });
  /** The texts of the editor's rows, in order, each indented by its depth. */
  const outline = (page: Page) =>
    page.locator('[data-editor-fact]').evaluateAll((rows) =>
      rows.map((element) => {
        let depth = 0;
        for (let node = element.parentElement; node; node = node.parentElement) if (node.matches('li[data-testid="editor-fact"]')) depth += 1;
        return `${'  '.repeat(depth - 1)}${element.querySelector('[data-testid="editor-fact-text"]')?.textContent ?? ''}`;
      }),
    );
  const expectOutline = async (page: Page, expected: string[]) => {
    const deadline = Date.now() + 10_000;
    let lines = await outline(page);
    while (JSON.stringify(lines) !== JSON.stringify(expected) && Date.now() < deadline) {
      await page.waitForTimeout(100);
      lines = await outline(page);
    }
    assert.deepEqual(lines, expected);
  };

  /** Adds a fact in place: under `parent`, or at the root of the section when null; `shown` is its text as rendered. */
  const addFact = async (page: Page, parent: string | null, text: string, visibility: 'Hidden' | 'Paywalled' | 'Public', shown = text) => {
    if (parent === null) await page.getByRole('button', { name: 'Add a fact', exact: true }).click();
    else await row(page, parent).getByRole('button', { name: /^Add a fact under/ }).click();
    const box = page.getByRole('textbox', { name: /^New fact/ });
    await box.fill(text);
    await page.getByRole('combobox', { name: 'Visibility' }).selectOption({ label: visibility });
    await box.press('Enter');
    await row(page, shown).waitFor();
  };

  it('an admin makes a section, builds nested facts, moves them and shares a subtree', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // A section, through the generic form; saving leads back to the list.
    await openSignedIn(page, server.url('books', '/sections/create'), 'admin@books.test', 'admin');
    await page.getByRole('textbox', { name: 'Name' }).fill('Markets');
    await page.getByRole('textbox', { name: 'Description' }).fill('Who raised what, and when.');
    await page.getByRole('button', { name: 'Create section' }).click();
    await page.waitForURL(/\/sections$/);
    await page.getByRole('grid', { name: 'Sections' }).getByText('Markets').waitFor();
    await screenshots(page, 'intelbooks-sections', { hideToasts: true });

    await page.goto(server.url('books', '/facts'));
    await page.getByRole('heading', { level: 1, name: 'Intelbooks editor' }).waitFor();
    await page.getByText('No facts in this section yet.').waitFor();

    await addFact(page, null, '**Acme** raised funds in [2024](https://acme.test/news)', 'Public', 'Acme raised funds in 2024');
    await addFact(page, 'Acme raised funds', 'Series B led by *Northwind*', 'Public', 'Series B led by Northwind');
    await addFact(page, 'Acme raised funds', 'Board notes (internal)', 'Hidden');
    await addFact(page, 'Acme raised funds', 'Valuation details for members', 'Paywalled');
    await addFact(page, 'Acme raised funds', 'Valuation of $40m', 'Public');
    await addFact(page, null, 'Regulation outlook', 'Public');
    // A child may not be more visible than its parent: the form offers no more than the parent's.
    await row(page, 'Board notes').getByRole('button', { name: /^Add a fact under/ }).click();
    assert.deepEqual(await page.getByRole('combobox', { name: 'Visibility' }).locator('option').allInnerTexts(), ['Hidden']);
    await page.getByRole('textbox', { name: /^New fact/ }).press('Escape');

    // The outline: Acme's children in the order given, then the second root ('' when it is Acme's last child).
    const [seriesB, board, members, valuation, regulation] = [
      'Series B led by Northwind',
      'Board notes (internal)',
      'Valuation details for members',
      'Valuation of $40m',
      'Regulation outlook',
    ];
    const acmeThen = (children: string[], root: string | null = regulation) => [
      'Acme raised funds in 2024',
      ...children.map((child) => `  ${child}`),
      ...(root ? [root] : []),
    ];
    await expectOutline(page, acmeThen([seriesB, board, members, valuation]));
    // Bold and the link are rendered, never as markup text.
    assert.equal(await row(page, 'Acme raised funds').locator('strong').innerText(), 'Acme');
    assert.equal(await row(page, 'Acme raised funds').getByRole('link', { name: '2024' }).getAttribute('href'), 'https://acme.test/news');

    // Keyboard moves: Alt+Up, twice more at once, then indent under the fact above and out again.
    await row(page, valuation).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expectOutline(page, acmeThen([seriesB, board, valuation, members]));
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await expectOutline(page, acmeThen([valuation, seriesB, board, members]));
    assert.equal(await row(page, valuation).evaluate((element) => element === document.activeElement), true, 'the moved fact keeps the focus');
    await row(page, regulation).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expectOutline(page, acmeThen([valuation, seriesB, board, members, regulation], null));
    await page.keyboard.press('Alt+ArrowLeft');
    await expectOutline(page, acmeThen([valuation, seriesB, board, members]));

    // Drag and drop: Series B onto the top edge of Valuation of $40m (before it).
    const target = row(page, valuation);
    const box = await target.boundingBox();
    assert.ok(box);
    await row(page, 'Series B').dragTo(target, { targetPosition: { x: box.width / 2, y: 2 } });
    const afterDrag = acmeThen([seriesB, valuation, board, members]);
    await expectOutline(page, afterDrag);
    // The editor shows a move at once; the server has them all, in order, once the bar is gone.
    await page.getByRole('progressbar', { name: 'Saving the moves' }).waitFor({ state: 'detached' });
    await page.reload();
    await row(page, regulation).waitFor();
    await expectOutline(page, afterDrag);

    // Inline edit: Enter on a row edits its text.
    await row(page, 'Regulation outlook').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Fact', exact: true }).fill('Regulation outlook for *2025*');
    await page.keyboard.press('Enter');
    await row(page, 'Regulation outlook for 2025').locator('em').waitFor();
    await screenshots(page, 'intelbooks-editor', { hideToasts: true });

    // Share the Acme subtree.
    await row(page, 'Acme raised funds').getByRole('button', { name: /^More for/ }).click();
    await page.getByRole('menuitem', { name: /^Share/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Share these facts' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    shareUrl = await dialog.getByTestId('share-url').inputValue();
    shareCode = await dialog.getByTestId('share-code').innerText();
    assert.match(shareCode, /^[A-Za-z0-9]{13,}$/);
    assert.equal(shareUrl, server.url('books', `/s/${shareCode}`));
    await screenshots(page, 'intelbooks-share-dialog', { viewportOnly: true, hideToasts: true });
    await dialog.getByRole('button', { name: 'Done' }).click();
    const codes = page.getByTestId('share-codes');
    await codes.getByText(shareCode).waitFor();
    assert.equal(await codes.getByTestId('share-code-views').first().innerText(), '0');
    await context.close();
  });

  it('a visitor opens the shared link and sees only its public facts; another tenant’s host answers no longer valid', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(shareUrl);
    const shared = page.getByTestId('shared-facts');
    await shared.getByText('Series B led by').waitFor();
    const texts = await shared.getByTestId('fact-text').allInnerTexts();
    assert.deepEqual(texts, ['Acme raised funds in 2024', 'Series B led by Northwind', 'Valuation of $40m']);
    assert.equal(await shared.getByText('Board notes').count(), 0);
    assert.equal(await shared.getByText('Valuation details for members').count(), 0);
    const offer = page.getByTestId('locked-offer');
    await offer.getByText('1 more fact is locked').waitFor();
    await offer.getByText('Subscribe to read every fact.').waitFor();
    assert.equal(await offer.getByRole('link', { name: 'Unlock' }).getAttribute('href'), 'https://pay.books.test/join');
    await screenshots(page, 'intelbooks-shared-visitor');
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, 'intelbooks-shared-print');
    assert.equal(await page.locator('header').isVisible(), false, 'the header is not printed');
    await page.emulateMedia({ media: 'screen' });

    // The same code on another tenant's host.
    await page.goto(server.url('other', `/s/${shareCode}`));
    await page.getByRole('heading', { level: 1, name: 'This link is no longer valid' }).waitFor();
    await context.close();
  });

  it('the reader shows sections and trees to each audience, filters, searches and collapses', async () => {
    // Series B mentions a keyword (the editor's full form sets relations; the API does it here).
    const view = await server.request('books', { method: 'GET', url: '/api/v1/facts/view/', token: adminToken });
    type Node = { id: string; text: string; children: Node[] };
    const roots = (view.json() as { sections: { categories: { facts: Node[] }[] }[] }).sections.flatMap((section) => section.categories.flatMap((group) => group.facts));
    const seriesB = roots.flatMap((root) => root.children).find((node) => node.text.startsWith('Series B'));
    assert.ok(seriesB);
    const patched = await server.request('books', { method: 'PATCH', url: `/api/v1/facts/${seriesB.id}/`, token: adminToken, payload: { keywords: [keywordId] } });
    assert.equal(patched.statusCode, 200, patched.body);

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(server.url('books', '/'));
    await page.getByTestId('home-card-intelbooks').getByRole('link').first().click();
    await page.waitForURL(/\/facts\/view$/);
    const reader = page.getByTestId('facts-reader');
    await reader.getByRole('heading', { level: 2, name: 'Markets' }).waitFor();
    assert.deepEqual(await reader.getByTestId('fact-text').allInnerTexts(), [
      'Acme raised funds in 2024',
      'Series B led by Northwind',
      'Valuation of $40m',
      'Regulation outlook for 2025',
    ]);
    await page.getByTestId('locked-offer').getByText('1 more fact is locked').waitFor();
    await screenshots(page, 'intelbooks-reader-visitor');

    // Collapsing a fact hides its children.
    await reader.getByRole('button', { name: /^Collapse: Acme raised/ }).click();
    await reader.getByText('Series B led by').waitFor({ state: 'hidden' });
    await reader.getByRole('button', { name: /^Expand: Acme raised/ }).click();
    await reader.getByText('Series B led by').waitFor();

    // Search within: the match with its ancestors.
    await page.getByRole('searchbox', { name: 'Search the facts' }).fill('Northwind');
    await page.waitForURL(/search=Northwind/);
    await reader.getByText('Regulation outlook').waitFor({ state: 'hidden' });
    assert.deepEqual(await reader.getByTestId('fact-text').allInnerTexts(), ['Acme raised funds in 2024', 'Series B led by Northwind']);
    await screenshots(page, 'intelbooks-reader-search');
    await page.getByRole('button', { name: 'Show all facts' }).click();
    await reader.getByText('Regulation outlook').waitFor();

    // A mention chip filters by its entity; the picker shows it.
    await reader.getByTestId('fact-mentions').getByRole('button', { name: 'fundraising' }).click();
    await page.waitForURL(new RegExp(`keyword=${keywordId}`));
    await reader.getByText('Regulation outlook').waitFor({ state: 'hidden' });
    assert.deepEqual(await reader.getByTestId('fact-text').allInnerTexts(), ['Acme raised funds in 2024', 'Series B led by Northwind']);
    assert.equal(await page.getByRole('combobox', { name: 'Mentioning' }).inputValue(), 'fundraising');
    await screenshots(page, 'intelbooks-reader-keyword');
    await page.getByRole('button', { name: 'Show all facts' }).click();
    await reader.getByText('Regulation outlook').waitFor();

    // Signed in as a paywall reader: the paywalled fact shows, nothing is locked.
    await openSignedIn(page, server.url('books', '/facts/view'), 'reader@books.test', 'paywall');
    await reader.getByText('Valuation details for members').waitFor();
    assert.equal(await page.getByTestId('locked-offer').count(), 0);
    assert.equal(await reader.getByText('Board notes').count(), 0);
    await context.close();
  });

  it('the admin sees the view counted, deletes a subtree after its count, and revokes the link', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openSignedIn(page, server.url('books', '/facts'), 'admin@books.test', 'admin');
    const codes = page.getByTestId('share-codes');
    await codes.getByText(shareCode).waitFor();
    assert.equal(await codes.getByTestId('share-code-views').first().innerText(), '1');

    // Every field of a fact, in the generic form; saving leads back to the editor.
    await row(page, 'Valuation of $40m').getByRole('button', { name: /^More for/ }).click();
    await page.getByRole('menuitem', { name: /^Edit all fields/ }).click();
    await page.waitForURL(/\/facts\/[^/]+\/edit$/);
    const text = page.getByRole('textbox', { name: 'Fact' });
    assert.equal(await text.inputValue(), 'Valuation of $40m');
    await text.fill('Valuation of **$40m**');
    await screenshots(page, 'intelbooks-fact-form', { hideToasts: true });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\/facts$/);
    await row(page, 'Valuation of $40m').locator('strong').waitFor();

    // Delete: the count comes first.
    await addFact(page, 'Regulation outlook', 'Draft rules expected', 'Public');
    await row(page, 'Regulation outlook').getByRole('button', { name: /^More for/ }).click();
    await page.getByRole('menuitem', { name: /^Delete/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete 2 facts?' });
    await confirm.getByText('and the 1 fact under it will be deleted').waitFor();
    await screenshots(page, 'intelbooks-delete-confirm', { viewportOnly: true, hideToasts: true });
    await confirm.getByRole('button', { name: 'Delete 2 facts' }).click();
    await row(page, 'Regulation outlook').waitFor({ state: 'detached' });
    assert.equal(await row(page, 'Draft rules expected').count(), 0);

    // Revoke: the link stops working.
    await codes.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke' }).click();
    await codes.getByText('Revoked', { exact: true }).waitFor();
    const visitor = await browser.newContext({ viewport: DESKTOP });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(shareUrl);
    await visitorPage.getByRole('heading', { level: 1, name: 'This link is no longer valid' }).waitFor();
    await screenshots(visitorPage, 'intelbooks-link-revoked');
    await visitor.close();
    await context.close();
  });
});

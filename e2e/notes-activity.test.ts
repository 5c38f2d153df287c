// Notes and activity on a record page (docs/notes.md, docs/web.md "Notes and activity"): a
// research user comments with an @mention picked from the autocomplete; the mentioned teammate,
// on another page, gets the toast and follows it to the record, whose timeline shows the
// comment above the record's edits; visitors and paywall readers see no Activity section.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, DESKTOP, PHONE, screenshots, openSignedIn, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();

describe('notes and activity on a record page', { skip: unavailable ?? false }, () => {
  let acme: Awaited<ReturnType<E2EServer['createTenant']>>;
  let orgId = '';

  const { server, browser } = useServerAndBrowser(async () => {
    acme = await server.createTenant('acme', { name: 'Acme Research' });
    await server.createUser(acme, 'research@acme.test', { is_research: true });
    await server.createUser(acme, 'mate@acme.test', { is_research: true });
    await server.createUser(acme, 'admin@acme.test', { is_admin: true });
    await server.createUser(acme, 'reader@acme.test', {});
    const token = await server.login(acme, 'research@acme.test');
    orgId = await server.create(acme, token, '/api/v1/assets/organizations/', { name_inc: 'Notable GmbH', hq_city: 'Berlin', visibility: 'public' });
    const edited = await server.request(acme, { method: 'PATCH', url: `/api/v1/assets/organizations/${orgId}/`, token, payload: { hq_city: 'Hamburg' } });
    assert.equal(edited.statusCode, 200, edited.body);
  });

  async function newPage(t: TestContext, viewport = DESKTOP): Promise<Page> {
    const page = await browser.newPage({ viewport });
    t.after(() => page.close());
    return page;
  }

  const activity = (page: Page) => page.getByTestId('activity-section');

  it('a comment with a mention notifies the teammate, who finds it on the timeline above the edit', async (t) => {
    // The teammate is signed in elsewhere in the app, with the live stream connected.
    const mate = await newPage(t);
    await openSignedIn(mate, server.url('acme', '/'), 'mate@acme.test', 'research');
    await mate.getByRole('img', { name: 'Live updates: connected' }).waitFor();

    const page = await newPage(t);
    await openSignedIn(page, server.url('acme', `/organizations/${orgId}`), 'research@acme.test', 'research');
    const section = activity(page);
    await section.getByRole('heading', { name: 'Activity' }).waitFor();
    // The edit made before: who, what, from → to.
    const edit = section.locator('[data-activity="edit"]').first();
    await edit.getByText('Hamburg').waitFor();
    assert.match(await edit.innerText(), /research@acme\.test edited HQ city|research@acme\.test edited Hq city/i);
    assert.match(await edit.innerText(), /Berlin → Hamburg/);

    const box = section.getByRole('combobox', { name: 'Add a comment' });
    await box.click();
    await page.keyboard.type('Strong **lead**: @ma');
    const options = section.getByRole('listbox', { name: 'Teammates' });
    await options.getByRole('option', { name: /mate/ }).waitFor();
    assert.deepEqual(await options.getByRole('option').allInnerTexts().then((texts) => texts.map((text) => text.split('\n')[0])), ['mate']);
    await screenshots(page, 'notes-mention-autocomplete', { viewportOnly: true, hideToasts: true });
    await page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), 'Strong **lead**: @mate ');
    await page.keyboard.type('please call them.');
    assert.equal(await box.inputValue(), 'Strong **lead**: @mate please call them.', 'typing goes on after the mention');
    const [posted] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/notes/' && response.request().method() === 'POST'),
      section.getByRole('button', { name: 'Comment', exact: true }).click(),
    ]);
    assert.equal(posted.status(), 201, await posted.text());

    // The comment comes first, formatted, above the edit; the box is empty again.
    const first = section.locator('[data-activity]').first();
    await first.getByText('please call them.').waitFor();
    assert.equal(await first.getAttribute('data-activity'), 'comment');
    assert.equal(await first.locator('strong').innerText(), 'lead');
    assert.equal(await box.inputValue(), '');
    const kinds = await section.locator('[data-activity]').evaluateAll((items) => items.map((item) => item.getAttribute('data-activity')));
    assert.deepEqual(kinds, ['comment', 'edit', 'edit']);
    await screenshots(page, 'notes-activity-timeline', { hideToasts: true });

    // The teammate's toast stays until clicked and leads to the record.
    const toast = mate.locator('.Toastify__toast').filter({ hasText: 'mentioned you on Notable GmbH' });
    await toast.waitFor();
    assert.equal((await toast.innerText()).split('\n')[0]?.trim(), 'research@acme.test mentioned you on Notable GmbH');
    await screenshots(mate, 'notes-mention-toast', { viewportOnly: true });
    await toast.getByRole('button', { name: 'Open' }).click();
    await mate.waitForURL((url) => url.pathname === `/organizations/${orgId}`);
    const theirs = activity(mate).locator('[data-activity="comment"]').first();
    await theirs.getByText('please call them.').waitFor();
    // Not their comment: no Edit or Delete for them.
    assert.equal(await theirs.getByRole('button', { name: /Edit|Delete/ }).count(), 0);
    // The author's own comment offers both.
    assert.equal(await first.getByRole('button', { name: /^Edit your comment/ }).count(), 1);
  });

  it('an admin may delete the comment; the author edits their own', async (t) => {
    const page = await newPage(t, PHONE);
    await openSignedIn(page, server.url('acme', `/organizations/${orgId}`), 'research@acme.test', 'research');
    const section = activity(page);
    const comment = section.locator('[data-activity="comment"]').first();
    await comment.getByText('please call them.').waitFor();
    await comment.getByRole('button', { name: /^Edit your comment/ }).click();
    const editor = comment.getByRole('combobox', { name: 'Edit the comment' });
    await editor.fill('Called them: *no answer*.');
    await comment.getByRole('button', { name: 'Save' }).click();
    await section.locator('[data-activity="comment"]').first().locator('em').filter({ hasText: 'no answer' }).waitFor();
    await screenshots(page, 'notes-activity-phone', { hideToasts: true });

    const admin = await newPage(t);
    await openSignedIn(admin, server.url('acme', `/organizations/${orgId}`), 'admin@acme.test', 'admin');
    const theirs = activity(admin).locator('[data-activity="comment"]').first();
    await theirs.getByText('no answer').waitFor();
    assert.equal(await theirs.getByRole('button', { name: /^Edit/ }).count(), 0, 'an admin edits only their own');
    await theirs.getByRole('button', { name: /^Delete the comment/ }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await activity(admin).locator('[data-activity="comment"]').first().waitFor({ state: 'detached' });
  });

  it('shows visitors and paywall readers no Activity section', async (t) => {
    const visitor = await newPage(t);
    await visitor.goto(server.url('acme', `/organizations/${orgId}`));
    await visitor.getByRole('heading', { name: 'Notable GmbH' }).waitFor();
    assert.equal(await activity(visitor).count(), 0);
    assert.equal(await visitor.getByRole('heading', { name: 'Activity' }).count(), 0);

    const reader = await newPage(t);
    await openSignedIn(reader, server.url('acme', `/organizations/${orgId}`), 'reader@acme.test', 'paywall');
    await reader.getByRole('heading', { name: 'Notable GmbH' }).waitFor();
    assert.equal(await activity(reader).count(), 0);
    await screenshots(reader, 'notes-reader-no-activity', { hideToasts: true });
  });
});

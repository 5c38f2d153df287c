// The email list on screen (issue 17, docs/emails.md "Screens"): an admin pastes a signature
// block with valid, obfuscated, duplicate and invalid addresses and sees the summary and the text
// marked with the reasons; the list (50 a page) and the domains (most used first) show them with
// their counts; an address's page says who holds it; a domain's page follows its enrichment live;
// the selected addresses are deleted in bulk and the domain's count follows; an anonymous visitor
// subscribes on the tenant's host and gets the same neutral answer for a new and a known address,
// then the rate-limit message; the confirmation and unsubscribe links work, broken ones say so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { publish } from '../server/src/events/bus.ts';
import { MemoryMailTransport } from '../server/src/mail/mail.ts';
import { inTenant, systemActor } from '../server/src/resources/context.ts';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { browserUnavailable, DESKTOP, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();
const LIST = '/api/v1/dxlist';

/**
 * What an analyst pastes: a signature block and a reply's quoted header, with a name beside an
 * address, an obfuscated address, a mailto: link, an address repeated with its domain in capitals,
 * one already in the list, and two that are not addresses.
 */
const SIGNATURE = [
  '--',
  'Ann Lee | Head of Research',
  'Acme Shipping Ltd · ann.lee@acme-shipping.test · +351 21 000 0000',
  '"Bob Marsh" <bob.marsh@acme-shipping.test>',
  'Carol Diaz: carol [at] harbour-news [dot] test',
  'Press: mailto:press@harbour-news.test',
  'Cc: Ann Lee <ann.lee@ACME-SHIPPING.TEST>, Zoe Old <zoe@acme-shipping.test>',
  'Broken: dave@@harbour-news.test and erin@harbour..test',
].join('\n');

interface Item {
  id: string;
  email: string;
  name: string | null;
  source: string;
  subscription: string;
  domain: { id: string; display_name: string | null } | null;
}

describe('email list screens: paste and parse, domains, bulk delete, the public sign-up widget', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let token: string;
  // The sign-up mail is kept, so its links can be followed as the visitor would.
  const mail = new MemoryMailTransport();

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    token = await server.login(demo, 'admin@demo.test');
    // Already in the list before the paste, and held by an organization.
    const seeded = await server.request(demo, { method: 'POST', url: `${LIST}/bulk_create/parse_text/`, token, payload: { raw_text: 'zoe@acme-shipping.test' } });
    assert.equal(seeded.statusCode, 200, seeded.body);
    await server.create(demo, token, 'assets/organizations', { name_inc: 'Acme Shipping Ltd', emails: ['ann.lee@acme-shipping.test'] });
    // Few sign-ups per IP address, so the test reaches the limit (docs/emails.md).
  }, { SUBSCRIBE_RATE_LIMIT_IP_MAX: '3' }, { mail });

  const items = async (query = ''): Promise<Item[]> => {
    const response = await server.request(demo, { method: 'GET', url: `${LIST}/?limit=100${query}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json() as { results: Item[] }).results;
  };
  /** A fresh context, with `pathname` open (signed in as the admin when `signedIn`; openSignedIn: no login page). */
  const newPage = async (t: TestContext, signedIn: boolean, pathname?: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    t.after(() => context.close());
    const page = await context.newPage();
    if (signedIn) await openSignedIn(page, server.url('demo', pathname ?? '/'), 'admin@demo.test', 'admin');
    else if (pathname) await page.goto(server.url('demo', pathname));
    return page;
  };
  const grid = (page: Page, name: string) => page.getByRole('grid', { name });
  const rowOf = (page: Page, gridName: string, text: string) =>
    grid(page, gridName).getByRole('row').filter({ has: page.getByRole('link', { name: text, exact: true }) });

  it('pastes a signature block: the summary counts, the text marked with the reasons, the list and the domains with their counts', async (t) => {
    const page = await newPage(t, true);
    await page.getByTestId('nav-tabs').getByRole('tab', { name: 'Emails' }).click();
    await page.waitForURL((url) => url.pathname === '/emails' && url.searchParams.get('tab') === '1');
    await rowOf(page, 'Emails', 'zoe@acme-shipping.test').waitFor();

    await page.getByRole('button', { name: 'Paste addresses' }).click();
    const dialog = page.getByRole('dialog', { name: 'Paste addresses' });
    await dialog.getByLabel('Text with addresses').fill(SIGNATURE);
    await screenshots(page, 'emails-paste', { viewportOnly: true });
    await dialog.getByRole('button', { name: 'Find and add addresses' }).click();

    const result = page.getByRole('dialog', { name: /found/ });
    const summary = result.getByTestId('parse-summary');
    await summary.waitFor();
    const counted = async (key: string) => Number((await summary.getByTestId(`parse-count-${key}`).innerText()).trim());
    assert.equal(await counted('created'), 4, 'ann, bob, carol and press are new');
    assert.equal(await counted('duplicates'), 2, 'ann again, and zoe already in the list');
    assert.equal(await counted('invalid'), 2);

    // The text is shown as pasted, with each finding marked where it was.
    const text = result.getByTestId('parsed-text');
    const shown = await text.evaluate((pre) =>
      [...pre.childNodes].map((node) => (node.nodeName === 'MARK' ? (node.firstChild?.textContent ?? '') : (node.textContent ?? ''))).join(''),
    );
    assert.equal(shown, SIGNATURE);
    const marks = async (kind: string) => text.locator(`mark[data-kind="${kind}"]`).evaluateAll((nodes) => nodes.map((node) => node.firstChild?.textContent ?? ''));
    assert.deepEqual(await marks('created'), ['ann.lee@acme-shipping.test', 'bob.marsh@acme-shipping.test', 'carol [at] harbour-news [dot] test', 'press@harbour-news.test']);
    assert.deepEqual(await marks('duplicate'), ['ann.lee@ACME-SHIPPING.TEST', 'zoe@acme-shipping.test']);
    assert.equal((await marks('invalid')).length, 2);

    // Each duplicate and invalid stretch is listed with its line and reason, and leads to its mark.
    const duplicates = result.getByTestId('parse-duplicate-list');
    await duplicates.getByText('repeated in the text').waitFor();
    await duplicates.getByText('already in the list').waitFor();
    const invalid = result.getByTestId('parse-invalid-list');
    assert.equal(await invalid.getByRole('listitem').count(), 2);
    assert.match(await invalid.getByRole('listitem').first().innerText(), /^Line 8: /);
    await invalid.getByRole('button', { name: 'Line 8' }).first().click();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-kind')), 'invalid');
    await screenshots(page, 'emails-paste-result', { viewportOnly: true });
    await result.getByRole('button', { name: 'Done' }).click();
    await result.waitFor({ state: 'detached' });

    // The list has refreshed: the new addresses, the names found beside them, 50 rows a page.
    await rowOf(page, 'Emails', 'carol@harbour-news.test').waitFor();
    assert.match(await rowOf(page, 'Emails', 'bob.marsh@acme-shipping.test').innerText(), /Bob Marsh/);
    assert.equal((await page.getByRole('combobox', { name: /Rows per page/ }).innerText()).trim(), '50');
    const stored = await items();
    assert.deepEqual(stored.map((item) => item.email).sort(), [
      'ann.lee@acme-shipping.test',
      'bob.marsh@acme-shipping.test',
      'carol@harbour-news.test',
      'press@harbour-news.test',
      'zoe@acme-shipping.test',
    ]);
    await screenshots(page, 'emails-list');

    // The domains, most used first, with their exact counts.
    await page.getByRole('tablist', { name: 'Emails and domains' }).getByRole('tab', { name: 'Domains' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === '2');
    const acme = rowOf(page, 'Domains', 'acme-shipping.test');
    await acme.waitFor();
    const domainRows = grid(page, 'Domains').getByRole('row').filter({ has: page.getByRole('link') });
    assert.match(await domainRows.nth(0).innerText(), /acme-shipping\.test\s+3\b/);
    assert.match(await domainRows.nth(1).innerText(), /harbour-news\.test\s+2\b/);
    await screenshots(page, 'emails-domains');
  });

  it("shows who holds an address, and a domain's page following its enrichment live", async (t) => {
    const ann = (await items()).find((item) => item.email === 'ann.lee@acme-shipping.test')!;
    const page = await newPage(t, true, `/emails/${ann.id}`);
    await page.waitForURL((url) => url.pathname === `/emails/${ann.id}/edit`);
    const heldBy = page.getByRole('region', { name: 'Held by' });
    await heldBy.getByRole('link', { name: 'Acme Shipping Ltd' }).waitFor();
    await screenshots(page, 'emails-item-edit');

    // The domain's page: its count, then what enrichment found, as the worker announces it.
    const domainId = ann.domain!.id;
    await page.goto(server.url('demo', `/emails/domains/${domainId}/edit`));
    const about = page.getByRole('region', { name: 'About the domain' });
    await about.getByTestId('domain-addresses').filter({ hasText: '3 addresses in the list' }).waitFor();
    await page.getByRole('img', { name: 'Live updates: connected' }).waitFor();
    await inTenant(server.db, systemActor(demo.id), async (ctx) => {
      await ctx.tx.execute(sql`UPDATE email_domains SET enrichment_status = 'completed', enriched_at = now(), mx_found = true,
        site_title = 'Acme Shipping — container lines', updated_at = now() WHERE id = ${domainId}`);
      await publish(ctx, 'domain_info_enrich_complete', { id: domainId, updated_at: new Date().toISOString() });
    });
    await about.getByText('Acme Shipping — container lines').waitFor();
    assert.match(await about.locator('dd[data-field="mx_found"]').innerText(), /Yes/);
    await screenshots(page, 'emails-domain-edit');

    // "Show them" lists the domain's addresses.
    await about.getByRole('link', { name: 'Show them' }).click();
    await page.waitForURL((url) => url.pathname === '/emails' && url.searchParams.get('domain') === domainId);
    await rowOf(page, 'Emails', 'bob.marsh@acme-shipping.test').waitFor();
    assert.equal(await rowOf(page, 'Emails', 'carol@harbour-news.test').count(), 0);
  });

  it('exports the selected addresses as CSV, deletes them in bulk, and their domain count follows', async (t) => {
    const page = await newPage(t, true, '/emails?tab=1');
    for (const email of ['carol@harbour-news.test', 'press@harbour-news.test']) {
      await rowOf(page, 'Emails', email).getByRole('checkbox').check();
    }
    const bar = page.getByTestId('bulk-actions');
    await bar.getByTestId('bulk-selected').filter({ hasText: /^2 .* selected$/ }).waitFor();

    // The selected rows go out as CSV first (the whole filtered list as .xlsx is the Export button's).
    await bar.getByRole('button', { name: 'Export selected' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV (.csv)' }).click()]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    assert.match(csv, /carol@harbour-news\.test/);
    assert.match(csv, /press@harbour-news\.test/);
    assert.doesNotMatch(csv, /acme-shipping\.test/, 'only the selected rows');

    await bar.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Delete 2 / });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.locator('.Toastify__toast').filter({ hasText: /^Deleted 2 / }).waitFor();
    await rowOf(page, 'Emails', 'carol@harbour-news.test').waitFor({ state: 'detached' });
    assert.deepEqual((await items()).map((item) => item.email).filter((email) => email.endsWith('harbour-news.test')), []);

    await page.getByRole('tablist', { name: 'Emails and domains' }).getByRole('tab', { name: 'Domains' }).click();
    const harbour = rowOf(page, 'Domains', 'harbour-news.test');
    await harbour.waitFor();
    assert.match(await harbour.innerText(), /harbour-news\.test\s+0\b/);
  });

  it('lets an anonymous visitor subscribe on the tenant host, with the same answer for a new and a known address', async (t) => {
    const page = await newPage(t, false, '/emails/add');
    const form = page.getByRole('form', { name: 'Join the distribution list' });
    await page.getByRole('heading', { name: 'Join Demo Research’s distribution list' }).waitFor();
    // The honeypot is in the form for bots, out of people's way: off screen, out of the tab order and of assistive technology.
    assert.equal(await page.locator('input[name="website"]').count(), 1);
    assert.equal(await page.getByRole('textbox', { name: 'Website' }).count(), 0);
    await form.getByLabel('Email').fill('reader@harbour-news.test');
    await form.getByLabel('Name (optional)').fill('Rita Reader');
    await screenshots(page, 'emails-subscribe');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    const answer = page.getByTestId('subscribe-answer');
    await answer.waitFor();
    const neutral = (await answer.innerText()).trim();
    assert.match(neutral, /If the address can join the list/);
    await screenshots(page, 'emails-subscribe-answer');

    const subscribed = (await items()).find((item) => item.email === 'reader@harbour-news.test');
    assert.equal(subscribed?.subscription, 'pending');
    assert.equal(subscribed?.source, 'subscribed');
    assert.equal(subscribed?.name, 'Rita Reader');

    // An address already in the list: the very same answer, and nothing about it changes.
    await page.goto(server.url('demo', '/emails/add'));
    await form.getByLabel('Email').fill('ann.lee@acme-shipping.test');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await answer.waitFor();
    assert.equal((await answer.innerText()).trim(), neutral);

    // A bot that fills in every field: the same answer again, and nothing kept or mailed.
    await page.goto(server.url('demo', '/emails/add'));
    await form.getByLabel('Email').fill('bot@spam-farm.test');
    await page.locator('input[name="website"]').fill('https://spam-farm.test', { force: true });
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await answer.waitFor();
    assert.equal((await answer.innerText()).trim(), neutral);
    assert.equal((await items()).some((item) => item.email === 'bot@spam-farm.test'), false);
    assert.equal(mail.sent.some((message) => message.to === 'bot@spam-farm.test'), false);
  });

  /** The link of a page (confirm, unsubscribe) in the last mail sent to an address. */
  const linkInMail = (to: string, page: 'confirm' | 'unsubscribe') => {
    const text = mail.sent.filter((message) => message.to === to).at(-1)?.text ?? '';
    const link = new RegExp(`https?://\\S+/emails/${page}\\?token=[\\w-]+`).exec(text)?.[0];
    assert.ok(link, `a ${page} link in the mail to ${to}: ${text}`);
    return link;
  };

  it("confirms the subscription from the mail's link, unsubscribes after a click, and says when a link does not work", async (t) => {
    const page = await newPage(t, false);
    const confirmLink = linkInMail('reader@harbour-news.test', 'confirm');
    assert.ok(confirmLink.startsWith(server.url('demo', '/')), `the link is on the tenant's host: ${confirmLink}`);
    await page.goto(confirmLink);
    await page.getByRole('heading', { name: 'Your subscription is confirmed' }).waitFor();
    assert.equal((await items()).find((item) => item.email === 'reader@harbour-news.test')?.subscription, 'confirmed');
    await screenshots(page, 'emails-confirmed');

    // Opening the unsubscribe page changes nothing until its button is clicked.
    await page.goto(linkInMail('reader@harbour-news.test', 'unsubscribe'));
    await page.getByRole('heading', { name: 'Leave the distribution list?' }).waitFor();
    assert.equal((await items()).find((item) => item.email === 'reader@harbour-news.test')?.subscription, 'confirmed');
    await screenshots(page, 'emails-unsubscribe');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You have left the list' }).waitFor();
    assert.equal((await items()).find((item) => item.email === 'reader@harbour-news.test')?.subscription, 'unsubscribed');

    for (const link of ['/emails/confirm?token=not-a-token', '/emails/confirm', '/emails/unsubscribe']) {
      await page.goto(server.url('demo', link));
      await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    }
    await page.goto(server.url('demo', `/emails/unsubscribe?token=${'x'.repeat(43)}`));
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
  });

  it('shows the rate-limit message once the sign-ups from one IP address are used up', async (t) => {
    // The server allows SUBSCRIBE_RATE_LIMIT_IP_MAX (3 here) tries per IP address and hour: the three above used them up.
    const page = await newPage(t, false, '/emails/add');
    const form = page.getByRole('form', { name: 'Join the distribution list' });
    await form.getByLabel('Email').fill('again@harbour-news.test');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByRole('alert').filter({ hasText: 'Too many sign-ups from here just now' }).waitFor();
    assert.equal(await page.getByTestId('subscribe-answer').count(), 0);
    assert.equal((await items()).some((item) => item.email === 'again@harbour-news.test'), false);
    await screenshots(page, 'emails-subscribe-limited');
  });
});

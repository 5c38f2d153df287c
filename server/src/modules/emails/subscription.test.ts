/**
 * The public sign-up widget's calls (docs/emails.md "The sign-up widget"): double opt-in with
 * hashed tokens, one answer for every address, honeypot and time check, limits per IP and per
 * address, confirm and unsubscribe links.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { MemoryMailTransport, type MailTransport } from '../../mail/mail.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { SUBSCRIBE_MESSAGE } from './subscription.ts';

const BASE = '/api/v1/dxlist';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A form shown a minute ago: past the time check. */
const shown = () => Date.now() - 60_000;

/** Lets a test make the transport fail. */
class SwitchableTransport implements MailTransport {
  readonly memory = new MemoryMailTransport();
  failing = false;
  async send(message: Parameters<MailTransport['send']>[0]): Promise<void> {
    if (this.failing) throw new Error('the mail server is down');
    await this.memory.send(message);
  }
}

describe('public sign-up widget', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const mail = new SwitchableTransport();
  let ipCounter = 0;
  /** A fresh visitor address per call unless one is given, so limits only bite where a test wants them. */
  const nextIp = () => `192.0.2.${(ipCounter += 1) % 250}`;

  before(async () => {
    t = await createTestApp(
      { SUBSCRIBE_RATE_LIMIT_IP_MAX: '3', SUBSCRIBE_RATE_LIMIT_ADDRESS_MAX: '2', SUBSCRIBE_MIN_FORM_SECONDS: '3' },
      undefined,
      undefined,
      { mail },
    );
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const subscribe = (payload: object, options: { ip?: string; tenant?: TenantRow | string } = {}) =>
    t.request(options.tenant ?? acme, { method: 'POST', url: `${BASE}/subscribe/`, payload, remoteAddress: options.ip ?? nextIp() });
  const item = async (email: string) =>
    (await query<{ id: string; subscription: string; source: string; name: string | null; confirmed_at: Date | null; unsubscribed_at: Date | null }>(
      t.db.owner,
      sql`SELECT id, subscription, source, name, confirmed_at, unsubscribed_at FROM email_list WHERE tenant_id = ${acme.id} AND email = ${email}`,
    ))[0];
  const lastMailTo = (to: string) => [...mail.memory.sent].reverse().find((message) => message.to === to);
  const linkToken = (text: string, page: 'confirm' | 'unsubscribe') => new RegExp(`/emails/${page}\\?token=([A-Za-z0-9_-]+)`).exec(text)?.[1];

  it('a new address: 202, a pending item, a mail with the confirmation and unsubscribe links; only hashes stored', async () => {
    const response = await subscribe({ email: 'New.Reader@Example.COM', name: '  Nina   Reader ', website: '', started_at: shown() });
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(response.json(), { status: 'pending', message: SUBSCRIBE_MESSAGE });
    // Stored lower case (docs/emails.md "One address"), mailed as stored.
    const row = await item('new.reader@example.com');
    assert.equal(row?.subscription, 'pending');
    assert.equal(row?.source, 'subscribed');
    assert.equal(row?.name, 'Nina Reader');
    const message = lastMailTo('new.reader@example.com');
    assert.ok(message);
    assert.match(message.subject, /Confirm/);
    const confirm = linkToken(message.text, 'confirm');
    const unsubscribe = linkToken(message.text, 'unsubscribe');
    assert.ok(confirm && unsubscribe);
    assert.match(message.text, /^.*http:\/\/acme\.localhost:3000\/emails\/confirm\?token=/m);
    assert.equal(message.headers?.['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');
    const stored = await query<{ token_sha256: string; purpose: string }>(t.db.owner, sql`SELECT token_sha256, purpose FROM email_subscription_tokens WHERE item_id = ${row!.id} ORDER BY purpose`);
    assert.deepEqual(stored.map((token) => token.purpose), ['confirm', 'unsubscribe']);
    assert.deepEqual(stored.map((token) => token.token_sha256).sort(), [sha256(confirm), sha256(unsubscribe)].sort());
    const dump = JSON.stringify(await query(t.db.owner, sql`SELECT * FROM email_subscription_tokens`));
    assert.ok(!dump.includes(confirm) && !dump.includes(unsubscribe), 'no token is stored as such');
  });

  it('answers an address already in the list, or confirmed, exactly as a new one', async () => {
    const pasted = await t.request(acme, { method: 'POST', url: `${BASE}/bulk_create/parse_text/`, token: tokens['research'], payload: { raw_text: 'known@example.com' } });
    assert.equal(pasted.statusCode, 200);
    const fresh = await subscribe({ email: 'brand-new@example.com', started_at: shown() });
    const known = await subscribe({ email: 'known@example.com', started_at: shown() });
    assert.equal(known.statusCode, fresh.statusCode);
    assert.equal(known.body, fresh.body);
    assert.equal((await item('known@example.com'))?.subscription, 'pending');
    assert.equal((await item('known@example.com'))?.source, 'pasted');
    const token = linkToken(lastMailTo('known@example.com')!.text, 'confirm')!;
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/confirm/?token=${token}` })).statusCode, 200);
    const confirmed = await subscribe({ email: 'known@example.com', started_at: shown() });
    assert.equal(confirmed.body, fresh.body);
    assert.equal((await item('known@example.com'))?.subscription, 'confirmed', 'a confirmed address stays confirmed');
    assert.match(lastMailTo('known@example.com')!.subject, /already/);
  });

  it('confirms once per link, while the link holds; unknown, malformed and expired links are 404', async () => {
    await subscribe({ email: 'confirm-me@example.com', started_at: shown() });
    const token = linkToken(lastMailTo('confirm-me@example.com')!.text, 'confirm')!;
    const confirm = (value: string) => t.request(acme, { method: 'GET', url: `${BASE}/confirm/?token=${encodeURIComponent(value)}` });
    const first = await confirm(token);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json(), { status: 'confirmed' });
    const row = await item('confirm-me@example.com');
    assert.equal(row?.subscription, 'confirmed');
    assert.ok(row?.confirmed_at);
    assert.equal((await confirm(token)).statusCode, 200, 'a second click still reads confirmed');
    assert.equal((await confirm('A'.repeat(43))).statusCode, 404);
    assert.equal((await confirm('not a token!')).statusCode, 404);
    assert.equal((await t.request('beta', { method: 'GET', url: `${BASE}/confirm/?token=${token}` })).statusCode, 404, 'another tenant\'s link');

    await subscribe({ email: 'late@example.com', started_at: shown() });
    const late = linkToken(lastMailTo('late@example.com')!.text, 'confirm')!;
    await t.db.owner.execute(sql`UPDATE email_subscription_tokens SET expires_at = now() - interval '1 minute' WHERE token_sha256 = ${sha256(late)}`);
    assert.equal((await confirm(late)).statusCode, 404);
    assert.equal((await item('late@example.com'))?.subscription, 'pending');
    const history = (await t.request(acme, { method: 'GET', url: `${BASE}/${row!.id}/history/`, token: tokens['admin'] })).json();
    assert.equal(history.results[0].actor, 'system');
    assert.deepEqual(history.results[0].changes.subscription, { from: 'pending', to: 'confirmed' });
  });

  it('unsubscribes by POST and by RFC 8058 one-click POST, any number of times; never by GET (a link prefetcher would)', async () => {
    await subscribe({ email: 'leaver@example.com', started_at: shown() });
    const message = lastMailTo('leaver@example.com')!;
    const token = linkToken(message.text, 'unsubscribe')!;
    assert.notEqual((await t.request(acme, { method: 'GET', url: `${BASE}/unsubscribe/?token=${token}` })).statusCode, 200);
    assert.equal((await item('leaver@example.com'))?.subscription, 'pending');
    const post = await t.request(acme, { method: 'POST', url: `${BASE}/unsubscribe/?token=${token}` });
    assert.equal(post.statusCode, 200);
    assert.deepEqual(post.json(), { status: 'unsubscribed' });
    const row = await item('leaver@example.com');
    assert.equal(row?.subscription, 'unsubscribed');
    assert.ok(row?.unsubscribed_at);
    const oneClick = await t.request(acme, {
      method: 'POST',
      url: new URL(/<([^>]+)>/.exec(message.headers!['List-Unsubscribe']!)![1]!).pathname + `?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(oneClick.statusCode, 200, oneClick.body);
    assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/unsubscribe/?token=${token}` })).statusCode, 200);
    assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/unsubscribe/?token=${'B'.repeat(43)}` })).statusCode, 404);
    // Signing up again starts a new confirmation; the old unsubscribe link still works.
    await subscribe({ email: 'leaver@example.com', started_at: shown() });
    assert.equal((await item('leaver@example.com'))?.subscription, 'pending');
    assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/unsubscribe/?token=${token}` })).statusCode, 200);
    assert.equal((await item('leaver@example.com'))?.subscription, 'unsubscribed');
  });

  it('a filled honeypot or a form sent within three seconds: the same 202, nothing kept, no mail', async () => {
    const sentBefore = mail.memory.sent.length;
    const honeypot = await subscribe({ email: 'bot1@example.com', website: 'http://spam.example', started_at: shown() });
    const hasty = await subscribe({ email: 'bot2@example.com', started_at: Date.now() - 500 });
    for (const response of [honeypot, hasty]) {
      assert.equal(response.statusCode, 202);
      assert.deepEqual(response.json(), { status: 'pending', message: SUBSCRIBE_MESSAGE });
    }
    assert.equal(await item('bot1@example.com'), undefined);
    assert.equal(await item('bot2@example.com'), undefined);
    assert.equal(mail.memory.sent.length, sentBefore);
    // A browser whose clock runs ahead sends a time in the future: taken for a person.
    assert.equal((await subscribe({ email: 'fast-clock@example.com', started_at: Date.now() + 120_000 })).statusCode, 202);
    assert.equal((await item('fast-clock@example.com'))?.subscription, 'pending');
  });

  it('limits sign-ups per IP and per address with 429 and Retry-After', async () => {
    const ip = '198.51.100.7';
    for (let index = 0; index < 3; index += 1) assert.equal((await subscribe({ email: `ip${index}@example.com`, started_at: shown() }, { ip })).statusCode, 202);
    const limited = await subscribe({ email: 'ip3@example.com', started_at: shown() }, { ip });
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(await item('ip3@example.com'), undefined);
    // Bots count too: the honeypot answer does not spare the limit.
    assert.equal((await subscribe({ email: 'ip4@example.com', website: 'x', started_at: shown() }, { ip })).statusCode, 429);

    for (let index = 0; index < 2; index += 1) assert.equal((await subscribe({ email: 'target@example.com', started_at: shown() })).statusCode, 202);
    const sent = mail.memory.sent.filter((message) => message.to === 'target@example.com').length;
    const again = await subscribe({ email: 'TARGET@example.com', started_at: shown() });
    assert.equal(again.statusCode, 429, 'the address is counted whatever its case');
    assert.equal(mail.memory.sent.filter((message) => message.to === 'target@example.com').length, sent, 'no more mail to the address');
  });

  it('refuses what is no address or no form, naming the field; a host of no tenant is a 404', async () => {
    const bad = await subscribe({ email: 'not-an-address', started_at: shown() });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(Object.keys(bad.json().errors), ['email']);
    const noTime = await subscribe({ email: 'a@example.com' });
    assert.equal(noTime.statusCode, 400);
    assert.deepEqual(Object.keys(noTime.json().errors), ['started_at']);
    const extra = await subscribe({ email: 'a@example.com', started_at: shown(), admin: true });
    assert.equal(extra.statusCode, 400);
    const nul = await subscribe({ email: 'a\u0000@example.com', started_at: shown() });
    assert.equal(nul.statusCode, 400);
    assert.deepEqual(Object.keys(nul.json().errors), ['email']);
    assert.equal((await subscribe({ email: 'a@example.com', started_at: shown() }, { tenant: 'nowhere' })).statusCode, 404);
  });

  it("never mails links to another site's host: tenancy reads only the first label, the link is the deployment's", async () => {
    const foreign = await t.request(acme, {
      method: 'POST', url: `${BASE}/subscribe/`, payload: { email: 'victim@example.com', started_at: shown() }, remoteAddress: nextIp(),
      headers: { host: 'acme.attacker.example' },
    });
    assert.equal(foreign.statusCode, 503, foreign.body);
    assert.match(foreign.json().detail, /MAIN_HOST/);
    assert.equal(lastMailTo('victim@example.com'), undefined, 'no mail');
    assert.equal(await item('victim@example.com'), undefined, 'nothing kept');
  });

  it('two sign-ups of one new address at once make one item', async () => {
    const [one, two] = await Promise.all([
      subscribe({ email: 'twice@example.com', started_at: shown() }),
      subscribe({ email: 'twice@example.com', started_at: shown() }),
    ]);
    assert.equal(one.statusCode, 202);
    assert.equal(two.statusCode, 202);
    const rows = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM email_list WHERE tenant_id = ${acme.id} AND email = 'twice@example.com'`);
    assert.equal(rows[0]!.n, 1);
  });

  it('a mail transport that fails changes nothing in the answer', async () => {
    mail.failing = true;
    try {
      const response = await subscribe({ email: 'unlucky@example.com', started_at: shown() });
      assert.equal(response.statusCode, 202);
      assert.equal((await item('unlucky@example.com'))?.subscription, 'pending');
    } finally {
      mail.failing = false;
    }
  });
});

/**
 * Migration 0220 (docs/emails.md "One address"): items stored before addresses had one
 * canonical form — the local part as typed, the domain in punycode — are brought to it, and the
 * items that become one are folded into the oldest without losing its links (subscription
 * tokens), its name, notes or an unsubscribe. The test database has the migration applied
 * already; the items are written in the old forms behind the server's back, then the
 * migration's script is run again (it is written to be).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/dxlist';
const MIGRATION = readFileSync(new URL('../../db/migrations/0220_email_addresses_canonical.sql', import.meta.url), 'utf8');

describe('migration 0220: e-mail addresses in one canonical form', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const call = (tenant: TenantRow, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request(tenant, { method, url, payload, token: tenant === acme ? tokens['admin'] : tokens['beta'] });
  const runMigration = () => t.db.withAdvisoryLock('test-0220', (session) => session.execInTransaction(MIGRATION));
  /** Writes an item as the server did before 0220, `minutesAgo` old. */
  async function oldItem(tenant: TenantRow, email: string, domainId: string, minutesAgo: number, values: { name?: string; notes?: string; subscription?: string } = {}): Promise<string> {
    const [row] = await query<{ id: string }>(
      t.db.owner,
      sql`INSERT INTO email_list (tenant_id, email, domain, name, notes, subscription, source, created_at, updated_at)
          VALUES (${tenant.id}, ${email}, ${domainId}, ${values.name ?? null}, ${values.notes ?? null}, ${values.subscription ?? 'none'}, 'pasted',
                  now() - make_interval(mins => ${minutesAgo}), now() - make_interval(mins => ${minutesAgo}))
          RETURNING id`,
    );
    return row!.id;
  }

  it('folds items differing in case or in the form of their domain into the oldest, keeping its links, names, notes and unsubscribe', async () => {
    // Domain rows as the server makes them (ASCII, and Unicode beside it).
    const seeded = (await call(acme, 'POST', `${BASE}/bulk_create/parse_text/`, { raw_text: 'seed@example.com seed@münchen.de' })).json();
    const domainOf = (email: string) => (seeded.created as Array<{ email: string; domain: { id: string } }>).find((item) => item.email === email)!.domain.id;
    const example = domainOf('seed@example.com');
    const munich = domainOf('seed@münchen.de');

    const oldest = await oldItem(acme, 'Jane@example.com', example, 30, { subscription: 'confirmed', notes: 'Met in Porto.' });
    const louder = await oldItem(acme, 'JANE@example.com', example, 20, { name: 'Jane Doe', subscription: 'unsubscribed', notes: 'Asked to leave.' });
    const punycode = await oldItem(acme, 'Info@xn--mnchen-3ya.de', munich, 10, { name: 'Info desk' });
    const unique = await oldItem(acme, 'Solo@Example.com', example, 5);
    // A confirmation link mailed for the item that goes.
    await query(t.db.owner, sql`INSERT INTO email_subscription_tokens (tenant_id, token_sha256, item_id, purpose) VALUES (${acme.id}, ${'a'.repeat(64)}, ${louder}, 'unsubscribe')`);
    // Another tenant's item of the same address is its own.
    const betaDomain = (await call(beta, 'POST', `${BASE}/bulk_create/parse_text/`, { raw_text: 'other@example.com' })).json().created[0].domain.id as string;
    const betaItem = await oldItem(beta, 'JANE@example.com', betaDomain, 15);

    await runMigration();

    const rows = await query<{ id: string; email: string; name: string | null; notes: string | null; subscription: string }>(
      t.db.owner,
      sql`SELECT id, email, name, notes, subscription FROM email_list WHERE tenant_id = ${acme.id} ORDER BY email`,
    );
    assert.deepEqual(rows.map((row) => row.email), ['info@münchen.de', 'jane@example.com', 'seed@example.com', 'seed@münchen.de', 'solo@example.com']);
    const jane = rows.find((row) => row.email === 'jane@example.com')!;
    assert.equal(jane.id, oldest, 'the oldest item stays, with its id');
    assert.equal(jane.name, 'Jane Doe');
    assert.deepEqual(jane.notes?.split('\n\n').sort(), ['Asked to leave.', 'Met in Porto.']);
    assert.equal(jane.subscription, 'unsubscribed', 'an unsubscribe under one spelling holds for the address');
    assert.equal(rows.find((row) => row.email === 'info@münchen.de')!.id, punycode);
    assert.equal(rows.find((row) => row.email === 'solo@example.com')!.id, unique);
    const [token] = await query<{ item_id: string }>(t.db.owner, sql`SELECT item_id FROM email_subscription_tokens WHERE token_sha256 = ${'a'.repeat(64)}`);
    assert.equal(token!.item_id, oldest, 'the link mailed for the folded item still works');
    const [other] = await query<{ email: string }>(t.db.owner, sql`SELECT email FROM email_list WHERE id = ${betaItem}`);
    assert.equal(other!.email, 'jane@example.com');

    // The domain counts follow, and the audit says what happened.
    const domain = (await call(acme, 'GET', `${BASE}/domains/${example}/`)).json();
    assert.equal(domain.cleaned_emails_count, 3);
    const history = (await call(acme, 'GET', `${BASE}/${louder}/history/`)).json().results as Array<{ action: string }>;
    assert.deepEqual(history.map((entry) => entry.action), ['delete']);

    // The server answers in the same form: another case is the same item.
    const again = await call(acme, 'POST', `${BASE}/`, { email: 'JANE@EXAMPLE.COM' });
    assert.equal(again.statusCode, 400, again.body);
    assert.deepEqual(again.json().errors, { email: ['This address is already in the list.'] });
    const lookup = (await call(acme, 'GET', `${BASE}/search_input_form/?query=${encodeURIComponent('info@mü')}`)).json();
    assert.deepEqual(lookup.results.map((row: { email: string }) => row.email), ['info@münchen.de']);

    // Run again: nothing changes.
    await runMigration();
    const after = await query<{ email: string }>(t.db.owner, sql`SELECT email FROM email_list WHERE tenant_id = ${acme.id} ORDER BY email`);
    assert.deepEqual(after.map((row) => row.email), rows.map((row) => row.email));
  });
});

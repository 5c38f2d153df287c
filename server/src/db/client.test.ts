import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { findLiveSession } from '../auth/sessions.repository.ts';
import { hashToken } from '../auth/tokens.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { APP_ROLE, query, queryPrepared, renderedOf } from './client.ts';

type Context = { role: string; tenant: string; manage: string };
const contextNow = sql`SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant,
                              current_setting('app.manage_tenants', true) AS manage`;

describe('database transactions and statements', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let token: string;

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    token = await t.login(acme, 'admin@acme.test');
  });
  after(() => t.close());

  it('a tenant transaction runs as the app role with the tenant and capability set, and nothing leaks out of it', async () => {
    const [inside] = await t.db.withTenant({ tenantId: acme.id, manageTenants: true }, (tx) => query<Context>(tx, contextNow));
    assert.deepEqual(inside, { role: APP_ROLE, tenant: acme.id, manage: 'on' });
    const [outside] = await query<Context>(t.db.owner, contextNow);
    assert.notEqual(outside!.role, APP_ROLE);
    assert.ok(!outside!.tenant, 'the tenant setting ends with the transaction');
  });

  it('a failed transaction rolls back and the connection serves the next one', async () => {
    await assert.rejects(
      t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        await query(tx, sql`INSERT INTO keywords (tenant_id, name) VALUES (${acme.id}, 'rolled back')`);
        await query(tx, sql`SELECT 1 / 0`);
      }),
    );
    for (let i = 0; i < 12; i++) {
      const rows = await t.db.withTenant({ tenantId: acme.id }, (tx) => query(tx, sql`SELECT 1 FROM keywords WHERE name = 'rolled back'`));
      assert.equal(rows.length, 0);
    }
  });

  it('refuses a tenant id that is not a uuid (it is written into the statement)', async () => {
    await assert.rejects(t.db.withTenant({ tenantId: "x'); DROP TABLE users; --" }, async () => 1), /not a uuid/);
  });

  it('authenticates in one statement under the tenant: a token of another tenant is not found', async () => {
    const found = await findLiveSession(t.db.owner, acme.id, hashToken(token));
    assert.equal(found?.user.email, 'admin@acme.test');
    assert.equal(found?.user.is_admin, true);
    assert.ok(!('password_hash' in (found?.user ?? {})), 'the request never holds the password hash');
    assert.equal(await findLiveSession(t.db.owner, beta.id, hashToken(token)), null);
    assert.equal(await findLiveSession(t.db.owner, acme.id, hashToken('not-a-token')), null);
    const [after] = await query<Context>(t.db.owner, contextNow);
    assert.notEqual(after!.role, APP_ROLE, 'the role ends with the statement');
  });

  it('a prepared query returns what the plain query returns; it is prepared once per connection', async () => {
    const statement = sql`SELECT name FROM keywords WHERE name LIKE ${'%'} ORDER BY name LIMIT ${5}`;
    await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
      await query(tx, sql`INSERT INTO keywords (tenant_id, name) VALUES (${acme.id}, 'prepared')`);
      const plain = await query<{ name: string }>(tx, statement);
      assert.deepEqual(await queryPrepared(tx, statement), plain);
      assert.deepEqual(await queryPrepared(tx, statement), plain);
      const prepared = await query<{ name: string }>(tx, sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE '%FROM keywords WHERE name LIKE%'`);
      assert.equal(prepared.length, 1);
    });
  });

  describe('one read-only statement (readOnce)', () => {
    const echo = (text: string, number: number) =>
      renderedOf(sql`SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant,
                            ${text}::text AS text, ${number}::int AS number,
                            (SELECT count(*)::int FROM keywords WHERE name = 'read once') AS keywords`);

    before(async () => {
      for (const tenant of [acme, beta]) {
        await t.db.withTenant({ tenantId: tenant.id }, (tx) => query(tx, sql`INSERT INTO keywords (tenant_id, name) VALUES (${tenant.id}, 'read once')`));
      }
    });

    it('runs as the app role in the tenant, seeing only its rows, and its parameters arrive as sent', async () => {
      const tricky = `O'Brien \\ "quoted" $1 ; COMMIT; DROP TABLE keywords; -- ünïcødé`;
      for (const tenant of [acme, beta]) {
        // Three times each: prepared on first use on a connection, then only executed.
        for (let run = 0; run < 3; run++) {
          const [row] = await t.db.readOnce<Record<string, unknown>>({ tenantId: tenant.id }, echo(tricky, run));
          assert.deepEqual(row, { role: APP_ROLE, tenant: tenant.id, text: tricky, number: run, keywords: 1 });
        }
      }
      const [outside] = await query<Context>(t.db.owner, contextNow);
      assert.notEqual(outside!.role, APP_ROLE, 'the context ends with the statement');
    });

    it('refuses to write, and the next statement runs on a sound connection', async () => {
      const write = renderedOf(sql`INSERT INTO keywords (tenant_id, name) VALUES (${acme.id}, 'written') RETURNING id`);
      // drizzle may wrap the server's error as its cause.
      const failsWith = (pattern: RegExp) => (error: Error) => pattern.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`);
      await assert.rejects(t.db.readOnce({ tenantId: acme.id }, write), failsWith(/read-only transaction/));
      await assert.rejects(t.db.readOnce({ tenantId: acme.id }, renderedOf(sql`SELECT 1 / ${0}::int AS n`)), failsWith(/division by zero/));
      for (let run = 0; run < 12; run++) {
        const [row] = await t.db.readOnce<Record<string, unknown>>({ tenantId: acme.id }, echo('after', run));
        assert.equal(row!['keywords'], 1);
      }
      const written = await t.db.withTenant({ tenantId: acme.id }, (tx) => query(tx, sql`SELECT 1 FROM keywords WHERE name = 'written'`));
      assert.equal(written.length, 0);
    });

    it('refuses a NUL character in a parameter (a literal cannot carry one) and a tenant id that is not a uuid', async () => {
      await assert.rejects(t.db.readOnce({ tenantId: acme.id }, echo('a\u0000b', 1)), /NUL/);
      await assert.rejects(t.db.readOnce({ tenantId: 'not-a-uuid' }, echo('a', 1)), /not a uuid/);
      // Refused before anything was sent: the connections serve the next statements.
      for (let run = 0; run < 12; run++) {
        const [row] = await t.db.readOnce<Record<string, unknown>>({ tenantId: acme.id }, echo('after', run));
        assert.equal(row!['keywords'], 1);
      }
    });
  });
});

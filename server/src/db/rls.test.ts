import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { APP_ROLE, query } from './client.ts';

/** Drizzle wraps driver errors; the database's own message is the cause. */
const databaseError = (pattern: RegExp) => (error: unknown) => {
  const cause = (error as { cause?: { message?: string } }).cause;
  assert.match(cause?.message ?? String(error), pattern);
  return true;
};

describe('row-level security', () => {
  let t: TestContext;
  let a: TenantRow;
  let b: TenantRow;

  before(async () => {
    t = await createTestApp();
    a = await t.createTenant('tenant-a');
    b = await t.createTenant('tenant-b');
    await t.createUser(a, 'one@a.test');
    await t.createUser(a, 'two@a.test');
    await t.createUser(b, 'one@b.test');
  });
  after(() => t.close());

  it(`requests run as ${APP_ROLE}, which is neither superuser nor able to bypass RLS`, async () => {
    const [role] = await t.db.withTenant({ tenantId: a.id }, (tx) =>
      query<{ current_user: string; rolsuper: boolean; rolbypassrls: boolean }>(
        tx,
        sql`SELECT current_user, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user`,
      ),
    );
    assert.deepEqual(role, { current_user: APP_ROLE, rolsuper: false, rolbypassrls: false });
  });

  it(`${APP_ROLE} owns no table`, async () => {
    const owned = await query<{ relname: string }>(
      t.db.owner,
      sql`SELECT relname FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = ${APP_ROLE})`,
    );
    assert.deepEqual(owned, []);
  });

  it('every table with a tenant_id column has RLS enabled and forced, and tenant_id in its key', async () => {
    const tables = await query<{ table: string; enabled: boolean; forced: boolean; pk_has_tenant: boolean }>(
      t.db.owner,
      sql`SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
                 EXISTS (
                   SELECT 1 FROM pg_index i JOIN pg_attribute pa ON pa.attrelid = i.indrelid AND pa.attnum = ANY (i.indkey)
                   WHERE i.indrelid = c.oid AND pa.attname = 'tenant_id'
                     -- The primary key; or, for a table without one, the unique index that is its
                     -- key (search_words: its key is a text_pattern_ops index, which PostgreSQL
                     -- cannot make a primary key).
                     AND (i.indisprimary OR (i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_index p WHERE p.indrelid = c.oid AND p.indisprimary)))
                 ) AS pk_has_tenant
          FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
          WHERE c.relkind IN ('r', 'p')
            AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = c.oid AND attname = 'tenant_id' AND NOT attisdropped)
          ORDER BY 1`,
    );
    assert.ok(tables.length >= 3);
    for (const table of tables) {
      assert.ok(table.enabled && table.forced, `${table.table}: RLS enabled and forced`);
      assert.ok(table.pk_has_tenant, `${table.table}: tenant_id in the primary key (or, without one, in the unique index that is its key)`);
    }
  });

  it("under tenant A's context a raw select sees only A's users", async () => {
    const rows = await t.db.withTenant({ tenantId: a.id }, (tx) => query<{ email: string; tenant_id: string }>(tx, sql`SELECT * FROM users`));
    assert.deepEqual(rows.map((row) => row.email).sort(), ['one@a.test', 'two@a.test']);
    assert.ok(rows.every((row) => row.tenant_id === a.id));
  });

  it('with no tenant set nothing is visible', async () => {
    const rows = await t.db.withTenant({ tenantId: null }, (tx) => query(tx, sql`SELECT * FROM users`));
    assert.equal(rows.length, 0);
  });

  it("an insert for tenant B under A's context fails", async () => {
    await assert.rejects(
      t.db.withTenant({ tenantId: a.id }, (tx) =>
        tx.execute(sql`INSERT INTO users (tenant_id, email, password_hash) VALUES (${b.id}, 'x@b.test', 'x')`),
      ),
      databaseError(/row-level security/),
    );
  });

  it("an update cannot move or touch B's rows from A", async () => {
    const moved = await t.db.withTenant({ tenantId: a.id }, (tx) =>
      query(tx, sql`UPDATE users SET alias = 'pwned' WHERE tenant_id = ${b.id} RETURNING id`),
    );
    assert.equal(moved.length, 0);
    await assert.rejects(
      t.db.withTenant({ tenantId: a.id }, (tx) => tx.execute(sql`UPDATE users SET tenant_id = ${b.id}`)),
      databaseError(/row-level security/),
    );
  });

  it('the app role cannot create tenants without the manage capability', async () => {
    await assert.rejects(
      t.db.withTenant({ tenantId: a.id }, (tx) => tx.execute(sql`INSERT INTO tenants (code, name) VALUES ('rogue', 'Rogue')`)),
      databaseError(/row-level security/),
    );
  });

  it('the app role cannot read or write the migration log', async () => {
    await assert.rejects(
      t.db.withTenant({ tenantId: a.id }, (tx) => tx.execute(sql`SELECT * FROM schema_migrations`)),
      databaseError(/permission denied/),
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, queryServer, testServerUrl, type TestDatabase } from '../test/test-db.ts';
import { openPostgres, query, type Database } from './client.ts';
import { sql } from 'drizzle-orm';
import { loadMigrations, migrate, MigrationError } from './migrate.ts';

describe('migrations', () => {
  let test: TestDatabase;
  before(async () => {
    test = await createTestDatabase();
  });
  after(() => test.close());

  it('records every migration once, in order', async () => {
    const files = await loadMigrations();
    const rows = await query<{ name: string }>(test.db.owner, sql`SELECT name FROM schema_migrations ORDER BY name`);
    assert.deepEqual(
      rows.map((row) => row.name),
      files.map((file) => file.name),
    );
  });

  it('applies nothing when run again, even by two callers at once', async () => {
    const results = await Promise.all([migrate(test.db), migrate(test.db)]);
    assert.deepEqual(results, [[], []]);
  });

  it('applies new migrations in order, each in its own transaction', async () => {
    const base = await loadMigrations();
    const good = { name: '9001_probe.sql', sql: 'CREATE TABLE probe_a (id int); CREATE TABLE probe_b (id int);', checksum: 'a' };
    const bad = { name: '9002_broken.sql', sql: 'CREATE TABLE probe_c (id int); SELECT * FROM no_such_table;', checksum: 'b' };
    assert.deepEqual(await migrate(test.db, [...base, good]), ['9001_probe.sql']);
    await assert.rejects(migrate(test.db, [...base, good, bad]), (error: unknown) => {
      assert.ok(error instanceof MigrationError);
      assert.match(error.message, /9002_broken\.sql failed/);
      return true;
    });
    const tables = await query<{ relname: string }>(
      test.db.owner,
      sql`SELECT relname FROM pg_class WHERE relname LIKE 'probe_%' ORDER BY 1`,
    );
    assert.deepEqual(
      tables.map((row) => row.relname),
      ['probe_a', 'probe_b'],
      'the failed migration left nothing behind',
    );
  });

  it('refuses to run when an applied migration was edited', async () => {
    const base = await loadMigrations();
    const edited = base.map((migration, index) => (index === 0 ? { ...migration, checksum: 'edited' } : migration));
    await assert.rejects(migrate(test.db, edited), /was changed after it was applied/);
  });
});

/**
 * On an external server the owner may be a plain CREATEROLE user (README, DATABASE_URL). The
 * tables force row-level security on their owner, so such an owner's data migrations would see
 * no rows: migrate() lifts FORCE for the migration's transaction (migrate.ts, rowSecurityWrap).
 */
describe('migrations by an owner that is not a superuser', () => {
  const suffix = randomBytes(4).toString('hex');
  const owner = `intelnotes_owner_${suffix}`;
  const database = `intelnotes_owned_${suffix}`;
  let serverUrl: string;
  let db: Database;

  before(async () => {
    serverUrl = await testServerUrl();
    await queryServer(serverUrl, `CREATE ROLE ${owner} LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS`);
    await queryServer(serverUrl, `CREATE DATABASE ${database} OWNER ${owner}`);
    // The app role is the server's, made by the first database migrated there: a later owner
    // is granted it (README, DATABASE_URL).
    await queryServer(serverUrl, `GRANT intelnotes_app TO ${owner}`);
    const url = new URL(serverUrl);
    url.username = owner;
    url.pathname = `/${database}`;
    db = await openPostgres(url.toString(), 2);
  });
  after(async () => {
    await db?.close();
    await queryServer(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await queryServer(serverUrl, `DROP ROLE IF EXISTS ${owner}`);
  });

  it("applies every migration, and a data migration reaches every tenant's rows", async () => {
    const base = await loadMigrations();
    assert.equal((await migrate(db, base)).length, base.length);
    const probe = (name: string, text: string) => ({ name, sql: text, checksum: name });
    const tables = probe(
      '9101_probe_table.sql',
      `CREATE TABLE probe_rows (tenant_id uuid NOT NULL, n int NOT NULL);
       ALTER TABLE probe_rows ENABLE ROW LEVEL SECURITY;
       ALTER TABLE probe_rows FORCE ROW LEVEL SECURITY;
       CREATE POLICY tenant_isolation ON probe_rows USING (tenant_id = app_tenant_id());`,
    );
    const rows = probe('9102_probe_rows.sql', 'INSERT INTO probe_rows VALUES (gen_random_uuid(), 1), (gen_random_uuid(), 1);');
    const rewrite = probe('9103_probe_rewrite.sql', 'UPDATE probe_rows SET n = n + 1;');
    assert.deepEqual(
      await migrate(db, [...base, tables, rows, rewrite]),
      ['9101_probe_table.sql', '9102_probe_rows.sql', '9103_probe_rewrite.sql'],
    );

    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    const asSuperuser = url.toString();
    assert.deepEqual(await queryServer(asSuperuser, 'SELECT n FROM probe_rows ORDER BY n'), [{ n: 2 }, { n: 2 }]);
    const unforced = await queryServer(
      asSuperuser,
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity AND NOT c.relforcerowsecurity`,
    );
    assert.deepEqual(unforced, [], 'every table forces row-level security again after the migrations');
  });
});

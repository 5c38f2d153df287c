import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { query } from './client.ts';
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

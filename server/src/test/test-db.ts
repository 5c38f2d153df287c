/**
 * A fresh, migrated database for one test file: in-memory PGlite by default,
 * or a new database on the PostgreSQL server named by TEST_DATABASE_URL
 * (dropped again at close). Requests still run as the non-superuser app role.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { RESOURCES } from '../modules/registry.ts';
import { applySearchIndexes, searchSchemaFingerprint } from '../resources/search-index.ts';

export interface TestDatabase {
  db: Database;
  engine: 'pglite' | 'postgres';
  /** On a server: the test database's URL, for a second connection pool (a second process). */
  url?: string;
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env['TEST_DATABASE_URL'];
  return serverUrl ? createServerDatabase(serverUrl) : createPgliteDatabase();
}

/**
 * PGlite's first start (initdb in WASM) takes seconds; restoring a dump of an
 * already-migrated instance takes a fraction of that. The dump is cached in
 * the OS temp folder, keyed by the migrations' checksums.
 */
async function createPgliteDatabase(): Promise<TestDatabase> {
  const migrations = await loadMigrations();
  const key = createHash('sha256')
    .update([...migrations.map((migration) => migration.checksum), searchSchemaFingerprint(RESOURCES)].join(','))
    .digest('hex')
    .slice(0, 16);
  const templatePath = path.join(os.tmpdir(), `intelnotes-pglite-template-${key}.tar`);

  let template: Blob | undefined;
  try {
    template = new Blob([await readFile(templatePath)]);
  } catch {
    template = undefined;
  }
  const db = await openPglite(null, template);
  if (!template) {
    await migrate(db, migrations);
    await applySearchIndexes(db, RESOURCES);
    const dump = await db.client.dumpDataDir('none');
    const partial = `${templatePath}.${process.pid}.tmp`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, templatePath);
  }
  return { db, engine: 'pglite', close: () => db.close() };
}

async function createServerDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `intelnotes_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 5);
  await migrate(db);
  await applySearchIndexes(db, RESOURCES);
  return {
    db,
    engine: 'postgres',
    url: url.toString(),
    close: async () => {
      await db.close();
      await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function runOnServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

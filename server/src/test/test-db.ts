/**
 * A fresh, migrated database for one test file on a PostgreSQL server: the one TEST_DATABASE_URL
 * names (`npm test` starts an embedded server for the run and names it; CI also runs the suite
 * against the machine's server), dropped again at close. Requests still run as the
 * non-superuser app role.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, type Database } from '../db/client.ts';
import { startEmbeddedServer } from '../db/embedded-server.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { RESOURCES } from '../modules/registry.ts';
import { applySearchIndexes, searchSchemaFingerprint } from '../resources/search-index.ts';

export interface TestDatabase {
  db: Database;
  /** The test database's URL, for a second connection pool (a second process). */
  url: string;
  close(): Promise<void>;
}

/** On the test server, or on another server the test started (a primary with a replica: test/replica-cluster.ts). */
export async function createTestDatabase(serverUrl?: string): Promise<TestDatabase> {
  return createServerDatabase(serverUrl ?? (await testServerUrl()));
}

/** Durability is not what the tests test: without fsync the server is several times faster. */
export const TEST_SERVER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' };

let ownServer: Promise<string> | null = null;

/**
 * TEST_DATABASE_URL, or — for a test file run on its own, outside `npm test` — an embedded
 * server of this process's, in a temporary folder removed when the process exits.
 */
export function testServerUrl(): Promise<string> {
  const url = process.env['TEST_DATABASE_URL'];
  if (url) return Promise.resolve(url);
  return (ownServer ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-test-pg-'));
    const server = await startEmbeddedServer({ dir: path.join(dir, 'postgres'), settings: TEST_SERVER_SETTINGS, log: () => {} });
    process.once('exit', () => {
      try {
        process.kill(server.pid, 'SIGQUIT');
      } catch {
        // already gone
      }
      rmSync(dir, { recursive: true, force: true });
    });
    return server.urlOf();
  })());
}

/** The schema a test database gets: the migrations and the search indexes the catalog declares. */
function schemaKey(migrations: Awaited<ReturnType<typeof loadMigrations>>): string {
  return createHash('sha256')
    .update([...migrations.map((migration) => migration.checksum), searchSchemaFingerprint(RESOURCES)].join(','))
    .digest('hex')
    .slice(0, 16);
}

/**
 * On the server each test file's database is a copy of a migrated template database
 * (`CREATE DATABASE … TEMPLATE`), made once per schema: copying takes a fraction of
 * migrating. The template is built under another name and renamed when complete, so a
 * test process killed halfway never leaves a half-migrated template behind.
 */
async function createServerDatabase(serverUrl: string): Promise<TestDatabase> {
  const template = await serverTemplate(serverUrl);
  const name = `intelnotes_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  // Copying needs the template free of connections: one copy at a time across processes.
  await runOnServer(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`, TEMPLATE_LOCK);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 5);
  return {
    db,
    url: url.toString(),
    close: async () => {
      await db.close();
      await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** An advisory lock key (on the server's maintenance database) serializing template work. */
const TEMPLATE_LOCK = 0x696e_746e;

async function serverTemplate(serverUrl: string): Promise<string> {
  const template = `intelnotes_template_${schemaKey(await loadMigrations())}`;
  const exists = async () =>
    (await queryServer(serverUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [template])).length > 0;
  if (await exists()) return template;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    if (await exists()) return template; // another test process built it meanwhile
    const building = `${template}_building`;
    await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${building}`);
    const url = new URL(serverUrl);
    url.pathname = `/${building}`;
    const db = await openPostgres(url.toString(), 1);
    try {
      await migrate(db);
      await applySearchIndexes(db, RESOURCES);
    } finally {
      await db.close();
    }
    await client.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    return template;
  } finally {
    await client.end();
  }
}

/** One statement on the server's maintenance database as the superuser of the URL. */
export async function queryServer(serverUrl: string, statement: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

async function runOnServer(serverUrl: string, statement: string, lock?: number): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    if (lock !== undefined) await client.query('SELECT pg_advisory_lock($1)', [lock]);
    await client.query(statement);
  } finally {
    await client.end(); // ends the session, releasing its advisory lock
  }
}

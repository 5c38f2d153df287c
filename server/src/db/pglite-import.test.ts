/**
 * The one-time move from PGlite (issue 25 point 1), on a real old data folder: one made as the
 * earlier version's start made it (openPglite on DATA_DIR/pglite, migrate, the search indexes,
 * the seeded tenants) and written through the app, imported into fresh databases on the
 * PostgreSQL server, then read through the app again. Needs a PostgreSQL server as a superuser:
 * the test run's (test/test-db.ts testServerUrl).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { closeOcrWorker } from '../processing/text/index.ts';
import { RESOURCES } from '../modules/registry.ts';
import { applySearchIndexes } from '../resources/search-index.ts';
import { FileStore } from '../storage/files.ts';
import { LocalDriver } from '../storage/local.ts';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, seedTenants } from '../tenancy/seed.ts';
import { openPostgres, query, type Database } from './client.ts';
import { openPglite } from '../test/pglite-legacy.ts';
import { testServerUrl } from '../test/test-db.ts';
import { call, killAll, start } from '../test/processes.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { importPgliteFolder, importPgliteIfPresent, pgliteImportOf, PgliteImportError, restoreStatements, splitStatements } from './pglite-import.ts';


const READER_EMAIL = 'reader@demo.example';
const READER_PASSWORD = 'a reader of the old days';
const quiet = { log: () => {} };

type Request = (host: string, options: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>;
const DEFAULT_HOST = 'localhost:3000';
const DEMO_HOST = 'demo.localhost:3000';

/** The app on a database, as tests build it (a local file store in a temporary folder). */
async function appOn(db: Database, filesDir: string): Promise<{ app: FastifyInstance; request: Request }> {
  const config = loadConfig({ NODE_ENV: 'test', WEB_DIST: '/nonexistent' });
  const app = await buildApp({ config, db, files: new FileStore(new LocalDriver(filesDir), db), logger: false });
  await app.ready();
  const request: Request = (host, { token, headers, ...options }) =>
    app.inject({ ...options, headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { app, request };
}

async function login(request: Request, host: string, email: string, password: string): Promise<string> {
  const response = await request(host, { method: 'POST', url: '/api/v1/auth/login/', payload: { email, password } });
  assert.equal(response.statusCode, 200, `login ${email} on ${host}: ${response.body}`);
  return response.json().token as string;
}

/** What the old app answered, read again from the imported database: lists, counts and searches. */
async function snapshot(request: Request, tokens: { demo: string; default: string }) {
  const get = async (host: string, url: string, token?: string) => {
    const response = await request(host, { method: 'GET', url, ...(token ? { token } : {}) });
    assert.equal(response.statusCode, 200, `GET ${url}: ${response.body}`);
    return response.json() as Record<string, unknown> & { results: Array<{ id: string }> };
  };
  const ids = (body: { results: Array<{ id: string }> }) => body.results.map((row) => row.id).sort();
  return {
    organizations: await get(DEMO_HOST, '/api/v1/assets/organizations/?ordering=name_inc', tokens.demo),
    people: await get(DEMO_HOST, '/api/v1/assets/people/', tokens.demo),
    ledger: await get(DEMO_HOST, '/api/v1/assets/ledger/', tokens.demo),
    publicOrganizations: await get(DEMO_HOST, '/api/v1/assets/organizations/'),
    defaultOrganizations: await get(DEFAULT_HOST, '/api/v1/assets/organizations/', tokens.default),
    counts: await get(DEMO_HOST, '/api/v1/tools/entities-count/', tokens.demo),
    publicCounts: await get(DEMO_HOST, '/api/v1/tools/free-ahead-entities-count/'),
    listSearch: ids(await get(DEMO_HOST, '/api/v1/assets/organizations/?search=zanzibar', tokens.demo)),
    quickSearch: ids(await get(DEMO_HOST, '/api/v1/search/?q=zanzib', tokens.demo)),
    accentSearch: ids(await get(DEMO_HOST, '/api/v1/assets/people/?search=lovelace', tokens.demo)),
    users: ids(await get(DEMO_HOST, '/api/v1/users/', tokens.demo)),
  };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

interface OldFolder {
  expected: Snapshot;
  /** A token the old app issued (sessions are data too). */
  oldToken: string;
  organizationIds: { zanzibar: string; quokka: string };
}

/**
 * DATA_DIR/pglite as the earlier version left it: its start (startup.ts: openDatabase →
 * openPglite on the folder, migrate, applySearchIndexes; main.ts: seedTenants), then records
 * written through its app, so counters, search columns and row-level security hold real data.
 */
async function makeOldFolder(dir: string, filesDir: string): Promise<OldFolder> {
  await mkdir(dir, { recursive: true });
  const db = await openPglite(dir);
  try {
    await migrate(db);
    await applySearchIndexes(db, RESOURCES);
    await seedTenants(db, { email: null, password: null });
    const { app, request } = await appOn(db, filesDir);
    try {
      const tokens = {
        demo: await login(request, DEMO_HOST, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD),
        default: await login(request, DEFAULT_HOST, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD),
      };
      const create = async (host: string, url: string, payload: Record<string, unknown>, token: string) => {
        const response = await request(host, { method: 'POST', url, token, payload });
        assert.equal(response.statusCode, 201, `POST ${url}: ${response.body}`);
        return response.json().id as string;
      };
      const zanzibar = await create(DEMO_HOST, '/api/v1/assets/organizations/', { name_inc: 'Zanzibar Trading Ltd', hq_city: 'Stone Town', visibility: 'public' }, tokens.demo);
      const quokka = await create(DEMO_HOST, '/api/v1/assets/organizations/', { name_inc: 'Quokka Holdings', visibility: 'hidden' }, tokens.demo);
      const ada = await create(DEMO_HOST, '/api/v1/assets/people/', { name_given: 'Ada', name_family: 'Lövelace', visibility: 'paywalled' }, tokens.demo);
      await create(DEMO_HOST, '/api/v1/assets/ledger/', { caption: 'Series A', year: 2024, quarter: 'Q1', visibility: 'public', organizations: [zanzibar, quokka], people: [ada] }, tokens.demo);
      await create(DEFAULT_HOST, '/api/v1/assets/organizations/', { name_inc: 'Zanzibar Default Org', visibility: 'public' }, tokens.default);
      await create(DEMO_HOST, '/api/v1/users/', { email: READER_EMAIL, password: READER_PASSWORD }, tokens.demo);
      const expected = await snapshot(request, tokens);
      // The data is what the test thinks it is (else equal snapshots would prove little).
      assert.deepEqual(expected.listSearch, [zanzibar]);
      assert.ok(expected.quickSearch.includes(zanzibar));
      assert.deepEqual(expected.accentSearch, [ada]);
      assert.equal(expected.organizations['count'], 2);
      assert.equal(expected.publicOrganizations['count'], 1);
      assert.equal(expected.users.length, 2);
      return { expected, oldToken: tokens.demo, organizationIds: { zanzibar, quokka } };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

/** A fingerprint of every file in a folder (names and bytes): "left untouched". */
async function folderHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (folder: string): Promise<void> => {
    for (const entry of (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, entry.name);
      hash.update(path.relative(dir, full));
      if (entry.isDirectory()) await walk(full);
      else hash.update(await readFile(full));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}

async function onServer<T>(statement: string, values: unknown[] = [], url?: string): Promise<T[]> {
  url ??= await testServerUrl();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Objects (relations, functions) in a database, extensions' own excepted: 0 is empty. */
async function objectsIn(url: string): Promise<number> {
  const [row] = await onServer<{ count: string }>(
    `SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%')
          + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
              WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')) AS count`,
    [],
    url,
  );
  return Number(row!.count);
}

describe('importing an earlier version’s PGlite folder into PostgreSQL', () => {
  let root: string;
  let fixture: string;
  let old: OldFolder;
  let fixtureHash: string;
  const databases: string[] = [];

  /** A fresh, empty database on the server, dropped after the file. */
  const freshDatabase = async () => {
    const name = `intelnotes_pglite_import_${randomBytes(5).toString('hex')}`;
    await onServer(`CREATE DATABASE ${name}`);
    databases.push(name);
    const url = new URL(await testServerUrl());
    url.pathname = `/${name}`;
    return url.toString();
  };

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-pglite-import-'));
    fixture = path.join(root, 'old-data', 'pglite');
    // Made once for the file: PGlite's first start takes seconds.
    old = await makeOldFolder(fixture, path.join(root, 'old-files'));
    fixtureHash = await folderHash(fixture);
  });

  after(async () => {
    killAll();
    await closeOcrWorker();
    for (const name of databases) await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await rm(root, { recursive: true, force: true });
  });

  it('copies everything: the app signs the old admin in, and the records, counts and searches come back', async () => {
    const url = await freshDatabase();
    const messages: string[] = [];
    const result = await importPgliteFolder({ pgliteDir: fixture, targetUrl: url, log: (message) => messages.push(message) });
    assert.ok(result.tables >= 40, `tables: ${result.tables}`);
    assert.ok(result.rows > 10, `rows: ${result.rows}`);
    assert.ok(messages.some((message) => message.includes(`copied ${result.tables} tables`)), messages.join('\n'));
    assert.equal(await folderHash(fixture), fixtureHash, 'the old folder is left as it was');

    const db = await openPostgres(url, 3);
    try {
      // The normal start: nothing to migrate, no search column to rebuild (their signatures came along).
      assert.deepEqual(await migrate(db), []);
      assert.deepEqual(await applySearchIndexes(db, RESOURCES), []);
      const { app, request } = await appOn(db, path.join(root, 'new-files'));
      try {
        const tokens = {
          demo: await login(request, DEMO_HOST, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD),
          default: await login(request, DEFAULT_HOST, DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD),
        };
        await login(request, DEMO_HOST, READER_EMAIL, READER_PASSWORD);
        const wrong = await request(DEMO_HOST, { method: 'POST', url: '/api/v1/auth/login/', payload: { email: DEFAULT_ADMIN_EMAIL, password: 'not it' } });
        assert.equal(wrong.statusCode, 401);
        const me = await request(DEMO_HOST, { method: 'GET', url: '/api/v1/auth/me/', token: old.oldToken });
        assert.equal(me.statusCode, 200, 'a session of the old app is still valid');

        assert.deepEqual(await snapshot(request, tokens), old.expected);

        // A record written now: searchable, and counted once (entity_counters below).
        const created = await request(DEMO_HOST, { method: 'POST', url: '/api/v1/assets/organizations/', token: tokens.demo, payload: { name_inc: 'Zanzibar Second', visibility: 'public' } });
        assert.equal(created.statusCode, 201, created.body);
        const listed = (await request(DEMO_HOST, { method: 'GET', url: '/api/v1/assets/organizations/?search=zanzibar', token: tokens.demo })).json();
        assert.equal(listed.count, 2);
      } finally {
        await app.close();
      }

      // Row-level security as the app role: each tenant sees its own rows only.
      const tenants = await query<{ id: string; code: string }>(db.owner, sql`SELECT id, code FROM tenants ORDER BY code`);
      const seen: Record<string, string[]> = {};
      for (const tenant of tenants) {
        seen[tenant.code] = (
          await db.withTenant({ tenantId: tenant.id }, (tx) => query<{ name_inc: string }>(tx, sql`SELECT name_inc FROM organizations ORDER BY name_inc`))
        ).map((row) => row.name_inc);
      }
      assert.deepEqual(seen, { default: ['Zanzibar Default Org'], demo: ['Quokka Holdings', 'Zanzibar Second', 'Zanzibar Trading Ltd'] });
      const counters = await db.withTenant({ tenantId: tenants.find((tenant) => tenant.code === 'demo')!.id }, (tx) =>
        query<{ visibility: string; count: string }>(tx, sql`SELECT visibility, count::text FROM entity_counters WHERE kind = 'organizations' ORDER BY visibility`),
      );
      // Copied (one of each before), then one more by the trigger: not counted again while copying.
      assert.deepEqual(counters, [{ visibility: 'hidden', count: '1' }, { visibility: 'public', count: '2' }]);

      // The operator marks migrate made as a superuser, which a dump does not carry.
      const marks = await query<{ name: string; leakproof: boolean }>(
        db.owner,
        sql`SELECT proname AS name, proleakproof AS leakproof FROM pg_proc
            WHERE proname IN ('textlike', 'word_similarity_op', 'word_similarity_commutator_op', 'ts_match_vq') ORDER BY proname`,
      );
      assert.deepEqual(marks.map((mark) => `${mark.name}:${mark.leakproof}`), [
        'textlike:true', 'ts_match_vq:true', 'word_similarity_commutator_op:true', 'word_similarity_op:true',
      ]);

      // Later migrations are applied on top, and only they: the migration log came along.
      const later = { name: '9999_after_the_import.sql', sql: 'CREATE TABLE after_the_import (id int);', checksum: 'later' };
      assert.deepEqual(await migrate(db, [...(await loadMigrations()), later]), [later.name]);
    } finally {
      await db.close();
    }

    // Once: the imported database is refused, and says where it came from.
    const record = await pgliteImportOf(url);
    assert.equal(record?.source, fixture);
    assert.equal(record?.rows, result.rows);
    await assert.rejects(
      importPgliteFolder({ pgliteDir: fixture, targetUrl: url, ...quiet }),
      (error: Error) => error instanceof PgliteImportError && /already holds an intelnotes database/.test(error.message),
    );
  });

  it('importPgliteIfPresent imports DATA_DIR/pglite once and moves it aside; refuses a target that holds other data', async () => {
    const dataDir = path.join(root, 'data-dir');
    const folder = path.join(dataDir, 'pglite');
    await cp(fixture, folder, { recursive: true });
    const url = await freshDatabase();

    const first = await importPgliteIfPresent({ dataDir, targetUrl: url, ...quiet });
    assert.ok(first);
    assert.match(first.movedTo, /pglite\.imported-\d{8}T\d{6}Z$/);
    assert.equal(await folderHash(first.movedTo), fixtureHash, 'moved, not changed');
    await assert.rejects(stat(folder), { code: 'ENOENT' });
    assert.equal(await importPgliteIfPresent({ dataDir, targetUrl: url, ...quiet }), null, 'no folder: nothing to do');

    // A start stopped between the import and the rename: the folder is back, the target records
    // its import; only the rename is left to do.
    await cp(fixture, folder, { recursive: true });
    const imported = await pgliteImportOf(url);
    const again = await importPgliteIfPresent({ dataDir, targetUrl: url, ...quiet });
    assert.ok(again && again.movedTo !== first.movedTo);
    assert.deepEqual(await pgliteImportOf(url), imported, 'not imported twice');
    await assert.rejects(stat(folder), { code: 'ENOENT' });

    // A target with its own intelnotes data: refused, both left alone.
    await cp(fixture, folder, { recursive: true });
    const other = await freshDatabase();
    const db = await openPostgres(other, 1);
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await assert.rejects(
      importPgliteIfPresent({ dataDir, targetUrl: other, ...quiet }),
      (error: Error) => error instanceof PgliteImportError && /already holds intelnotes data/.test(error.message) && error.message.includes(folder),
    );
    assert.equal(await folderHash(folder), fixtureHash);
  });

  it('the command imports DATA_DIR/pglite into DATABASE_URL once', async () => {
    const dataDir = path.join(root, 'command-data-dir');
    await cp(fixture, path.join(dataDir, 'pglite'), { recursive: true });
    const url = await freshDatabase();
    const cli = fileURLToPath(new URL('./pglite-import-cli.ts', import.meta.url));
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', cli], {
        env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: url },
      });
    const first = await run();
    assert.match(first.stdout, /intelnotes: imported \d+ tables, \d+ rows; the old folder is now .*pglite\.imported-/);
    assert.equal((await pgliteImportOf(url))?.source, path.join(dataDir, 'pglite'));
    const second = await run();
    assert.match(second.stdout, /nothing to import/);
  });

  it('npm start on a DATA_DIR holding an earlier version\'s pglite folder imports it once into the embedded server and serves its data', async () => {
    const dataDir = path.join(root, 'start-data-dir');
    await cp(fixture, path.join(dataDir, 'pglite'), { recursive: true });
    const product = start({ DATA_DIR: dataDir, PORT: '0', WORKERS: '1' }, 'src/main.ts');
    try {
      const [, port] = await product.waitFor(/serving on http:\/\/localhost:(\d+)/);
      assert.match(product.output(), /imported the data of the earlier embedded database/);
      assert.doesNotMatch(product.output(), /first start/, 'the old tenants came along: nothing seeded');
      const host = `demo.localhost:${port}`;
      const login = await call(port!, host, 'POST', '/api/v1/auth/login/', { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD });
      assert.equal(login.status, 200);
      const found = await call(port!, host, 'GET', '/api/v1/assets/organizations/?search=zanzibar', undefined, login.json.token);
      assert.deepEqual(found.json.results.map((row: { id: string }) => row.id), [old.organizationIds.zanzibar]);
      const entries = await readdir(dataDir);
      assert.ok(!entries.includes('pglite') && entries.some((name) => name.startsWith('pglite.imported-')), entries.join(', '));
    } finally {
      product.child.kill('SIGTERM');
      assert.equal(await product.exited, 0);
    }
  });

  it('a folder that is not a PGlite folder, or is damaged, is refused with the target left empty and the folder unchanged', async () => {
    const url = await freshDatabase();
    const empty = path.join(root, 'empty', 'pglite');
    await mkdir(empty, { recursive: true });
    await assert.rejects(
      importPgliteFolder({ pgliteDir: empty, targetUrl: url, ...quiet }),
      (error: Error) => error instanceof PgliteImportError && /is not a PGlite data folder/.test(error.message),
    );
    assert.deepEqual(await readdir(empty), [], 'PGlite did not initialise a new database in it');

    const damaged = path.join(root, 'damaged', 'pglite');
    await cp(fixture, damaged, { recursive: true });
    await writeFile(path.join(damaged, 'global', 'pg_control'), Buffer.alloc(8192, 7));
    const damagedHash = await folderHash(damaged);
    await assert.rejects(
      importPgliteFolder({ pgliteDir: damaged, targetUrl: url, ...quiet }),
      (error: Error) => error instanceof PgliteImportError && /PGlite could not open/.test(error.message) && /folder is unchanged/.test(error.message),
    );
    assert.equal(await folderHash(damaged), damagedHash);
    assert.equal(await objectsIn(url), 0);
    assert.equal(await pgliteImportOf(url), null);
  });

  it('a failure halfway through the restore rolls everything back: the target is empty again', async () => {
    // A row the target refuses only at the end (its foreign key is added after the rows are in):
    // written with the foreign keys' triggers off, as a damaged database could hold it.
    const broken = path.join(root, 'broken', 'pglite');
    await cp(fixture, broken, { recursive: true });
    const db = await openPglite(broken);
    try {
      await db.client.exec(`SET session_replication_role = replica;
        INSERT INTO entity_counters (tenant_id, kind, visibility, count) VALUES (gen_random_uuid(), 'organizations', 'public', 1);
        SET session_replication_role = origin;`);
    } finally {
      await db.close();
    }
    const brokenHash = await folderHash(broken);
    const url = await freshDatabase();
    await assert.rejects(importPgliteFolder({ pgliteDir: broken, targetUrl: url, ...quiet }), (error: Error) => {
      assert.ok(error instanceof PgliteImportError, String(error));
      assert.match(error.message, /entity_counters/);
      assert.match(error.message, /foreign key/);
      assert.match(error.message, /Nothing was imported/);
      return true;
    });
    assert.equal(await objectsIn(url), 0, 'nothing is left in the target');
    assert.equal(await pgliteImportOf(url), null);
    assert.equal(await folderHash(broken), brokenHash);
  });

  it('leaves out the settings an older server lacks, and restores with public on the search path', () => {
    const dump = [
      'SET statement_timeout = 0;',
      'SET transaction_timeout = 0;',
      "SELECT pg_catalog.set_config('search_path', '', false);",
      "INSERT INTO public.t VALUES ('SET transaction_timeout = 0;');",
    ].join('\n');
    const skipped: string[] = [];
    assert.deepEqual(restoreStatements(dump, new Set(['statement_timeout']), (message) => skipped.push(message)), [
      'SET statement_timeout = 0;',
      "SELECT pg_catalog.set_config('search_path', 'public, pg_catalog', false);",
      "INSERT INTO public.t VALUES ('SET transaction_timeout = 0;');",
    ]);
    assert.equal(skipped.length, 1);
    assert.match(skipped[0]!, /transaction_timeout/);
    assert.throws(() => restoreStatements('\\connect other\nSELECT 1;', new Set(), () => {}), /psql command/);
  });

  it('splits a dump at the semicolons that end statements only', () => {
    const script = [
      "-- a comment; not a statement\nSET a = 'x;y';",
      "INSERT INTO t VALUES ('it''s; fine', E'back\\'slash;', \"odd;name\");",
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $body$ SELECT 1; $body$;',
      'CREATE FUNCTION g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN true THEN 1 END; SELECT 2; END;',
      '/* a /* nested */ comment; */ SELECT $1;',
      'SELECT 3',
    ].join('\n');
    assert.deepEqual(splitStatements(script), [
      "SET a = 'x;y';",
      "INSERT INTO t VALUES ('it''s; fine', E'back\\'slash;', \"odd;name\");",
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $body$ SELECT 1; $body$;',
      'CREATE FUNCTION g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN true THEN 1 END; SELECT 2; END;',
      'SELECT $1;',
      'SELECT 3',
    ]);
  });
});

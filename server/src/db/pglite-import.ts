/**
 * Moves an earlier version's embedded database — PGlite, in `DATA_DIR/pglite` — into the
 * PostgreSQL server that is the embedded default now, once (docs/pglite-import.md).
 *
 * How: PGlite opens a scratch copy of the folder (the folder itself is only read), the WASM
 * build of pg_dump (@electric-sql/pglite-tools) dumps the whole database as SQL, and the dump
 * runs on the target in one transaction together with what a dump does not carry: the app
 * role (a cluster-wide object), the LEAKPROOF marks migrations put on built-in and extension
 * functions, a check that every table holds as many rows as in the folder, and a mark saying
 * what was imported. Any failure rolls the transaction back: the target is as empty as before.
 *
 * The copy is exact — tables, rows, sequences, triggers, row-level-security policies, grants,
 * the search columns' signatures and the migration log `schema_migrations` — so the normal
 * start that follows (`migrate()`, `applySearchIndexes()`) applies only what is newer than the
 * folder, as it would have on the folder itself. Triggers are created after the rows are in
 * (pg_dump's order), so counters are copied, never counted twice.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import pg from 'pg';
import { loadMigrations, type Migration } from './migrate.ts';

/** The role requests run as: created by migration 0001, cluster-wide, so not in a dump. */
const APP_ROLE = 'intelnotes_app';
/** migrate()'s lock: a process that starts meanwhile waits for the import instead of migrating an empty database. */
const MIGRATE_LOCK_KEY = 'intelnotes:migrate';
/** The target database's comment after an import starts with this, followed by the record as JSON. */
const MARK_PREFIX = 'intelnotes: imported from PGlite ';
/** The most SQL sent to the server in one message while restoring. */
const BATCH_CHARS = 1 << 20;

export interface PgliteImportOptions {
  /** The PGlite data folder (DATA_DIR/pglite). Read only: opened from a scratch copy. */
  pgliteDir: string;
  /** The empty target database, as a superuser or its owner. */
  targetUrl: string;
  log(message: string): void;
}

export interface PgliteImportResult {
  /** Tables copied (every table of the folder's database). */
  tables: number;
  /** Rows copied, all tables together. */
  rows: number;
}

/** What the target database records about the import (`pgliteImportOf`). */
export interface PgliteImportRecord extends PgliteImportResult {
  /** The folder imported, as given. */
  source: string;
  /** The folder's cluster id (pg_control's system identifier), which a copy of the folder shares. */
  systemIdentifier: string;
  /** The last migration the folder had applied. */
  lastMigration: string | null;
  importedAt: string;
}

/** A refused or failed import, with what to do about it; the target and the folder are unchanged. */
export class PgliteImportError extends Error {
  override name = 'PgliteImportError';
}

/**
 * Copies the database in `pgliteDir` into the empty database at `targetUrl`, all or nothing.
 * Refuses a target that holds anything (an intelnotes database above all: it runs once).
 */
export async function importPgliteFolder(options: PgliteImportOptions): Promise<PgliteImportResult> {
  return (await importFolder(options)).result;
}

/**
 * The start-up step: when `DATA_DIR/pglite` exists, imports it into the target (which must be
 * empty) and renames the folder to `pglite.imported-<timestamp>`; returns null when there is no
 * such folder. A target that already holds intelnotes data is refused — unless it records an
 * import of this very folder (a start stopped between the import and the rename), when the
 * rename is all that is left to do.
 */
export async function importPgliteIfPresent(options: {
  dataDir: string;
  targetUrl: string;
  log(message: string): void;
}): Promise<(PgliteImportResult & { movedTo: string }) | null> {
  const pgliteDir = path.join(options.dataDir, 'pglite');
  if (!(await exists(pgliteDir))) return null;
  const state = await targetState(options.targetUrl);
  if (state.intelnotes) {
    const record = state.record;
    const folderId = await systemIdentifierOf(pgliteDir).catch(() => null);
    if (record && folderId !== null && record.systemIdentifier === folderId) {
      options.log(`pglite import: ${pgliteDir} was imported at ${record.importedAt}; moving it aside`);
      const movedTo = await moveAside(pgliteDir);
      return { tables: record.tables, rows: record.rows, movedTo };
    }
    throw new PgliteImportError(
      `${pgliteDir} holds an earlier version's database, but the target database ${describeUrl(options.targetUrl)} already holds ` +
        `intelnotes data${record ? ` (imported from another PGlite folder, ${record.source}, at ${record.importedAt})` : ''}. ` +
        `Nothing was changed. To keep the target, move ${pgliteDir} out of DATA_DIR; to import the folder instead, ` +
        `start from an empty target database.`,
    );
  }
  const { result } = await importFolder({ ...options, pgliteDir });
  const movedTo = await moveAside(pgliteDir);
  options.log(`pglite import: done; the old folder is now ${movedTo}`);
  return { ...result, movedTo };
}

/** The import recorded on the target database, or null when it was not made by an import. */
export async function pgliteImportOf(targetUrl: string): Promise<PgliteImportRecord | null> {
  return (await targetState(targetUrl)).record;
}

// ---------------------------------------------------------------------------------------------

interface SourceFacts {
  systemIdentifier: string;
  lastMigration: string | null;
  /** Row counts by qualified table name. */
  tables: Map<string, number>;
  /** `ALTER FUNCTION … LEAKPROOF` statements of the applied migrations, kept where the folder shows them applied. */
  leakproof: string[];
  dump: string;
}

async function importFolder(options: PgliteImportOptions): Promise<{ result: PgliteImportResult; record: PgliteImportRecord }> {
  const { pgliteDir, targetUrl, log } = options;
  const pgVersion = await checkFolder(pgliteDir);
  const target = new pg.Client({ connectionString: targetUrl, application_name: 'intelnotes-pglite-import' });
  try {
    await target.connect();
  } catch (error) {
    throw new PgliteImportError(`cannot connect to the target database ${describeUrl(targetUrl)}: ${(error as Error).message}`, { cause: error });
  }
  // A connection lost mid-import surfaces as the failing query's error; this keeps the client's
  // 'error' event from crashing the process meanwhile.
  target.on('error', () => {});
  try {
    await target.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATE_LOCK_KEY]);
    await refuseUnlessEmpty(target, targetUrl);
    const superuser = (await target.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0]?.rolsuper ?? false;

    const source = await readSource(pgliteDir, pgVersion, log);
    const record: PgliteImportRecord = {
      source: path.resolve(pgliteDir),
      systemIdentifier: source.systemIdentifier,
      lastMigration: source.lastMigration,
      importedAt: new Date().toISOString(),
      tables: source.tables.size,
      rows: [...source.tables.values()].reduce((sum, count) => sum + count, 0),
    };
    await restore(target, source, record, superuser, log);
    log(`pglite import: copied ${record.tables} tables, ${record.rows} rows into ${describeUrl(targetUrl)}`);
    // A dump carries no planner statistics: without them the first plans are guesses (the job
    // claim, search totals). Outside the import's transaction: the copy is complete without it.
    try {
      await target.query('ANALYZE');
    } catch (error) {
      log(`pglite import: WARNING: ANALYZE after the import failed (autovacuum will gather the statistics later): ${describeError(error)}`);
    }
    return { result: { tables: record.tables, rows: record.rows }, record };
  } catch (error) {
    if (error instanceof PgliteImportError) throw error;
    throw new PgliteImportError(
      `importing ${pgliteDir} failed: ${describeError(error)}. Nothing was imported: the target database is as it was and the folder is unchanged.`,
      { cause: error },
    );
  } finally {
    await target.end().catch(() => {});
  }
}

/** The folder must be a PostgreSQL data folder; returns its PG_VERSION. */
async function checkFolder(pgliteDir: string): Promise<string> {
  let version: string;
  try {
    version = (await readFile(path.join(pgliteDir, 'PG_VERSION'), 'utf8')).trim();
    await stat(path.join(pgliteDir, 'global', 'pg_control'));
  } catch (error) {
    throw new PgliteImportError(
      `${pgliteDir} is not a PGlite data folder (no readable PG_VERSION and global/pg_control: ${(error as Error).message}); ` +
        'nothing was imported. If it holds nothing you need, move it out of the data folder.',
      { cause: error },
    );
  }
  return version;
}

interface TargetState {
  /** Relations and functions that are not part of an extension. */
  objects: number;
  intelnotes: boolean;
  record: PgliteImportRecord | null;
}

async function targetState(targetUrl: string): Promise<TargetState> {
  const client = new pg.Client({ connectionString: targetUrl, application_name: 'intelnotes-pglite-import' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new PgliteImportError(`cannot connect to the target database ${describeUrl(targetUrl)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return await stateOf(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function stateOf(client: pg.Client): Promise<TargetState> {
  const { rows } = await client.query<{ objects: string; intelnotes: boolean; comment: string | null }>(
    `SELECT
       (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
           AND n.nspname NOT LIKE 'pg\\_temp\\_%'
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'))
       + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
             AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'))
       AS objects,
       to_regclass('public.schema_migrations') IS NOT NULL AS intelnotes,
       (SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = current_database()) AS comment`,
  );
  const row = rows[0]!;
  return { objects: Number(row.objects), intelnotes: row.intelnotes, record: parseMark(row.comment) };
}

function parseMark(comment: string | null): PgliteImportRecord | null {
  if (!comment?.startsWith(MARK_PREFIX)) return null;
  try {
    return JSON.parse(comment.slice(MARK_PREFIX.length)) as PgliteImportRecord;
  } catch {
    return null;
  }
}

async function refuseUnlessEmpty(target: pg.Client, targetUrl: string): Promise<void> {
  const state = await stateOf(target);
  if (state.intelnotes) {
    throw new PgliteImportError(
      `the target database ${describeUrl(targetUrl)} already holds an intelnotes database` +
        (state.record ? ` (imported from ${state.record.source} at ${state.record.importedAt})` : '') +
        '; the PGlite import runs only into an empty database, once. Nothing was changed.',
    );
  }
  if (state.objects > 0) {
    throw new PgliteImportError(
      `the target database ${describeUrl(targetUrl)} is not empty (${state.objects} tables, views, sequences or functions); ` +
        'the PGlite import runs only into an empty database. Nothing was changed.',
    );
  }
}

/** Opens a scratch copy of the folder, reads what the restore checks against, and dumps it. */
async function readSource(pgliteDir: string, pgVersion: string, log: (message: string) => void): Promise<SourceFacts> {
  const scratch = await mkdtemp(path.join(path.dirname(path.resolve(pgliteDir)), `.${path.basename(pgliteDir)}.import-`));
  try {
    const copy = path.join(scratch, 'pglite');
    log(`pglite import: reading ${pgliteDir} (from a scratch copy: the folder itself is left as it is)`);
    await cp(pgliteDir, copy, { recursive: true });
    let client: PGlite;
    try {
      // The extensions the earlier version's openPglite loaded: its indexes and search functions use them.
      client = new PGlite({ dataDir: copy, extensions: { btree_gin, pg_trgm, unaccent } });
      await client.waitReady;
    } catch (error) {
      throw new PgliteImportError(
        `PGlite could not open ${pgliteDir} (PG_VERSION ${pgVersion}): ${describeError(error)}. ` +
          'The folder may be damaged or written by another PGlite version. Nothing was imported: the target database is as it was and the folder is unchanged.',
        { cause: error },
      );
    }
    try {
      return await factsOf(client, pgliteDir, log);
    } finally {
      if (!client.closed) await client.close().catch(() => {});
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function factsOf(client: PGlite, pgliteDir: string, log: (message: string) => void): Promise<SourceFacts> {
  const hasLog = (await client.query<{ found: boolean }>(`SELECT to_regclass('public.schema_migrations') IS NOT NULL AS found`)).rows[0]!.found;
  if (!hasLog) {
    throw new PgliteImportError(
      `${pgliteDir} holds no intelnotes database (no schema_migrations table); nothing was imported. If it holds nothing you need, move it out of the data folder.`,
    );
  }
  const applied = (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations ORDER BY name')).rows;
  const known = new Map((await loadMigrations()).map((migration) => [migration.name, migration]));
  for (const { name, checksum } of applied) {
    const migration = known.get(name);
    if (!migration) {
      throw new PgliteImportError(
        `${pgliteDir} was written by a newer intelnotes (its migration ${name} is unknown to this version); import it with that version or a later one. Nothing was imported.`,
      );
    }
    if (migration.checksum !== checksum) {
      throw new PgliteImportError(`${pgliteDir} applied a different ${name} than this version ships; nothing was imported.`);
    }
  }
  const systemIdentifier = (await client.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')).rows[0]!.id;

  const tables = new Map<string, number>();
  const names = (
    await client.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       ORDER BY 1`,
    )
  ).rows;
  for (const { name } of names) {
    tables.set(name, Number((await client.query<{ count: string }>(`SELECT count(*)::text AS count FROM ONLY ${name}`)).rows[0]!.count));
  }

  const leakproof: string[] = [];
  for (const statement of leakproofStatements(applied.map(({ name }) => known.get(name)!))) {
    const signature = statement.replace(/^ALTER FUNCTION\s+/i, '').replace(/\s+LEAKPROOF$/i, '');
    const marked = (
      await client.query<{ marked: boolean | null }>('SELECT (SELECT proleakproof FROM pg_proc WHERE oid = to_regprocedure($1)) AS marked', [signature])
    ).rows[0]!.marked;
    if (marked) leakproof.push(statement);
  }

  const started = Date.now();
  // --no-owner: the objects belong to whoever the target URL connects as. --rows-per-insert:
  // rows as multi-row INSERTs (pglite-tools adds --inserts itself: the output must be plain SQL).
  // --no-statistics: planner statistics are rebuilt by ANALYZE, and older servers cannot load them.
  const file = await pgDump({ pg: client, args: ['--no-owner', '--no-statistics', '--rows-per-insert=100'] });
  const dump = await file.text();
  log(`pglite import: dumped ${tables.size} tables (${(dump.length / 1e6).toFixed(1)} MB of SQL) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { systemIdentifier, lastMigration: applied.at(-1)?.name ?? null, tables, leakproof, dump };
}

/**
 * The `ALTER FUNCTION … LEAKPROOF` statements of the given migrations (0003, 0040: operators
 * search needs to use its indexes under row-level security). They change built-in and
 * extension functions, which a dump does not carry; they need a superuser.
 */
export function leakproofStatements(migrations: Migration[]): string[] {
  const found = new Set<string>();
  for (const migration of migrations) {
    // Inside a DO block (the migrations run them only as a superuser), and repeated in the
    // warning they give otherwise: the same statement once.
    for (const match of migration.sql.matchAll(/ALTER FUNCTION\s+([\w.]+\s*\([^)]*\))\s+LEAKPROOF\s*;/gi)) {
      found.add(`ALTER FUNCTION ${match[1]!.replace(/\s+/g, ' ')} LEAKPROOF`);
    }
  }
  return [...found];
}

async function restore(
  target: pg.Client,
  source: SourceFacts,
  record: PgliteImportRecord,
  superuser: boolean,
  log: (message: string) => void,
): Promise<void> {
  const known = new Set((await target.query<{ name: string }>('SELECT name FROM pg_settings')).rows.map((row) => row.name.toLowerCase()));
  const statements = restoreStatements(source.dump, known, log);
  const started = Date.now();
  await target.query('BEGIN');
  try {
    // As migration 0001 does: the role, and membership for the connecting role (SET ROLE).
    await target.query(`DO $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
          CREATE ROLE ${APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
        END IF;
        IF NOT pg_has_role(current_user, '${APP_ROLE}', 'MEMBER') THEN
          EXECUTE format('GRANT ${APP_ROLE} TO %I', current_user);
        END IF;
      END $$`);
    let batch: string[] = [];
    let size = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const text = batch.join('\n');
      batch = [];
      size = 0;
      try {
        await target.query(text);
      } catch (error) {
        // A parse error points into the batch; an error while running a statement names its table.
        const position = (error as { position?: string }).position;
        throw new Error(`restoring the dump: ${describeError(error)}${position ? ` (at: ${excerptAt(text, position)})` : ''}`, { cause: error });
      }
    };
    for (const statement of statements) {
      batch.push(statement);
      size += statement.length;
      if (size >= BATCH_CHARS) await flush();
    }
    await flush();
    // The dump set its own search_path for the session; back to the server's default.
    await target.query('RESET search_path');

    if (source.leakproof.length > 0) {
      if (superuser) {
        for (const statement of source.leakproof) await target.query(statement);
      } else {
        log(`pglite import: WARNING: not a superuser, so search cannot use its indexes under row-level security until a superuser runs: ${source.leakproof.join('; ')};`);
      }
    }

    for (const [table, expected] of source.tables) {
      const found = Number((await target.query<{ count: string }>(`SELECT count(*)::text AS count FROM ONLY ${table}`)).rows[0]!.count);
      if (found !== expected) throw new Error(`${table} holds ${found} rows after the copy, ${expected} in the folder`);
    }

    const mark = MARK_PREFIX + JSON.stringify(record);
    await target.query(`DO $$ BEGIN EXECUTE format('COMMENT ON DATABASE %I IS %L', current_database(), ${pg.escapeLiteral(mark)}); END $$`);
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK').catch(() => {});
    throw error;
  }
  log(`pglite import: restored in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The dump's statements as the target runs them. pg_dump writes for its own server version
 * (PGlite's): a setting the target does not know (`SET transaction_timeout` before
 * PostgreSQL 17) is left out. The dump empties search_path and qualifies every name it writes,
 * but function bodies are not rewritten: search_text() calls f_unaccent() unqualified, and the
 * generated columns and indexes that call it would fail while rows are restored — so the
 * restore runs with public on the path.
 */
export function restoreStatements(dump: string, knownSettings: Set<string>, log: (message: string) => void): string[] {
  const out: string[] = [];
  for (const statement of splitStatements(dump)) {
    if (statement.startsWith('\\')) throw new Error(`the dump holds a psql command the import cannot run: ${statement.slice(0, 80)}`);
    const set = /^SET\s+([\w.]+)\s*(?:=|\s+TO\s)/i.exec(statement);
    if (set && !knownSettings.has(set[1]!.toLowerCase())) {
      log(`pglite import: skipping "${statement}" (a setting this server does not have)`);
      continue;
    }
    if (/^SELECT pg_catalog\.set_config\('search_path', '', false\);?$/.test(statement)) {
      out.push(`SELECT pg_catalog.set_config('search_path', 'public, pg_catalog', false);`);
      continue;
    }
    out.push(statement);
  }
  return out;
}

/**
 * Splits an SQL script into statements at the semicolons outside literals, quoted names,
 * dollar quotes, comments and SQL-standard function bodies (BEGIN ATOMIC … END), as psql
 * does. Each statement starts at its first token (comments before it are dropped).
 */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  const length = script.length;
  let start = -1;
  let words: string[] = [];
  let depth = 0;
  let i = 0;
  const begin = () => {
    if (start === -1) start = i;
  };
  while (i < length) {
    const ch = script[i]!;
    const next = script[i + 1];
    if (ch === '-' && next === '-') {
      const end = script.indexOf('\n', i);
      i = end === -1 ? length : end + 1;
    } else if (ch === '/' && next === '*') {
      let level = 1;
      i += 2;
      while (i < length && level > 0) {
        if (script.startsWith('/*', i)) {
          level++;
          i += 2;
        } else if (script.startsWith('*/', i)) {
          level--;
          i += 2;
        } else i++;
      }
    } else if (ch === "'") {
      begin();
      i = endOfQuoted(script, i, "'", false);
    } else if (ch === '"') {
      begin();
      i = endOfQuoted(script, i, '"', false);
    } else if (ch === '$') {
      begin();
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(script.slice(i, i + 64));
      if (tag) {
        const close = script.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? length : close + tag[0].length;
      } else i++;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(ch)) {
      begin();
      let end = i + 1;
      while (end < length && /[\w$\u0080-\uffff]/.test(script[end]!)) end++;
      const word = script.slice(i, end).toUpperCase();
      if (word === 'E' && script[end] === "'") {
        i = endOfQuoted(script, end, "'", true);
        continue;
      }
      if (words.length < 4) words.push(word);
      const routine =
        words[0] === 'CREATE' &&
        (words[1] === 'FUNCTION' || words[1] === 'PROCEDURE' || (words[1] === 'OR' && (words[3] === 'FUNCTION' || words[3] === 'PROCEDURE')));
      if (routine && (word === 'BEGIN' || word === 'CASE')) depth++;
      else if (routine && word === 'END' && depth > 0) depth--;
      i = end;
    } else if (ch === ';' && depth === 0) {
      if (start !== -1) statements.push(script.slice(start, i + 1));
      start = -1;
      words = [];
      i++;
    } else {
      if (!/\s/.test(ch)) begin();
      i++;
    }
  }
  if (start !== -1) {
    const rest = script.slice(start).trim();
    if (rest !== '') statements.push(rest);
  }
  return statements;
}

/** The index just past the literal or quoted name opening at `at`. */
function endOfQuoted(script: string, at: number, quote: string, backslashEscapes: boolean): number {
  let i = at + 1;
  while (i < script.length) {
    const ch = script[i];
    if (backslashEscapes && ch === '\\') i += 2;
    else if (ch === quote) {
      if (script[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return script.length;
}

/** The first 8 bytes of pg_control: the cluster's system identifier (little-endian, as PGlite writes it). */
async function systemIdentifierOf(pgliteDir: string): Promise<string> {
  const handle = await open(path.join(pgliteDir, 'global', 'pg_control'), 'r');
  try {
    const buffer = Buffer.alloc(8);
    const { bytesRead } = await handle.read(buffer, 0, 8, 0);
    if (bytesRead !== 8) throw new Error('pg_control is too short');
    return buffer.readBigUInt64LE(0).toString();
  } finally {
    await handle.close();
  }
}

async function moveAside(pgliteDir: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  let movedTo = `${pgliteDir}.imported-${stamp}`;
  if (await exists(movedTo)) movedTo = `${movedTo}-${randomBytes(3).toString('hex')}`;
  await rename(pgliteDir, movedTo);
  return movedTo;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The URL without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(the target URL)';
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const detail = (error as { detail?: string }).detail;
  return detail ? `${error.message} (${detail})` : error.message;
}

/** A short excerpt of the batch around the server's error position (1-based characters). */
function excerptAt(text: string, position: string): string {
  const at = Number(position) - 1;
  const from = Math.max(0, at - 80);
  return text.slice(from, from + 200).replace(/\s+/g, ' ').trim();
}

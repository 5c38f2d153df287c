/**
 * Applies the SQL files in ./migrations in name order. Each file runs in its
 * own transaction and is recorded in schema_migrations with a checksum; an
 * advisory lock makes concurrent starts wait for each other instead of racing.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_ROLE, type Database, type ScriptSession } from './client.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 'intelnotes:migrate';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(path.join(dir, name), 'utf8');
      return { name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    }),
  );
}

export class MigrationError extends Error {}

/** Returns the names of the migrations applied by this call. */
export async function migrate(database: Database, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  return database.withAdvisoryLock(LOCK_KEY, async (session) => {
    await session.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Map(
      (await session.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')).map(
        (row) => [row.name, row.checksum],
      ),
    );
    const wrap = await rowSecurityWrap(session);
    const done: string[] = [];
    for (const migration of all) {
      const recorded = applied.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new MigrationError(
            `Migration ${migration.name} was changed after it was applied; add a new migration instead of editing it.`,
          );
        }
        continue;
      }
      try {
        await session.execInTransaction(wrap(migration.sql), {
          text: 'INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)',
          params: [migration.name, migration.checksum],
        });
      } catch (error) {
        throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    await grantAppRole(session);
    return done;
  });
}

/**
 * Every tenant table forces row-level security on its owner too, so that a forgotten tenant
 * condition can never read across tenants. A migration that rewrites data must see every
 * tenant's rows: a superuser (the embedded server's owner) bypasses the policies; a plain owner
 * (an external server's CREATEROLE user, README) would see no rows and change nothing without an
 * error. For such an owner each migration runs with FORCE lifted from the tables that have it and
 * put back in the same transaction — the owner is then exempt as owners are, and no other session
 * ever sees the tables unforced.
 */
async function rowSecurityWrap(session: ScriptSession): Promise<(script: string) => string> {
  const [role] = await session.query<{ bypasses: boolean }>(
    'SELECT rolsuper OR rolbypassrls AS bypasses FROM pg_roles WHERE rolname = current_user',
  );
  if (role?.bypasses) return (script) => script;
  return (script) => `CREATE TEMP TABLE migration_forced_tables ON COMMIT DROP AS
  SELECT c.oid AS rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relforcerowsecurity;
DO $lift$ DECLARE t regclass; BEGIN
  FOR t IN SELECT rel FROM migration_forced_tables LOOP EXECUTE format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY', t); END LOOP;
END $lift$;
${script}
;
DO $restore$ DECLARE t regclass; BEGIN
  FOR t IN SELECT c.oid FROM migration_forced_tables f JOIN pg_class c ON c.oid = f.rel LOOP
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', t);
  END LOOP;
END $restore$;
DROP TABLE migration_forced_tables;`;
}

/** The app role may read and write every table but the migration log. */
async function grantAppRole(session: ScriptSession): Promise<void> {
  await session.execInTransaction(
    `GRANT USAGE ON SCHEMA public TO ${APP_ROLE};
     GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE};
     GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE};
     REVOKE ALL ON schema_migrations FROM ${APP_ROLE};`,
  );
}

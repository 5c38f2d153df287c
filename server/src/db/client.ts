/**
 * Database access for both engines behind one interface: embedded PGlite
 * (a data folder, or memory for tests) or a PostgreSQL server.
 *
 * Request code never touches the raw connection: it calls `withTenant`, which
 * opens a transaction, drops privileges to the app role (`SET LOCAL ROLE`)
 * and sets `app.tenant_id`, so row-level security scopes every query.
 */
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { schema } from './schema.ts';

export const APP_ROLE = 'intelnotes_app';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything queries can run on: the root handle or an open transaction. */
export type Executor = Db | Tx;

export interface TenantContext {
  tenantId: string | null;
  /** Admins of the default tenant may write the tenants table. */
  manageTenants?: boolean;
}

/** A single owner connection that can run multi-statement scripts. */
export interface ScriptSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script plus `after` in one transaction. */
  execInTransaction(script: string, after?: { text: string; params: unknown[] }): Promise<void>;
}

export interface Database {
  readonly engine: 'pglite' | 'postgres';
  /** Owner connection: migrations and start-up seeding only. */
  readonly owner: Db;
  /** Runs `fn` in one transaction as the app role, scoped to the tenant. */
  withTenant<T>(context: TenantContext, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one owner connection holding a session-level advisory lock:
   * for migrations, which need multi-statement scripts.
   */
  withAdvisoryLock<T>(key: string, fn: (session: ScriptSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Runs a statement and returns its rows, for either driver. */
export async function query<T>(executor: Executor, statement: SQL): Promise<T[]> {
  const result = (await executor.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

/** Transactions that drop to the app role and carry the tenant context. */
function tenantTransactions(db: Db): Database['withTenant'] {
  return (context, fn) =>
    db.transaction(async (tx) => {
      // set_config('role', …, true) is SET LOCAL ROLE; one round trip sets the whole context.
      await tx.execute(
        sql`SELECT set_config('role', ${APP_ROLE}, true),
                   set_config('app.tenant_id', ${context.tenantId ?? ''}, true),
                   set_config('app.manage_tenants', ${context.manageTenants ? 'on' : 'off'}, true)`,
      );
      return fn(tx);
    });
}

/**
 * Opens PGlite on a data folder, or in memory when `dataDir` is null;
 * `template` restores an earlier `dumpDataDir()` (used to start tests fast).
 */
export async function openPglite(dataDir: string | null, template?: Blob): Promise<Database & { client: PGlite }> {
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(template ? { loadDataDir: template } : {}),
    extensions: { btree_gin, pg_trgm, unaccent },
  });
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    engine: 'pglite',
    client,
    owner: db,
    withTenant: tenantTransactions(db),
    // PGlite is a single connection in this process, so the lock is
    // uncontended; it is taken anyway so callers behave alike on both engines.
    withAdvisoryLock: async (key, fn) => {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      try {
        return await fn({
          query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
          execInTransaction: async (script, after) => {
            await client.transaction(async (tx) => {
              await tx.exec(script);
              if (after) await tx.query(after.text, after.params);
            });
          },
        });
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
      }
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'intelnotes' });
  // An idle connection can be cut by the server (restart, failover, a dropped
  // database); the pool discards it and the next query opens a fresh one.
  // Without a listener that event would crash the process.
  pool.on('error', (error) => console.error(`intelnotes: idle database connection lost: ${error.message}`));
  // Surface a bad URL or an unreachable server at start, not on the first request.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    engine: 'postgres',
    owner: db,
    withTenant: tenantTransactions(db),
    withAdvisoryLock: async (key, fn) => {
      const connection = await pool.connect();
      try {
        await connection.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
        try {
          return await fn({
            query: async <T>(text: string, params?: unknown[]) =>
              (await connection.query(text, params)).rows as T[],
            execInTransaction: async (script, after) => {
              await connection.query('BEGIN');
              try {
                await connection.query(script);
                if (after) await connection.query(after.text, after.params);
                await connection.query('COMMIT');
              } catch (error) {
                await connection.query('ROLLBACK');
                throw error;
              }
            },
          });
        } finally {
          await connection.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
        }
      } finally {
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Database access: a pool of connections to a PostgreSQL server (the embedded server `npm start`
 * runs, or any server DATABASE_URL names).
 *
 * Request code never touches the raw connection: it calls `withTenant`, which
 * opens a transaction, drops privileges to the app role (`SET LOCAL ROLE`)
 * and sets `app.tenant_id`, so row-level security scopes every query.
 */
import { createHash } from 'node:crypto';
import { sql, SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
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
  /**
   * The signed-in user the transaction works for (a person, or the user a system actor works
   * for): `app_user_id()` in SQL, which the policies of rows that belong to a user read
   * (saved views, migration 0230). None for a visitor or a system actor on its own.
   */
  userId?: string | null;
  /** Admins of the default tenant may write the tenants table. */
  manageTenants?: boolean;
  /** Job workers claim and settle jobs of every tenant (the jobs table's second policy). */
  jobsWorker?: boolean;
  /**
   * Stages the transaction's writes under this id (an all-or-nothing import job's id): rows it
   * inserts into engine tables are hidden from every other transaction until the stage is
   * published (migration 0115, resources/staging.ts).
   */
  importStage?: string;
}

/** A single owner connection that can run multi-statement scripts. */
export interface ScriptSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script plus `after` in one transaction. */
  execInTransaction(script: string, after?: { text: string; params: unknown[] }): Promise<void>;
}

export interface Database {
  /** Owner connection: migrations, start-up seeding, and statements that set their own context (app_live_session). */
  readonly owner: Db;
  /** Runs `fn` in one transaction as the app role, scoped to the tenant. */
  withTenant<T>(context: TenantContext, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs one read-only statement as `withTenant` would, prepared as `queryPrepared` is — on a
   * server in one round trip (`readOnceStatement`): for requests that are one statement (quick
   * search), where BEGIN and COMMIT would be two of three round trips.
   */
  readOnce<T>(context: TenantContext, statement: RenderedStatement): Promise<T[]>;
  /**
   * Runs `fn` on one owner connection holding a session-level advisory lock:
   * for migrations, which need multi-statement scripts.
   */
  withAdvisoryLock<T>(key: string, fn: (session: ScriptSession) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel`: `notify` gets the payload of every notification, `state` is told
   * when delivery starts (true) and when it stops (false: on a server, the listening
   * connection was lost, and notifications sent until it is back are missed). On a server
   * the listener reconnects by itself. Resolves once the first attempt is done; the returned
   * function stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  notify(payload: string): void;
  state(listening: boolean): void;
}

/** How long a lost listening connection waits before it connects again. */
const LISTEN_RETRY_MS = 1_000;

/** Runs a statement and returns its rows, for either driver. */
export async function query<T>(executor: Executor, statement: SQL): Promise<T[]> {
  const result = (await executor.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

/** The server connection under each open tenant transaction, for `queryPrepared`. */
const connectionOf = new WeakMap<object, pg.PoolClient>();
/** The tenant each `withTenant` transaction was opened for (`tenantPin`). */
const tenantOfTx = new WeakMap<object, string>();

/**
 * `<alias>.tenant_id = '<the transaction's tenant>'`: the condition row-level security applies
 * anyway, written into a statement as a value. On one server it changes nothing; on a Citus
 * cluster distributed by tenant_id it is what routes the statement to the tenant's shard (Citus
 * cannot route on a policy's current_setting(), docs/scaling.md). Where the tenant is not known
 * here (a savepoint's handle, the owner handle) it is the policy's own condition.
 */
export function tenantPin(executor: Executor, alias?: string): SQL {
  const column = alias ? sql`${sql.identifier(alias)}.tenant_id` : sql`tenant_id`;
  const tenantId = tenantOfTx.get(executor);
  return tenantId ? sql`${column} = ${tenantId}::uuid` : sql`${column} = app_tenant_id()`;
}
const sqlDialect = new PgDialect();

/** The name a statement is prepared under: one name per text, as `pg` refuses a known name with another text. */
export const preparedName = (text: string) => `p_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/**
 * A statement rendered once and kept as text (a large statement whose text depends only on
 * its shape: quick search), with its parameters and the name it is prepared under.
 */
export interface RenderedStatement {
  text: string;
  params: unknown[];
  name: string;
}

/** The statement as drizzle's SQL again (text parts and parameters), for an ordinary query. */
function asSql({ text, params }: RenderedStatement): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
}

/**
 * Runs a statement as a named prepared statement on a PostgreSQL server, so
 * each connection plans it once rather than on every call (after five runs the
 * server keeps a generic plan when it costs no more than the custom ones). For
 * statements whose best plan does not depend on their parameter values, and
 * that are expensive to plan (quick search: ~3 ms of planning for ~1 ms of
 * work when nothing matches). Elsewhere (a savepoint, the owner handle) an ordinary query.
 */
export async function queryPrepared<T>(executor: Executor, statement: SQL | RenderedStatement): Promise<T[]> {
  const connection = connectionOf.get(executor);
  const rendered = statement instanceof SQL ? null : statement;
  if (!connection) return query<T>(executor, rendered ? asSql(rendered) : (statement as SQL));
  const { text, params, name } = rendered ?? renderedOf(statement as SQL);
  return (await connection.query({ name, text, values: params })).rows as T[];
}

/** A statement rendered for `queryPrepared`. */
export function renderedOf(statement: SQL): RenderedStatement {
  const { sql: text, params } = sqlDialect.sqlToQuery(statement);
  return { text, params, name: preparedName(text) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The statements that drop to the app role and set the tenant context for the transaction
 * (`SET LOCAL`, separated by `;\n`). Written with literals so that on a server they share one
 * simple-protocol message with BEGIN, which cannot carry bound parameters: the role is a
 * constant, the flags are on/off, and the ids are checked to be uuids. `SET LOCAL` rather than
 * `set_config(…, true)`, which does the same here: on a Citus coordinator
 * (`citus.propagate_set_commands = 'local'`) only `SET LOCAL` reaches the worker nodes, where
 * the shards' row-level security policies read the tenant (docs/scaling.md).
 */
export function contextStatement(context: TenantContext): string {
  const tenantId = context.tenantId ?? '';
  if (tenantId !== '' && !UUID.test(tenantId)) throw new Error(`tenant id is not a uuid: ${tenantId}`);
  const stage = context.importStage ?? '';
  if (stage !== '' && !UUID.test(stage)) throw new Error(`import stage is not a uuid: ${stage}`);
  const userId = context.userId ?? '';
  if (userId !== '' && !UUID.test(userId)) throw new Error(`user id is not a uuid: ${userId}`);
  return [
    `SET LOCAL ROLE ${APP_ROLE}`,
    `SET LOCAL app.tenant_id = '${tenantId}'`,
    `SET LOCAL app.manage_tenants = '${context.manageTenants ? 'on' : 'off'}'`,
    `SET LOCAL app.jobs_worker = '${context.jobsWorker ? 'on' : 'off'}'`,
    `SET LOCAL app.import_stage = '${stage}'`,
    `SET LOCAL app.user_id = '${userId}'`,
  ].join(';\n');
}

/**
 * PostgreSQL server: the same transaction, with BEGIN and the context in one
 * round trip instead of two, on every request. The transaction object is
 * drizzle's own, built on the checked-out connection as drizzle's
 * `transaction()` builds it, so a nested `tx.transaction()` is still a savepoint.
 */
function postgresTenantTransactions(pool: pg.Pool, db: Db): Database['withTenant'] {
  // drizzle keeps the dialect and the relational schema on the database object;
  // they are not part of its typed surface, hence the cast.
  type SessionArgs = ConstructorParameters<typeof NodePgSession>;
  const { dialect, session } = db as unknown as { dialect: SessionArgs[1]; session: { schema: SessionArgs[2]; options: SessionArgs[3] } };
  return async (context, fn) => {
    const begin = `BEGIN; ${contextStatement(context)}`;
    const connection = await pool.connect();
    try {
      await connection.query(begin);
    } catch (error) {
      connection.release(error as Error); // state unknown: the pool discards the connection
      throw error;
    }
    const tx = new NodePgTransaction(dialect, new NodePgSession(connection, dialect, session.schema, session.options), session.schema);
    connectionOf.set(tx, connection);
    if (context.tenantId) tenantOfTx.set(tx, context.tenantId);
    try {
      const result = await fn(tx as unknown as Tx);
      await connection.query('COMMIT');
      connection.release();
      return result;
    } catch (error) {
      try {
        await connection.query('ROLLBACK');
        connection.release();
      } catch (rollbackError) {
        connection.release(rollbackError as Error);
      }
      throw error;
    }
  };
}

/**
 * One simple-protocol message that opens a read-only transaction, sets the context, runs the
 * statement and commits: one write and one read on the socket instead of three each (socket
 * writes are a large share of the API's CPU per request on the VMs measured, docs/BENCHMARKS.md).
 * The statement is prepared with SQL's PREPARE on first use on the connection (`prepare`) and
 * run with EXECUTE, so it is planned as `queryPrepared` plans it; its parameters travel as quoted
 * literals, which the server types as it types the protocol's untyped parameters. A failing
 * statement stops the message where it fails (the rest is skipped, the transaction aborted).
 */
function readOnceStatement(context: TenantContext, statement: RenderedStatement, prepare: boolean): string {
  const name = `r${statement.name}`;
  const args = statement.params.map(literalOf).join(', ');
  return [
    'BEGIN READ ONLY',
    contextStatement(context),
    ...(prepare ? [`PREPARE ${name} AS ${statement.text}`] : []),
    `EXECUTE ${name}${args === '' ? '' : `(${args})`}`,
    'COMMIT',
  ].join(';\n');
}

/** A parameter as an SQL literal (text, numbers, booleans, null: what rendered statements carry). */
function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') {
    // The edge refuses NUL in every input (http/nul-bytes); a literal cannot carry one either.
    if (value.includes('\u0000')) throw new Error('a statement parameter holds a NUL character');
    return pg.escapeLiteral(value);
  }
  throw new Error(`readOnce takes text, finite numbers, booleans or null as parameters, not ${String(value)}`);
}

/** The statements prepared with SQL's PREPARE on each server connection (`readOnceStatement`). */
const preparedOnConnection = new WeakMap<pg.ClientBase, Set<string>>();

/**
 * Sends `readOnceStatement` on a server connection the caller holds, preparing the statement
 * there on its first use, and returns its rows (also the benchmark's floor, bench/queries.ts).
 * The text is built before anything is sent: a refused context or parameter throws at once,
 * with the connection untouched.
 */
export function readOnceOn<T>(connection: pg.ClientBase, context: TenantContext, statement: RenderedStatement): Promise<T[]> {
  let prepared = preparedOnConnection.get(connection);
  if (!prepared) preparedOnConnection.set(connection, (prepared = new Set()));
  const prepare = !prepared.has(statement.name);
  const text = readOnceStatement(context, statement, prepare);
  return connection.query(text).then((results) => {
    if (prepare) prepared.add(statement.name);
    // BEGIN, the context, [PREPARE,] EXECUTE, COMMIT: the statement's rows are the last but one.
    const all = results as unknown as pg.QueryResult[];
    return all[all.length - 2]!.rows as T[];
  });
}

function postgresReadOnce(pool: pg.Pool): Database['readOnce'] {
  return async <T>(context: TenantContext, statement: RenderedStatement) => {
    const connection = await pool.connect();
    let sent: Promise<T[]>;
    try {
      sent = readOnceOn<T>(connection, context, statement);
    } catch (error) {
      connection.release();
      throw error;
    }
    try {
      const rows = await sent;
      connection.release();
      return rows;
    } catch (error) {
      // The transaction is left open and aborted, and whether PREPARE took is unknown: the pool
      // discards the connection rather than guess.
      connection.release(error as Error);
      throw error;
    }
  };
}

/** A dedicated connection LISTENing on a server, connecting again whenever it is lost. */
function postgresListener(url: string, channel: string, handlers: ListenHandlers) {
  let current: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const lost = (client: pg.Client) => {
    if (current === client) {
      current = null;
      handlers.state(false);
    }
    client.removeAllListeners();
    client.on('error', () => {});
    client.end().catch(() => {});
    if (!stopped && !retry) {
      retry = setTimeout(() => {
        retry = null;
        void connect();
      }, LISTEN_RETRY_MS);
      retry.unref();
    }
  };

  const connect = async () => {
    const client = new pg.Client({ connectionString: url, application_name: 'intelnotes-listen' });
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      lost(client);
    };
    client.on('error', fail);
    client.on('end', fail);
    client.on('notification', (message) => {
      if (message.channel === channel) handlers.notify(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      fail();
      return;
    }
    if (failed) return;
    if (stopped) {
      client.removeAllListeners();
      await client.end().catch(() => {});
      return;
    }
    current = client;
    handlers.state(true);
  };

  return {
    start: connect,
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const client = current;
      current = null;
      handlers.state(false);
      if (client) {
        client.removeAllListeners();
        client.on('error', () => {});
        await client.end().catch(() => {});
      }
    },
  };
}

export interface OpenOptions {
  /** Connect once before returning, so a bad URL or an unreachable server fails the start (default). */
  probe?: boolean;
  /** What the server's pg_stat_activity shows for these connections. */
  applicationName?: string;
}

export async function openPostgres(url: string, poolSize = 10, { probe = true, applicationName = 'intelnotes' }: OpenOptions = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: applicationName });
  // An idle connection can be cut by the server (restart, failover, a dropped
  // database); the pool discards it and the next query opens a fresh one.
  // Without a listener that event would crash the process.
  pool.on('error', (error) => console.error(`intelnotes: idle database connection lost: ${error.message}`));
  // A connection lost while checked out (the server restarted under a transaction) fails the
  // query that is waiting on it, and the pool discards it on release; but the pool only listens
  // for errors on idle connections, and an 'error' event nobody listens to ends the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  // Surface a bad URL or an unreachable server at start, not on the first request.
  if (probe) (await pool.connect()).release();
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const listeners = new Set<ReturnType<typeof postgresListener>>();
  return {
    owner: db,
    withTenant: postgresTenantTransactions(pool, db),
    readOnce: postgresReadOnce(pool),
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
    listen: async (channel, handlers) => {
      const listener = postgresListener(url, channel, handlers);
      listeners.add(listener);
      await listener.start();
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    close: async () => {
      for (const listener of listeners) await listener.stop();
      listeners.clear();
      await pool.end();
    },
  };
}

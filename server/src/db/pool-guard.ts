/**
 * Keeps a lost database connection from taking the process down. pg-pool listens for errors
 * of idle connections only: a connection that is checked out (a transaction in progress, or
 * one waiting on a password hash between its statements) has no 'error' listener, and pg
 * emits 'error' on it when the server goes away — an uncaught exception that ends the process.
 * Each connection gets a listener of its own as it is handed out; the statement that was
 * running fails with the error (the request answers 503, docs/faults.md), the next one on
 * that connection fails as "not queryable", and the pool discards it when it is released.
 */
import pg from 'pg';
import type { Database } from './client.ts';

const guarded = new WeakSet<object>();

export interface GuardLog {
  warn(details: object, message: string): void;
}

/** The pg pool under a server Database (drizzle keeps its client as `$client`); null for anything else (PGlite). */
function poolOf(db: Database): pg.Pool | null {
  const client = (db.owner as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * How long a new connection may take before the attempt fails (as "timeout exceeded when
 * trying to connect", a 503): without it a server that stopped answering — a host gone from
 * the network rather than refusing — keeps every request waiting for the operating system's
 * TCP time-out, minutes.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Gives every connection the pool hands out an error listener, and the pool a connect time-out
 * when it has none; once per pool.
 */
export function guardConnections(db: Database, log?: GuardLog, { connectTimeoutMs = CONNECT_TIMEOUT_MS } = {}): void {
  const pool = poolOf(db);
  if (!pool || guarded.has(pool)) return;
  guarded.add(pool);
  // pg-pool reads its options at each connect, and hands them to each new client.
  const options = (pool as unknown as { options: { connectionTimeoutMillis?: number } }).options;
  if (!options.connectionTimeoutMillis) options.connectionTimeoutMillis = connectTimeoutMs;
  pool.on('acquire', (client: pg.PoolClient) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', (error: Error) => log?.warn({ code: (error as { code?: unknown }).code, message: error.message }, 'database connection lost while in use'));
  });
}

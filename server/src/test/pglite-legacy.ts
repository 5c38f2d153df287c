/**
 * The earlier versions' embedded database, PGlite, as their Database adapter opened it — kept
 * only to make real old data folders for the PGlite import's test (db/pglite-import.test.ts).
 * The product no longer opens PGlite (docs/processes.md).
 */
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { contextStatement, queryPrepared, type Database, type Db } from '../db/client.ts';
import { schema } from '../db/schema.ts';

/** PGlite: drizzle's transaction, then the context (in process, so a second statement costs nothing). */
function pgliteTenantTransactions(db: Db, accessMode: 'read write' | 'read only' = 'read write'): Database['withTenant'] {
  return (context, fn) =>
    db.transaction(
      async (tx) => {
        // One statement per message on PGlite's extended protocol.
        for (const statement of contextStatement(context).split(';\n')) await tx.execute(sql.raw(statement));
        return fn(tx);
      },
      accessMode === 'read only' ? { accessMode } : undefined,
    );
}

/** Opens PGlite on a data folder, as the earlier versions' start did. */
export async function openPglite(dataDir: string): Promise<Database & { client: PGlite }> {
  const client = new PGlite({ dataDir, extensions: { btree_gin, pg_trgm, unaccent } });
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    client,
    owner: db,
    withTenant: pgliteTenantTransactions(db),
    // In process: a round trip costs nothing, so the ordinary transaction.
    readOnce: (context, statement) => pgliteTenantTransactions(db, 'read only')(context, (tx) => queryPrepared(tx, statement)),
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
    listen: async (channel, handlers) => {
      // One connection in this process: notifications arrive as the writing statement returns.
      const unlisten = await client.listen(channel, (payload) => handlers.notify(payload));
      handlers.state(true);
      return async () => {
        handlers.state(false);
        if (!client.closed) await unlisten();
      };
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

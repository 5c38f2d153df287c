/**
 * The pool guard (pool-guard.ts) on a real server through test/pg-proxy.ts: a connection lost
 * while checked out fails its work and not the process, a server that stops answering fails a
 * connect after the time-out rather than never, and the pool serves again once it is back; and
 * the LISTEN connection the event bus uses comes back by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { testServerUrl } from '../test/test-db.ts';
import { startPgProxy, type PgProxy } from '../test/pg-proxy.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { openPostgres, query, type Database } from './client.ts';
import { isDatabaseUnavailable } from './errors.ts';
import { guardConnections } from './pool-guard.ts';


describe('pool guard', () => {
  let testDb: TestDatabase;
  let proxy: PgProxy;
  let db: Database;
  const lost: string[] = [];
  const selectOne = () => db.withTenant({ tenantId: null }, (tx) => query<{ one: number }>(tx, sql`SELECT 1 AS one`));

  before(async () => {
    testDb = await createTestDatabase();
    proxy = await startPgProxy(await testServerUrl());
    db = await openPostgres(proxy.urlFor(testDb.url!), 2);
    guardConnections(db, { warn: (_details, message) => lost.push(message) }, { connectTimeoutMs: 300 });
  });
  after(async () => {
    await db?.close();
    await proxy?.close();
    await testDb?.close();
  });

  it('fails work whose connection is lost while checked out, and nothing else', async () => {
    await assert.rejects(
      db.withTenant({ tenantId: null }, async (tx) => {
        await query(tx, sql`SELECT 1`);
        await proxy.down('reset');
        await query(tx, sql`SELECT 2`);
      }),
      (error) => isDatabaseUnavailable(error),
    );
    assert.deepEqual(lost, ['database connection lost while in use']);
    await proxy.up();
    assert.deepEqual(await selectOne(), [{ one: 1 }]);
  });

  it('LISTEN (the event bus) notices the loss, connects again by itself and hears notifications again', async () => {
    const waiting: Array<{ match: (event: string) => boolean; resolve: () => void }> = [];
    const seen = (event: string) => {
      for (const waiter of waiting.filter((entry) => entry.match(event))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    const next = (event: string) => new Promise<void>((resolve) => waiting.push({ match: (seenEvent) => seenEvent === event, resolve }));
    const listening = next('state:true');
    const stop = await db.listen('faults_probe', { notify: (payload) => seen(`notify:${payload}`), state: (state) => seen(`state:${state}`) });
    try {
      await listening;
      const lostState = next('state:false');
      await proxy.down('refuse');
      await lostState;
      const back = next('state:true');
      await proxy.up();
      await back;
      const heard = next('notify:back');
      await testDb.db.owner.execute(sql`SELECT pg_notify('faults_probe', 'back')`);
      await heard;
    } finally {
      await stop();
    }
  });

  it('gives up connecting to a server that does not answer, then connects again', async () => {
    await proxy.down('hang');
    // The pool's idle connections were cut with the rest: a query may meet one of them
    // (terminated) before the pool has dropped it; after those, a new connection times out.
    let error: unknown;
    for (let attempt = 0; attempt < 4; attempt++) {
      error = await selectOne().then(() => null, (failure: unknown) => failure);
      assert.ok(isDatabaseUnavailable(error), String(error));
      if (/timeout/.test((error as Error).message)) break;
    }
    // The pool's time-out or the client's own, whichever fires first.
    assert.match((error as Error).message, /timeout exceeded when trying to connect|Connection terminated due to connection timeout/);
    await proxy.up();
    assert.deepEqual(await selectOne(), [{ one: 1 }]);
  });
});

/**
 * Another app instance on a test's database — its own engine, connection pool and listening
 * connection, as another API process would have — and a way to wait for what it hears.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { createEngine } from '../engine.ts';
import type { TestContext } from './test-app.ts';

export async function openSecondApp(t: TestContext): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const db = await openPostgres(t.databaseUrl, 3);
  const app = await buildApp({ engine: createEngine(t.config, { db, storage: t.files.driver }), logger: false });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/** Reads until `done(value)` (a notification crossing connections takes a moment); the test's timeout bounds it. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

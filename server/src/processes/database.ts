/**
 * The supervisor's database: the server DATABASE_URL names, or the embedded PostgreSQL server in
 * DATA_DIR/postgres, started here and started again (with backoff) if it ever dies — the API
 * and the workers reconnect by themselves meanwhile.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { startEmbeddedServer, type EmbeddedServer } from '../db/embedded-server.ts';
import { Backoff } from './backoff.ts';

export interface SupervisedDatabase {
  /** Where the children connect (passed to them as DATABASE_URL). */
  url: string;
  /** Whether it is the embedded server (then stop() stops it). */
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * An earlier version kept its data in DATA_DIR/pglite: copied into the server's database once,
 * before any process migrates (docs/pglite-import.md); the folder is then renamed aside.
 */
async function importEarlierPglite(dataDir: string, targetUrl: string, log: Logger): Promise<void> {
  if (!existsSync(path.join(dataDir, 'pglite'))) return;
  const { importPgliteIfPresent } = await import('../db/pglite-import.ts');
  const imported = await importPgliteIfPresent({ dataDir, targetUrl, log: (message) => log.info(message) });
  if (imported) log.info({ tables: imported.tables, rows: imported.rows, movedTo: imported.movedTo }, 'imported the data of the earlier embedded database (PGlite)');
}

export async function startDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, log: Logger): Promise<SupervisedDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };

  const dir = path.join(config.dataDir, 'postgres');
  const start = () => startEmbeddedServer({ dir, log: (message) => log.info(message) });
  let server: EmbeddedServer = await start();
  log.info({ dir, pid: server.pid }, 'embedded PostgreSQL server running');
  try {
    await importEarlierPglite(config.dataDir, server.url, log);
  } catch (error) {
    await server.stop();
    throw error;
  }
  let stopping = false;
  const backoff = new Backoff();
  backoff.started();

  const watch = (current: EmbeddedServer) => {
    void current.exited.then(async ({ code, signal }) => {
      if (stopping) return;
      log.error({ code, signal, log: `${dir}.log` }, 'the embedded PostgreSQL server stopped unexpectedly; starting it again');
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, backoff.next()));
        if (stopping) return;
        try {
          server = await start();
          backoff.started();
          log.info({ pid: server.pid }, 'embedded PostgreSQL server running again');
          watch(server);
          return;
        } catch (error) {
          log.error({ err: error }, 'the embedded PostgreSQL server did not start; trying again');
        }
      }
    });
  };
  watch(server);

  return {
    url: server.url,
    embedded: true,
    stop: async () => {
      stopping = true;
      await server.stop();
    },
  };
}

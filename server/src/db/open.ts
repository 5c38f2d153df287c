/** Opens the configured database: a PostgreSQL server, or PGlite in DATA_DIR. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './client.ts';

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const dir = path.join(config.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  return openPglite(dir);
}

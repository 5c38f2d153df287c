/** Opens the configured PostgreSQL server: DATABASE_URL, or the embedded server the supervisor started and passed on the same way. */
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import { openPostgres, type Database } from './client.ts';

export async function openDatabase(config: Pick<Config, 'databaseUrl'>): Promise<Database> {
  if (!config.databaseUrl) {
    throw new ConfigError('DATABASE_URL is not set: start the product with `npm start` (it starts the embedded PostgreSQL server) or point DATABASE_URL at a server');
  }
  return openPostgres(config.databaseUrl);
}

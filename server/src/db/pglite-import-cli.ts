/**
 * The PGlite import as one command (docs/pglite-import.md), for a setup that ran on embedded
 * PGlite and now uses its own PostgreSQL server:
 *
 *   DATABASE_URL=postgres://owner@host:5432/empty_db node --import tsx server/src/db/pglite-import-cli.ts
 *
 * Imports DATA_DIR/pglite (the same settings as the product's) into the database, which must be
 * empty, and renames the folder to pglite.imported-<timestamp>; with no DATA_DIR/pglite it does
 * nothing. A URL given as the argument takes the place of DATABASE_URL. Exit status: 0 imported
 * or nothing to do, 1 refused or failed (the database and the folder unchanged), 64 no URL,
 * 78 invalid settings.
 */
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { importPgliteIfPresent, PgliteImportError } from './pglite-import.ts';

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`intelnotes: invalid configuration: ${error.message}`);
      return 78;
    }
    throw error;
  }
  const targetUrl = process.argv[2] ?? config.databaseUrl;
  if (!targetUrl) {
    console.error('usage: DATABASE_URL=postgres://… node --import tsx server/src/db/pglite-import-cli.ts [postgres-url]');
    return 64;
  }
  try {
    const result = await importPgliteIfPresent({ dataDir: config.dataDir, targetUrl, log: (message) => console.log(message) });
    console.log(
      result
        ? `intelnotes: imported ${result.tables} tables, ${result.rows} rows; the old folder is now ${result.movedTo}`
        : `intelnotes: no ${path.join(config.dataDir, 'pglite')}: nothing to import`,
    );
    return 0;
  } catch (error) {
    if (error instanceof PgliteImportError) {
      console.error(`intelnotes: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();

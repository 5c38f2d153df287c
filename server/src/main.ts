/**
 * Process entry: config → database → migrations → seed → app → listen.
 * SIGTERM/SIGINT stop accepting connections, let in-flight requests finish,
 * then close the database.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { RESOURCES } from './modules/registry.ts';
import { applySearchIndexes } from './resources/search-index.ts';
import { seedGeography } from './modules/geos/geo-seed.ts';
import { seedTenants } from './tenancy/seed.ts';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`intelnotes: invalid configuration: ${error.message}`);
      process.exit(78);
    }
    throw error;
  }

  const db = await openDatabase(config);
  const applied = await migrate(db);
  const searchRebuilt = await applySearchIndexes(db, RESOURCES);
  const app = await buildApp({ config, db });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  if (searchRebuilt.length > 0) app.log.info({ tables: searchRebuilt }, 'search columns built from the declarations');

  const seeded = await seedTenants(db, { email: config.adminEmail, password: config.adminPassword });
  const geography = await seedGeography(db);
  if (geography.geos + geography.cities > 0) app.log.info(geography, 'seeded countries, regions and cities');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`intelnotes: serving on http://localhost:${port} (demo tenant: http://demo.localhost:${port})`);
  if (seeded.created.length > 0) {
    const hosts = seeded.created.map(({ code }) =>
      code === 'default' ? `http://localhost:${port}` : `http://${code}.localhost:${port}`,
    );
    // Printed once, at the first start, for the person who just installed it.
    console.log(
      [
        '',
        'intelnotes: first start — created tenants with an admin account:',
        ...hosts.map((host) => `  ${host}`),
        `  email:    ${seeded.created[0]!.adminEmail}`,
        `  password: ${seeded.passwordFromEnv ? '(from ADMIN_PASSWORD)' : seeded.adminPassword}`,
        '',
      ].join('\n'),
    );
  }
}

main().catch((error: unknown) => {
  console.error('intelnotes: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

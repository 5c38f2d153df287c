/**
 * The API process (started by the supervisor, main.ts): config → database → migrations →
 * createEngine → seed → app → listen. It runs no jobs: worker processes (worker.ts) do. SIGTERM/SIGINT stop accepting
 * connections, let in-flight requests finish, then close the database.
 */
import { buildApp } from './app.ts';
import { createEngine } from './engine.ts';
import { seedGeography } from './modules/geos/geo-seed.ts';
import { configOrExit } from './config.ts';
import { createLogger } from './logging.ts';
import { openReady, stopOnSignals } from './startup.ts';
import { recoverAtStart, sweepPeriodically } from './storage/files.ts';
import { seedTenants } from './tenancy/seed.ts';

async function main(): Promise<void> {
  const config = configOrExit();
  const { db, deps, storage, applied, searchRebuilt } = await openReady(config);
  const engine = createEngine(config, { ...deps, log: createLogger(config.logLevel, { role: 'api' }) });
  const { files } = engine;
  const app = await buildApp({ engine });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  if (searchRebuilt.length > 0) app.log.info({ tables: searchRebuilt }, 'search columns built from the declarations');

  const seeded = await seedTenants(db, { email: config.adminEmail, password: config.adminPassword });
  const geography = await seedGeography(db);
  if (geography.geos + geography.cities > 0) app.log.info(geography, 'seeded countries, regions and cities');

  // Files a process that died mid-upload stored or staged go before this one serves; other
  // files whose using row never committed go after the grace period.
  const graceMs = config.fileSweepGraceSeconds * 1000;
  const recovered = await recoverAtStart(files, graceMs);
  if (recovered.files + recovered.staged > 0) app.log.info(recovered, 'removed files an interrupted upload left');
  const stopSweeping = sweepPeriodically(files, { graceMs, intervalMs: graceMs }, {
    swept: (result) => {
      if (result.files + result.staged > 0) app.log.info(result, 'removed stored files no row uses');
    },
    failed: (error) => app.log.error({ err: error }, 'sweeping stored files failed; trying again later'),
  });

  stopOnSignals(config, app.log, async () => {
    // Requests in flight and a sweep in progress finish; no new ones start.
    await Promise.all([app.close(), stopSweeping()]);
    storage.close();
    await db.close();
  });

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

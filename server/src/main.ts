/**
 * Process entry: config → database → migrations → createEngine → seed → app → listen.
 * Runs jobs too, unless WORKERS=0 (then `npm run worker` processes do: worker.ts).
 * SIGTERM/SIGINT stop accepting connections and claiming jobs, let in-flight requests and
 * running jobs finish, then close the database.
 */
import { buildApp } from './app.ts';
import { createEngine } from './engine.ts';
import { Worker } from './jobs/worker.ts';
import { closeOcrWorker } from './processing/text/index.ts';
import { seedGeography } from './modules/geos/geo-seed.ts';
import { configOrExit, openReady, stopOnSignals } from './startup.ts';
import { recoverAtStart, sweepPeriodically } from './storage/files.ts';
import { seedTenants } from './tenancy/seed.ts';

async function main(): Promise<void> {
  const config = configOrExit();
  const { db, deps, storage, applied, searchRebuilt } = await openReady(config);
  const engine = createEngine(config, deps);
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

  // Jobs run in this process unless separate worker processes run them (WORKERS=0).
  const { inProcess, concurrency, pollMs, leaseMs } = config.jobs;
  const worker = inProcess ? new Worker({ db, files, registry: engine.jobs, concurrency, pollMs, leaseMs, log: app.log }) : null;
  stopOnSignals(config, app.log, async () => {
    // Requests in flight, running jobs and a sweep in progress finish; no new ones start.
    await Promise.all([app.close(), worker?.stop(), stopSweeping()]);
    // The OCR worker thread (processing) would keep the process alive for its idle time.
    await closeOcrWorker();
    storage.close();
    await db.close();
  });

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  await worker?.start();
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

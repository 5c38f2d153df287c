/**
 * A worker process (`npm run worker`): the same build as the API, running jobs only. For a
 * PostgreSQL server (DATABASE_URL), with API processes started with WORKERS=0. SIGTERM stops
 * claiming and lets the running jobs finish.
 */
import { pino } from 'pino';
import { ConfigError } from './config.ts';
import { createEngine } from './engine.ts';
import { Worker } from './jobs/worker.ts';
import { closeOcrWorker } from './processing/text/index.ts';
import { configOrExit, openReady, stopOnSignals } from './startup.ts';

async function main(): Promise<void> {
  const config = configOrExit((settings) => {
    if (!settings.databaseUrl) {
      throw new ConfigError('a worker process needs DATABASE_URL: embedded PGlite belongs to one process, whose API runs the jobs');
    }
  });
  const log = pino({ level: config.logLevel, base: { role: 'worker' } });
  const { db, deps, storage, applied } = await openReady(config);
  const engine = createEngine(config, deps);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  const { concurrency, pollMs, leaseMs } = config.jobs;
  const worker = new Worker({ db, files: engine.files, registry: engine.jobs, concurrency, pollMs, leaseMs, log });
  stopOnSignals(config, log, async () => {
    await worker.stop();
    // The OCR worker thread (processing) would keep the process alive for its idle time.
    await closeOcrWorker();
    storage.close();
    await db.close();
  });
  await worker.start();
  console.log(`intelnotes: worker running up to ${concurrency} jobs at once (pid ${process.pid})`);
}

main().catch((error: unknown) => {
  console.error('intelnotes: worker failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * A worker process: the same build as the API, running jobs only — started by the supervisor
 * (main.ts, `WORKERS` of them), or on its own (`npm run worker`, with DATABASE_URL) to add
 * workers on other machines. SIGTERM stops claiming and lets the running jobs finish.
 */
import { createEngine } from './engine.ts';
import { Worker } from './jobs/worker.ts';
import { createLogger } from './logging.ts';
import { closeOcrWorker } from './processing/text/index.ts';
import { ConfigError, configOrExit } from './config.ts';
import { openReady, stopOnSignals } from './startup.ts';

async function main(): Promise<void> {
  const config = configOrExit((settings) => {
    if (!settings.databaseUrl) throw new ConfigError('a worker process needs DATABASE_URL (`npm start` passes its own)');
  });
  const log = createLogger(config.logLevel, { role: 'worker' });
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

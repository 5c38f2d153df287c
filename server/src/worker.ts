/**
 * A worker process: the same build as the API, running jobs only — started by the supervisor
 * (main.ts, `WORKERS` of them), or on its own (`npm run worker`, with DATABASE_URL) to add
 * workers on other machines. SIGTERM stops claiming and lets the running jobs finish. A database
 * that goes away stops nothing (the worker waits for it, jobs/worker.ts); a crash is logged with
 * its reason and exits 1, and the process never ends by itself with status 0. Past its memory
 * mark (WORKER_RECYCLE_MB) between jobs it drains and exits with RECYCLE_EXIT, to be started afresh.
 */
import { register } from 'node:module';
import { createEngine } from './engine.ts';
import { faultReason } from './jobs/faults.ts';
import { Worker } from './jobs/worker.ts';
import { createLogger } from './logging.ts';
import { closeOcrWorker } from './processing/text/index.ts';
import { ConfigError, configOrExit, RECYCLE_EXIT } from './config.ts';
import { openReady, stopOnSignals } from './startup.ts';

async function main(): Promise<void> {
  // Installed packages' ES modules load untransformed (pdf.js through tsx cost ~300 MiB a worker).
  register('./processes/dependency-loader.mjs', import.meta.url);
  const config = configOrExit((settings) => {
    if (!settings.databaseUrl) throw new ConfigError('a worker process needs DATABASE_URL (`npm start` passes its own)');
  });
  const log = createLogger(config.logLevel, { role: 'worker' });
  // The innermost error's text and stack: a query error's own message would carry its parameters.
  const crash = (what: string) => (error: unknown) => {
    const root = innermost(error);
    const stack = root instanceof Error && !('params' in root) ? root.stack : undefined;
    log.fatal({ reason: faultReason(error), stack }, `worker: ${what}; exiting`);
    process.exit(1);
  };
  process.on('uncaughtException', crash('uncaught exception'));
  process.on('unhandledRejection', crash('unhandled rejection'));
  // The event loop ran dry: nothing waits for jobs any more. Only a signal ends a worker (with process.exit).
  process.on('beforeExit', () => {
    log.fatal({}, 'worker: nothing left to wait on; exiting');
    process.exit(1);
  });
  const { db, deps, storage, applied } = await openReady(config);
  const engine = createEngine(config, { ...deps, log });
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  const { concurrency, pollMs, leaseMs, recycleAboveBytes } = config.jobs;
  const close = async () => {
    // The OCR worker thread (processing) would keep the process alive for its idle time.
    await closeOcrWorker();
    storage.close();
    await db.close();
  };
  // Past its memory mark the worker has drained (Worker.checkMemory): it ends, and the supervisor
  // (or whatever runs `npm run worker`) starts a fresh one.
  const reached = () =>
    void close().finally(() => {
      log.info({}, 'worker: exiting to give its memory back');
      process.exit(RECYCLE_EXIT);
    });
  const worker = new Worker({ db, files: engine.files, registry: engine.jobs, concurrency, pollMs, leaseMs, log, memoryMark: { bytes: recycleAboveBytes, reached } });
  stopOnSignals(config, log, async () => {
    await worker.stop();
    await close();
  });
  await worker.start();
  console.log(`intelnotes: worker running up to ${concurrency} jobs at once (pid ${process.pid})`);
}

function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current;
}

main().catch((error: unknown) => {
  console.error('intelnotes: worker failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

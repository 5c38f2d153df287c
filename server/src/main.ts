/**
 * `npm start`: the supervisor. Starts the embedded PostgreSQL server (unless DATABASE_URL
 * names one), then the API process and `WORKERS` worker processes, and keeps them running.
 * It loads none of the app: a crash in a child cannot take it down. See docs/processes.md.
 */
import { configOrExit } from './config.ts';
import { createLogger } from './logging.ts';
import { startDatabase } from './processes/database.ts';
import { Supervisor } from './processes/supervisor.ts';

async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel === 'silent' ? 'info' : config.logLevel, { role: 'supervisor' });
  const database = await startDatabase(config, log);
  const supervisor = new Supervisor({
    log,
    env: { ...process.env, DATABASE_URL: database.url },
    children: [
      { name: 'api', entry: 'api.ts' },
      ...Array.from({ length: config.jobs.workers }, (_, index) => ({ name: `worker-${index + 1}`, entry: 'worker.ts' })),
    ],
    database,
    // Children drain within SHUTDOWN_TIMEOUT_MS; the supervisor waits a little longer for them.
    stopTimeoutMs: config.shutdownTimeoutMs + 5_000,
    onFatal: (status) => process.exit(status),
  });
  const stop = (signal: string) => {
    void supervisor.stop(signal).then((code) => process.exit(code));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  supervisor.start();
}

main().catch((error: unknown) => {
  console.error('intelnotes: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});

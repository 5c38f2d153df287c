/**
 * Runs the product's processes — the API and the workers — as children, and keeps them running:
 * a child that exits, whatever its status, is logged with its reason and started again after a
 * backoff — or at once, when a worker exits with RECYCLE_EXIT to give its memory back. Only a stop (SIGTERM/SIGINT to the supervisor) ends them: each child gets SIGTERM and
 * drains; then the database stops; then the supervisor exits 0, or 1 when a child had to be
 * killed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { CONFIG_EXIT, RECYCLE_EXIT } from '../config.ts';
import { Backoff } from './backoff.ts';
import type { SupervisedDatabase } from './database.ts';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ChildSpec {
  /** Shown in the log: `api`, `worker-1`, … */
  name: string;
  /** The entry under server/src (api.ts, worker.ts). */
  entry: string;
}

export interface SupervisorOptions {
  log: Logger;
  env: NodeJS.ProcessEnv;
  children: ChildSpec[];
  database: SupervisedDatabase;
  /** How long a stop waits for the children to drain before it kills them. */
  stopTimeoutMs: number;
  /** Called with the exit status when the product cannot run (a child's bad configuration). */
  onFatal(status: number): void;
}

interface Running {
  spec: ChildSpec;
  backoff: Backoff;
  process: ChildProcess | null;
  exited: Promise<void>;
  restart: NodeJS.Timeout | null;
}

export class Supervisor {
  private readonly running: Running[] = [];
  private stopping: Promise<number> | null = null;
  private failedToStop = false;

  constructor(private readonly options: SupervisorOptions) {}

  start(): void {
    for (const spec of this.options.children) {
      const entry: Running = { spec, backoff: new Backoff(), process: null, exited: Promise.resolve(), restart: null };
      this.running.push(entry);
      this.launch(entry);
    }
  }

  private launch(entry: Running): void {
    const { log, env } = this.options;
    // The children run as this process does (under tsx), with the same flags.
    const child = fork(path.join(srcDir, entry.spec.entry), [], { env, execArgv: process.execArgv, stdio: 'inherit' });
    entry.process = child;
    entry.backoff.started();
    log.info({ child: entry.spec.name, pid: child.pid }, 'process started');
    entry.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        entry.process = null;
        resolve();
        if (code === CONFIG_EXIT && !this.stopping) {
          // A setting to fix (a file store that does not answer, a model folder): starting the
          // process again cannot help, so the product stops with the child's message and status.
          log.fatal({ child: entry.spec.name }, 'process stopped on its configuration; stopping');
          void this.stop('configuration').then(() => this.options.onFatal(CONFIG_EXIT));
          return;
        }
        if (this.stopping) {
          // SIGTERM before the child had set up its own handler (still starting) is the stop asked for.
          if (code !== 0 && signal !== 'SIGTERM') {
            this.failedToStop = true;
            log.error({ child: entry.spec.name, code, signal }, 'process did not stop cleanly');
          }
          return;
        }
        if (code === RECYCLE_EXIT) {
          // A worker past its memory mark, drained: started again at once, and not a fault.
          log.info({ child: entry.spec.name, pid: child.pid }, 'process recycled to give its memory back; starting it again');
          this.launch(entry);
          return;
        }
        const delay = entry.backoff.next();
        // Nothing stops on its own: even a clean exit (status 0) is a fault here.
        log.error(
          { child: entry.spec.name, pid: child.pid, code, signal, restartInMs: delay },
          code === 0 ? 'process exited with status 0 without being asked to stop; starting it again' : 'process died; starting it again',
        );
        entry.restart = setTimeout(() => {
          entry.restart = null;
          if (!this.stopping) this.launch(entry);
        }, delay);
      });
    });
    child.on('error', (error) => log.error({ child: entry.spec.name, err: error }, 'process could not be started'));
  }

  /** Stops every child (SIGTERM, then SIGKILL past the timeout) and the database; resolves to the exit status. */
  stop(signal: string): Promise<number> {
    return (this.stopping ??= this.stopAll(signal));
  }

  private async stopAll(signal: string): Promise<number> {
    const { log, stopTimeoutMs, database } = this.options;
    log.info({ signal }, 'shutting down: stopping the API and the workers');
    let failed = false;
    for (const entry of this.running) {
      if (entry.restart) clearTimeout(entry.restart);
      entry.process?.kill('SIGTERM');
    }
    const timer = setTimeout(() => {
      for (const entry of this.running) {
        if (entry.process) {
          failed = true;
          log.error({ child: entry.spec.name }, 'process did not stop in time; killing it');
          entry.process.kill('SIGKILL');
        }
      }
    }, stopTimeoutMs);
    await Promise.all(this.running.map((entry) => entry.exited));
    clearTimeout(timer);
    try {
      await database.stop();
      if (database.embedded) log.info('embedded PostgreSQL server stopped');
    } catch (error) {
      log.error({ err: error }, 'stopping the database failed');
      return 1;
    }
    return failed || this.failedToStop ? 1 : 0;
  }
}

/**
 * Runs jobs: claims due jobs in one short transaction, never more than its free slots, runs
 * each handler outside any transaction, and settles it in another. A lease, renewed while the
 * handler runs (one statement for all of the worker's running jobs), lets another worker take
 * the job again when this process dies; a time limit stops an attempt that runs too long;
 * failed attempts are retried with exponential backoff up to the job type's limit. Woken by
 * the jobs_notify notification when a job is committed, and by polling besides.
 *
 * A database that goes away (a restart, a failover) stops nothing: claims back off and are
 * tried again until it answers, renewals and settlements are tried again, the fault and the
 * recovery are logged, and the poll timer keeps the process alive meanwhile.
 */
import type { Database, Tx } from '../db/client.ts';
import { actingUser, inTenant, systemActor, type SystemActor } from '../resources/context.ts';
import type { FileStore } from '../storage/files.ts';
import { JOB_NAMES, JOB_TYPES, type JobName, type JobTypeOptions } from './job-types.ts';
import { backoffDelay, faultReason, isConnectionError } from './faults.ts';
import {
  claimDueJobs,
  failLostJob,
  findJobUser,
  findLostJobs,
  holdLease,
  markAttemptFailed,
  markSucceeded,
  renewLeases,
  writeProgress,
  type ClaimedJob,
  type LostJob,
} from './jobs.repository.ts';
import { checkPayload, JobPayloadError } from './queue.ts';
import { type JobContext, type JobDefinition, type JobInfo, type JobRegistry, JobRefused, JobUserError, UNEXPECTED_FAILURE } from './registry.ts';

export const JOBS_CHANNEL = 'intelnotes_jobs';
/** Longest wait between retries. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Waits between claims while the database cannot be reached: from the first to the longest. */
const FAULT_RETRY_MIN_MS = 250;
const FAULT_RETRY_MAX_MS = 15_000;

export interface WorkerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface WorkerOptions {
  db: Database;
  /** Handed to handlers (JobContext.files). */
  files: FileStore;
  registry: JobRegistry;
  /** Jobs this worker runs at once. */
  concurrency: number;
  /** The fallback when a notification is missed: a claim at least this often. */
  pollMs: number;
  /** How long a claim holds a job without renewal; renewed every third of it while running. */
  leaseMs: number;
  log: WorkerLog;
  /**
   * Checked when a job ends: above `bytes` of resident memory, the worker stops claiming, lets
   * its running jobs finish, and calls `reached` (the process then exits to be started afresh).
   */
  memoryMark?: { bytes: number; reached(rss: number): void };
}

/** Why an attempt was stopped from outside the handler. */
class AttemptStopped extends Error {}

/** A job that no attempt can run (its user is gone): failed at once, without retries. */
class JobCannotRun extends Error {}

const LEASE_LOST = 'its lease was lost: another worker took the job';

export const backoffMs = (name: JobName, attempt: number) =>
  Math.min(JOB_TYPES[name].backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);

/** A job this worker runs: its claim, and how to stop it from outside the handler. */
interface Attempt {
  job: ClaimedJob;
  stop(reason: string): void;
}

export class Worker {
  /** The running attempts, by job id. */
  private readonly attempts = new Map<string, Attempt>();
  private readonly running = new Set<Promise<void>>();
  private claiming: Promise<void> | null = null;
  private wakeAgain = false;
  private stopped = false;
  private recycling = false;
  private poll: NodeJS.Timeout | null = null;
  private renewal: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** While claims fail: since when, how many in a row, and the timer of the next try. */
  private fault: { since: number; failures: number; retry: NodeJS.Timeout | null } | null = null;
  private listening = true;
  /** The job types this process runs: all of them (the registry has a handler for each). */
  private readonly names: readonly JobName[] = JOB_NAMES;

  constructor(private readonly options: WorkerOptions) {}

  async start(): Promise<void> {
    this.unlisten = await this.options.db.listen(JOBS_CHANNEL, {
      notify: () => this.wake(true),
      // Notifications sent while the listener was down are lost: look at the table again. The
      // listener connects again by itself; it is back when the database is.
      state: (listening) => {
        if (listening && !this.listening) this.options.log.info({}, 'jobs: listening for new jobs again');
        if (!listening && this.listening && !this.stopped) this.options.log.warn({}, 'jobs: lost the connection that listens for new jobs; polling until it is back');
        this.listening = listening;
        if (listening) this.wake(true);
      },
    });
    // Not unref'd: while the worker runs, this timer keeps the process alive — with every
    // connection cut, nothing else might, and the process would end with status 0, unnoticed.
    this.poll = setInterval(() => this.wake(), this.options.pollMs);
    this.scheduleRenewal();
    this.wake();
  }

  /** Jobs running now. */
  get active(): number {
    return this.attempts.size;
  }

  /**
   * Claims jobs for the free slots; a wake during a claim claims again after it. While the
   * database cannot be reached, only the backoff's timer and signs of life from the database
   * (`force`: a notification, the listener connected again) claim.
   */
  wake(force = false): void {
    if (this.stopped) return;
    if (this.fault && !force) return;
    if (this.claiming) {
      this.wakeAgain = true;
      return;
    }
    this.claiming = this.fill()
      .then(
        () => this.recovered(),
        (error: unknown) => this.claimFailed(error),
      )
      .finally(() => {
        this.claiming = null;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  /** Stops claiming and waits for the running jobs to finish (the caller bounds the wait). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.fault?.retry) clearTimeout(this.fault.retry);
    await this.unlisten?.();
    await this.claiming;
    await Promise.all([...this.running]);
    if (this.renewal) clearTimeout(this.renewal);
    await this.renewing;
  }

  /**
   * Between jobs: a process whose memory grew past its mark drains and hands over to a fresh one.
   * What the readers keep after a large file (pdf.js's and V8's heaps, the OCR engine's
   * WebAssembly memory, glibc's arenas) is not given back to the system while the process lives.
   */
  private checkMemory(): void {
    const mark = this.options.memoryMark;
    if (!mark || mark.bytes <= 0 || this.recycling || this.stopped) return;
    const rss = process.memoryUsage.rss();
    if (rss <= mark.bytes) return;
    this.recycling = true;
    this.options.log.info({ rssMiB: Math.round(rss / 1048576), markMiB: Math.round(mark.bytes / 1048576), running: this.attempts.size }, 'jobs: memory above the mark; finishing the running jobs, then starting afresh');
    void this.stop().then(() => mark.reached(rss));
  }

  private claimFailed(error: unknown): void {
    const failures = (this.fault?.failures ?? 0) + 1;
    const retryInMs = backoffDelay(failures, FAULT_RETRY_MIN_MS, Math.max(FAULT_RETRY_MAX_MS, this.options.pollMs));
    const reason = faultReason(error);
    const details = { reason, unreachable: isConnectionError(error), failures, retryInMs };
    if (failures === 1) this.options.log.error(details, 'jobs: claiming failed; trying again with backoff');
    else this.options.log.warn(details, 'jobs: claiming failed again');
    if (this.fault?.retry) clearTimeout(this.fault.retry);
    const retry = this.stopped
      ? null
      : setTimeout(() => {
          if (this.fault) this.fault.retry = null;
          this.wake(true);
        }, retryInMs);
    this.fault = { since: this.fault?.since ?? Date.now(), failures, retry };
  }

  private recovered(): void {
    if (!this.fault) return;
    const { since, failures, retry } = this.fault;
    if (retry) clearTimeout(retry);
    this.fault = null;
    this.options.log.info({ failures, downMs: Date.now() - since }, 'jobs: the database answers again; claiming resumed');
  }

  private async fill(): Promise<void> {
    await this.failLostJobs();
    while (!this.stopped) {
      const free = this.options.concurrency - this.attempts.size;
      if (free <= 0) return;
      const mine = [...this.attempts.keys()];
      // A type at its per-process limit is not claimed; while a limited type may be, one job
      // at a time, so that one claim cannot take more of it than the limit allows.
      const names = this.names.filter((name) => {
        const limit = (JOB_TYPES[name] as JobTypeOptions).perWorker;
        return limit === undefined || [...this.attempts.values()].filter((attempt) => attempt.job.name === name).length < limit;
      });
      if (names.length === 0) return;
      const batch = names.some((name) => (JOB_TYPES[name] as JobTypeOptions).perWorker !== undefined) ? 1 : free;
      const jobs = await this.options.db.withTenant({ tenantId: null, jobsWorker: true }, (tx) =>
        claimDueJobs(tx, names, batch, this.options.leaseMs, mine),
      );
      for (const job of jobs) {
        const run = this.run(job).finally(() => {
          this.running.delete(run);
          this.attempts.delete(job.id);
          this.checkMemory();
          this.wake();
        });
        this.running.add(run);
      }
      if (jobs.length < batch) return;
    }
  }

  /** Renews the leases of the running jobs every third of the lease, one renewal at a time. */
  private scheduleRenewal(): void {
    const every = Math.max(100, Math.floor(this.options.leaseMs / 3));
    this.renewal = setTimeout(() => {
      this.renewing = this.renewLeases().finally(() => {
        this.renewing = null;
        if (!this.stopped || this.attempts.size > 0) this.scheduleRenewal();
      });
    }, every);
    this.renewal.unref();
  }

  private async renewLeases(): Promise<void> {
    const attempts = [...this.attempts.values()];
    if (attempts.length === 0) return;
    const leases = attempts.map(({ job }) => ({ tenantId: job.tenant_id, id: job.id, token: job.lease_token }));
    try {
      const held = await this.options.db.withTenant({ tenantId: null, jobsWorker: true }, (tx) => renewLeases(tx, leases, this.options.leaseMs));
      for (const attempt of attempts) {
        if (!held.has(attempt.job.id) && this.attempts.get(attempt.job.id) === attempt) attempt.stop(LEASE_LOST);
      }
    } catch (error) {
      // Tried again at the next turn; a lease that ends meanwhile lets another worker take the job.
      this.options.log.warn({ reason: faultReason(error), jobs: leases.map((lease) => lease.id) }, 'jobs: could not renew leases; trying again');
    }
  }

  /**
   * Runs a statement that records an attempt's outcome, again and again while the database
   * cannot be reached (the lease is renewed meanwhile: the job stays this worker's), until it
   * answers or the worker stops.
   */
  private async persistently<T>(job: ClaimedJob, fn: () => Promise<T>): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await fn();
      } catch (error) {
        if (!isConnectionError(error) || this.stopped) throw error;
        const retryInMs = backoffDelay(failures, FAULT_RETRY_MIN_MS, FAULT_RETRY_MAX_MS);
        this.options.log.warn({ job: job.id, reason: faultReason(error), retryInMs }, 'jobs: could not record the outcome of an attempt; trying again');
        await new Promise((resolve) => setTimeout(resolve, retryInMs));
      }
    }
  }

  private inTenant<T>(job: ClaimedJob | LostJob, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.options.db.withTenant({ tenantId: job.tenant_id }, fn);
  }

  /**
   * Fails the jobs whose worker died on their last attempt (their lease ended), each in its
   * tenant's transaction with its type's failure handler.
   */
  private async failLostJobs(): Promise<void> {
    const lost = await this.options.db.withTenant({ tenantId: null, jobsWorker: true }, (tx) => findLostJobs(tx));
    for (const job of lost) {
      await this.inTenant(job, async (tx) => {
        const failed = await failLostJob(tx, job.id);
        if (!failed) return;
        this.options.log.error({ job: job.id, name: failed.name, reason: failed.error }, 'jobs: job failed');
        const info = { id: job.id, tenantId: job.tenant_id, name: failed.name, attempt: failed.attempts, maxAttempts: failed.max_attempts, createdBy: failed.created_by };
        await this.afterFailure(tx, info, failed.payload, failed.error);
      });
    }
  }

  /** The job type's failure handler, in the transaction that failed the job, in a savepoint of its own. */
  private async afterFailure(tx: Tx, job: JobInfo, payload: unknown, reason: string): Promise<void> {
    const definition = this.options.registry[job.name] as JobDefinition<JobName>;
    if (!definition.failed) return;
    let checked;
    try {
      checked = checkPayload(job.name, payload);
    } catch {
      return; // A payload no handler can read names nothing the failure handler could clean up.
    }
    try {
      await tx.transaction((savepoint) => definition.failed!({ tx: savepoint, actor: systemActor(job.tenantId) }, { job, payload: checked, reason }));
    } catch (error) {
      this.options.log.error({ job: job.id, name: job.name, reason: faultReason(error) }, 'jobs: the failure handler of a failed job failed');
    }
  }

  /**
   * The job's actor: the system, for the user who queued it when its type acts for them —
   * with that user's access as it is now; a user gone or disabled means the job cannot run.
   */
  private async actorOf(job: ClaimedJob): Promise<SystemActor> {
    if ((JOB_TYPES[job.name] as JobTypeOptions).actsFor !== 'creator' || job.created_by === null) return systemActor(job.tenant_id);
    const user = await this.inTenant(job, (tx) => findJobUser(tx, job.created_by!));
    if (!user || user.disabled) throw new JobCannotRun('The user who queued this job no longer has an account here: it is not run.');
    return systemActor(job.tenant_id, actingUser(user));
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { log } = this.options;
    const details = { job: job.id, name: job.name, tenant: job.tenant_id, attempt: job.attempts };
    const controller = new AbortController();
    const stop = (reason: string) => controller.abort(new AttemptStopped(reason));
    const limit = setTimeout(() => stop(`timed out after ${job.timeout_ms} ms`), job.timeout_ms);
    this.attempts.set(job.id, { job, stop });
    try {
      let payload;
      let actor: SystemActor;
      try {
        payload = checkPayload(job.name, job.payload);
        actor = await this.actorOf(job);
      } catch (error) {
        // A payload that no attempt can accept, a user who is gone: failed at once, without retries.
        if (error instanceof JobPayloadError || error instanceof JobCannotRun) return await this.settleFailure(job, error.message, true, error.message);
        throw error;
      }
      const leaseLost = () => {
        stop(LEASE_LOST);
        return controller.signal.reason as Error;
      };
      const context: JobContext<JobName> = {
        job: this.infoOf(job),
        payload,
        actor,
        inTenant: (fn, options) =>
          inTenant(this.options.db, actor, async (ctx) => {
            if (!(await holdLease(ctx.tx, job.id, job.lease_token))) throw leaseLost();
            return fn(ctx);
          }, options),
        files: this.options.files,
        signal: controller.signal,
        progress: async (stage, percent) => {
          const clamped = Math.max(0, Math.min(100, Math.round(percent)));
          const held = await this.inTenant(job, (tx) => writeProgress(tx, job.id, job.lease_token, stage.slice(0, 200), clamped));
          if (!held) throw leaseLost();
        },
      };
      const handler = (this.options.registry[job.name] as JobDefinition<JobName>).run;
      let result: unknown;
      try {
        result = await untilAborted(handler(context), controller.signal);
      } catch (error) {
        const reason = controller.signal.aborted ? (controller.signal.reason as Error).message : messageOf(error);
        log.warn({ ...details, reason }, 'jobs: attempt failed');
        if (!controller.signal.aborted && error instanceof JobRefused) return await this.settleFailure(job, reason, true, reason, error.body);
        const shown = controller.signal.aborted || error instanceof JobUserError ? reason : UNEXPECTED_FAILURE;
        return await this.settleFailure(job, reason, false, shown);
      }
      const held = await this.persistently(job, () => this.inTenant(job, (tx) => markSucceeded(tx, job.id, job.lease_token, result)));
      if (!held) log.warn(details, 'jobs: finished after its lease was lost; the other attempt settles it');
    } catch (error) {
      // The database failed while starting or settling the attempt: the lease ends and the job is taken again.
      log.error({ ...details, reason: faultReason(error) }, 'jobs: could not record the outcome of an attempt');
    } finally {
      clearTimeout(limit);
    }
  }

  private infoOf(job: ClaimedJob): JobInfo {
    return { id: job.id, tenantId: job.tenant_id, name: job.name, attempt: job.attempts, maxAttempts: job.max_attempts, createdBy: job.created_by };
  }

  /**
   * Records the attempt's `reason` (and a refused job's `result`); a job failed for good gives
   * its handler `shown` (JobFailure's reason).
   */
  private async settleFailure(job: ClaimedJob, reason: string, permanent: boolean, shown: string, result?: unknown): Promise<void> {
    const recorded = reason.slice(0, 2000);
    await this.persistently(job, () =>
      this.inTenant(job, async (tx) => {
        const status = await markAttemptFailed(tx, job.id, job.lease_token, recorded, backoffMs(job.name, job.attempts), permanent, result);
        if (status !== 'failed') return;
        this.options.log.error({ job: job.id, name: job.name, reason }, 'jobs: job failed');
        await this.afterFailure(tx, this.infoOf(job), job.payload, shown.slice(0, 2000));
      }),
    );
  }
}

/** The error's message; for a query error, the driver's (drizzle's own names the statement and its parameters). */
function messageOf(error: unknown): string {
  if (error instanceof Error && 'params' in error) return error.cause === undefined ? 'a statement failed' : messageOf(error.cause);
  return error instanceof Error ? error.message || error.name : String(error);
}

/** The handler's promise, or a rejection as soon as the signal aborts (a handler that ignores it no longer holds the slot). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

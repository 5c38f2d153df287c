/**
 * The handler of every job type. Modules export their handlers (`<area>.jobs.ts`) and
 * `modules/jobs.ts` lists them; `createJobRegistry` refuses to start when a declared job type
 * (job-types.ts) has no handler, or when two modules handle the same one.
 */
import type { EngineContext, SystemActor, TransactionOptions } from '../resources/context.ts';
import type { FileStore } from '../storage/files.ts';
import { JOB_NAMES, type JobName, type JobPayload } from './job-types.ts';

export interface JobInfo {
  id: string;
  tenantId: string;
  name: JobName;
  /** 1 for the first run, 2 for the first retry, … */
  attempt: number;
  maxAttempts: number;
  createdBy: string | null;
}

/**
 * What a handler gets. A handler may run more than once for one job (a retry, or another
 * worker after this one's process died); it must leave the same result however many times it
 * runs: docs/jobs.md ("Idempotent handlers") shows how, keyed by `job.id`.
 *
 * Handlers reach the database only through `inTenant`: the engine's context for the job's
 * tenant and actor, built by the worker, so no handler builds its own (or forgets row-level
 * security, or the audit log's "system, on behalf of").
 */
export interface JobContext<N extends JobName> {
  job: JobInfo;
  payload: JobPayload<N>;
  /**
   * `systemActor(job.tenantId, onBehalfOf)`: on behalf of the user who queued the job when its
   * type acts for them (job-types.ts `actsFor`), read again at each attempt; the audit log
   * records the job's writes as the system's, on that user's behalf.
   */
  actor: SystemActor;
  /**
   * Runs `fn` in one short transaction of the job's tenant (row-level security) with the
   * job's actor — an engine context any service takes. The transaction first checks that the
   * attempt still holds its lease and keeps it held until it ends (jobs.repository.ts
   * `holdLease`): an attempt that lost its lease writes nothing, and throws.
   */
  inTenant<T>(fn: (ctx: EngineContext) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** The file store (a job's file: its payload names it, `enqueue`'s `file` holds it). */
  files: FileStore;
  /** Aborts when the time limit is reached or the lease is lost: stop and throw. */
  signal: AbortSignal;
  /**
   * Records where the job is (0–100), readable through GET jobs/{id}/, in a transaction of its
   * own: a write inside `inTenant` would show before that transaction commits, so call it between.
   */
  progress(stage: string, percent: number): Promise<void>;
}

/** Returns a small JSON result shown with the job (or nothing). Throwing fails the attempt. */
export type JobHandler<N extends JobName> = (context: JobContext<N>) => Promise<unknown>;

/**
 * An error whose message is written for the people who queued the job: a failure handler
 * may pass it on to them (an event, a status). Any other error a handler throws is an
 * internal one — a driver's or PostgreSQL's text — kept in the job's record and the log only.
 */
export class JobUserError extends Error {}

/**
 * Input that no attempt could accept (a file that is not what the job needs): the job fails at
 * once, without retries, with this message, and `body` — what a request would have answered,
 * e.g. an API error's body — kept as the job's result for whoever waits on it.
 */
export class JobRefused extends JobUserError {
  constructor(message: string, readonly body?: unknown) {
    super(message);
  }
}

/** A job that failed for good: its last attempt's reason. */
export interface JobFailure<N extends JobName> {
  job: JobInfo;
  payload: JobPayload<N>;
  /**
   * Why, in words fit for the people who queued it: the queue's own reasons (timed out, its
   * worker stopped, its user is gone) and JobUserError messages as they are; any other error
   * as UNEXPECTED_FAILURE (the job's record and the log keep its text).
   */
  reason: string;
}

/** The reason a failure handler is given for an error not meant for users. */
export const UNEXPECTED_FAILURE = 'It failed unexpectedly; the details are in the server log.';

/**
 * Runs in the transaction that marks the job failed for good (after its last attempt, or when
 * its worker died on it), with the system as actor: what the job was doing is never left half
 * announced — e.g. a raw data item is never left "processing" by a job that ended. Its writes
 * and events commit with the failure; if it throws, the failure is still recorded (its
 * savepoint is rolled back and the error logged).
 */
export type JobFailureHandler<N extends JobName> = (ctx: EngineContext, failure: JobFailure<N>) => Promise<void>;

/** A job type's handler, and optionally what to do when a job of it fails for good. */
export interface JobDefinition<N extends JobName> {
  run: JobHandler<N>;
  failed?: JobFailureHandler<N>;
}

export type JobHandlers = { [N in JobName]?: JobHandler<N> | JobDefinition<N> };

export type JobRegistry = { [N in JobName]: JobDefinition<N> };

/** The handler of a module's entry, whichever form it takes (a wrapper in a test calls it). */
export const runnerOf = <N extends JobName>(entry: JobHandler<N> | JobDefinition<N>): JobHandler<N> => (typeof entry === 'function' ? entry : entry.run);

export class JobRegistryError extends Error {}

export function createJobRegistry(modules: JobHandlers[]): JobRegistry {
  const registry: Partial<Record<JobName, JobDefinition<JobName>>> = {};
  for (const handlers of modules) {
    for (const [name, handler] of Object.entries(handlers) as [JobName, JobHandler<JobName> | JobDefinition<JobName>][]) {
      if (!JOB_NAMES.includes(name)) throw new JobRegistryError(`a handler is registered for "${name}", which is not a job type (jobs/job-types.ts)`);
      if (registry[name]) throw new JobRegistryError(`job type "${name}" has two handlers`);
      registry[name] = typeof handler === 'function' ? { run: handler } : handler;
    }
  }
  const missing = JOB_NAMES.filter((name) => !registry[name]);
  if (missing.length > 0) throw new JobRegistryError(`job types without a handler: ${missing.join(', ')}`);
  return registry as JobRegistry;
}

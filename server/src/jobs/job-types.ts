/**
 * Every job type: its name, the shape of its payload (checked when it is enqueued and again
 * when it is claimed) and how it runs (time limit, attempts, backoff). The payload types
 * derive from here, so `enqueue` and the handlers agree at compile time. Handlers live in
 * their module (`modules/<area>/<area>.jobs.ts`); the registry refuses to start when one of
 * these has none.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { EVENT_NAMES, EVENTS, type EventDeclaration, type EventName, type EventPayload } from '../events/event-map.ts';

export interface JobTypeOptions<S extends TSchema = TSchema> {
  payload: S;
  /** An attempt running longer is stopped (its signal aborts) and counts as failed. */
  timeoutMs: number;
  /** Attempts in all, the first included; then the job is `failed` with the last reason. */
  maxAttempts: number;
  /** The wait before the second attempt; it doubles for each further one (capped at an hour). */
  backoffMs: number;
  /**
   * Whom the job's writes are for (JobContext.actor). 'creator': the user who queued it
   * (created_by), with the access they have at each attempt — a job whose user is gone or
   * disabled fails without running, never writing with more rights than theirs. Otherwise
   * (the default) the system on its own, an admin of the job's tenant.
   */
  actsFor?: 'creator' | 'system';
  /**
   * At most this many attempts of this type run at once in one worker process, whatever its
   * WORKER_CONCURRENCY (other types fill its other slots). For jobs whose working memory is
   * large and not given back: two of them at once in one process add up (docs/processes.md).
   */
  perWorker?: number;
}

const define = <S extends TSchema>(options: JobTypeOptions<S>) => options;

/** Any one event with its payload (the schema is a union built from the event map; this is its type). */
type AnyEvent = { [N in EventName]: { event: N; payload: EventPayload<N> } }[EventName];

export const JOB_TYPES = {
  /** Does nothing: the queue's own cost (benchmarks, a deployment's check). */
  'probe.noop': define({ payload: Type.Object({}, { additionalProperties: false }), timeoutMs: 30_000, maxAttempts: 3, backoffMs: 1_000 }),
  /**
   * Records each attempt and, once per job, its effect (modules/probe/): shows a deployment
   * that every job runs to completion exactly once, whichever process takes it.
   */
  'probe.echo': define({
    payload: Type.Object(
      {
        key: Type.String({ minLength: 1, maxLength: 200 }),
        /** How long the job works before recording its effect. */
        sleep_ms: Type.Integer({ minimum: 0, maximum: 60_000 }),
      },
      { additionalProperties: false },
    ),
    timeoutMs: 90_000,
    maxAttempts: 5,
    backoffMs: 1_000,
    actsFor: 'creator',
  }),
  /**
   * Publishes one live event from the worker that runs it (modules/probe/): shows a deployment
   * that events produced by a worker process reach the streams of every API process.
   */
  'probe.event': define({
    payload: Type.Unsafe<AnyEvent>(
      Type.Union(
        // Channel events only: a personal event names its recipient, which the probe has none of.
        EVENT_NAMES.filter((name) => !(EVENTS[name] as EventDeclaration).personal).map((name) => Type.Object({ event: Type.Literal(name), payload: EVENTS[name].payload }, { additionalProperties: false })),
      ),
    ),
    timeoutMs: 30_000,
    maxAttempts: 3,
    backoffMs: 1_000,
  }),
  /**
   * A spreadsheet upload too big to import in its request (resources/import-job.ts): the file
   * stays in the file store, held by the job (jobs.file_sha256) until it ends. Imports through
   * the engine for the uploading user (the job's created_by), in batches when `partial`.
   */
  'spreadsheet.import': define({
    payload: Type.Object(
      {
        /** The resource's kind (catalog). */
        resource: Type.String({ minLength: 1, maxLength: 100 }),
        sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
        kind: Type.Union([Type.Literal('xlsx'), Type.Literal('csv')]),
        partial: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    // MAX_IMPORT_ROWS rows at a few milliseconds each, with room for a loaded machine.
    timeoutMs: 30 * 60_000,
    maxAttempts: 3,
    backoffMs: 5_000,
    actsFor: 'creator',
  }),
  /**
   * Processes one raw data item (modules/rawdata/rawdata.processing.ts): reads its text,
   * finds the entities in it, links them to the tenant's records and suggests the rest. The
   * item names the job processing it (raw_data.processing_job): a job superseded by a newer
   * request changes nothing. Holds the item's file (jobs.file_sha256) while it waits.
   */
  'rawdata.process': define({
    payload: Type.Object({ item_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    // One file never stalls the queue: text is read within limits of pages and characters,
    // and an attempt past this is stopped (and retried, then the item is marked an error).
    timeoutMs: 5 * 60_000,
    maxAttempts: 3,
    backoffMs: 10_000,
    actsFor: 'creator',
    // Reading a file loads pdf.js, the OCR engine's WebAssembly, SheetJS…: two files read at
    // once in one process took a worker to 860 MiB (docs/BENCHMARKS.md "Real documents").
    perWorker: 1,
  }),
  /**
   * Writes a raw data analysis report (modules/rawdata/analysis-report.ts) for the user who
   * asked, from the items named by id or by the list's filters; the job's id is its task id.
   */
  'rawdata.report': define({
    payload: Type.Object(
      {
        ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 5_000 })),
        query: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2_000 }))),
      },
      { additionalProperties: false },
    ),
    timeoutMs: 10 * 60_000,
    maxAttempts: 2,
    backoffMs: 10_000,
    actsFor: 'creator',
  }),
  /**
   * Enriches one email domain (modules/emails/domain-enrichment.ts): free-mail and disposable
   * lists, role addresses of its items, the organizations using it, MX records, the site's
   * title and description. Queued with the domain, in the transaction that creates it; publishes
   * domain_info_enrich_complete.
   */
  'dxlist.enrich_domain': define({
    payload: Type.Object({ domain_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    // A DNS lookup and one page fetch, each with its own short time limit.
    timeoutMs: 60_000,
    maxAttempts: 4,
    backoffMs: 10_000,
  }),
  /**
   * Removes a deleted tenant's stored files from the file store (modules/clients/clients.jobs.ts).
   * Queued, in the tenant manager's tenant, by the transaction that deletes the tenant: it exists
   * exactly when the deletion commits, and outlives the deleted tenant's rows.
   */
  'clients.remove_files': define({
    payload: Type.Object(
      { tenant_id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }) },
      { additionalProperties: false },
    ),
    timeoutMs: 30 * 60_000,
    maxAttempts: 10,
    backoffMs: 30_000,
  }),
} satisfies Record<string, JobTypeOptions>;

export type JobName = keyof typeof JOB_TYPES;
export type JobPayload<N extends JobName> = Static<(typeof JOB_TYPES)[N]['payload']>;
export const JOB_NAMES = Object.keys(JOB_TYPES) as JobName[];

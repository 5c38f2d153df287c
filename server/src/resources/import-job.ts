/**
 * Spreadsheet imports run in workers, never on the API's event loop: the upload route only
 * receives the file and checks its type (saveSpreadsheet), keeps it in the file store and
 * queues a `spreadsheet.import` job in a transaction of its own (queueSheetImport); the job
 * holds the file until it ends. The route then waits a little for the job (awaitImport): a
 * small sheet's report comes back in the request, a longer import answers 202 and its report
 * is the job's result. The handler (spreadsheetImportJobs) reads the stored file, checks the
 * sheet and writes its rows through the engine as a system actor working for the uploading
 * user, so validation, visibility and the audit log apply as they do to a request. A sheet
 * the import cannot take (empty, no column matching a field, too many rows) refuses the job
 * at once (JobRefused), with the error a request would answer kept as the job's result.
 *
 * Keep good rows (`partial`): the rows are written in batches of IMPORT_BATCH_ROWS, one
 * transaction each, together with how far the import got (import_job_progress), so a retried
 * job carries on after the last committed batch instead of writing a row twice.
 *
 * All or nothing: batches too, but staged (staging.ts): each batch's transaction writes its
 * rows through the engine as the request would — later rows find what earlier ones created
 * or edited — yet nobody else sees them, and the counters do not move. When every row is
 * written without an error, one short transaction publishes the stage (and records the
 * import as done, so a retry after a commit whose job was not yet settled returns the report
 * instead of importing again); when any row failed, the stage is discarded and the report
 * says which rows (rolled_back), which the waiting request answers as a 400. An attempt
 * starts by discarding whatever an earlier attempt of the job staged, so a retried job
 * writes each row once.
 */
import { createReadStream } from 'node:fs';
import { sql } from 'drizzle-orm';
import { atLeast } from '../auth/access.ts';
import type { ErrorBody, ImportReport, JobStatus } from '../contracts.ts';
import { query, type Tx } from '../db/client.ts';
import type { JobRow } from '../jobs/jobs.repository.ts';
import { enqueue } from '../jobs/queue.ts';
import { JobRefused, type JobContext, type JobHandlers } from '../jobs/registry.ts';
import { fileKey, type FileStore } from '../storage/files.ts';
import { responsibleUser, type EngineContext } from './context.ts';
import { ApiError, permissionDenied } from './errors.ts';
import type { ResourceService } from './service.ts';
import type { PlannerStatistics } from './planner-statistics.ts';
import type { ResourceServices } from './services.ts';
import { discardStage, openStage, parkStaged, publishStage, sweepEndedStages } from './staging.ts';
import {
  emptyTally,
  ImportFailedError,
  importReport,
  importRows,
  readImportSheet,
  saveSpreadsheet,
  sheetRows,
  withImportFolder,
  type ImportTally,
  type SheetRow,
  type Upload,
} from './spreadsheet-import.ts';

/** Rows written per transaction by a job that keeps the good rows. */
export const IMPORT_BATCH_ROWS = 500;

/** A refused import job's result: what its upload request answers. */
interface RefusedImport {
  status: number;
  error: ErrorBody;
}

/** Refuses the job with the error a request would have answered. */
const refuse = (error: ApiError) =>
  new JobRefused(error.detail, { status: error.statusCode, error: error.toBody() } satisfies RefusedImport);

/** How often a waiting upload looks at its job: soon at first (most sheets are small), then less often. */
const POLL_MS = { first: 50, longest: 500 };

/**
 * Waits up to `waitMs` for an upload's import job (read by `readJob`) to end: its report, or
 * throws what the request answers for a refused file (the job's 4xx) or an all-or-nothing
 * import with failed rows (ImportFailedError, 400 with the report). A job still running, or
 * one that failed for a reason not the file's, is given back to follow (202).
 */
export async function awaitImport(
  readJob: () => Promise<JobRow | null>,
  waitMs: number,
): Promise<{ report: ImportReport } | { status: JobStatus }> {
  const deadline = Date.now() + waitMs;
  let pause = POLL_MS.first;
  for (;;) {
    const job = await readJob();
    if (!job) throw new Error('the import job just queued is gone');
    if (job.status === 'succeeded') {
      const report = job.result as ImportReport;
      if (report.rolled_back) throw new ImportFailedError(report);
      return { report };
    }
    const refused = job.result as RefusedImport | null;
    if (job.status === 'failed' && refused?.error) {
      const { detail, code, errors } = refused.error;
      throw new ApiError(refused.status, code, detail, errors);
    }
    if (job.status === 'failed' || Date.now() + pause > deadline) return { status: job.status };
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, POLL_MS.longest);
  }
}

/** Keeps a checked upload in the tenant's file store; call it outside any transaction (files.ts). */
export async function storeSpreadsheet(files: FileStore, tenantId: string, upload: Upload): Promise<string> {
  return (await files.put(tenantId, createReadStream(upload.file))).sha256;
}

/** Queues the import of a stored spreadsheet for the context's user, holding the file; returns the job id. */
export function queueSheetImport(ctx: EngineContext, service: ResourceService, file: { sha256: string; kind: Upload['kind'] }, partial: boolean): Promise<string> {
  return enqueue(ctx.tx, {
    name: 'spreadsheet.import',
    payload: { resource: service.resource.kind, sha256: file.sha256, kind: file.kind, partial },
    createdBy: responsibleUser(ctx.actor)?.id ?? null,
    file: file.sha256,
  });
}

interface SavedProgress {
  last_row: number;
  tally: ImportTally;
}

const readProgress = async (tx: Tx, jobId: string) =>
  (await query<SavedProgress>(tx, sql`SELECT last_row, tally FROM import_job_progress WHERE job_id = ${jobId}`))[0] ?? null;

const saveProgress = (tx: Tx, jobId: string, lastRow: number, tally: ImportTally) =>
  query(
    tx,
    sql`INSERT INTO import_job_progress (tenant_id, job_id, last_row, tally)
        VALUES (app_tenant_id(), ${jobId}, ${lastRow}, ${JSON.stringify(tally)}::jsonb)
        ON CONFLICT (tenant_id, job_id) DO UPDATE SET last_row = EXCLUDED.last_row, tally = EXCLUDED.tally, updated_at = now()`,
  );

/**
 * The job works for the uploader (its type acts for its creator: the worker reads the user
 * again at each attempt and fails a job whose user is gone or disabled). Never with more
 * rights than theirs: one no longer allowed to write the resource fails the job too.
 */
function checkUploaderMayWrite(context: ImportJobContext, service: ResourceService): void {
  const { actor } = context;
  const writeAccess = service.resource.writeAccess;
  if (writeAccess === 'manage-tenants' || !atLeast(actor.access, writeAccess)) {
    const who = actor.onBehalfOf?.email ?? 'The job';
    throw refuse(permissionDenied(`${who} may no longer edit ${service.resource.label.toLowerCase()} records: nothing more is imported.`));
  }
}

const percentOf = (done: number, total: number) => (total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0);

/** The job handler; `batchRows` is for tests (a few rows per batch instead of hundreds). */
export function spreadsheetImportJobs(services: ResourceServices, statistics: PlannerStatistics, options: { batchRows?: number } = {}): JobHandlers {
  const batchRows = options.batchRows ?? IMPORT_BATCH_ROWS;
  return {
    'spreadsheet.import': async (context) => {
      const { job, payload, files, progress, inTenant } = context;
      const service = services.get(payload.resource);
      checkUploaderMayWrite(context, service);
      await progress('reading', 0);
      return withImportFolder(async (dir) => {
        const stream = await files.get(fileKey(job.tenantId, payload.sha256));
        const upload = await saveSpreadsheet({ stream, filename: `upload.${payload.kind}` }, dir);
        const sheet = await readImportSheet(service, upload).catch((error: unknown) => {
          throw error instanceof ApiError ? refuse(error) : error;
        });
        const saved = await inTenant(({ tx }) => readProgress(tx, job.id));
        const run = { service, rows: sheetRows(service.resource, sheet), total: sheet.sheet.dataRows, batchRows };
        const tally = payload.partial
          ? await importInBatches(context, run, saved)
          : (saved?.tally ?? (await importAllOrNothing(context, run)));
        // Searches' totals follow the planner's statistics, which know nothing yet of rows written just now.
        const written = payload.partial || tally.failed === 0 ? tally.created + tally.updated : 0;
        await statistics.afterWrites(service.resource.table, written);
        return importReport(tally, payload.partial, sheet.unmatched) satisfies ImportReport;
      });
    },
  };
}

interface ImportRun {
  service: ResourceService;
  rows: AsyncIterable<SheetRow>;
  /** Data rows of the sheet, for the percent. */
  total: number;
  batchRows: number;
}

type ImportJobContext = JobContext<'spreadsheet.import'>;

/** Keep good rows: a transaction per batch, which also records how far the import got. */
async function importInBatches(context: ImportJobContext, run: ImportRun, saved: SavedProgress | null): Promise<ImportTally> {
  const { job, progress } = context;
  let tally = saved?.tally ?? emptyTally();
  const lastDone = saved?.last_row ?? 1;
  const write = (rows: SheetRow[]) =>
    context.inTenant(async (ctx) => {
      tally = await importRows(ctx, run.service, rows, { partial: true }, tally);
      await saveProgress(ctx.tx, job.id, rows.at(-1)!.row, tally);
    });
  await progress('importing', 0);
  // Rows of batches an earlier attempt committed are skipped.
  await inBatches(context, run, (row) => row.row > lastDone, write);
  return tally;
}

/**
 * All or nothing: the rows written in batches staged under the job's id (see the module
 * comment), then published in one short transaction, or discarded when any row failed.
 */
async function importAllOrNothing(context: ImportJobContext, run: ImportRun): Promise<ImportTally> {
  const { job, progress } = context;
  const stage = job.id;
  // What an earlier attempt of this job staged, and stages of jobs that ended without
  // publishing or discarding theirs (a worker that died on the last attempt).
  await context.inTenant(async ({ tx }) => {
    await discardStage(tx, stage);
    await sweepEndedStages(tx);
  });
  let tally = emptyTally();
  let lastRow = 1;
  const write = (rows: SheetRow[]) =>
    context.inTenant(async (ctx) => {
      await openStage(ctx.tx, stage);
      tally = await importRows(ctx, run.service, rows, { partial: false, stage }, tally);
      await parkStaged(ctx.tx, stage);
      lastRow = rows.at(-1)!.row;
    }, { importStage: stage });
  await progress('importing', 0);
  try {
    await inBatches(context, run, () => true, write);
    await context.inTenant(async ({ tx }) => {
      if (tally.failed > 0) return discardStage(tx, stage);
      await publishStage(tx, stage);
      // Done: a retry after this commit returns the report instead of importing again.
      await saveProgress(tx, job.id, lastRow, tally);
    });
  } catch (error) {
    // Nothing of a failed or stopped attempt stays staged (a lost lease or a dead worker
    // leaves it to the next attempt, which discards it first).
    await context.inTenant(({ tx }) => discardStage(tx, stage)).catch(() => {});
    throw error;
  }
  return tally;
}

/** Hands the rows `wanted` keeps to `write` in batches of run.batchRows, with the percent after each (rows skipped count as done). */
async function inBatches(context: ImportJobContext, run: ImportRun, wanted: (row: SheetRow) => boolean, write: (rows: SheetRow[]) => Promise<void>): Promise<void> {
  const { signal, progress } = context;
  let done = 0;
  let batch: SheetRow[] = [];
  const flush = async () => {
    const rows = batch;
    batch = [];
    if (rows.length === 0) return;
    signal.throwIfAborted();
    await write(rows);
    done += rows.length;
    await progress('importing', percentOf(done, run.total));
  };
  for await (const row of run.rows) {
    if (!wanted(row)) {
      done += 1;
      continue;
    }
    batch.push(row);
    if (batch.length >= run.batchRows) await flush();
  }
  await flush();
}

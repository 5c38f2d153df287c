/**
 * Spreadsheet imports too big for their request (more than IMPORT_JOB_ROWS data rows): the
 * upload route keeps the checked file in the file store and queues a `spreadsheet.import`
 * job in the same transaction (queueSheetImport); the job holds the file until it ends.
 * The handler (spreadsheetImportJobs) reads the file again and writes its rows through the
 * engine as a system actor working for the uploading user, so validation, visibility and
 * the audit log apply as they do to the request.
 *
 * Keep good rows (`partial`): the rows are written in batches of IMPORT_BATCH_ROWS, one
 * transaction each, together with how far the import got (import_job_progress), so PGlite's
 * single connection is free between batches and a retried job carries on after the last
 * committed batch instead of writing a row twice.
 *
 * All or nothing: one transaction, as in the request. A rollback cannot reach back into
 * batches already committed, and checking every row first cannot stand in for it: rows of a
 * file depend on earlier rows (a later row updates the record an earlier one created, or
 * names it in a relation), and a row that passed a check can still fail when written because
 * the data changed in between, which would leave half a file. So the job frees the request
 * (and reads the file outside any transaction) but, on PGlite, holds the connection while it
 * writes; its progress is written from another connection, so it moves only on a PostgreSQL
 * server (docs/jobs.md). The transaction also records the import as done, so a retry after
 * a commit whose job was not yet settled returns the report instead of importing again.
 */
import { createReadStream } from 'node:fs';
import { sql } from 'drizzle-orm';
import { atLeast } from '../auth/access.ts';
import type { ImportReport } from '../contracts.ts';
import { query, type Database, type Tx } from '../db/client.ts';
import { enqueue } from '../jobs/queue.ts';
import type { JobContext, JobHandlers, JobInfo } from '../jobs/registry.ts';
import { fileKey, type FileStore } from '../storage/files.ts';
import type { Catalog } from './catalog.ts';
import { actingUser, inTenant, responsibleUser, systemActor, type ActingUser, type EngineContext, type SystemActor } from './context.ts';
import { ResourceService } from './service.ts';
import {
  emptyTally,
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

/** An all-or-nothing import with failed rows: thrown to roll its transaction back, carrying the tally. */
class RolledBack extends Error {
  constructor(readonly tally: ImportTally) {
    super('rows failed: nothing is kept');
  }
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
 * The user the job works for: the one who uploaded the file, with the access they have now.
 * Never more than theirs: a job whose user is gone, disabled or no longer allowed to write
 * the resource fails instead of writing as an admin.
 */
async function uploader(db: Database, job: JobInfo, service: ResourceService): Promise<ActingUser> {
  const [user] = job.createdBy
    ? await db.withTenant({ tenantId: job.tenantId }, (tx) =>
        query<{ id: string; email: string; is_admin: boolean; is_research: boolean; disabled: boolean }>(
          tx,
          sql`SELECT id, email, is_admin, is_research, disabled FROM users WHERE id = ${job.createdBy}`,
        ),
      )
    : [];
  if (!user || user.disabled) throw new Error('The user who uploaded the file no longer has an account here: nothing more is imported.');
  const acting = actingUser(user);
  const writeAccess = service.resource.writeAccess;
  if (writeAccess === 'manage-tenants' || !atLeast(acting.access, writeAccess)) {
    throw new Error(`${user.email} may no longer edit ${service.resource.label.toLowerCase()} records: nothing more is imported.`);
  }
  return acting;
}

const percentOf = (done: number, total: number) => (total > 0 ? Math.min(99, Math.floor((done / total) * 100)) : 0);

/** The job handler; `batchRows` is for tests (a few rows per batch instead of hundreds). */
export function spreadsheetImportJobs(catalog: Catalog, options: { batchRows?: number } = {}): JobHandlers {
  const batchRows = options.batchRows ?? IMPORT_BATCH_ROWS;
  return {
    'spreadsheet.import': async (context) => {
      const { job, payload, db, files, progress } = context;
      const service = new ResourceService(catalog.get(payload.resource), catalog);
      const actor = systemActor(job.tenantId, await uploader(db, job, service));
      await progress('reading', 0);
      return withImportFolder(async (dir) => {
        const stream = await files.get(fileKey(job.tenantId, payload.sha256));
        const upload = await saveSpreadsheet({ stream, filename: `upload.${payload.kind}` }, dir);
        const sheet = await readImportSheet(service, upload);
        const saved = await db.withTenant({ tenantId: job.tenantId }, (tx) => readProgress(tx, job.id));
        const run = { service, rows: sheetRows(service.resource, sheet), total: sheet.sheet.dataRows, batchRows };
        const tally = payload.partial
          ? await importInBatches(context, actor, run, saved)
          : (saved?.tally ?? (await importAllOrNothing(context, actor, run)));
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
async function importInBatches(context: ImportJobContext, actor: SystemActor, run: ImportRun, saved: SavedProgress | null): Promise<ImportTally> {
  const { job, db, signal, progress } = context;
  let tally = saved?.tally ?? emptyTally();
  const lastDone = saved?.last_row ?? 1;
  let done = 0;
  let batch: SheetRow[] = [];
  const write = async () => {
    const rows = batch;
    batch = [];
    if (rows.length === 0) return;
    signal.throwIfAborted();
    tally = await inTenant(db, actor, async (ctx) => {
      const next = await importRows(ctx, run.service, rows, { partial: true }, tally);
      await saveProgress(ctx.tx, job.id, rows.at(-1)!.row, next);
      return next;
    });
    done += rows.length;
    await progress('importing', percentOf(done, run.total));
  };
  await progress('importing', 0);
  for await (const row of run.rows) {
    // Rows of batches an earlier attempt committed.
    if (row.row <= lastDone) {
      done += 1;
      continue;
    }
    batch.push(row);
    if (batch.length >= run.batchRows) await write();
  }
  await write();
  return tally;
}

/** All or nothing: one transaction (see the module comment), recording the import as done when it commits. */
async function importAllOrNothing(context: ImportJobContext, actor: SystemActor, run: ImportRun): Promise<ImportTally> {
  const { job, db, signal, progress } = context;
  // On PGlite the transaction below is the only connection: progress written from another
  // one would wait for it to end.
  const reportsProgress = db.engine !== 'pglite';
  let done = 0;
  let lastRow = 1;
  await progress('importing', 0);
  try {
    return await inTenant(db, actor, async (ctx) => {
      const afterRow = async (row: number) => {
        lastRow = row;
        done += 1;
        signal.throwIfAborted();
        if (reportsProgress && done % run.batchRows === 0) await progress('importing', percentOf(done, run.total));
      };
      const tally = await importRows(ctx, run.service, run.rows, { partial: false, afterRow });
      if (tally.failed > 0) throw new RolledBack(tally);
      await saveProgress(ctx.tx, job.id, lastRow, tally);
      return tally;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.tally;
    throw error;
  }
}

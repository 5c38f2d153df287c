/**
 * Processing raw data (docs/processing.md): POST raw-data/process queues one job per item
 * (rawdata.process); the job moves the item pending → processing (stage reading, extracting,
 * linking, suggesting, with a percent) → completed | error, announcing each step (SPEC §4).
 *
 * Each stage runs in its own short transaction, and every write checks that the item still
 * names this job (raw_data.processing_job): a job superseded by a newer request, or one whose
 * item was deleted, changes nothing. The results — the entities found, the links, the
 * suggestions — are written in ONE transaction at the end, replacing what an earlier
 * processing of the item wrote, so a retry or a reprocessing leaves the same result:
 * suggestions nobody reviewed yet are replaced, reviewed ones (accepted, rejected) are kept.
 */
import { JOB_TYPES } from '../../jobs/job-types.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobContext, JobFailure } from '../../jobs/registry.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import type { Row } from '../../resources/repository.ts';
import type { ResourceService } from '../../resources/service.ts';
import { fileKey } from '../../storage/files.ts';
import { OptionalExtractors } from '../../processing/entities/extractors.ts';
import { TextExtractionError, type ExtractedText } from '../../processing/text/types.ts';
import { MAX_PROCESSING_WARNINGS, type ProcessingStage } from './rawdata.resource.ts';
import type { FoundEntities } from './entity-finding.ts';
import type { TenantModels } from './entity-model.ts';
import type { ReviewServices } from '../review/review.service.ts';
import type { WrittenFindings } from './findings.ts';
import { visibleItems } from './rawdata.service.ts';
import { clip, lockIfCurrent, markCompleted, markError, markPending, markStage } from './processing-state.ts';

/** How many items one POST raw-data/process may name. */
export const MAX_PROCESS_BATCH = 1000;
/** The part of an item's text kept with it: searched (weight D) and sent to the library. */
export const PROCESSED_TEXT_MAX = 200_000;

/** Where each stage starts, in percent (the job's and the item's). */
/**
 * Files larger than this are not read: extraction holds a file in memory (twice, for a PDF,
 * which pdf.js takes ownership of), so the limit bounds a worker's memory whatever the upload limit.
 */
export const MAX_PROCESS_FILE_BYTES = 256 * 1024 * 1024;
/**
 * Reading a file stops at this share of the job's time limit and keeps what it read (a long
 * scan through OCR), so the rest of the stages finish within the limit instead of the whole
 * attempt timing out, being retried, and timing out again.
 */
const READING_SHARE_OF_TIME_LIMIT = 0.7;

const STAGE_PERCENT: Record<ProcessingStage, number> = { reading: 5, extracting: 40, linking: 60, suggesting: 80 };

type ProcessJob = JobContext<'rawdata.process'>;

/**
 * The stages' code and the libraries it reads files with (pdf.js, mammoth, linkedom, the name
 * lists), loaded by a process's first processing job: the API process only queues jobs, and so
 * never loads them (docs/processes.md).
 */
let stages: Promise<{
  extractText: typeof import('../../processing/text/extract.ts').extractText;
  findEntities: typeof import('./entity-finding.ts').findEntities;
  itemSourceUrl: typeof import('./entity-finding.ts').itemSourceUrl;
  writeFindings: typeof import('./findings.ts').writeFindings;
}> | null = null;

const loadStages = () =>
  (stages ??= Promise.all([import('../../processing/text/extract.ts'), import('./entity-finding.ts'), import('./findings.ts')]).then(
    ([text, entities, findings]) => ({ extractText: text.extractText, findEntities: entities.findEntities, itemSourceUrl: entities.itemSourceUrl, writeFindings: findings.writeFindings }),
  ));

export class RawDataProcessing {
  constructor(
    private readonly items: ResourceService,
    private readonly reviews: ReviewServices,
    /** The engine's recent tenant models (entity-model.ts). */
    private readonly models: TenantModels,
    /** The optional entity extractors the settings configure (docs/processing.md "Optional extractors"); none by default. */
    private readonly entityExtractors: OptionalExtractors = new OptionalExtractors([], { info: () => {}, warn: () => {} }),
  ) {}

  /**
   * POST raw-data/process: every item the caller sees gets a new job (one not found is a 404
   * naming it, and nothing is queued). An item being processed is processed again: its
   * current job is superseded.
   */
  async queue(ctx: EngineContext, ids: string[]): Promise<{ results: Array<{ id: string; job_id: string }> }> {
    const rows = await visibleItems(ctx, this.items, ids, 'nothing was queued');
    const results = [];
    for (const row of rows) results.push({ id: row.id, job_id: await this.queueItem(ctx, row) });
    return { results };
  }

  /** Queues the item's processing in the caller's transaction; the item becomes pending. */
  async queueItem(ctx: EngineContext, row: Row): Promise<string> {
    const jobId = await enqueue(ctx.tx, {
      name: 'rawdata.process',
      payload: { item_id: row.id },
      createdBy: responsibleUser(ctx.actor)?.id ?? null,
      file: typeof row['file_sha256'] === 'string' ? row['file_sha256'] : null,
    });
    await markPending(ctx, row.id, jobId);
    return jobId;
  }

  /** The job: read, extract, link, suggest. Returns what it did, shown with the job. */
  async run(job: ProcessJob): Promise<unknown> {
    const itemId = job.payload.item_id;
    const { findEntities, itemSourceUrl, writeFindings } = await loadStages();
    const item = await this.enterStage(job, 'reading');
    if (!item) return { skipped: 'The item was deleted, or processed again by a newer request.' };

    let text: ExtractedText;
    try {
      text = await this.readText(job, item);
    } catch (error) {
      if (!(error instanceof TextExtractionError) || error.code === 'aborted') throw error;
      // The file cannot be read — encrypted, corrupt, of a kind we do not read: retrying
      // would read it the same way. The item says why; the job is done.
      await this.fail(job, itemId, 'reading', error.message);
      return { error: error.message };
    }

    const warnings = itemWarnings(text);

    if (!(await this.enterStage(job, 'extracting'))) return { skipped: 'superseded' };
    // The optional extractors (a model, a chat endpoint) may take seconds: outside any
    // transaction. They never fail the item: one that fails leaves the rules alone.
    const optional = this.entityExtractors.configured ? await this.entityExtractors.run(text.text, job.signal) : undefined;
    const found: FoundEntities = await job.inTenant(async (ctx) => findEntities(ctx, text.text, { sourceUrl: await itemSourceUrl(ctx, itemId), external: optional?.entities ?? [], models: this.models }));

    if (!(await this.enterStage(job, 'linking'))) return { skipped: 'superseded' };
    const linked = await job.inTenant((ctx) => found.link(ctx));

    if (!(await this.enterStage(job, 'suggesting'))) return { skipped: 'superseded' };
    const written: WrittenFindings | null = await job.inTenant(async (ctx) => {
      if (!(await lockIfCurrent(ctx, itemId, job.job.id))) return null;
      const findings = await writeFindings(ctx, this.reviews, itemId, text.text, linked);
      await markCompleted(ctx, itemId, { text: clip(text.text, PROCESSED_TEXT_MAX), chars: text.text.length, method: text.method, warnings });
      return findings;
    });
    if (!written) return { skipped: 'superseded' };
    await job.progress('completed', 100);
    return { chars: text.text.length, method: text.method, truncated: text.truncated, warnings, ...(text.ocr ? { ocr: text.ocr } : {}), ...written.summary, ...(optional ? { extractors: optional.outcomes } : {}) };
  }

  /** The job failed for good (its last attempt, or its worker died): the item says so. */
  async failed(ctx: EngineContext, failure: JobFailure<'rawdata.process'>): Promise<void> {
    await markError(ctx, failure.payload.item_id, failure.job.id, null, `Processing did not finish: ${failure.reason}`);
  }

  /** The item's text: its pasted text and the text read from its file (within limits). */
  private async readText(job: ProcessJob, item: Row): Promise<ExtractedText> {
    const pasted = typeof item['text'] === 'string' ? item['text'] : '';
    const sha256 = typeof item['file_sha256'] === 'string' ? item['file_sha256'] : null;
    if (!sha256) return { text: pasted, segments: [{ start: 0, end: pasted.length, label: 'text' }], truncated: false, warnings: [], method: 'text' };
    const key = fileKey(job.job.tenantId, sha256);
    const stored = await job.files.stat(key);
    if (!stored) throw new TextExtractionError('missing', "The item's file is no longer in the file store");
    if (stored.size > MAX_PROCESS_FILE_BYTES) {
      throw new TextExtractionError('too_large', `The file is larger than ${MAX_PROCESS_FILE_BYTES / (1024 * 1024)} MB: too large to read`);
    }
    const bytes = await readAll(await job.files.get(key), stored.size, job.signal);
    const { extractText } = await loadStages();
    const fromFile = await extractText(
      { bytes, mime: String(item['file_type'] ?? ''), fileName: String(item['file_name'] ?? '') },
      {
        signal: job.signal,
        deadline: AbortSignal.timeout(Math.floor(JOB_TYPES['rawdata.process'].timeoutMs * READING_SHARE_OF_TIME_LIMIT)),
        // One progress write at a time, the latest percent: a fast PDF's hundred steps do not queue a hundred transactions.
        onProgress: latestOnly((percent) => job.progress('reading', STAGE_PERCENT.reading + percent * 0.3)),
      },
    );
    if (!pasted) return fromFile;
    const offset = pasted.length + 2;
    return {
      ...fromFile,
      text: `${pasted}\n\n${fromFile.text}`,
      segments: [{ start: 0, end: pasted.length, label: 'text' }, ...fromFile.segments.map((s) => ({ ...s, start: s.start + offset, end: s.end + offset }))],
    };
  }

  /**
   * Moves the item to `stage` (status processing) and announces it; null when the item is
   * gone or names another job. Outside any transaction, the job's progress follows.
   */
  private async enterStage(job: ProcessJob, stage: ProcessingStage): Promise<Row | null> {
    const percent = STAGE_PERCENT[stage];
    const item = await job.inTenant((ctx) => markStage(ctx, job.payload.item_id, job.job.id, stage, percent));
    if (item) await job.progress(stage, percent);
    return item;
  }

  private async fail(job: ProcessJob, itemId: string, stage: ProcessingStage, reason: string): Promise<void> {
    await job.inTenant((ctx) => markError(ctx, itemId, job.job.id, stage, reason));
  }
}

/** The file's bytes, in one buffer of its stored size (never more: a file that grew is refused). */
async function readAll(stream: NodeJS.ReadableStream, size: number, signal: AbortSignal): Promise<Uint8Array> {
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const chunk of stream) {
    if (signal.aborted) throw new TextExtractionError('aborted', 'Processing was stopped.');
    const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    if (filled + piece.length > size) throw new TextExtractionError('corrupt', 'The stored file is longer than recorded');
    piece.copy(bytes, filled);
    filled += piece.length;
  }
  return bytes.subarray(0, filled);
}

/** `write` for the latest value only, one call at a time; failures are ignored (progress is advisory). */
function latestOnly(write: (value: number) => Promise<unknown>): (value: number) => void {
  let next: number | null = null;
  let running = false;
  const pump = async () => {
    running = true;
    while (next !== null) {
      const value = next;
      next = null;
      await write(value).catch(() => undefined);
    }
    running = false;
  };
  return (value) => {
    next = value;
    if (!running) void pump();
  };
}

/**
 * What the item says was left out or could not be read: the reader's warnings, and the cut of
 * the kept text (search, the text view and the library read only its first PROCESSED_TEXT_MAX
 * characters; entities are found in all of it). At most MAX_PROCESSING_WARNINGS, each at most
 * 500 characters (the field's bounds).
 */
export function itemWarnings(text: ExtractedText): string[] {
  const all = [...text.warnings];
  if (text.text.length > PROCESSED_TEXT_MAX) {
    const count = (n: number) => n.toLocaleString('en');
    all.push(`Only the first ${count(PROCESSED_TEXT_MAX)} of the text's ${count(text.text.length)} characters are kept for search and the text view; entities were found in all of it`);
  }
  const clipped = all.map((warning) => (warning.length > 500 ? `${warning.slice(0, 499)}…` : warning));
  if (clipped.length <= MAX_PROCESSING_WARNINGS) return clipped;
  return [...clipped.slice(0, MAX_PROCESSING_WARNINGS - 1), `And ${clipped.length - MAX_PROCESSING_WARNINGS + 1} more warnings`];
}

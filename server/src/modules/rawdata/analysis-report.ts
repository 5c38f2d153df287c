/**
 * The raw data analysis report (SPEC §4, §7; docs/processing.md "Analysis report"): asynchronous.
 * POST raw-data/analysis-report/ {ids | filters} queues a job (`rawdata.report`, its id is the
 * task id) for the user who asked; the job announces its start, reads what the items and their
 * processing hold — counts by type, bucket and month, the most mentioned organizations, people,
 * places and keywords, the dates mentioned, the sources — and writes it as an xlsx workbook and a
 * self-contained HTML page with charts (inline SVG, a print stylesheet), both kept in the file
 * store; then announces completion (or, when it fails for good, the error). GET
 * raw-data/analysis-report-status/{task_id}/ answers pending / running (percent) / completed
 * (download links) / error.
 *
 * Visibility: the job acts for the user who asked, with the access they have when it runs, and
 * reads the items through the resource's own visibility condition.
 */
import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import type { AccessLevel } from '../../contracts.ts';
import { query } from '../../db/client.ts';
import { publish } from '../../events/bus.ts';
import { ApiError, notFound } from '../../resources/errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { findJob } from '../../jobs/jobs.repository.ts';
import type { JobContext, JobFailure } from '../../jobs/registry.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import { parseListQuery, type ListParameters } from '../../resources/list-query.ts';
import { uuidArray, whereClause } from '../../resources/repository.ts';
import { isUuid } from '../../resources/service.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { XlsxStreamWriter, type CellValue } from '../../resources/xlsx-writer.ts';
import type { StoredFile } from '../../storage/files.ts';
import { ENTITY_RECORD_JOINS, ENTITY_RECORD_NAME, ENTITY_RECORD_STATUS } from './entity-records.ts';
import { rawData } from './rawdata.resource.ts';

/** Rows of each "top" table. */
export const REPORT_TOP = 20;
/** Items a report may name by id. */
export const MAX_REPORT_IDS = 5_000;

export interface ReportSelection {
  ids?: string[];
  /** The list's query parameters (search, filters, date ranges), as the list takes them. */
  query?: Record<string, string>;
}

interface Counted {
  label: string;
  count: number;
}
interface Ranked {
  name: string;
  mentions: number;
  items: number;
}
export interface ReportData {
  generatedAt: string;
  items: number;
  byType: Counted[];
  byBucket: Counted[];
  byMonth: Counted[];
  top: { organizations: Ranked[]; people: Ranked[]; places: Ranked[]; keywords: Ranked[] };
  datesMentioned: Counted[];
  sources: Array<{ name: string; url: string; items: number }>;
}

/** Checks a selection before it is queued: a bad id or filter is a 400 naming it. */
export function checkSelection(selection: ReportSelection, access: AccessLevel): void {
  const bad = (selection.ids ?? []).filter((id) => !isUuid(id));
  if (bad.length > 0) throw new ApiError(400, 'invalid', `ids: not an id: ${bad.slice(0, 5).join(', ')}.`, { ids: bad.map((id) => `Not an id: ${id}`) });
  if (selection.ids && selection.query) throw new ApiError(400, 'invalid', 'Send ids or filters, not both.', { ids: ['Send ids or filters, not both.'], filters: ['Send ids or filters, not both.'] });
  if (selection.query) parseListQuery(rawData, selection.query as ListParameters, access);
}

/** The items a selection names, as the actor may see them (a condition on raw_data). */
function selected(ctx: EngineContext, selection: ReportSelection): SQL {
  const visible = visibleTo(ctx.actor.access);
  if (selection.ids) return sql`${whereClause(rawData, visible)} AND id = ANY(${uuidArray(selection.ids)})`;
  return whereClause(rawData, visible, parseListQuery(rawData, (selection.query ?? {}) as ListParameters, ctx.actor.access));
}

export async function gatherReport(ctx: EngineContext, selection: ReportSelection): Promise<ReportData> {
  const items = sql`SELECT id, content_kind, bucket, source, created_at FROM raw_data WHERE ${selected(ctx, selection)}`;
  const counted = (rows: Array<{ label: string | null; count: string | number }>, none = '(none)') =>
    rows.map((row) => ({ label: row.label ?? none, count: Number(row.count) }));
  const [total] = await query<{ n: string }>(ctx.tx, sql`WITH items AS (${items}) SELECT count(*) AS n FROM items`);
  const byType = await query<{ label: string; count: string }>(ctx.tx, sql`
    WITH items AS (${items}) SELECT content_kind AS label, count(*) AS count FROM items GROUP BY 1 ORDER BY 2 DESC, 1`);
  const byBucket = await query<{ label: string | null; count: string }>(ctx.tx, sql`
    WITH items AS (${items}) SELECT b.name AS label, count(*) AS count FROM items i LEFT JOIN raw_data_buckets b ON b.id = i.bucket
    GROUP BY 1 ORDER BY 2 DESC, 1 NULLS LAST`);
  const byMonth = await query<{ label: string; count: string }>(ctx.tx, sql`
    WITH items AS (${items}) SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS label, count(*) AS count FROM items GROUP BY 1 ORDER BY 1`);
  const ranked = async (type: string) =>
    (await query<{ name: string; mentions: string; items: string }>(ctx.tx, sql`
      WITH items AS (${items})
      SELECT coalesce(${ENTITY_RECORD_NAME}, min(e.text)) AS name, sum(e.mentions) AS mentions, count(DISTINCT e.raw_data_id) AS items
      FROM raw_data_entities e JOIN items i ON i.id = e.raw_data_id ${ENTITY_RECORD_JOINS}
      WHERE e.type = ${type}
        -- What analysts rejected is not reported: a rejected suggestion, or a name rejected from any source.
        AND coalesce(${ENTITY_RECORD_STATUS}, 'active') <> 'rejected'
        AND NOT (e.record_id IS NULL AND EXISTS (
          SELECT 1 FROM suggestion_rejections r WHERE r.resource = ${REVIEWED_KIND_OF_TYPE[type] ?? ''} AND r.name_key = e.normalized))
      GROUP BY coalesce(e.record_id::text, e.normalized), ${ENTITY_RECORD_NAME}
      ORDER BY 2 DESC, 3 DESC, 1 LIMIT ${REPORT_TOP}`)).map((row) => ({ name: row.name, mentions: Number(row.mentions), items: Number(row.items) }));
  const datesMentioned = await query<{ label: string; count: string }>(ctx.tx, sql`
    WITH items AS (${items})
    SELECT (e.value ->> 'year') AS label, sum(e.mentions) AS count FROM raw_data_entities e JOIN items i ON i.id = e.raw_data_id
    WHERE e.type = 'DATE' AND e.value ->> 'year' IS NOT NULL GROUP BY 1 ORDER BY 1`);
  const sources = await query<{ name: string; url: string; items: string }>(ctx.tx, sql`
    WITH items AS (${items})
    SELECT s.display_name AS name, s.url, count(*) AS items FROM items i JOIN source_urls s ON s.id = i.source
    GROUP BY s.id, s.display_name, s.url ORDER BY 3 DESC, 1 LIMIT 100`);
  return {
    generatedAt: new Date().toISOString(),
    items: Number(total?.n ?? 0),
    byType: counted(byType),
    byBucket: counted(byBucket, '(no bucket)'),
    byMonth: counted(byMonth),
    top: { organizations: await ranked('ORG'), people: await ranked('PER'), places: await ranked('GEO'), keywords: await ranked('KEYWORD') },
    datesMentioned: counted(datesMentioned),
    sources: sources.map((row) => ({ name: row.name, url: row.url, items: Number(row.items) })),
  };
}

/** The sections of the report, in order: a title, its column headers and rows (the workbook and the page show the same). */
function sections(data: ReportData): Array<{ title: string; headers: string[]; rows: CellValue[][]; chart?: boolean }> {
  const counts = (rows: Counted[]) => rows.map((row) => [row.label, row.count]);
  const ranks = (rows: Ranked[]) => rows.map((row) => [row.name, row.mentions, row.items]);
  return [
    { title: 'Items by type', headers: ['Type', 'Items'], rows: counts(data.byType), chart: true },
    { title: 'Items by bucket', headers: ['Bucket', 'Items'], rows: counts(data.byBucket), chart: true },
    { title: 'Items collected by month', headers: ['Month', 'Items'], rows: counts(data.byMonth), chart: true },
    { title: 'Top organizations', headers: ['Organization', 'Mentions', 'Items'], rows: ranks(data.top.organizations), chart: true },
    { title: 'Top people', headers: ['Person', 'Mentions', 'Items'], rows: ranks(data.top.people), chart: true },
    { title: 'Top places', headers: ['Place', 'Mentions', 'Items'], rows: ranks(data.top.places), chart: true },
    { title: 'Top keywords', headers: ['Keyword', 'Mentions', 'Items'], rows: ranks(data.top.keywords), chart: true },
    { title: 'Timeline: years mentioned', headers: ['Year', 'Mentions'], rows: counts(data.datesMentioned), chart: true },
    { title: 'Sources', headers: ['Source', 'URL', 'Items'], rows: data.sources.map((row) => [row.name, row.url, row.items]) },
  ];
}

/** The workbook: one sheet, a block per section. */
export async function reportWorkbook(data: ReportData): Promise<Buffer> {
  const writer = new XlsxStreamWriter({ sheetName: 'Report', columns: [{ header: 'Raw data analysis report', width: 48 }, { header: '', width: 40 }, { header: '', width: 12 }] });
  const chunks: Buffer[] = [];
  writer.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const rows: CellValue[][] = [['Generated', data.generatedAt], ['Items', data.items], []];
  for (const section of sections(data)) {
    rows.push([section.title], section.headers, ...(section.rows.length > 0 ? section.rows : [['(nothing)']]), []);
  }
  await writer.addRows(rows);
  await writer.finish();
  return Buffer.concat(chunks);
}

const escapeHtml = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** A horizontal bar chart of a section's first numeric column, as inline SVG. */
function barChart(rows: CellValue[][]): string {
  const bars = rows.slice(0, REPORT_TOP).map((row) => ({ label: String(row[0] ?? ''), value: Number(row[1] ?? 0) }));
  if (bars.length === 0) return '';
  const max = Math.max(...bars.map((bar) => bar.value), 1);
  const height = bars.length * 22 + 4;
  const shapes = bars.map((bar, index) => {
    const y = index * 22 + 2;
    const width = Math.max(1, Math.round((bar.value / max) * 300));
    return `<text x="0" y="${y + 15}" class="label">${escapeHtml(bar.label.length > 40 ? `${bar.label.slice(0, 39)}…` : bar.label)}</text>` +
      `<rect x="260" y="${y + 3}" width="${width}" height="16" rx="2"></rect>` +
      `<text x="${266 + width}" y="${y + 15}" class="value">${bar.value}</text>`;
  });
  return `<svg role="img" aria-label="Chart" viewBox="0 0 640 ${height}" width="640" height="${height}">${shapes.join('')}</svg>`;
}

/** The page: self-contained (no script, no outside resource), readable on screen and on paper. */
export function reportHtml(data: ReportData, tenantName: string): string {
  const body = sections(data).map((section) => {
    const table = section.rows.length === 0
      ? '<p class="none">Nothing here yet.</p>'
      : `<table><thead><tr>${section.headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('')}</tr></thead><tbody>${section.rows
        .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`;
    return `<section><h2>${escapeHtml(section.title)}</h2>${section.chart ? barChart(section.rows) : ''}${table}</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Raw data analysis report — ${escapeHtml(tenantName)}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1f2328; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.meta { color: #57606a; }
table { border-collapse: collapse; width: 100%; margin-top: .5rem; } th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #d0d7de; overflow-wrap: anywhere; }
th { font-weight: 600; } svg { max-width: 100%; height: auto; } svg rect { fill: #e8590c; } svg text { font-size: 12px; fill: #1f2328; }
.none { color: #57606a; }
@media print { body { margin: 0; max-width: none; } section { break-inside: avoid; } a { color: inherit; } }
</style></head>
<body><h1>Raw data analysis report</h1>
<p class="meta">${escapeHtml(tenantName)} · ${data.items} item${data.items === 1 ? '' : 's'} · generated ${escapeHtml(data.generatedAt.replace('T', ' ').slice(0, 16))} UTC</p>
${body.join('\n')}
</body></html>
`;
}

type ReportJob = JobContext<'rawdata.report'>;

/** The reviewed resource kind of an entity type (its rejections are remembered under it). */
const REVIEWED_KIND_OF_TYPE: Record<string, string> = { ORG: 'organizations', PER: 'people' };

const REPORT_FAILED = 'The report could not be made. Try again; if it fails again, an administrator finds the reason in the server log.';

/** A report is read by the user who asked for it, and by admins. */
const mayRead = (ctx: EngineContext, createdBy: string | null): boolean =>
  ctx.actor.access === 'admin' || (responsibleUser(ctx.actor)?.id ?? null) === createdBy;

export class RawDataReports {
  /** POST raw-data/analysis-report/: the selection checked, the job queued; its id is the task id. */
  async start(ctx: EngineContext, selection: ReportSelection): Promise<{ task_id: string }> {
    checkSelection(selection, ctx.actor.access);
    const taskId = await enqueue(ctx.tx, {
      name: 'rawdata.report',
      payload: { ...(selection.ids ? { ids: selection.ids } : {}), ...(selection.query ? { query: selection.query } : {}) },
      createdBy: responsibleUser(ctx.actor)?.id ?? null,
    });
    return { task_id: taskId };
  }

  async run(job: ReportJob): Promise<unknown> {
    const taskId = job.job.id;
    await job.inTenant((ctx) => publish(ctx, 'generate_raw_data_report_start', { task_id: taskId }));
    await job.progress('reading', 10);
    const { data, tenantName } = await job.inTenant(async (ctx) => {
      const [tenant] = await query<{ name: string }>(ctx.tx, sql`SELECT name FROM tenants WHERE id = ${ctx.actor.tenantId}`);
      return { data: await gatherReport(ctx, job.payload), tenantName: tenant?.name ?? '' };
    });
    await job.progress('writing', 60);
    const stored: StoredFile[] = [];
    try {
      for (const bytes of [await reportWorkbook(data), Buffer.from(reportHtml(data, tenantName))]) {
        stored.push(await job.files.put(job.job.tenantId, Readable.from(bytes), { hold: true }));
      }
      await job.inTenant(async (ctx) => {
        await query(ctx.tx, sql`
          INSERT INTO raw_data_reports (tenant_id, job_id, items, xlsx_sha256, html_sha256, created_by)
          VALUES (app_tenant_id(), ${taskId}, ${data.items}, ${stored[0]!.sha256}, ${stored[1]!.sha256}, ${job.job.createdBy})
          ON CONFLICT (tenant_id, job_id) DO UPDATE SET items = EXCLUDED.items, xlsx_sha256 = EXCLUDED.xlsx_sha256, html_sha256 = EXCLUDED.html_sha256`);
        await job.files.release(ctx.tx, stored.flatMap((file) => (file.hold ? [file.hold] : [])));
        await publish(ctx, 'generate_raw_data_report_complete', { task_id: taskId });
      });
    } catch (error) {
      await job.files.discard(job.job.tenantId, stored.flatMap((file) => (file.hold ? [file.hold] : [])));
      throw error;
    }
    return { items: data.items };
  }

  async failed(ctx: EngineContext, failure: JobFailure<'rawdata.report'>): Promise<void> {
    // The event goes to every researcher; the reason it failed is in the server log (as the status route says).
    await publish(ctx, 'generate_raw_data_report_error', { task_id: failure.job.id, reason: REPORT_FAILED });
  }

  /** GET raw-data/analysis-report-status/{task_id}/. */
  async status(ctx: EngineContext, taskId: string): Promise<Record<string, unknown>> {
    const job = isUuid(taskId) ? await findJob(ctx.tx, taskId) : null;
    // Task ids go out on the research channel to every researcher: a report is its maker's (and the admins').
    if (!job || job.name !== 'rawdata.report' || !mayRead(ctx, job.created_by)) throw notFound('No such report.');
    const base = `/api/v1/raw-data/analysis-report/${job.id}`;
    if (job.status === 'succeeded') {
      const [report] = await query<{ items: number }>(ctx.tx, sql`SELECT items FROM raw_data_reports WHERE job_id = ${job.id}`);
      return { task_id: job.id, status: 'completed', percent: 100, items: report?.items ?? 0, links: { xlsx: `${base}/report.xlsx`, html: `${base}/report.html` } };
    }
    // The job's recorded error may be a driver's or PostgreSQL's text: that stays in the log (the error event said what may be said).
    if (job.status === 'failed') return { task_id: job.id, status: 'error', reason: REPORT_FAILED };
    return { task_id: job.id, status: job.status === 'running' ? 'running' : 'pending', percent: job.percent ?? 0 };
  }

  /** A report's file: its hash and name. */
  async file(ctx: EngineContext, taskId: string, format: 'xlsx' | 'html', tenantCode: string): Promise<{ sha256: string; name: string; type: string }> {
    const [report] = isUuid(taskId)
      ? await query<{ xlsx_sha256: string; html_sha256: string; created_by: string | null; created_at: Date | string }>(
          ctx.tx,
          sql`SELECT xlsx_sha256, html_sha256, created_by, created_at FROM raw_data_reports WHERE job_id = ${taskId}`,
        )
      : [];
    if (!report || !mayRead(ctx, report.created_by)) throw notFound('No such report (or it is not ready yet).');
    const day = new Date(report.created_at).toISOString().slice(0, 10);
    return format === 'xlsx'
      ? { sha256: report.xlsx_sha256, name: `${day}_${tenantCode}_raw_data_report.xlsx`, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }
      : { sha256: report.html_sha256, name: `${day}_${tenantCode}_raw_data_report.html`, type: 'text/html' };
  }
}

/**
 * Derives a resource's HTTP routes from its declaration: list (JSON or xlsx),
 * create, available-filters, get, patch, delete and spreadsheet upload — the HTTP adapter of
 * the engine's service for the resource (engine.ts builds it, once).
 */
import type { MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { AuditHistory, AvailableFilters, BulkRefusedBody, BulkResult, BulkUndoResult, ErrorBody, ImportFailedBody, ImportJobAccepted, ImportReport, MergePreview, MergeRequest, MergeResult, RelatedGroups, RelationGraph, resourcePage } from '../contracts.ts';
import { actorOf, withContext } from './engine-context.ts';
import { pageOf } from './pages.ts';
import { cachedReply } from './read-cache.plugin.ts';
import type { ReadCache } from '../resources/read-cache.ts';
import { FilterParam, limitOffsetParams, pagingParams } from './list-params.ts';
import { engineParsed } from './validation.ts';
import { parseRelatedQuery, RELATED_DEFAULT_LIMIT, relatedGroups } from '../resources/backlinks.ts';
import { BULK_MAX_ROWS, BulkService } from '../resources/bulk.ts';
import { GRAPH_DEFAULT_NODES, GRAPH_MAX_NODES, inGraphs, parseGraphQuery, relationGraph } from '../resources/graph.ts';
import { MergeService } from '../resources/merge.ts';
import type { FileStore } from '../storage/files.ts';
import type { PlannerStatistics } from '../resources/planner-statistics.ts';
import { awaitImport, queueSheetImport, storeSpreadsheet } from '../resources/import-job.ts';
import { findJob } from '../jobs/jobs.repository.ts';
import { filterNames, parseListQuery, rangeFilters, type ListQuery } from '../resources/list-query.ts';
import type { Resource } from '../resources/resource.ts';
import type { ResourceService } from '../resources/service.ts';
import { OWNER_COLUMN } from '../resources/repository.ts';
import { fieldReadAccess } from '../resources/visibility.ts';
import { SpreadsheetExport, type ExportFormat } from '../resources/spreadsheet-export.ts';
import { fileError, saveSpreadsheet, uploadError, withImportFolder, type Upload } from '../resources/spreadsheet-import.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** A record's id in a path: anything but a UUID is a 400 naming the parameter. */
export const IdParam = Type.Object({ id: Type.String({ format: 'uuid' }) });

/**
 * A resource list's query string. The schema checks each parameter's type; the engine
 * (parseListQuery) checks what depends on the declaration — ordering fields, filter values,
 * unknown filters and lookups (`<field>__<lookup>`, taken as additional properties rather than
 * listed, one per field and lookup) — and caps limit at the maximum.
 */
export function listQuerystring(resource: Resource) {
  return Type.Object({
    ...pagingParams('Comma-separated fields, -field for descending. Default -updated_at.'),
    format: Type.Optional(Type.Enum(['json', 'xlsx'])),
    ...Object.fromEntries(filterNames(resource).map((name) => [name, Type.Optional(FilterParam)])),
    ...Object.fromEntries([...rangeFilters(resource).keys()].map((name) => [name, Type.Optional(Type.String({ description: 'A date (YYYY-MM-DD) or an ISO 8601 date-time; _after from (inclusive), _before until (exclusive)' }))])),
  }, { additionalProperties: FilterParam });
}

/**
 * A record's body (create, edit): documented, but parsed by the engine itself, so imports and
 * single requests share one set of rules and messages.
 */
export function recordBody(resource: Resource) {
  return engineParsed(Type.Partial(Type.Object(Object.fromEntries(Object.entries(resource.fields).map(([name, field]) => [name, field.schema])))));
}

function recordSchema(resource: Resource): TSchema {
  const properties: Record<string, TSchema> = { id: Type.String({ format: 'uuid' }), display_name: Type.Union([Type.String(), Type.Null()]) };
  // A field some readers may not read (its readAccess, or a relation's targets': visibility.ts) is left out of their records, so it is optional.
  for (const [name, field] of Object.entries(resource.fields)) properties[name] = fieldReadAccess(field) !== 'public' ? Type.Optional(field.schema) : field.schema;
  // A row that belongs to a user names them (resource.ts `owner`).
  if (resource.owner) properties[OWNER_COLUMN] = Type.String({ format: 'uuid' });
  return Type.Object(properties, { additionalProperties: true, $id: `${resource.type}Record` });
}

/** Streams a spreadsheet of the rows the list query (or a bulk export's ids) names, read in one transaction. */
export async function sendSpreadsheet(
  request: FastifyRequest,
  reply: FastifyReply,
  service: ResourceService,
  listQuery: ListQuery,
  options: { ids?: string[]; format?: ExportFormat } = {},
): Promise<FastifyReply> {
  const file = new SpreadsheetExport(service, request.principal.access, listQuery, options);
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  // `once`: rows already streamed cannot be taken back, so a replica lost mid-file is not read again on the primary.
  const done = withContext(request, (ctx) => file.write(ctx, markStarted), { once: true });
  // Anything that fails before the first rows are read (bad SQL, a lost connection) is still a JSON error;
  // from then on the response is a file, and a later failure can only cut the download short.
  await Promise.race([started, done]);
  done.catch((error: unknown) => {
    request.log.error({ err: error }, 'spreadsheet export failed mid-stream');
    file.abort(error);
  });
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename(request.tenant?.code).replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(file.stream);
}

/** The spreadsheet of a multipart upload (field "file"), saved into `dir`. */
async function receiveSpreadsheet(request: FastifyRequest, dir: string): Promise<Upload> {
  if (!request.isMultipart()) {
    throw fileError(400, 'No file was sent: upload the spreadsheet as multipart/form-data in a field named "file".');
  }
  let part: MultipartFile | undefined;
  try {
    part = await request.file();
  } catch (error) {
    throw uploadError(error);
  }
  if (!part) throw fileError(400, 'No file was sent: attach the spreadsheet in a field named "file".');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw fileError(400, `No file was sent in the field "file" (got a file in "${part.fieldname}").`);
  }
  return saveSpreadsheet({ stream: part.file, filename: part.filename ?? null }, dir);
}

/** What a resource's routes need besides the resource: the file store, how long an upload waits for its import job, the planner's statistics. */
export interface ResourceRouteOptions {
  files: FileStore;
  importWaitSeconds: number;
  /** Refreshed after bulk actions that change many rows (planner-statistics.ts). */
  statistics: PlannerStatistics;
  /** Visitors' and paywall readers' list pages (read-cache.ts). */
  cache: ReadCache;
}

/**
 * What a list page depends on besides tenant and audience, the same text for the same page
 * however it was asked: the parsed query (defaults filled in, parameters in name order, the
 * values of a parameter — any-of or none-of sets — sorted).
 */
export function listCacheKey(kind: string, listQuery: ListQuery): string {
  const filters = Object.keys(listQuery.filters).sort().map((name) => [name, [...listQuery.filters[name]!].sort()]);
  const ordering = listQuery.ordering.map((term) => `${term.descending ? '-' : ''}${term.field}`);
  return `list\u0000${kind}\u0000${JSON.stringify([listQuery.limit, listQuery.offset, ordering, listQuery.ranked, filters])}`;
}

/** The routes of the engine's service for one resource. */
export async function registerResource(instance: FastifyInstance, service: ResourceService, options: ResourceRouteOptions): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { resource } = service;
  const base = resource.path;
  const tags = [resource.kind];
  const record = recordSchema(resource);
  const writable = recordBody(resource);
  const read = { config: { access: resource.readAccess ?? 'public' } };
  const write = { config: { access: resource.writeAccess } };
  const idParam = IdParam;

  app.get(`${base}/`, {
    ...read,
    schema: {
      tags,
      summary: `List ${resource.kind} (JSON, or a spreadsheet with ?format=xlsx)`,
      description: 'Filters: `<field>=a,b` (any of), `<field>__not=a,b` (none of), `<field>__gt=` / `__gte` / `__lt` / `__lte` (one number or date: YYYY, YYYY-MM or YYYY-MM-DD, a period), ' +
        '`<field>__empty=true|false`; which fields take which: available-filters/ (`lookups`).',
      querystring: listQuerystring(resource),
      response: { 200: resourcePage(record), ...errors },
    },
  }, async (request, reply) => {
    const listQuery = parseListQuery(resource, request.query, request.principal.access);
    if (listQuery.format === 'xlsx') return sendSpreadsheet(request, reply, service, listQuery);
    const load = () => withContext(request, (ctx) => service.list(ctx, listQuery));
    // A page without a search term is what every visitor asks for; search terms rarely repeat,
    // so a searched page is read afresh rather than crowding the cache out.
    if (listQuery.search) return pageOf(request, await load());
    return cachedReply(options.cache, request, reply, listCacheKey(resource.kind, listQuery), load, (page) => pageOf(request, page), ({ next, previous }) => `${next}\u0000${previous}`);
  });

  const own = new Set(resource.ownRoutes ?? []);
  if (!own.has('create')) app.post(`${base}/`, {
    ...write,
    schema: { tags, summary: `Create a ${resource.label.toLowerCase()}`, body: writable, response: { 201: record, ...errors } },
  }, async (request, reply) => reply.status(201).send(await withContext(request, (ctx) => service.create(ctx, request.body))));

  if (!own.has('upload')) app.post(`${base}/upload/`, {
    config: { access: resource.writeAccess },
    schema: {
      tags,
      summary:
        'Import rows from an xlsx or csv file (multipart field "file"); ?partial=true keeps the good rows. ' +
        `A worker imports the file; the request waits up to ${options.importWaitSeconds} s (IMPORT_WAIT_SECONDS) for its report, ` +
        'else answers 202 and the report is the job\'s result (GET jobs/{id}/)',
      consumes: ['multipart/form-data'],
      querystring: Type.Object({ partial: Type.Optional(Type.Boolean()) }),
      response: { 200: ImportReport, 202: ImportJobAccepted, ...errors, 400: ImportFailedBody, 413: ErrorBody, 415: ErrorBody },
    },
  }, async (request, reply) => {
    const partial = request.query.partial === true;
    // Only the upload's bytes and type are checked here; reading the sheet is the worker's.
    const upload = await withImportFolder(async (dir) => {
      const received = await receiveSpreadsheet(request, dir);
      return { sha256: await storeSpreadsheet(options.files, actorOf(request).tenantId, received), kind: received.kind };
    });
    const jobId = await withContext(request, (ctx) => queueSheetImport(ctx, service, upload, partial));
    const answer = await awaitImport(() => withContext(request, (ctx) => findJob(ctx.tx, jobId)), options.importWaitSeconds * 1000);
    if ('report' in answer) return answer.report;
    return reply.status(202).send({ job_id: jobId, status: answer.status });
  });

  app.get(`${base}/available-filters/`, {
    ...read,
    schema: {
      tags,
      summary: 'Each filter with the values (and counts) found among rows the caller may see',
      response: { 200: AvailableFilters },
    },
  }, async (request) => withContext(request, (ctx) => service.availableFilters(ctx)));

  app.get(`${base}/:id/`, { ...read, schema: { tags, summary: `Get a ${resource.label.toLowerCase()}`, params: idParam, response: { 200: record, ...errors } } },
    async (request) => withContext(request, (ctx) => service.get(ctx, request.params.id)));

  if (!own.has('update')) app.patch(`${base}/:id/`, {
    ...write,
    schema: { tags, summary: `Change the fields sent`, params: idParam, body: writable, response: { 200: record, ...errors } },
  }, async (request) => withContext(request, (ctx) => service.update(ctx, request.params.id, request.body)));

  if (resource.deletable !== false && !own.has('delete')) {
    app.delete(`${base}/:id/`, { ...write, schema: { tags, summary: `Delete (hard delete)`, params: idParam, response: { 204: Type.Null(), ...errors } } },
      async (request, reply) => {
        await withContext(request, (ctx) => service.remove(ctx, request.params.id));
        return reply.status(204).send(null);
      });
  }

  app.get(`${base}/:id/related/`, {
    ...read,
    schema: {
      tags,
      summary: 'What points at the record, in groups (one per resource and relation field, and the lists holding it), one page each; ?group= pages one group',
      params: idParam,
      querystring: Type.Object({
        group: Type.Optional(Type.String({ description: 'A group key, e.g. library.authors or lists.items' })),
        ...limitOffsetParams({ defaultLimit: RELATED_DEFAULT_LIMIT, per: 'Rows per group' }),
      }),
      response: { 200: RelatedGroups, ...errors },
    },
  }, async (request) => {
    const query = parseRelatedQuery(request.query);
    return withContext(request, (ctx) => relatedGroups(ctx, service, request.params.id, query));
  });

  if (inGraphs(service.catalog, resource)) {
    app.get(`${base}/:id/graph/`, {
      ...read,
      schema: {
        tags,
        summary: 'The record and its neighbours the caller may see, both ways through every relation, to depth 1 or 2: nodes and edges (at most `limit` nodes; `truncated` when more were left out)',
        params: idParam,
        querystring: Type.Object({
          depth: Type.Optional(Type.String({ description: '1 or 2 (default 2)' })),
          kinds: Type.Optional(Type.String({ description: 'Comma-separated resource kinds whose records may be nodes (default: organizations, people, ledger_entries, library); the answer\'s `kinds` lists those the caller may ask for' })),
          limit: Type.Optional(Type.String({ description: `Nodes at most, the record included (default ${GRAPH_DEFAULT_NODES}, at most ${GRAPH_MAX_NODES})` })),
        }),
        response: { 200: RelationGraph, ...errors },
      },
    }, async (request) => {
      const graphQuery = parseGraphQuery(service.catalog, request.principal.access, request.query);
      return withContext(request, (ctx) => relationGraph(ctx, service, request.params.id, graphQuery));
    });
  }

  const bulk = new BulkService(service);
  app.post(`${base}/bulk/`, {
    ...write,
    schema: {
      tags,
      summary: `One action (${bulk.actions.join(', ')}) on the rows named by ids or matching all_matching (at most ${BULK_MAX_ROWS}), in one transaction: all or nothing, refused rows listed (409 bulk_refused)`,
      body: bulk.requestSchema,
      response: { 200: BulkResult, ...errors, 409: BulkRefusedBody },
    },
  }, async (request, reply) => {
    const parsed = bulk.parse(request.body, request.principal.access);
    if (parsed.action !== 'export') {
      const result = await withContext(request, (ctx) => bulk.run(ctx, parsed));
      await options.statistics.afterWrites(resource.table, result.changed.length);
      return result;
    }
    const ids = await withContext(request, (ctx) => bulk.targetIds(ctx, parsed));
    return sendSpreadsheet(request, reply, service, parsed.listQuery, { ids, format: parsed.format });
  });

  app.post(`${base}/bulk/:operationId/undo/`, {
    ...write,
    schema: {
      tags,
      summary: 'Undo a bulk change other than a delete or an export (by the user who made it, or an admin), in one transaction',
      params: Type.Object({ operationId: Type.String({ format: 'uuid' }) }),
      response: { 200: BulkUndoResult, ...errors, 409: Type.Union([BulkRefusedBody, ErrorBody]) },
    },
  }, async (request) => {
    const result = await withContext(request, (ctx) => bulk.undo(ctx, request.params.operationId));
    await options.statistics.afterWrites(resource.table, result.restored.length);
    return result;
  });

  app.get(`${base}/:id/history/`, {
    config: { access: 'admin' },
    schema: { tags, summary: 'Who created, changed, deleted or merged the record, and what changed (admins)', params: idParam, response: { 200: AuditHistory, ...errors } },
  }, async (request) => withContext(request, (ctx) => service.history(ctx, request.params.id)));

  const merges = new MergeService(service);
  if (resource.mergeable) {
    app.get(`${base}/:id/merge-preview/`, {
      ...write,
      schema: {
        tags,
        summary: 'Both records field by field, and the references that would move to the first (the survivor)',
        params: idParam,
        querystring: Type.Object({ other: Type.String({ format: 'uuid' }) }),
        response: { 200: MergePreview, ...errors },
      },
    }, async (request) => withContext(request, (ctx) => merges.preview(ctx, request.params.id, request.query.other)));

    app.post(`${base}/:id/merge/`, {
      ...write,
      schema: {
        tags,
        summary: 'Merge another record into this one: per field, keep survivor, other or (lists) both; references move here; undoable',
        params: idParam,
        body: MergeRequest,
        response: { 200: MergeResult, ...errors },
      },
    }, async (request) => withContext(request, (ctx) => merges.merge(ctx, request.params.id, request.body)));
  }
  // A reviewed resource merges too, without being mergeable: accepting a suggestion with link_to.
  if (resource.mergeable || resource.review) {
    app.post(`${base}/merge/:auditId/undo/`, {
      ...write,
      schema: {
        tags,
        summary: 'Undo a merge (by the audit id the merge returned) unless the survivor changed since',
        params: Type.Object({ auditId: Type.String({ format: 'uuid' }) }),
        response: { 200: Type.Object({ survivor: Type.Record(Type.String(), Type.Unknown()), other: Type.Record(Type.String(), Type.Unknown()) }), ...errors, 409: ErrorBody },
      },
    }, async (request) => withContext(request, (ctx) => merges.undo(ctx, request.params.auditId)));
  }
}


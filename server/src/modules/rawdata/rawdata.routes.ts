/**
 * Raw data routes beyond the engine's (SPEC §7 "Raw data", docs/rawdata.md): create and edit
 * with a file (multipart) or JSON, many files in one request, deletes that remove unused files
 * after commit, the file's download, type counts, source URLs, direct upload and the export.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { ErrorBody, ExtractedEntity } from '../../contracts.ts';
import { actorOf, withContext } from '../../http/engine-context.ts';
import { ApiError } from '../../resources/errors.ts';
import { IdParam, listQuerystring } from '../../http/resource.routes.ts';
import { parseListQuery } from '../../resources/list-query.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { fileKey, type FileStore } from '../../storage/files.ts';
import { receiveUpload, type UploadedFile } from '../../storage/upload.ts';
import { FileNotFoundError, FileTooLargeError } from '../../storage/storage.ts';
import { contentDisposition, sendRawDataExport } from './rawdata-export.routes.ts';
import { rawData } from './rawdata.resource.ts';
import { MAX_REMOVE_BATCH, RawDataService, type Written } from './rawdata.service.ts';
import { MAX_PROCESS_BATCH, type RawDataProcessing } from './rawdata.processing.ts';
import { extractedData, EXTRACT_DATA_COLUMNS, MAX_EXTRACT_ITEMS, extractedText, type ExtractedRow } from './extracted-data.ts';
import { XlsxStreamWriter } from '../../resources/xlsx-writer.ts';
import { MAX_SEND_BATCH, sendToLibrary } from './send-to-library.ts';
import { MAX_REPORT_IDS, type RawDataReports } from './analysis-report.ts';
import { XLSX_CONTENT_TYPE } from '../../resources/spreadsheet-export.ts';

/** The fields a form may send with a file: the item's own, and a source given by address. */
const FORM_FIELDS = 20;
const Record_ = Type.Record(Type.String(), Type.Unknown());
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Types a browser would run or render as a page: always downloaded, never shown inline. */
const ACTIVE_CONTENT = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)$/;
/** Types shown inline when asked (?inline=true); anything else is downloaded. */
const INLINE_SAFE = /^(application\/pdf|image\/(png|jpeg|gif|webp|avif|bmp)|text\/plain|audio\/.+|video\/.+)$/;

/** The engine's pieces raw data's routes use (engine.ts). */
export interface RawDataRouteOptions {
  services: ResourceServices;
  processing: RawDataProcessing;
  reports: RawDataReports;
  files: FileStore;
  config: Config;
}

export async function rawdataRoutes(instance: FastifyInstance, options: RawDataRouteOptions): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { files, config, services, processing, reports } = options;
  const items = services.get(rawData.kind);
  const service = new RawDataService(items, services.get('source'), files, processing);
  const base = rawData.path;
  const tags = [rawData.kind];
  const write = { config: { access: rawData.writeAccess } };
  const read = { config: { access: rawData.readAccess ?? 'public' } };
  const maxFileBytes = config.fileUploadLimitBytes;

  /** The body's fields and file(s): multipart (files held for their items) or a JSON object. */
  const receive = async (request: FastifyRequest, maxFiles: number): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> => {
    if (!request.isMultipart()) {
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new ApiError(400, 'invalid', 'Send the item as multipart/form-data (with a file) or as a JSON object.');
      }
      return { fields: body as Record<string, unknown>, files: [] };
    }
    const upload = await receiveUpload(request, files, {
      tenantId: actorOf(request).tenantId, maxFileBytes, maxFiles, maxFields: FORM_FIELDS, maxFieldBytes: 512 * 1024, hold: true,
    });
    return { fields: upload.fields, files: upload.files };
  };

  /** Runs the write; when it fails, the files stored for it go (unless something else uses them). */
  const withFiles = async <T>(request: FastifyRequest, stored: UploadedFile[], write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      await files.discard(actorOf(request).tenantId, stored.flatMap((file) => (file.hold ? [file.hold] : [])));
      throw error;
    }
  };

  /** After commit: files the write left unused leave the store. */
  const settle = async <T>(request: FastifyRequest, written: Written<T>): Promise<T> => {
    await files.removeUnused(actorOf(request).tenantId, written.unused);
    return written.value;
  };

  const itemBody = Type.Unknown({ description: 'multipart/form-data: "file" and the fields (bucket, title, text, visibility, source, source_url, source_alias); or the same fields as JSON' });

  app.post(`${base}/`, {
    ...write,
    schema: { tags, summary: 'Create an item: a file (multipart field "file") and/or text, with its fields', consumes: ['multipart/form-data', 'application/json'], body: itemBody, response: { 201: Record_, ...errors, 413: ErrorBody } },
  }, async (request, reply) => {
    const { fields, files: stored } = await receive(request, 1);
    const item = await withFiles(request, stored, () => withContext(request, (ctx) => service.create(ctx, fields, stored[0] ?? null)));
    return reply.status(201).send(item);
  });

  app.patch(`${base}/:id/`, {
    ...write,
    schema: { tags, summary: 'Change the fields sent; a file (multipart) replaces the item\'s file', consumes: ['multipart/form-data', 'application/json'], params: IdParam, body: itemBody, response: { 200: Record_, ...errors, 413: ErrorBody } },
  }, async (request) => {
    const { fields, files: stored } = await receive(request, 1);
    const written = await withFiles(request, stored, () => withContext(request, (ctx) => service.update(ctx, request.params.id, fields, stored[0] ?? null)));
    return settle(request, written);
  });

  app.delete(`${base}/:id/`, {
    ...write,
    schema: { tags, summary: 'Delete an item (its file too, unless another item uses it)', params: IdParam, response: { 204: Type.Null(), ...errors } },
  }, async (request, reply) => {
    await settle(request, await withContext(request, (ctx) => service.removeMany(ctx, [request.params.id])));
    return reply.status(204).send(null);
  });

  app.delete(`${base}/remove-batch/`, {
    ...write,
    schema: {
      tags,
      summary: `Delete items by id (at most ${MAX_REMOVE_BATCH}) in one transaction: all or none; files no longer used are removed after commit`,
      body: Type.Object({ ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_REMOVE_BATCH }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ deleted: Type.Integer() }), ...errors },
    },
  }, async (request) => settle(request, await withContext(request, (ctx) => service.removeMany(ctx, request.body.ids))));

  app.post(`${base}/upload/`, {
    ...write,
    schema: {
      tags,
      summary: `Many files in one request (field "file", at most RAW_DATA_MAX_FILES = ${config.rawData.maxFilesPerRequest}), each its own item, with the shared fields; a result per file`,
      consumes: ['multipart/form-data'],
      response: { 201: Type.Object({ results: Type.Array(Record_) }), ...errors, 413: ErrorBody },
    },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new ApiError(400, 'invalid', 'file: send the files as multipart/form-data in fields named "file".', { file: ['Send the files as multipart/form-data.'] });
    const { fields, files: stored } = await receive(request, config.rawData.maxFilesPerRequest);
    if (stored.length === 0) throw new ApiError(400, 'invalid', 'file: no file was sent.', { file: ['No file was sent.'] });
    const results: Array<Record<string, unknown>> = [];
    // One transaction per file: each file is its own item, and one refused does not undo the others.
    for (const [index, file] of stored.entries()) {
      try {
        const item = await withFiles(request, [file], () => withContext(request, (ctx) => service.create(ctx, fields, file)));
        results.push({ index, file_name: file.filename, status: 201, item, duplicate: item['duplicate_of'] !== null });
      } catch (error) {
        if (!(error instanceof ApiError)) {
          await files.discard(actorOf(request).tenantId, stored.slice(index + 1).flatMap((rest) => (rest.hold ? [rest.hold] : [])));
          throw error;
        }
        results.push({ index, file_name: file.filename, status: error.statusCode, error: { detail: error.message, code: error.code, errors: error.errors ?? {} } });
      }
    }
    return reply.status(201).send({ results });
  });

  app.post(`${base}/process/`, {
    ...write,
    schema: {
      tags,
      summary: `Process items (at most ${MAX_PROCESS_BATCH}): a job per item reads its text, finds the entities in it, links and suggests them; an item being processed is processed again`,
      body: Type.Object({ ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_PROCESS_BATCH }) }, { additionalProperties: false }),
      response: { 202: Type.Object({ results: Type.Array(Type.Object({ id: Type.String(), job_id: Type.String() })) }), ...errors },
    },
  }, async (request, reply) => reply.status(202).send(await withContext(request, (ctx) => processing.queue(ctx, request.body.ids))));

  const libraryEntries = services.get('library');
  app.post(`${base}/send_to_library/`, {
    ...write,
    schema: {
      tags,
      summary: `A library entry per item (at most ${MAX_SEND_BATCH}), from its title, text, source and what processing found; sending an item again updates its entry`,
      body: Type.Object({ ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_SEND_BATCH }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ results: Type.Array(Type.Object({ id: Type.String(), library_entry: Type.String(), created: Type.Boolean() })) }), ...errors },
    },
  }, async (request) => withContext(request, (ctx) => sendToLibrary(ctx, items, libraryEntries, request.body.ids)));

  app.post(`${base}/analysis-report/`, {
    ...write,
    schema: {
      tags,
      summary: 'Start an analysis report of the items named (ids) or of the list\'s filters (filters: the list\'s query parameters), or of every item; answers the task id to poll',
      body: Type.Object({
        ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_REPORT_IDS })),
        filters: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2_000 }))),
      }, { additionalProperties: false }),
      response: { 202: Type.Object({ task_id: Type.String() }), ...errors },
    },
  }, async (request, reply) => {
    const { ids, filters } = request.body;
    const started = await withContext(request, (ctx) => reports.start(ctx, { ...(ids ? { ids } : {}), ...(filters ? { query: filters } : {}) }));
    return reply.status(202).send(started);
  });

  app.get(`${base}/analysis-report-status/:task_id/`, {
    ...write,
    schema: {
      tags,
      summary: 'Where a report is: pending, running (percent), completed (download links) or error (the reason)',
      params: Type.Object({ task_id: Type.String({ format: 'uuid' }) }),
      response: { 200: Record_, ...errors },
    },
  }, async (request) => withContext(request, (ctx) => reports.status(ctx, request.params.task_id)));

  app.get(`${base}/analysis-report/:task_id/:file`, {
    ...write,
    schema: {
      tags,
      summary: 'A completed report as report.xlsx or report.html (always a download)',
      params: Type.Object({ task_id: Type.String({ format: 'uuid' }), file: Type.Union([Type.Literal('report.xlsx'), Type.Literal('report.html')]) }),
      response: { ...errors },
    },
  }, async (request, reply) => {
    const format = request.params.file === 'report.xlsx' ? 'xlsx' : 'html';
    const file = await withContext(request, (ctx) => reports.file(ctx, request.params.task_id, format, request.tenant?.code ?? 'tenant'));
    const key = fileKey(actorOf(request).tenantId, file.sha256);
    const info = await files.stat(key);
    if (!info) throw new ApiError(404, 'not_found', 'The report\'s file is missing from the store.');
    return sendFile(reply, await files.get(key), { ...file, size: info.size }, false);
  });

  app.get(`${base}/:id/text/`, {
    ...write,
    schema: {
      tags,
      summary: 'The text processing read from the item (its file and pasted text), as kept with it',
      params: IdParam,
      response: { 200: Type.Object({ id: Type.String(), text: Type.Union([Type.String(), Type.Null()]), chars: Type.Union([Type.Integer(), Type.Null()]), method: Type.Union([Type.String(), Type.Null()]), truncated: Type.Boolean() }), ...errors },
    },
  }, async (request) => withContext(request, (ctx) => extractedText(ctx, items, request.params.id)));

  app.get(`${base}/extract-data/`, {
    ...write,
    schema: {
      tags,
      summary: `The entities and values processing found in the items named (ids, comma-separated, at most ${MAX_EXTRACT_ITEMS}), as JSON or (?format=xlsx) a spreadsheet`,
      querystring: Type.Object({
        ids: Type.String({ minLength: 1, maxLength: MAX_EXTRACT_ITEMS * 37 }),
        format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('xlsx')])),
        type: Type.Optional(Type.String({ maxLength: 100 })),
      }),
      // The JSON answer; ?format=xlsx streams the spreadsheet instead.
      response: { 200: Type.Object({ count: Type.Integer(), results: Type.Array(ExtractedEntity) }), ...errors },
    },
  }, async (request, reply) => {
    const rows = await withContext(request, (ctx) => extractedData(ctx, items, request.query.ids, request.query.type));
    return sendExtractedData(request, reply, rows, request.query.format ?? 'json');
  });

  app.get(`${base}/type-counts/`, {
    ...read,
    schema: {
      tags,
      summary: 'How many items of each type the caller sees',
      response: { 200: Type.Object({ total: Type.Integer(), results: Type.Array(Type.Object({ type: Type.String(), count: Type.Integer() })) }) },
    },
  }, async (request) => withContext(request, (ctx) => service.typeCounts(ctx)));

  app.get(`${base}/:id/file/`, {
    ...read,
    schema: {
      tags,
      summary: 'The item\'s file, as an attachment (?inline=true shows PDFs, images, plain text, audio and video inline; HTML and SVG never)',
      params: IdParam,
      querystring: Type.Object({ inline: Type.Optional(Type.Boolean()) }),
      response: { ...errors },
    },
  }, async (request, reply) => {
    const file = await withContext(request, (ctx) => service.fileOf(ctx, request.params.id));
    let stream: Readable;
    try {
      stream = await files.get(fileKey(actorOf(request).tenantId, file.sha256));
    } catch (error) {
      if (error instanceof FileNotFoundError) throw new ApiError(404, 'not_found', 'The file of this item is missing from the store.');
      throw error;
    }
    return sendFile(reply, stream, file, request.query.inline === true);
  });

  app.post(`${base}/:id/assign-source-url/`, {
    ...write,
    schema: {
      tags,
      summary: 'Set the item\'s source to the source URL of this address (created, or the existing one reused)',
      params: IdParam,
      body: Type.Object({ url: Type.String({ maxLength: 2048 }), alias: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])) }, { additionalProperties: false }),
      response: { 200: Record_, ...errors },
    },
  }, async (request) => withContext(request, (ctx) => service.assignSourceUrl(ctx, request.params.id, request.body.url, request.body.alias)));

  app.delete(`${base}/:id/clear-source/`, {
    ...write,
    schema: { tags, summary: 'Remove the item\'s source', params: IdParam, response: { 200: Record_, ...errors } },
  }, async (request) => withContext(request, (ctx) => service.clearSource(ctx, request.params.id)));

  app.get(`${base}/export/`, {
    ...read,
    schema: {
      tags,
      summary: 'The items (the list\'s filters and search) as YYYY-MM-DD_{tenant}_raw_data.xlsx, or with ?include=files a zip of the rows and the files, streamed',
      querystring: Type.Intersect([listQuerystring(rawData), Type.Object({ include: Type.Optional(Type.Literal('files')) })]),
      response: { ...errors },
    },
  }, async (request, reply) => {
    const { include, ...rest } = request.query as Record<string, string | string[] | undefined>;
    const listQuery = parseListQuery(rawData, { ...rest, format: 'xlsx' }, request.principal.access);
    return sendRawDataExport(request, reply, { service: items, files, listQuery, withFiles: include === 'files' });
  });

  // ---- direct upload ----

  app.post(`${base}/direct-upload/initiate/`, {
    ...write,
    schema: {
      tags,
      summary: 'Announce a file (name, size, SHA-256) and the item\'s fields; returns an upload id and a signed, expiring URL to PUT the bytes to',
      body: Type.Object({
        file_name: Type.String({ minLength: 1, maxLength: 1000 }),
        size: Type.Integer({ minimum: 1 }),
        sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
        fields: Type.Optional(Record_),
      }, { additionalProperties: false }),
      response: {
        201: Type.Object({ upload_id: Type.String(), upload_url: Type.String(), method: Type.Literal('PUT'), expires_at: Type.String() }),
        ...errors,
        413: ErrorBody,
      },
    },
  }, async (request, reply) => {
    const started = await withContext(request, (ctx) =>
      service.initiateDirect(ctx, { ...request.body, fields: request.body.fields ?? {} }, { maxFileBytes, expiresInSeconds: config.rawData.directUploadSeconds }),
    );
    // With S3 the bytes go straight to the bucket (a presigned PUT of a staged object, the
    // upload's id); otherwise through our own route, whose token is the credential.
    const direct = files.driver.directUploads;
    return reply.status(201).send({
      upload_id: started.id,
      upload_url: direct
        ? await direct.presignPut({ id: started.id }, request.body.size, config.rawData.directUploadSeconds)
        : `/api/v1${base}/direct-upload/${started.id}/?token=${started.token}`,
      method: 'PUT' as const,
      expires_at: started.expires_at,
    });
  });

  await app.register(async (raw) => {
    // The bytes arrive as the request body of any type, streamed into the store (never parsed).
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    raw.withTypeProvider<TypeBoxTypeProvider>().put(`${base}/direct-upload/:id/`, {
      // The URL is the credential (its token), as a presigned URL is: no bearer header needed.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The bytes of a direct upload (the URL initiate/ returned): any content, stored as sent',
        consumes: ['application/octet-stream'],
        body: Type.Unknown({ description: 'The file\'s bytes' }),
        params: IdParam,
        querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 204: Type.Null(), ...errors, 409: ErrorBody, 413: ErrorBody },
      },
    }, async (request, reply) => {
      const tenantId = actorOf(request).tenantId;
      await withContext(request, (ctx) => service.directUploadForPut(ctx, request.params.id, request.query.token));
      let stored;
      try {
        stored = await files.put(tenantId, request.raw, { maxBytes: maxFileBytes, hold: true });
      } catch (error) {
        if (error instanceof FileTooLargeError) {
          throw new ApiError(413, 'file_too_large', `file: larger than the limit of ${maxFileBytes} bytes.`, { file: [`Larger than the limit of ${maxFileBytes} bytes.`] });
        }
        throw error;
      }
      const recorded = await withFiles(request, [{ ...stored, field: 'file', filename: '' }], () =>
        withContext(request, (ctx) => service.receivedDirect(ctx, request.params.id, stored)),
      );
      if (!recorded) {
        await files.discard(tenantId, stored.hold ? [stored.hold] : []);
        throw new ApiError(409, 'conflict', 'The bytes of this upload were already received.');
      }
      return reply.status(204).send(null);
    });
  });

  /**
   * Bytes PUT straight into the store (S3) are read once into a stored file (hashed, sniffed,
   * counted, held), as our own PUT route would have stored them; complete/ then checks them.
   */
  const readDirectUpload = async (request: FastifyRequest, id: string): Promise<void> => {
    const direct = files.driver.directUploads;
    if (!direct) return;
    const awaiting = await withContext(request, (ctx) => service.directUploadInStore(ctx, id));
    if (!awaiting) return;
    const tenantId = actorOf(request).tenantId;
    try {
      // Bytes of an expired upload are not read: complete/ refuses it, and they go.
      if (awaiting.expired || !(await direct.statStaged({ id }))) return;
      const stored = await files.put(tenantId, await direct.readStaged({ id }), { maxBytes: maxFileBytes, hold: true });
      const recorded = await withFiles(request, [{ ...stored, field: 'file', filename: '' }], () => withContext(request, (ctx) => service.receivedDirect(ctx, id, stored)));
      // A concurrent complete/ read the same bytes and recorded them first: this copy's hold goes.
      if (!recorded) await files.discard(tenantId, stored.hold ? [stored.hold] : []);
    } catch (error) {
      // Bigger than announced and than the limit: complete/ finds no bytes received and says so.
      if (error instanceof FileTooLargeError) return;
      // The staged object went under this read because a concurrent complete/ finished with it.
      if (!(await withContext(request, (ctx) => service.directUploadInStore(ctx, id)))) return;
      throw error;
    } finally {
      await files.driver.discard({ id });
    }
  };

  app.post(`${base}/direct-upload/complete/`, {
    ...write,
    schema: {
      tags,
      summary: 'Create the item from a direct upload: the bytes must match the announced size and SHA-256 (else 400 naming the reason; nothing created)',
      body: Type.Object({ upload_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
      response: { 201: Record_, ...errors },
    },
  }, async (request, reply) => {
    const tenantId = actorOf(request).tenantId;
    await readDirectUpload(request, request.body.upload_id);
    const outcome = await withContext(request, (ctx) => service.completeDirect(ctx, request.body.upload_id));
    await files.discard(tenantId, outcome.discard);
    if (outcome.failure) throw outcome.failure;
    return reply.status(201).send(outcome.item!);
  });
}

/** A stored file as a download: its name as the client gave it, nosniff, active content never inline. */
function sendFile(reply: FastifyReply, stream: Readable, file: { name: string; type: string; size: number }, inline: boolean): FastifyReply {
  const active = ACTIVE_CONTENT.test(file.type);
  const showInline = inline && !active && INLINE_SAFE.test(file.type);
  return reply
    .header('content-type', active ? 'application/octet-stream' : file.type)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(showInline ? 'inline' : 'attachment', file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(stream);
}

/** extract-data's answer: the rows as JSON, or streamed as `YYYY-MM-DD_{tenant}_extracted_data.xlsx`. */
function sendExtractedData(request: FastifyRequest, reply: FastifyReply, rows: ExtractedRow[], format: 'json' | 'xlsx'): FastifyReply {
  if (format === 'json') return reply.send({ count: rows.length, results: rows });
  const writer = new XlsxStreamWriter({ sheetName: 'Extracted data', columns: EXTRACT_DATA_COLUMNS.map(({ header, width }) => ({ header, width })) });
  writer
    .addRows(rows.map((row) => EXTRACT_DATA_COLUMNS.map((column) => column.cell(row))))
    .then(() => writer.finish())
    .catch((error: unknown) => writer.abort(error instanceof Error ? error : new Error(String(error))));
  const name = `${new Date().toISOString().slice(0, 10)}_${request.tenant?.code ?? 'tenant'}_extracted_data.xlsx`;
  return reply
    .header('content-type', XLSX_CONTENT_TYPE)
    .header('content-disposition', contentDisposition('attachment', name))
    .header('cache-control', 'no-store')
    .send(writer.stream);
}

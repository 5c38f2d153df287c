/**
 * GET raw-data/export: the items a list query names as `YYYY-MM-DD_{tenant}_raw_data.xlsx`,
 * or (?include=files) a zip of that spreadsheet and each item's file, streamed: the rows are
 * read through a cursor (SpreadsheetExport) and each file is piped from the store into the zip
 * (fflate's streaming Zip, files stored as they are), so no file is held whole in memory.
 */
import { PassThrough, type Readable } from 'node:stream';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Zip, ZipPassThrough } from 'fflate';
import { query } from '../../db/client.ts';
import { actorOf, withContext } from '../../http/engine-context.ts';
import type { ListQuery } from '../../resources/list-query.ts';
import { whereClause, orderClause } from '../../resources/repository.ts';
import type { ResourceService } from '../../resources/service.ts';
import { sendSpreadsheet } from '../../http/resource.routes.ts';
import { SpreadsheetExport } from '../../resources/spreadsheet-export.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { fileKey, type FileStore } from '../../storage/files.ts';
import { sanitizeFilename } from '../../storage/upload.ts';

interface ExportRequest {
  service: ResourceService;
  files: FileStore;
  listQuery: ListQuery;
  withFiles: boolean;
}

export async function sendRawDataExport(request: FastifyRequest, reply: FastifyReply, options: ExportRequest): Promise<FastifyReply> {
  const { service, listQuery } = options;
  const sheet = new SpreadsheetExport(service, request.principal.access, listQuery);
  const name = sheet.filename(request.tenant?.code).replace(/[^\w.-]/g, '_');
  if (!options.withFiles) return sendSpreadsheet(request, reply, service, listQuery);

  // The files of the rows, read first (ids and names only) in the same order as the sheet.
  const tenantId = actorOf(request).tenantId;
  const entries = await withContext(request, ({ tx }) =>
    query<{ id: string; file_sha256: string; file_name: string }>(
      tx,
      sql`SELECT id, file_sha256, file_name FROM raw_data
          WHERE ${whereClause(service.resource, visibleTo(request.principal.access), listQuery)} AND file_sha256 IS NOT NULL
          ORDER BY ${orderClause(listQuery)}`,
    ),
  );
  const out = new PassThrough();
  const zip = new Zip();
  let pending: Promise<void> = Promise.resolve();
  zip.ondata = (error, chunk, final) => {
    if (error) {
      out.destroy(error);
      return;
    }
    if (!out.write(Buffer.from(chunk))) pending = once(out, 'drain').then(() => undefined);
    if (final) out.end();
  };
  const pipeInto = async (entryName: string, stream: Readable) => {
    const entry = new ZipPassThrough(entryName);
    zip.add(entry);
    for await (const chunk of stream) {
      entry.push(chunk as Uint8Array);
      await pending;
    }
    entry.push(new Uint8Array(0), true);
  };
  const write = async () => {
    const started = withContext(request, (ctx) => sheet.write(ctx, () => undefined));
    await pipeInto(name, sheet.stream);
    await started;
    for (const entry of entries) {
      await pipeInto(`files/${entry.id}_${sanitizeFilename(entry.file_name)}`, await options.files.get(fileKey(tenantId, entry.file_sha256)));
    }
    zip.end();
  };
  write().catch((error: unknown) => {
    request.log.error({ err: error }, 'raw data export with files failed mid-stream');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition('attachment', name.replace(/\.xlsx$/, '.zip')))
    .header('cache-control', 'no-store')
    .send(out);
}

/** RFC 6266: an ASCII fallback name and the UTF-8 name (RFC 5987). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A real S3-protocol server on loopback for tests (s3rver: the S3 REST API,
 * multipart uploads included, over a folder), with one empty bucket, and the
 * settings of the S3 driver that talks to it.
 *
 * s3rver 3.7 keeps pending multipart uploads in its folder but answers neither
 * ListMultipartUploads (NotImplemented) nor AbortMultipartUpload (MethodNotAllowed). Both are
 * added here over the same folder, as S3 defines them, so that tests see what an abort left
 * and the driver's aborts take effect. Tests can also make chosen requests fail (`failNext`)
 * and wait for a part to be stored (`partStored`).
 */
import { EventEmitter, once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../config.ts';

/** The S3 operations a test can make fail. */
export type S3Operation = 'CreateMultipartUpload' | 'UploadPart' | 'CompleteMultipartUpload' | 'AbortMultipartUpload' | 'PutObject';

export interface PendingUpload {
  key: string;
  uploadId: string;
  initiated: Date;
}

export interface TestS3Server {
  settings: S3Settings;
  /** Multipart uploads begun so far (CreateMultipartUpload answered). */
  readonly initiated: number;
  /** The pending multipart uploads, read from the server's folder. */
  pendingUploads(): Promise<PendingUpload[]>;
  /**
   * Answers the next `times` requests of `operation` with 403 AccessDenied (after reading their
   * bodies): an error the SDK does not retry, so each fault is one failed call.
   */
  failNext(operation: S3Operation, times?: number): void;
  /** Resolves when the server has stored the next part of a multipart upload. */
  partStored(): Promise<void>;
  close(): Promise<void>;
}

/** The little of Koa's context the added operations use. */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  req: IncomingMessage;
  status: number;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

function operationOf(ctx: KoaContext): S3Operation | null {
  const hasKey = ctx.path.split('/').filter(Boolean).length > 1;
  if (!hasKey) return null;
  if (ctx.method === 'POST' && 'uploads' in ctx.query) return 'CreateMultipartUpload';
  if (ctx.method === 'PUT' && 'uploadId' in ctx.query) return 'UploadPart';
  if (ctx.method === 'POST' && 'uploadId' in ctx.query) return 'CompleteMultipartUpload';
  if (ctx.method === 'DELETE' && 'uploadId' in ctx.query) return 'AbortMultipartUpload';
  if (ctx.method === 'PUT' && !('x-amz-copy-source' in ctx.req.headers)) return 'PutObject';
  return null;
}

export async function startS3Server(bucket = 'intelnotes-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const koa = server as unknown as {
    middleware: KoaMiddleware[];
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  };
  const uploadsDir = koa.store.getResourcePath(bucket, undefined, 'uploads');
  const faults = new Map<S3Operation, number>();
  const events = new EventEmitter();
  let initiated = 0;

  const pendingUploads = async (prefix = ''): Promise<PendingUpload[]> => {
    let ids: string[];
    try {
      ids = await readdir(uploadsDir);
    } catch {
      return [];
    }
    const uploads: PendingUpload[] = [];
    for (const uploadId of ids) {
      const dir = path.join(uploadsDir, uploadId);
      const key = await readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
      if (key === null || !key.startsWith(prefix)) continue;
      uploads.push({ key, uploadId, initiated: (await stat(dir)).mtime });
    }
    return uploads.sort((a, b) => a.key.localeCompare(b.key) || a.uploadId.localeCompare(b.uploadId));
  };

  const added: KoaMiddleware = async (ctx, next) => {
    const [bucketName] = ctx.path.split('/').filter(Boolean);
    const operation = operationOf(ctx);
    const failing = operation ? (faults.get(operation) ?? 0) : 0;
    if (operation && failing > 0) {
      faults.set(operation, failing - 1);
      for await (const chunk of ctx.req) void chunk;
      ctx.status = 403;
      ctx.body = { Error: { Code: 'AccessDenied', Message: `${operation} refused (a test's fault).` } };
      return;
    }
    if (bucketName === bucket && ctx.method === 'GET' && 'uploads' in ctx.query && ctx.path.split('/').filter(Boolean).length === 1) {
      const prefix = typeof ctx.query['prefix'] === 'string' ? ctx.query['prefix'] : '';
      const uploads = await pendingUploads(prefix);
      ctx.body = {
        ListMultipartUploadsResult: {
          '@': { xmlns: XMLNS },
          Bucket: bucket,
          Prefix: prefix,
          MaxUploads: 1000,
          IsTruncated: false,
          Upload: uploads.map((upload) => ({ Key: upload.key, UploadId: upload.uploadId, Initiated: upload.initiated.toISOString(), StorageClass: 'STANDARD' })),
        },
      };
      return;
    }
    if (bucketName === bucket && operation === 'AbortMultipartUpload') {
      const uploadId = String(ctx.query['uploadId']);
      const dir = path.join(uploadsDir, path.basename(uploadId));
      const exists = await stat(dir).then(() => true, () => false);
      if (!exists) {
        ctx.status = 404;
        ctx.body = { Error: { Code: 'NoSuchUpload', Message: 'The specified upload does not exist.', UploadId: uploadId } };
        return;
      }
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    await next();
    if (operation === 'CreateMultipartUpload' && ctx.status === 200) initiated += 1;
    if (operation === 'UploadPart' && ctx.status === 200) events.emit('part');
  };
  // Before s3rver's router (the last middleware), after its XML encoding of plain-object bodies.
  koa.middleware.splice(koa.middleware.length - 1, 0, added);

  const { port } = await server.run();
  return {
    settings: {
      driver: 's3',
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's fixed credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    get initiated() {
      return initiated;
    },
    pendingUploads: () => pendingUploads(),
    failNext: (operation, times = 1) => faults.set(operation, (faults.get(operation) ?? 0) + times),
    partStored: async () => {
      await once(events, 'part');
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

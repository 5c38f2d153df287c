/**
 * The S3 driver: any store that speaks the S3 protocol (AWS S3, MinIO, Ceph,
 * Garage, Cloudflare R2, Backblaze B2, …) through @aws-sdk/client-s3.
 *
 * Staged bytes are uploaded under `.staging/<uuid>` with @aws-sdk/lib-storage,
 * which switches to a multipart upload past one part (5 MiB) and keeps at most
 * `QUEUE_SIZE` parts in memory, so a file of any size streams through a small,
 * fixed buffer. A commit is a server-side CopyObject to the final key (no bytes
 * travel back through this process) followed by deleting the staged object: a
 * reader of the final key sees nothing or the whole object, as S3 only ever
 * shows completed writes. CopyObject copies at most 5 GiB, which is why the
 * upload limit (config.ts) stops there.
 *
 * A multipart upload that does not complete is aborted, never left in the bucket (where its
 * parts are kept, and billed, until someone aborts it): when the body fails (a client gone
 * mid-upload, the size limit), when the store fails a part, or when completing fails.
 * lib-storage aborts before `done()` rejects; should that abort fail as well, `stage` aborts
 * again itself, and the sweep of staged objects aborts any pending upload under `.staging/`
 * older than a day (a process killed mid-upload sends no abort) — docs/storage.md.
 */
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config.ts';
import {
  assertValidKey,
  BaseDriver,
  FileNotFoundError,
  RangeNotSatisfiableError,
  StorageError,
  type ByteRange,
  type DirectUploads,
  type ObjectInfo,
  type StagedEntry,
  type StagedObject,
} from './storage.ts';

const STAGING_PREFIX = '.staging/';
/** The smallest part S3 accepts (except the last); also the unit lib-storage buffers. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts uploaded at once, and so held in memory at once, per file. */
const QUEUE_SIZE = 2;

/** Tries at aborting a multipart upload in `stage` before leaving it to the sweep. */
const ABORT_ATTEMPTS = 3;
/**
 * Pending multipart uploads under `.staging/` older than this are abandoned (a process killed
 * mid-upload): a request that stages a file takes far less, whatever the sweep's grace period.
 */
export const ABANDONED_UPLOAD_MS = 24 * 3_600_000;

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);

export class S3Driver extends BaseDriver {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly settings: S3Settings) {
    super();
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      // Without keys the SDK's default chain applies (instance or task role, AWS profile).
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // Recent SDKs add CRC checksums (and aws-chunked bodies) to every upload by default,
      // which many S3-compatible stores reject; the content's SHA-256 is checked by us anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * Presigned PUTs of a staged object: the signature covers the length, so the store refuses
   * other sizes itself; what arrived is read back once through `readStaged` (hashed, sniffed).
   */
  readonly directUploads: DirectUploads = {
    presignPut: (staged, size, expiresInSeconds) =>
      getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: this.stagedKey(staged), ContentLength: size }), {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-length']),
      }),
    statStaged: (staged) => this.info(this.stagedKey(staged)),
    readStaged: (staged) => this.read(this.stagedKey(staged), undefined),
  };

  private stagedKey(staged: StagedObject): string {
    return `${STAGING_PREFIX}${this.stagedId(staged)}`;
  }

  /** Every object whose key starts with `prefix`, with when it was written. */
  private async list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date }>> {
    const objects: Array<{ key: string; modifiedAt: Date }> = [];
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) {
        if (object.Key) objects.push({ key: object.Key, modifiedAt: object.LastModified ?? new Date(0) });
      }
    }
    return objects;
  }

  private async deleteObject(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async stage(body: Readable): Promise<StagedObject> {
    const staged = this.newStaged();
    // The body's own failure is the one to report: after it, lib-storage's clean-up
    // (aborting the multipart upload) may fail too and would hide it.
    let bodyError: unknown;
    body.once('error', (error) => (bodyError = error));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.stagedKey(staged), Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      await this.abortUpload(this.stagedKey(staged), upload.uploadId);
      throw bodyError ?? error;
    }
    if (bodyError !== undefined || body.errored) {
      await this.discard(staged);
      throw bodyError ?? body.errored;
    }
    return staged;
  }

  /**
   * Aborts a multipart upload that did not complete. lib-storage has normally done so already
   * (the store then answers NoSuchUpload, which is fine); this covers its abort failing. An
   * upload still pending after the tries is left to the sweep (abortAbandonedUploads).
   */
  private async abortUpload(key: string, uploadId: string | undefined): Promise<void> {
    if (!uploadId) return;
    for (let attempt = 1; attempt <= ABORT_ATTEMPTS; attempt++) {
      try {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
        return;
      } catch (error) {
        if (statusOf(error) === 404) return;
      }
    }
  }

  /** The pending multipart uploads under `prefix`. */
  private async pendingUploads(prefix: string): Promise<Array<{ key: string; uploadId: string; initiated: Date }>> {
    const uploads: Array<{ key: string; uploadId: string; initiated: Date }> = [];
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: prefix, ...markers }));
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId) uploads.push({ key: upload.Key, uploadId: upload.UploadId, initiated: upload.Initiated ?? new Date(0) });
      }
      if (!page.IsTruncated || (!page.NextKeyMarker && !page.NextUploadIdMarker)) return uploads;
      markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    }
  }

  /**
   * Aborts the pending multipart uploads of staged objects begun longer ago than `olderThanMs`;
   * returns how many. A store that does not list multipart uploads (501) is left as it is: a
   * lifecycle rule (AbortIncompleteMultipartUpload) does it there.
   */
  async abortAbandonedUploads(olderThanMs: number): Promise<number> {
    let uploads: Awaited<ReturnType<S3Driver['pendingUploads']>>;
    try {
      uploads = await this.pendingUploads(STAGING_PREFIX);
    } catch (error) {
      if (statusOf(error) === 501) return 0;
      throw error;
    }
    const cutoff = Date.now() - olderThanMs;
    const abandoned = uploads.filter((upload) => upload.initiated.getTime() < cutoff);
    for (const upload of abandoned) await this.abortUpload(upload.key, upload.uploadId);
    return abandoned.length;
  }

  /** Abandoned staged objects, then abandoned multipart uploads (at least a day old: ABANDONED_UPLOAD_MS). */
  override async sweepStaged(olderThanMs: number): Promise<number> {
    const objects = await super.sweepStaged(olderThanMs);
    return objects + (await this.abortAbandonedUploads(Math.max(olderThanMs, ABANDONED_UPLOAD_MS)));
  }

  async commit(staged: StagedObject, key: string): Promise<void> {
    const from = this.stagedKey(staged);
    try {
      assertValidKey(key);
      // Keys are plain path segments (assertValidKey), so the copy source needs no escaping.
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: key, CopySource: `${this.bucket}/${from}` }));
    } finally {
      await this.deleteObject(from);
    }
  }

  async discard(staged: StagedObject): Promise<void> {
    await this.deleteObject(this.stagedKey(staged));
  }

  protected async read(key: string, range: ByteRange | undefined): Promise<Readable> {
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      // In Node the body is an http.IncomingMessage: a Readable.
      return result.Body as Readable;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) throw new FileNotFoundError(key);
      if (status === 416) {
        const info = await this.stat(key);
        if (!info) throw new FileNotFoundError(key);
        throw new RangeNotSatisfiableError(key, info.size);
      }
      throw error;
    }
  }

  protected async info(key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  protected async remove(key: string): Promise<void> {
    await this.deleteObject(key);
  }

  // Listed whole, then deleted: deleting while paging through a listing could skip keys.
  protected async removeUnder(prefix: string): Promise<number> {
    const objects = await this.list(`${prefix}/`);
    for (const { key } of objects) await this.deleteObject(key);
    return objects.length;
  }

  protected async listStaged(): Promise<StagedEntry[]> {
    return (await this.list(STAGING_PREFIX))
      .map(({ key, modifiedAt }) => ({ id: key.slice(STAGING_PREFIX.length), modifiedAt }))
      .filter((entry) => this.isStagedId(entry.id));
  }

  async check(): Promise<void> {
    const where = `bucket "${this.bucket}"${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) throw new StorageError(`The S3 ${where} does not exist: create it, or set S3_BUCKET to one that does.`);
      if (status === 401 || status === 403) {
        throw new StorageError(`The S3 store refused access to ${where}: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`);
      }
      throw new StorageError(`The S3 ${where} could not be reached: ${(error as Error).message}`);
    }
  }

  close(): void {
    this.client.destroy();
  }
}

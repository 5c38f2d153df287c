/**
 * Where file bytes live: one driver interface, two drivers — a folder under
 * DATA_DIR (local.ts) and any S3-compatible store (s3.ts). Drivers only move
 * bytes under keys; content addressing, hashing, sniffing and the bookkeeping
 * that sweeps unreferenced files are done once, above them (files.ts).
 *
 * A driver writes in two steps so that no reader ever sees half a file: `stage`
 * streams the bytes into a private temporary object, `commit` makes that object
 * visible under its final key in one atomic step (a rename, or a server-side
 * copy). Bytes always flow as streams; no driver holds a whole file in memory.
 */
import type { Readable } from 'node:stream';
import type { StorageSettings } from '../config.ts';

/** A byte range, both ends inclusive (as in an HTTP Range header). `end` absent: to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectInfo {
  size: number;
  modifiedAt: Date;
}

/** Bytes written by `stage` and not yet visible under a key. */
export interface StagedObject {
  /** The driver's own handle: a temporary file name or key. */
  readonly id: string;
}

export interface StorageDriver {
  readonly kind: StorageSettings['driver'];
  /** Streams `body` into a temporary object. On any error nothing is left behind. */
  stage(body: Readable): Promise<StagedObject>;
  /**
   * Makes a staged object visible under `key` in one step, replacing what was
   * there; the staged object is gone afterwards, whether or not this succeeds.
   */
  commit(staged: StagedObject, key: string): Promise<void>;
  /** Removes a staged object that will not be committed. */
  discard(staged: StagedObject): Promise<void>;
  /** The object's bytes, or the range of them. Throws FileNotFoundError; a range past the end throws RangeNotSatisfiableError. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and modification time, or null when there is no such object. */
  stat(key: string): Promise<ObjectInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes staged objects older than `olderThanMs` (left by a process that died mid-write); returns how many. */
  sweepStaged(olderThanMs: number): Promise<number>;
  /** Verifies the store is reachable and writable enough to start (the folder exists, the bucket answers). */
  check(): Promise<void>;
  close(): void;
}

export class StorageError extends Error {}

/** The key names no stored object. */
export class FileNotFoundError extends StorageError {
  constructor(readonly key: string) {
    super(`No stored file under "${key}".`);
  }
}

/** A range that starts at or past the end of the object. */
export class RangeNotSatisfiableError extends StorageError {
  constructor(
    readonly key: string,
    readonly size: number,
  ) {
    super(`The requested range starts past the end of "${key}" (${size} bytes).`);
  }
}

/** The bytes exceeded the size limit of a put; nothing was stored. */
export class FileTooLargeError extends StorageError {
  constructor(readonly limitBytes: number) {
    super(`The file is larger than the limit of ${limitBytes} bytes.`);
  }
}

/**
 * Keys are a few path segments of letters, digits, dots, underscores and
 * hyphens, none starting with a dot: safe as a file path under the storage
 * folder (no `..`, no absolute path, no NUL) and as an S3 key.
 */
const KEY_RE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}){0,7}$/;

export function assertValidKey(key: string): void {
  if (!KEY_RE.test(key)) throw new StorageError(`Invalid storage key: ${JSON.stringify(key)}`);
}

export function assertValidRange(range: ByteRange | undefined): void {
  if (!range) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    throw new StorageError(`Invalid byte range ${JSON.stringify(range)}.`);
  }
}

/** The driver the configuration names; the S3 SDK is loaded only when S3 is configured. */
export async function createStorageDriver(config: StorageSettings): Promise<StorageDriver> {
  if (config.driver === 's3') {
    const { S3Driver } = await import('./s3.ts');
    return new S3Driver(config);
  }
  const { LocalDriver } = await import('./local.ts');
  return new LocalDriver(config.dir);
}

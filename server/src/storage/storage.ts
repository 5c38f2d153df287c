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
import { randomUUID } from 'node:crypto';
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

/**
 * Uploads straight into the store (S3): a client PUTs a file's bytes to a signed URL as a
 * staged object, which the server then reads once (to hash, sniff and count it) into a stored
 * file. A staged object nobody completes is swept like any other (sweepStaged).
 */
export interface DirectUploads {
  /** A URL to PUT exactly `size` bytes to, as the staged object, valid for `expiresInSeconds`. */
  presignPut(staged: StagedObject, size: number, expiresInSeconds: number): Promise<string>;
  /** What arrived, or null when nothing did. */
  statStaged(staged: StagedObject): Promise<ObjectInfo | null>;
  readStaged(staged: StagedObject): Promise<Readable>;
}

export interface StorageDriver {
  readonly kind: StorageSettings['driver'];
  /** Present when clients can upload straight into the store (S3); otherwise the bytes come through our own route. */
  readonly directUploads?: DirectUploads;
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
  /** Removes every object whose key starts with `prefix/` (a deleted tenant's files); returns how many. */
  deleteUnder(prefix: string): Promise<number>;
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

/** A staged object and when its bytes were last written (what a sweep of abandoned ones looks at). */
export interface StagedEntry {
  id: string;
  modifiedAt: Date;
}

const STAGED_ID_RE = /^[0-9a-f-]{36}$/;

/**
 * What every driver does the same way, whatever the store: keys and ranges checked before
 * any file system or network call, staged objects named by a random UUID (and nothing else
 * accepted as one), `exists` from `stat`, and the sweep of abandoned staged objects by age.
 * A driver supplies the operations on its own store.
 */
export abstract class BaseDriver implements StorageDriver {
  abstract readonly kind: StorageSettings['driver'];
  abstract stage(body: Readable): Promise<StagedObject>;
  abstract commit(staged: StagedObject, key: string): Promise<void>;
  abstract discard(staged: StagedObject): Promise<void>;
  abstract check(): Promise<void>;
  abstract close(): void;
  /** The object's bytes, or the range of them (key and range checked). */
  protected abstract read(key: string, range: ByteRange | undefined): Promise<Readable>;
  /** Size and modification time, or null (key checked). */
  protected abstract info(key: string): Promise<ObjectInfo | null>;
  /** Removes the object, a missing one being no error (key checked). */
  protected abstract remove(key: string): Promise<void>;
  /** Removes every object under `prefix/` (checked as a key); how many. */
  protected abstract removeUnder(prefix: string): Promise<number>;
  /** The staged objects there are now. */
  protected abstract listStaged(): Promise<StagedEntry[]>;

  /** A new staged object's handle. */
  protected newStaged(): StagedObject {
    return { id: randomUUID() };
  }

  /** A staged object's id, which the driver turns into a file name or key: a UUID, nothing else. */
  protected stagedId(staged: StagedObject): string {
    if (!STAGED_ID_RE.test(staged.id)) throw new StorageError(`Invalid staged object: ${JSON.stringify(staged.id)}`);
    return staged.id;
  }

  protected isStagedId(id: string): boolean {
    return STAGED_ID_RE.test(id);
  }

  // Async, so a bad key or range is a rejection like any other failure, not a throw.
  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    assertValidRange(range);
    return this.read(key, range);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    return this.info(key);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    return this.remove(key);
  }

  async deleteUnder(prefix: string): Promise<number> {
    assertValidKey(prefix);
    return this.removeUnder(prefix);
  }

  async sweepStaged(olderThanMs: number): Promise<number> {
    // A staged object still being written has a fresh modification time: only abandoned ones are this old.
    const cutoff = Date.now() - olderThanMs;
    const abandoned = (await this.listStaged()).filter((entry) => entry.modifiedAt.getTime() < cutoff);
    for (const entry of abandoned) await this.discard({ id: entry.id });
    return abandoned.length;
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

/**
 * The file store: content-addressed files per tenant over a storage driver.
 *
 * `put` streams the bytes once: on their way to the driver's staging area they
 * are hashed (SHA-256), counted, checked against a size limit, and their head
 * kept for sniffing the type. The file's key is derived from the tenant and the
 * hash (`<tenant>/<first two hex digits>/<sha256>`), so the same bytes put twice
 * in a tenant are stored once; another tenant's copy is its own.
 *
 * Each stored file has a row in `stored_files` (migration 0082). A row that
 * uses a file points at it with a foreign key; `sweep` removes the files no
 * foreign key points at once a grace period has passed since they were last
 * put — the files whose using row never committed (a failed request, a crash).
 * The grace period must be longer than the time between a put and the commit
 * of the row that uses the file.
 *
 * Why the order: put first upserts the row (last_stored_at = now) and commits, and
 * only then moves the bytes into place or finds them already there; the sweep
 * deletes the row and the bytes in one transaction, taking the row with FOR
 * UPDATE SKIP LOCKED and only past the grace period. So a sweep that holds the
 * row makes put's upsert wait and then finds nothing there (put writes the bytes
 * again), and a sweep after the upsert leaves the file alone for the grace
 * period — no transaction stays open while bytes are copied. The foreign key
 * does the rest: a using row cannot commit once its file is swept, nor a file be
 * swept while a using row is committing.
 *
 * Call `put` outside the transaction that writes the using row: on PGlite
 * (one connection) a put inside another transaction would wait for it forever.
 */
import { createHash, randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { query, type Database, type Executor } from '../db/client.ts';
import { sniffType, SNIFF_BYTES } from './sniff.ts';
import { FileTooLargeError, StorageError, type ByteRange, type ObjectInfo, type StagedObject, type StorageDriver } from './storage.ts';

export interface StoredFile {
  key: string;
  sha256: string;
  size: number;
  /** The MIME type sniffed from the bytes. */
  type: string;
  /** The usual extension of that type, without a dot. */
  ext: string;
  /** False when the tenant already had these bytes (another put stored them first). */
  created: boolean;
  /** With `hold`: the hold that keeps the file until the using row's transaction releases it. */
  hold?: string;
}

export interface PutOptions {
  /** Bytes past this fail the put with FileTooLargeError; nothing is stored. */
  maxBytes?: number;
  /**
   * Hold the file for the row that will use it (stored_file_holds): the sweep leaves it alone
   * until `release` (in the using row's transaction) or `discard` (the upload failed), or the
   * process dies and its holds are released at the next start.
   */
  hold?: boolean;
}

export interface SweepOptions {
  /** Only files last put longer ago than this. */
  olderThanMs: number;
  /** Only this tenant's files (default: every tenant's). */
  tenantId?: string;
  /** Only these files. */
  sha256?: string[];
}

export interface SweepResult {
  /** Unreferenced files removed, with their rows. */
  files: number;
  /** Abandoned staged objects removed. */
  staged: number;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHA256_RE = /^[0-9a-f]{64}$/;

/** The key prefix (first segment) of every file of a tenant. */
export function tenantPrefix(tenantId: string): string {
  if (!UUID_RE.test(tenantId)) throw new StorageError(`Invalid tenant id: ${JSON.stringify(tenantId)}`);
  return tenantId.toLowerCase();
}

/** The storage key of a tenant's file. */
export function fileKey(tenantId: string, sha256: string): string {
  const prefix = tenantPrefix(tenantId);
  if (!SHA256_RE.test(sha256)) throw new StorageError(`Invalid SHA-256: ${JSON.stringify(sha256)}`);
  return `${prefix}/${sha256.slice(0, 2)}/${sha256}`;
}

/** Passes bytes through while hashing, counting and keeping the first SNIFF_BYTES of them. */
class Inspector extends Transform {
  readonly hash = createHash('sha256');
  /** Not `size`: lib-storage takes a body's `size` for its length before reading it. */
  byteCount = 0;
  /** Bytes kept in `head`: all of them when the file is no longer than SNIFF_BYTES. */
  headLength = 0;
  private readonly headChunks: Buffer[] = [];

  constructor(private readonly maxBytes: number | undefined) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.byteCount += bytes.length;
    if (this.maxBytes !== undefined && this.byteCount > this.maxBytes) {
      callback(new FileTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(bytes);
    if (this.headLength < SNIFF_BYTES) {
      // A copy, so the head does not keep a whole large chunk alive.
      const part = Buffer.from(bytes.subarray(0, SNIFF_BYTES - this.headLength));
      this.headChunks.push(part);
      this.headLength += part.length;
    }
    callback(null, bytes);
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

/**
 * Sweeps now and then every `intervalMs` (files past `graceMs`, staged objects
 * likewise), reporting each outcome; never two sweeps at once. The returned
 * function stops it, waiting for a sweep in progress.
 */
export function sweepPeriodically(
  store: FileStore,
  options: { graceMs: number; intervalMs: number },
  report: { swept(result: SweepResult): void; failed(error: unknown): void },
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    // A sweep still going when the next is due: the next is skipped.
    if (running) return;
    running = store
      .releaseAbandonedHolds(options.graceMs)
      .then(async (released) => {
        const result = await store.sweep({ olderThanMs: options.graceMs });
        return { ...result, files: result.files + released };
      })
      .then(report.swept, report.failed)
      .finally(() => (running = null));
  };
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  run();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

const isForeignKeyViolation = (error: unknown) =>
  [error, (error as { cause?: unknown } | null)?.cause].some((candidate) => (candidate as { code?: unknown } | null)?.code === '23503');

/**
 * What a process that died mid-upload left, removed before this one serves: the files its
 * holds kept (stored, their rows never committed) and its staged objects, once older than the
 * grace period (other processes may be uploading now). Run before the server listens.
 */
export async function recoverAtStart(store: FileStore, graceMs: number): Promise<SweepResult> {
  const files = await store.releaseAbandonedHolds(graceMs);
  const staged = await store.driver.sweepStaged(graceMs);
  return { files, staged };
}

export class FileStore {
  /** Names this process's holds: a hold of another holder is abandoned once its process is gone. */
  readonly holder = `${process.pid}:${randomUUID()}`;

  constructor(
    readonly driver: StorageDriver,
    private readonly db: Database,
  ) {}

  /** Streams `body` into the tenant's files; see the module comment. */
  async put(tenantId: string, body: Readable, options: PutOptions = {}): Promise<StoredFile> {
    tenantPrefix(tenantId); // validates the tenant id before any byte is read
    const staged = await this.stage(body, options);
    const { inspector } = staged;
    const sha256 = inspector.hash.digest('hex');
    const key = fileKey(tenantId, sha256);
    try {
      const type = await sniffType(inspector.head, inspector.headLength === inspector.byteCount);
      // The row first, in a transaction of its own: from its commit the sweep leaves the file
      // alone for the grace period (last_stored_at), so the bytes are moved into place after it
      // without a transaction held open during the copy (on S3 a server-side copy of up to
      // 5 GiB, which on PGlite would block every other request). Moving the same content into
      // place twice is harmless: the key is its hash.
      const putId = randomUUID();
      const [row] = await this.db.withTenant({ tenantId }, async (tx) => {
        const rows = await query<{ inserted: boolean }>(
          tx,
          sql`INSERT INTO stored_files (tenant_id, sha256, size, content_type, last_put)
              VALUES (${tenantId}, ${sha256}, ${inspector.byteCount}, ${type.mime}, ${putId})
              ON CONFLICT (tenant_id, sha256) DO UPDATE SET last_stored_at = now(), content_type = EXCLUDED.content_type, last_put = EXCLUDED.last_put
              RETURNING (xmax = 0) AS inserted`,
        );
        if (options.hold) {
          await query(
            tx,
            sql`INSERT INTO stored_file_holds (tenant_id, id, sha256, holder, created_file)
                VALUES (${tenantId}, ${putId}, ${sha256}, ${this.holder}, ${rows[0]?.inserted === true})`,
          );
        }
        return rows;
      });
      // Concurrent puts of one content may each find the bytes missing and move theirs into
      // place (the same bytes under the same key); the row says which put stored it first.
      if (await this.driver.exists(key)) await this.driver.discard(staged.object);
      else await this.commitOrFindCommitted(staged.object, key);
      const created = row?.inserted === true;
      return { key, sha256, size: inspector.byteCount, type: type.mime, ext: type.ext, created, ...(options.hold ? { hold: putId } : {}) };
    } catch (error) {
      await this.driver.discard(staged.object).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Moves staged bytes into place. A store may refuse a write racing another of the same key
   * (s3rver answers 500 InternalError to the second of two CopyObjects onto one key): when the
   * other one's bytes are there, the content is stored, and this put's copy is not needed.
   */
  private async commitOrFindCommitted(object: StagedObject, key: string): Promise<void> {
    try {
      await this.driver.commit(object, key);
    } catch (error) {
      if (!(await this.driver.exists(key).catch(() => false))) throw error;
      await this.driver.discard(object).catch(() => undefined);
    }
  }

  /** Bytes through the inspector into the driver's staging area; on failure nothing is left. */
  private async stage(body: Readable, options: PutOptions): Promise<{ object: StagedObject; inspector: Inspector }> {
    const inspector = new Inspector(options.maxBytes);
    let pipeError: Error | null = null;
    const piped = new Promise<void>((resolve) =>
      pipeline(body, inspector, (error) => {
        pipeError = error ?? null;
        resolve();
      }),
    );
    let object: StagedObject;
    try {
      object = await this.driver.stage(inspector);
    } catch (error) {
      // The stream's own failure (too large, client gone) is the cause; else the driver's.
      const cause = inspector.errored ?? error;
      inspector.destroy();
      await piped;
      throw cause;
    }
    await piped;
    if (pipeError) {
      await this.driver.discard(object);
      throw pipeError;
    }
    return { object, inspector };
  }

  get(key: string, range?: ByteRange): Promise<Readable> {
    return this.driver.get(key, range);
  }

  stat(key: string): Promise<ObjectInfo | null> {
    return this.driver.stat(key);
  }

  exists(key: string): Promise<boolean> {
    return this.driver.exists(key);
  }

  /**
   * Ends holds in the transaction that writes the rows using their files (from then on those
   * rows' foreign keys keep the files).
   */
  async release(tx: Executor, holds: string[]): Promise<void> {
    if (holds.length === 0) return;
    await query(tx, sql`DELETE FROM stored_file_holds WHERE id = ANY(${uuidArray(holds)})`);
  }

  /**
   * An upload that failed after storing files: ends its holds and removes each file at once
   * when nothing uses it and no put came after this one's — otherwise it is another upload's
   * too (or was already), and stays for its users or the sweep.
   */
  async discard(tenantId: string, holds: string[]): Promise<number> {
    if (holds.length === 0) return 0;
    const released = await this.db.withTenant({ tenantId }, (tx) =>
      query<{ sha256: string }>(
        tx,
        sql`WITH released AS (DELETE FROM stored_file_holds WHERE id = ANY(${uuidArray(holds)}) RETURNING id, sha256, created_file)
            SELECT r.sha256 FROM released r JOIN stored_files f ON f.tenant_id = ${tenantId} AND f.sha256 = r.sha256
            WHERE r.created_file AND f.last_put = r.id`,
      ),
    );
    return this.removeUnused(tenantId, released.map((row) => row.sha256));
  }

  /**
   * Removes these files of the tenant now if no row uses them (e.g. after the last row using
   * one was deleted): files a live upload holds stay, by their hold's foreign key.
   */
  async removeUnused(tenantId: string, sha256: string[]): Promise<number> {
    const only = [...new Set(sha256)];
    if (only.length === 0) return 0;
    return this.sweepTenant(tenantId, 0, only);
  }

  /**
   * Releases the holds of processes that are gone, and removes what they held when nothing
   * else uses it. Other processes may be uploading now: their holds are released once older
   * than `olderThanMs` (the sweep's grace period). Returns how many files were removed.
   */
  async releaseAbandonedHolds(olderThanMs: number): Promise<number> {
    const tenants = await query<{ id: string }>(this.db.owner, sql`SELECT id FROM tenants ORDER BY id`);
    let removed = 0;
    for (const { id: tenantId } of tenants) {
      const holds = await this.db.withTenant({ tenantId }, (tx) =>
        query<{ id: string }>(
          tx,
          sql`SELECT id FROM stored_file_holds WHERE holder <> ${this.holder}
              AND created_at < now() - make_interval(secs => ${olderThanMs / 1000})`,
        ),
      );
      removed += await this.discard(tenantId, holds.map((hold) => hold.id));
    }
    return removed;
  }

  /** Removes unreferenced files past the grace period and abandoned staged objects. */
  async sweep(options: SweepOptions): Promise<SweepResult> {
    const only = options.sha256;
    if (only?.some((sha256) => !SHA256_RE.test(sha256))) throw new StorageError('Invalid SHA-256 in sweep.');
    const staged = await this.driver.sweepStaged(options.olderThanMs);
    const tenants = options.tenantId
      ? [options.tenantId]
      : (await query<{ id: string }>(this.db.owner, sql`SELECT id FROM tenants ORDER BY id`)).map((row) => row.id);
    let files = 0;
    for (const tenantId of tenants) files += await this.sweepTenant(tenantId, options.olderThanMs, only);
    return { files, staged };
  }

  /**
   * Removes a deleted tenant's files from the store: its `stored_files` rows went with it, so
   * its key prefix is what is left to find them by. Refused while the tenant exists (its files
   * may be in use). Running it again removes what is left, if anything; returns how many
   * objects it removed.
   */
  async removeDeletedTenant(tenantId: string): Promise<number> {
    const prefix = tenantPrefix(tenantId);
    const [tenant] = await query(this.db.owner, sql`SELECT 1 FROM tenants WHERE id = ${prefix}`);
    if (tenant) throw new StorageError(`Tenant ${prefix} still exists: its files are kept.`);
    return this.driver.deleteUnder(prefix);
  }

  private async sweepTenant(tenantId: string, olderThanMs: number, only: string[] | undefined): Promise<number> {
    tenantPrefix(tenantId);
    const skipped: string[] = [];
    let removed = 0;
    for (;;) {
      // One file per transaction: its row stays locked while its bytes are deleted, and a
      // failure to delete them rolls the row back, to be tried again by the next sweep.
      let candidate: string | null = null;
      try {
        candidate = await this.db.withTenant({ tenantId }, async (tx) => {
          const [row] = await query<{ sha256: string }>(
            tx,
            sql`SELECT f.sha256 FROM stored_files f
                WHERE f.tenant_id = ${tenantId}
                  AND f.last_stored_at < now() - make_interval(secs => ${olderThanMs / 1000})
                  ${only ? sql`AND f.sha256 = ANY(string_to_array(${only.join(',')}, ','))` : sql``}
                  ${skipped.length > 0 ? sql`AND NOT (f.sha256 = ANY(string_to_array(${skipped.join(',')}, ',')))` : sql``}
                  AND ${await unreferenced(tx)}
                ORDER BY f.last_stored_at
                LIMIT 1
                FOR UPDATE OF f SKIP LOCKED`,
          );
          if (!row) return null;
          candidate = row.sha256;
          await query(tx, sql`DELETE FROM stored_files WHERE tenant_id = ${tenantId} AND sha256 = ${row.sha256}`);
          await this.driver.delete(fileKey(tenantId, row.sha256));
          return row.sha256;
        });
      } catch (error) {
        // A using row committed between the look and the delete: the file stays.
        if (!isForeignKeyViolation(error) || candidate === null) throw error;
        skipped.push(candidate);
        continue;
      }
      if (candidate === null) return removed;
      removed += 1;
    }
  }
}

/** A uuid[] parameter built the same way on both drivers. */
const uuidArray = (ids: string[]): SQL => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

/**
 * "No row uses this file": a NOT EXISTS for every foreign key that points at
 * stored_files, read from the catalog, so a table that starts using files is
 * covered by declaring its foreign key — nothing to register here.
 */
async function unreferenced(executor: Executor): Promise<SQL> {
  const keys = await query<{ schema: string; table: string; columns: string[]; referenced: string[] }>(
    executor,
    sql`SELECT n.nspname::text AS schema, c.relname::text AS table,
               ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, n)
                     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
               ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, n)
                     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS referenced
        FROM pg_constraint con
        JOIN pg_class c ON c.oid = con.conrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE con.contype = 'f' AND con.confrelid = 'stored_files'::regclass
        ORDER BY 1, 2, con.conname`,
  );
  if (keys.length === 0) return sql`true`;
  return sql.join(
    keys.map(({ schema, table, columns, referenced }) => {
      const matches = columns.map((column, index) => sql`r.${sql.identifier(column)} = f.${sql.identifier(referenced[index]!)}`);
      return sql`NOT EXISTS (SELECT 1 FROM ${sql.identifier(schema)}.${sql.identifier(table)} r WHERE ${sql.join(matches, sql` AND `)})`;
    }),
    sql` AND `,
  );
}

/**
 * The local driver: objects are files under one folder (DATA_DIR/files by
 * default), a key's segments its sub-folders. Staged bytes go to `.staging/`
 * inside the same folder — the same file system — so a commit is one
 * rename(2): atomic, a reader sees the old file or the whole new one. The
 * staged file is flushed to disk before the rename, so a crash never leaves a
 * short file under a final name.
 */
import { constants, createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  BaseDriver,
  FileNotFoundError,
  RangeNotSatisfiableError,
  StorageError,
  type ByteRange,
  type ObjectInfo,
  type StagedEntry,
  type StagedObject,
} from './storage.ts';

const STAGING = '.staging';

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

async function unlinkIfThere(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

export class LocalDriver extends BaseDriver {
  readonly kind = 'local' as const;
  private readonly staging: string;

  constructor(private readonly root: string) {
    super();
    this.staging = path.join(root, STAGING);
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private stagedPath(staged: StagedObject): string {
    return path.join(this.staging, this.stagedId(staged));
  }

  async stage(body: Readable): Promise<StagedObject> {
    await mkdir(this.staging, { recursive: true });
    const staged = this.newStaged();
    const file = this.stagedPath(staged);
    try {
      // flush: the bytes reach the disk (fsync) before the file is closed, so before any rename.
      await pipeline(body, createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true }));
    } catch (error) {
      await unlinkIfThere(file);
      throw error;
    }
    return staged;
  }

  async commit(staged: StagedObject, key: string): Promise<void> {
    const from = this.stagedPath(staged);
    try {
      const to = this.pathOf(key);
      await mkdir(path.dirname(to), { recursive: true });
      await rename(from, to);
    } catch (error) {
      await unlinkIfThere(from);
      throw error;
    }
  }

  async discard(staged: StagedObject): Promise<void> {
    await unlinkIfThere(this.stagedPath(staged));
  }

  protected async read(key: string, range: ByteRange | undefined): Promise<Readable> {
    let handle: FileHandle;
    try {
      // Opened before it is measured: a delete in between cannot turn into a failed read.
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new FileNotFoundError(key);
      throw error;
    }
    try {
      const { size } = await handle.stat();
      if (!range) return handle.createReadStream();
      if (range.start >= size) throw new RangeNotSatisfiableError(key, size);
      return handle.createReadStream({ start: range.start, end: Math.min(range.end ?? size - 1, size - 1) });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  protected async info(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  protected async remove(key: string): Promise<void> {
    await unlinkIfThere(this.pathOf(key));
  }

  protected async removeUnder(prefix: string): Promise<number> {
    const folder = this.pathOf(prefix);
    let entries;
    try {
      entries = await readdir(folder, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    await rm(folder, { recursive: true, force: true });
    return entries.filter((entry) => entry.isFile()).length;
  }

  protected async listStaged(): Promise<StagedEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.staging);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const entries: StagedEntry[] = [];
    for (const id of names.filter((name) => this.isStagedId(name))) {
      try {
        entries.push({ id, modifiedAt: (await stat(path.join(this.staging, id))).mtime });
      } catch (error) {
        // Committed or discarded since it was listed.
        if (!isMissing(error)) throw error;
      }
    }
    return entries;
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.staging, { recursive: true });
      await access(this.root, constants.W_OK);
    } catch (error) {
      throw new StorageError(`The file storage folder ${this.root} is not writable: ${(error as Error).message}`);
    }
  }

  close(): void {
    /* nothing held open */
  }
}

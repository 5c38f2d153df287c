import { Unzip, UnzipInflate, zipSync, type UnzipFile, type Zippable } from 'fflate';
import { type ExtractionContext, throwIfAborted, yieldToEventLoop } from './context.ts';
import { TextExtractionError } from './types.ts';

/**
 * Compressed bytes pushed into the decompressor at a time. Deflate expands at most about
 * 1032:1, so one push yields at most ~16 MB, and the expanded-size limit is checked after
 * every push: a zip bomb stops within a few megabytes instead of after allocating gigabytes.
 */
const INPUT_CHUNK_BYTES = 16 * 1024;

/**
 * Parts an Office file may have (a large workbook has a few hundred). The decompressor's
 * bookkeeping grows with each entry it meets, faster than linearly: 300,000 empty entries in
 * a 25 MB file took 84 s and 400 MB. So entries past a cap are never parsed: an Office file
 * with more is refused, a plain zip is read up to `maxZipEntries` and the rest left unread.
 */
export const MAX_OFFICE_PARTS = 10_000;

interface CentralDirectory {
  entries: number;
  declaredBytes: number;
  encrypted: Set<string>;
  names: string[];
}

const u16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) + u16(bytes, at + 2) * 0x10000) >>> 0;

/**
 * The archive's central directory (at its end): entry count, declared sizes and encrypted
 * entries, known before decompressing anything. Null when it cannot be found (a truncated or
 * Zip64 archive): the streaming pass still enforces every limit.
 */
function readCentralDirectory(bytes: Uint8Array): CentralDirectory | null {
  const earliest = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let at = bytes.length - 22; at >= earliest; at -= 1) {
    if (u32(bytes, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const entries = u16(bytes, end + 10);
  const offset = u32(bytes, end + 16);
  if (entries === 0xffff || offset === 0xffffffff) return null;
  const encrypted = new Set<string>();
  const names: string[] = [];
  let declaredBytes = 0;
  let at = offset;
  for (let index = 0; index < entries; index += 1) {
    if (at + 46 > bytes.length || u32(bytes, at) !== 0x02014b50) return null;
    const flags = u16(bytes, at + 8);
    declaredBytes += u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (flags & 1) encrypted.add(name);
    names.push(name);
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return { entries, declaredBytes, encrypted, names };
}

function tooLarge(limit: number): TextExtractionError {
  return new TextExtractionError(
    'too_large',
    `The archive expands to more than ${Math.round(limit / (1024 * 1024))} MB; it is not read (it may be a zip bomb)`,
  );
}

interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/**
 * Decompresses `bytes` entry by entry, counting every expanded byte against the
 * extraction's budget as it is produced, and hands each whole entry to `onEntry` (which
 * may be async; decompression waits for it, so at most one entry is held at a time).
 * `everyEntry` lifts the entry-count limit (an Office file's parts are all needed).
 */
async function streamZip(
  bytes: Uint8Array,
  ctx: ExtractionContext,
  what: string,
  onEntry: (entry: ZipEntry) => Promise<void>,
  everyEntry = false,
): Promise<{ entries: number; skipped: string[]; stopped: boolean }> {
  const limit = ctx.limits.maxExpandedBytes;
  const directory = readCentralDirectory(bytes);
  const cap = everyEntry ? MAX_OFFICE_PARTS : ctx.limits.maxZipEntries;
  const tooManyParts = () => new TextExtractionError('too_large', `The ${what} has more than ${MAX_OFFICE_PARTS} parts; it is not read`);
  if (everyEntry && directory && directory.entries > cap) throw tooManyParts();
  if (directory && ctx.budget.expandedBytes + directory.declaredBytes > limit) throw tooLarge(limit);
  if (directory && directory.entries > 0 && directory.encrypted.size === directory.entries) {
    throw new TextExtractionError('encrypted', `The ${what} is encrypted with a password`);
  }

  const ready: ZipEntry[] = [];
  const skipped: string[] = [];
  let entries = 0;
  let stopped = false;
  let entryError: Error | null = null;
  const unzip = new Unzip((file: UnzipFile) => {
    if (stopped) return;
    entries += 1;
    if (entries > cap) {
      if (everyEntry) throw tooManyParts();
      stopped = true;
      return;
    }
    if (file.name.endsWith('/')) return;
    if (directory?.encrypted.has(file.name)) {
      skipped.push(`${file.name} (encrypted)`);
      return;
    }
    if (file.originalSize !== undefined && ctx.budget.expandedBytes + file.originalSize > limit) throw tooLarge(limit);
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (error) {
        entryError = error;
        return;
      }
      ctx.budget.expandedBytes += chunk.length;
      if (ctx.budget.expandedBytes > limit) {
        file.terminate();
        throw tooLarge(limit);
      }
      chunks.push(chunk);
      if (final) ready.push({ name: file.name, bytes: chunks.length === 1 ? chunks[0]! : concat(chunks) });
    };
    file.start();
  });
  unzip.register(UnzipInflate);

  try {
    for (let offset = 0; offset < bytes.length && !stopped; offset += INPUT_CHUNK_BYTES) {
      throwIfAborted(ctx.signal);
      const end = Math.min(bytes.length, offset + INPUT_CHUNK_BYTES);
      unzip.push(bytes.subarray(offset, end), end === bytes.length);
      if (entryError) throw entryError;
      ctx.progress(end / bytes.length);
      while (ready.length > 0) await onEntry(ready.shift()!);
      if (offset % (64 * INPUT_CHUNK_BYTES) === 0) await yieldToEventLoop();
    }
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw new TextExtractionError('corrupt', `Not a readable ${what}: ${(error as Error).message}`, { cause: error });
  }
  // Entries past the cap are not parsed (nor counted): the central directory says how many there were.
  return { entries: stopped ? Math.max(directory?.entries ?? 0, entries) : entries, skipped, stopped };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

/** A zip archive: every entry read as a file of its own, labelled "zip entry <path>". */
export async function extractZip(bytes: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const { entries, skipped, stopped } = await streamZip(bytes, ctx, 'zip archive', async (entry) => {
    if (ctx.out.full) {
      ctx.out.overflowed = true;
      return;
    }
    const baseName = entry.name.split('/').pop() || entry.name;
    await ctx.extractNested({ bytes: entry.bytes, fileName: baseName }, `zip entry ${entry.name}`);
  });
  if (stopped) {
    ctx.out.partial = true;
    const total = entries > ctx.limits.maxZipEntries ? `${entries}` : `more than ${ctx.limits.maxZipEntries}`;
    ctx.out.warn(`Only the first ${ctx.limits.maxZipEntries} of the archive's ${total} entries were read`);
  }
  const encrypted = skipped.filter((name) => name.endsWith(' (encrypted)'));
  if (encrypted.length > 0) ctx.out.warn(`Encrypted entries were not read: ${encrypted.slice(0, 10).join(', ')}`);
}

/**
 * The entry names a zip's central directory lists (nothing is decompressed), or null when it
 * cannot be read: tells an Office file or an e-book whose signature the sniffer's head missed.
 */
export function zipEntryNames(bytes: Uint8Array): string[] | null {
  return readCentralDirectory(bytes)?.names ?? null;
}

/**
 * Every part of a zip-based document (PPTX, OpenDocument, EPUB) expanded within the budget,
 * by name: the same guarded pass as `officeZip`, for formats read here part by part.
 */
export async function archiveParts(bytes: Uint8Array, ctx: ExtractionContext, what: string): Promise<Map<string, Uint8Array>> {
  const parts = new Map<string, Uint8Array>();
  await streamZip(bytes, ctx, what, async (entry) => {
    parts.set(entry.name, entry.bytes);
  }, true);
  return parts;
}

/** `parts` as a zip again, stored uncompressed: for a parser that takes an archive, given only what the guarded pass expanded. */
export function storedZip(parts: Map<string, Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  for (const [name, bytes] of parts) zippable[name] = [bytes, { level: 0 }];
  return zipSync(zippable);
}

/**
 * Office files (DOCX, XLSX) are zips that their parsers expand whole in memory. They are
 * expanded here first, within the budget, and the parser is given the entries this pass
 * expanded, stored again uncompressed — never the original archive: a parser that follows
 * the central directory (mammoth's JSZip) could otherwise be pointed at a deflate bomb the
 * streaming pass, reading local headers front to back, never counted.
 */
export async function officeZip(bytes: Uint8Array, ctx: ExtractionContext, what: string): Promise<Uint8Array> {
  const parts: Zippable = {};
  await streamZip(bytes, ctx, what, async (entry) => {
    parts[entry.name] = [entry.bytes, { level: 0 }];
  }, true);
  return zipSync(parts);
}

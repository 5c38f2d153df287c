import { SNIFF_BYTES, sniffType } from '../../storage/sniff.ts';
import { TextBuilder } from './builder.ts';
import { type ExtractionContext, type NestedInput, throwIfAborted } from './context.ts';
import { extractEmail } from './email.ts';
import { extractHtml } from './html.ts';
import { extractImage } from './image.ts';
import { extractDocx, extractXlsx } from './office.ts';
import { extractPdf } from './pdf.ts';
import { type DecodedText, decodeText, extractDelimited, extractJson, extractPlainText, extractXml } from './plain.ts';
import { DEFAULT_TEXT_LIMITS, type ExtractedText, TextExtractionError, type TextLimits } from './types.ts';
import { extractZip } from './zip.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TEXT_HINTS = new Set(['text/plain', 'text/markdown', 'text/csv', 'text/tab-separated-values', 'application/json', 'text/html']);

/** Bytes that never occur in text, NUL aside (the sniffer's list): with none of them, stray NULs do not make a file binary. */
function isTextWithNuls(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0) continue;
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return false;
  }
  return true;
}

/** An OLE compound file holding an "EncryptedPackage" stream: a password-protected DOCX/XLSX/PPTX. */
function isEncryptedOffice(bytes: Uint8Array): boolean {
  const marker = Buffer.from('EncryptedPackage', 'utf16le');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(marker);
}

const isTiffSignature = (bytes: Uint8Array) =>
  (bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 0x2a && bytes[3] === 0) || (bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0 && bytes[3] === 0x2a);

interface Detected {
  mime: string;
  /** The decoded text, for text types. */
  decoded?: DecodedText;
}

/**
 * The file's type from its bytes (storage/sniff.ts, file-type for binary formats). Text is
 * decoded first when it starts with a UTF-16 byte-order mark (whose NUL bytes would look
 * binary); a text type from the bytes may be refined by the caller's hint (the sniffer only
 * reads the file's head, the hint may come from reading all of it).
 */
async function detect(bytes: Uint8Array, hint: string | undefined): Promise<Detected> {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) {
    const decoded = decodeText(bytes);
    const head = new TextEncoder().encode(decoded.text.slice(0, SNIFF_BYTES));
    return { mime: (await sniffType(head, decoded.text.length <= SNIFF_BYTES)).mime, decoded };
  }
  let { mime } = await sniffType(bytes.subarray(0, SNIFF_BYTES), bytes.length <= SNIFF_BYTES);
  if (mime === 'application/octet-stream' && bytes.length > 0 && isTextWithNuls(bytes)) {
    const withoutNuls = bytes.filter((byte) => byte !== 0);
    mime = (await sniffType(withoutNuls.subarray(0, SNIFF_BYTES), withoutNuls.length <= SNIFF_BYTES)).mime;
    return { mime, decoded: decodeText(withoutNuls) };
  }
  // file-type finds a TIFF's type in its first directory, which may sit after the pixels, beyond the head read.
  if (mime === 'application/octet-stream' && isTiffSignature(bytes)) mime = 'image/tiff';
  if (mime === 'text/plain' && hint && TEXT_HINTS.has(hint)) mime = hint;
  return { mime };
}

/** Reads one file (the extraction's own, or one inside it) into `ctx.out`; returns the method. */
async function extractInto(input: NestedInput, ctx: ExtractionContext): Promise<string> {
  throwIfAborted(ctx.signal);
  const { bytes } = input;
  if (bytes.length === 0) throw new TextExtractionError('unsupported', 'The file is empty');
  const { mime, decoded: preDecoded } = await detect(bytes, input.mime);
  const text = () => preDecoded ?? decodeText(bytes);
  switch (mime) {
    case 'application/pdf':
      return extractPdf(bytes, ctx);
    case DOCX:
      await extractDocx(bytes, ctx);
      return 'docx';
    case XLSX:
      await extractXlsx(bytes, ctx);
      return 'xlsx';
    case 'text/csv': {
      const decoded = text();
      const firstLine = decoded.text.slice(0, decoded.text.indexOf('\n') >>> 0);
      const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
      await extractDelimited(decoded, delimiter, ctx);
      return 'csv';
    }
    case 'text/tab-separated-values':
      await extractDelimited(text(), '\t', ctx);
      return 'csv';
    case 'text/html':
    case 'application/xhtml+xml': {
      const decoded = text();
      if (decoded.warning) ctx.out.warn(decoded.warning);
      return extractHtml(decoded.text, ctx);
    }
    case 'message/rfc822':
      await extractEmail(bytes, ctx);
      return 'email';
    case 'application/json':
      await extractJson(text(), ctx);
      return 'json';
    case 'text/plain':
      extractPlainText(text(), ctx);
      return 'text';
    case 'text/markdown':
      extractPlainText(text(), ctx);
      return 'markdown';
    case 'application/xml':
    case 'image/svg+xml':
      extractXml(text(), ctx);
      return 'xml';
    case 'application/zip':
      await extractZip(bytes, ctx);
      return 'zip';
    case 'application/x-cfb':
      if (isEncryptedOffice(bytes)) throw new TextExtractionError('encrypted', 'The Office document is encrypted with a password');
      throw new TextExtractionError('unsupported', 'Old Office files (.doc, .xls, .ppt) cannot be read; save them as DOCX or XLSX');
    default:
      if (mime.startsWith('image/')) {
        await extractImage(bytes, mime, ctx);
        return 'image-ocr';
      }
      throw new TextExtractionError('unsupported', `Text cannot be read from this type of file (${mime}, told from its contents)`);
  }
}

function resolveLimits(overrides: Partial<TextLimits> | undefined): TextLimits {
  const limits = { ...DEFAULT_TEXT_LIMITS, ...overrides };
  for (const key of ['maxChars', 'maxPages', 'maxZipEntries', 'maxExpandedBytes', 'maxDepth'] as const) {
    const value = limits[key];
    if (!Number.isInteger(value) || value < (key === 'maxDepth' ? 0 : 1)) throw new RangeError(`limits.${key} must be a positive integer, not ${value}`);
  }
  return limits;
}

/**
 * The text of a file, whatever its type (told from the bytes; `mime` is a hint), with where
 * each part came from. Throws TextExtractionError when the file cannot be read.
 */
export async function extractText(
  input: { bytes: Uint8Array; mime: string; fileName?: string },
  options: {
    signal?: AbortSignal;
    /**
     * When it fires, reading stops and what was read so far is the result (truncated, with a
     * warning) — a soft time limit, where `signal` throws the whole extraction away.
     */
    deadline?: AbortSignal;
    limits?: Partial<TextLimits>;
    onProgress?: (percent: number) => void;
  } = {},
): Promise<ExtractedText> {
  const limits = resolveLimits(options.limits);
  const signals = [options.signal, options.deadline].filter((signal): signal is AbortSignal => signal !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const out = new TextBuilder(limits.maxChars);
  const budget = { expandedBytes: 0 };
  let pages: number | undefined;
  let lastPercent = -1;

  const contextAt = (depth: number): ExtractionContext => ({
    limits,
    signal,
    depth,
    out,
    budget,
    progress(fraction) {
      if (depth !== 0 || !options.onProgress) return;
      const percent = Math.max(0, Math.min(99, Math.floor(fraction * 100)));
      if (percent > lastPercent) options.onProgress((lastPercent = percent));
    },
    setPages(count) {
      if (depth === 0) pages = count;
    },
    async extractNested(nested, label) {
      if (depth + 1 > limits.maxDepth) {
        out.warn(`${label} was not read: it is nested more than ${limits.maxDepth} levels deep`);
        return;
      }
      try {
        await out.group(label, () => extractInto(nested, contextAt(depth + 1)));
      } catch (error) {
        // One unreadable attachment or entry is reported, not fatal; running out of time or room is.
        if (!(error instanceof TextExtractionError) || error.code === 'aborted' || error.code === 'too_large') throw error;
        out.warn(`${label} could not be read: ${error.message}`);
      }
    },
  });

  let method: string;
  try {
    method = await extractInto({ bytes: input.bytes, mime: input.mime, fileName: input.fileName }, contextAt(0));
  } catch (error) {
    const pastDeadline = error instanceof TextExtractionError && error.code === 'aborted' && options.deadline?.aborted && !options.signal?.aborted;
    if (!pastDeadline) throw error;
    out.partial = true;
    out.warn('Reading stopped at the time limit: the text read until then is kept');
    method = 'partial: stopped at the time limit';
  }
  throwIfAborted(options.signal);
  const { text, segments, truncated: cut } = out.finish();
  if (cut) out.warn(`The text was cut at ${limits.maxChars.toLocaleString('en')} characters`);
  options.onProgress?.(100);
  return { text, segments, ...(pages === undefined ? {} : { pages }), truncated: cut || out.partial, warnings: out.warnings, method };
}

import { isTiffSignature, isXhtml, SNIFF_BYTES, sniffType } from '../../storage/sniff.ts';
import { TextBuilder } from './builder.ts';
import { type ExtractionContext, type NestedInput, throwIfAborted } from './context.ts';
import { extractImage } from './image.ts';
import { extractPdf } from './pdf.ts';
import { extractDelimited, extractJson, extractJsonLines, extractPlainText, extractXml, isJsonLines } from './plain.ts';
import { type DecodedText, decodeText, wideEncoding } from '../../storage/text-encoding.ts';
import { DEFAULT_TEXT_LIMITS, type ExtractedText, TextExtractionError, type TextLimits } from './types.ts';
import { extractZip, zipEntryNames } from './zip.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const ODT = 'application/vnd.oasis.opendocument.text';
const ODS = 'application/vnd.oasis.opendocument.spreadsheet';
const ODP = 'application/vnd.oasis.opendocument.presentation';
const EPUB = 'application/epub+zip';
/** The types file-type gives the OpenDocument family and its templates, by what they are. */
const OPENDOCUMENT: Record<string, string> = {
  [ODT]: ODT, 'application/vnd.oasis.opendocument.text-template': ODT,
  [ODS]: ODS, 'application/vnd.oasis.opendocument.spreadsheet-template': ODS,
  [ODP]: ODP, 'application/vnd.oasis.opendocument.presentation-template': ODP,
};
/** Word's macro-enabled and template variants are read like DOCX (and so for the others). */
const OOXML_VARIANTS: Record<string, string> = {
  'application/vnd.ms-word.document.macroenabled.12': DOCX,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template': DOCX,
  'application/vnd.ms-word.template.macroenabledtemplate': DOCX,
  'application/vnd.ms-excel.sheet.macroenabled.12': XLSX,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template': XLSX,
  'application/vnd.ms-powerpoint.presentation.macroenabled.12': PPTX,
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow': PPTX,
  'application/vnd.ms-powerpoint.slideshow.macroenabled.12': PPTX,
};
const TEXT_HINTS = new Set(['text/plain', 'text/markdown', 'text/csv', 'text/tab-separated-values', 'application/json', 'text/html']);

const isControlByte = (byte: number) => byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f);

/**
 * Text with stray bytes that never occur in text (the sniffer's list): NULs, and a few other
 * control bytes — at most one in a thousand (a text exported with a stray STX). A binary file
 * has far more of them.
 */
function isTextWithStrays(bytes: Uint8Array): boolean {
  const allowed = Math.max(4, Math.floor(bytes.length / 1000));
  let strays = 0;
  for (const byte of bytes) {
    if (byte !== 0 && isControlByte(byte) && ++strays > allowed) return false;
  }
  return true;
}


interface Detected {
  mime: string;
  /** The decoded text, for text types. */
  decoded?: DecodedText;
  /** The bytes to read, when not all of the file's (an mbox line before an e-mail). */
  bytes?: Uint8Array;
}

/**
 * What a zip holds, from its central directory's names (no decompressing): an Office file or an
 * e-book whose signature the sniffer missed (file-type looks for it in the first 64 KiB,
 * and a large DOCX may list its parts after its pictures).
 */
function zipKind(bytes: Uint8Array): string {
  const names = new Set(zipEntryNames(bytes) ?? []);
  if (names.has('word/document.xml')) return DOCX;
  if (names.has('xl/workbook.xml')) return XLSX;
  if (names.has('ppt/presentation.xml')) return PPTX;
  if (names.has('mimetype') && names.has('content.xml')) {
    // The first entry, stored: "mimetype" (a local header of 30 bytes and the 8-byte name) and the type.
    const mimetype = new TextDecoder().decode(bytes.subarray(38, 38 + 80));
    for (const type of Object.keys(OPENDOCUMENT)) if (mimetype.startsWith(type)) return OPENDOCUMENT[type]!;
  }
  if (names.has('META-INF/container.xml') && [...names].some((name) => name.endsWith('.opf'))) return EPUB;
  return 'application/zip';
}

/** An mbox-style "From sender date" line before an e-mail's headers (a message saved from a mailbox). */
const MBOX_FROM_LINE = /^From \S+ [^\n]{0,200}\r?\n(?=[A-Za-z-]+: )/;

/**
 * The file's type from its bytes (storage/sniff.ts, file-type for binary formats). Text in
 * UTF-16 or UTF-32 (by byte-order mark or by its zero bytes' pattern) is decoded first, its NUL
 * bytes would look binary; a text type from the bytes may be refined by the caller's hint (the
 * sniffer only reads the file's head, the hint may come from reading all of it).
 */
async function detect(bytes: Uint8Array, hint: string | undefined, fileName?: string): Promise<Detected> {
  if (wideEncoding(bytes)) {
    const decoded = decodeText(bytes);
    const head = new TextEncoder().encode(decoded.text.slice(0, SNIFF_BYTES));
    let { mime } = await sniffType(head, decoded.text.length <= SNIFF_BYTES);
    if (mime === 'text/plain' && hint && TEXT_HINTS.has(hint)) mime = hint;
    return { mime, decoded };
  }
  let { mime } = await sniffType(bytes.subarray(0, SNIFF_BYTES), bytes.length <= SNIFF_BYTES);
  if (mime === 'application/octet-stream' && bytes.length > 0 && isTextWithStrays(bytes)) {
    const withoutNuls = bytes.filter((byte) => byte !== 0 && !isControlByte(byte));
    mime = (await sniffType(withoutNuls.subarray(0, SNIFF_BYTES), withoutNuls.length <= SNIFF_BYTES)).mime;
    return { mime, decoded: decodeText(withoutNuls) };
  }
  // file-type finds a TIFF's type in its first directory, which may sit after the pixels, beyond the head read.
  if (mime === 'application/octet-stream' && isTiffSignature(bytes)) mime = 'image/tiff';
  if (mime === 'application/zip') mime = zipKind(bytes);
  if (mime === 'application/xml' && isXhtml(new TextDecoder().decode(bytes.subarray(0, 4096)))) mime = 'text/html';
  if (mime === 'text/plain') {
    const head = new TextDecoder().decode(bytes.subarray(0, 1024));
    const from = MBOX_FROM_LINE.exec(head);
    if (from) {
      const rest = bytes.subarray(Buffer.byteLength(from[0]));
      if ((await sniffType(rest.subarray(0, SNIFF_BYTES), rest.length <= SNIFF_BYTES)).mime === 'message/rfc822') {
        return { mime: 'message/rfc822', bytes: rest };
      }
    }
  }
  if (mime === 'text/plain' && hint && TEXT_HINTS.has(hint)) mime = hint;
  // A fragment of HTML that starts with a tag the sniffer does not list (<h3>, <span>): its name
  // may say what it is — for reading only, never for serving (storage/sniff.ts decides that).
  if (mime === 'text/plain' && /\.x?html?$/i.test(fileName ?? '') && /^\s*<[a-z!]/i.test(new TextDecoder().decode(bytes.subarray(0, 256)))) mime = 'text/html';
  return { mime: OOXML_VARIANTS[mime] ?? OPENDOCUMENT[mime] ?? mime };
}

/** Reads one file (the extraction's own, or one inside it) into `ctx.out`; returns the method. */
/**
 * Readers loaded by the first file that needs them, not with this module: a worker holds only
 * what its files used (the OLE reader with SheetJS ~70 MiB, linkedom ~30, mammoth ~20), and a
 * worker is recycled after the files that grew it (docs/processes.md).
 */
const readers = {
  email: () => import('./email.ts'),
  html: () => import('./html.ts'),
  epub: () => import('./epub.ts'),
  office: () => import('./office.ts'),
  ole: () => import('./ole.ts'),
  opendocument: () => import('./opendocument.ts'),
  pptx: () => import('./pptx.ts'),
  rtf: () => import('./rtf.ts'),
};

async function extractInto(input: NestedInput, ctx: ExtractionContext): Promise<string> {
  throwIfAborted(ctx.signal);
  if (input.bytes.length === 0) throw new TextExtractionError('unsupported', 'The file is empty');
  const { mime, decoded: preDecoded, bytes: inner } = await detect(input.bytes, input.mime, input.fileName);
  const bytes = inner ?? input.bytes;
  const text = () => preDecoded ?? decodeText(bytes);
  // JSON lines look like a table (the same commas on every line) or like JSON that does not parse.
  if (mime === 'text/plain' || mime === 'text/csv' || mime === 'application/json' || mime === 'text/tab-separated-values') {
    const decoded = text();
    if (isJsonLines(decoded.text)) {
      await extractJsonLines(decoded, ctx);
      return 'json-lines';
    }
  }
  switch (mime) {
    case 'application/pdf':
      return extractPdf(bytes, ctx);
    case DOCX:
      await (await readers.office()).extractDocx(bytes, ctx);
      return 'docx';
    case XLSX:
      await (await readers.office()).extractXlsx(bytes, ctx);
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
      return (await readers.html()).extractHtml(decoded.text, ctx);
    }
    case 'message/rfc822':
      // Text that had to be decoded first (UTF-16, an mbox line) goes to the parser as UTF-8.
      await (await readers.email()).extractEmail(preDecoded ? new TextEncoder().encode(preDecoded.text) : bytes, ctx);
      return 'email';
    case PPTX:
      await (await readers.pptx()).extractPptx(bytes, ctx);
      return 'pptx';
    case ODT:
      await (await readers.opendocument()).extractOdt(bytes, ctx);
      return 'odt';
    case ODS:
      await (await readers.opendocument()).extractOds(bytes, ctx);
      return 'ods';
    case ODP:
      await (await readers.opendocument()).extractOdp(bytes, ctx);
      return 'odp';
    case EPUB:
      await (await readers.epub()).extractEpub(bytes, ctx);
      return 'epub';
    case 'application/rtf':
    case 'text/rtf':
      await (await readers.rtf()).extractRtf(bytes, ctx);
      return 'rtf';
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
    case 'application/msword':
    case 'application/vnd.ms-excel':
    case 'application/vnd.ms-powerpoint':
    case 'application/vnd.ms-outlook':
      return (await readers.ole()).extractCompoundFile(bytes, ctx);
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
  // An item with no text is never silently done: the analyst is told, whatever the reader said already.
  if (text.trim() === '' && !out.warnings.some((warning) => warning.startsWith('No text was found'))) out.warn('No text was found in the file');
  options.onProgress?.(100);
  return { text, segments, ...(pages === undefined ? {} : { pages }), truncated: cut || out.partial, warnings: out.warnings, ...(out.ocr.length > 0 ? { ocr: out.ocr } : {}), method };
}

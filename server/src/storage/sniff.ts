/**
 * A file's type, told from its first bytes — never from the name or the
 * Content-Type a client sent. Binary formats (PDF, images, Office documents,
 * archives, audio, video, …) are recognized by their signatures with
 * `file-type`. It says nothing about text, so text gets a small classifier of
 * its own, in this order (first match wins):
 *
 *   - binary: a byte that never occurs in text (the WHATWG MIME-sniffing
 *     "binary data bytes": 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F) → application/octet-stream
 *   - SVG: an `<svg` root, with or without an XML declaration → image/svg+xml
 *   - HTML: starts with one of the tags the WHATWG algorithm lists (`<!DOCTYPE html`,
 *     `<html`, `<head`, `<body`, `<script`, `<div`, `<p`, `<!--`, …) → text/html
 *   - e-mail (.eml): a header block of `Name: value` lines with at least two of
 *     From, To, Subject, Date, Message-ID, Received, Return-Path, MIME-Version → message/rfc822
 *   - JSON: starts with `{` or `[` and parses (or, when only the head was read,
 *     continues the way JSON does) → application/json
 *   - CSV/TSV: two or more records with the same number (≥ 1) of commas,
 *     semicolons or tabs outside quotes → text/csv or text/tab-separated-values
 *   - Markdown: an ATX heading (`# Title`), a fenced code block, or a link
 *     `[text](target)` → text/markdown
 *   - anything else → text/plain
 *
 * Text in UTF-16 or UTF-32 (a byte-order mark, or the zero bytes' pattern) is decoded first and
 * classified like any text: its zero bytes look binary, and file-type calls a UTF-16 byte-order
 * mark (FF FE, FE FF) an MP3 frame. XML whose root is <html> (XHTML, inline XBRL filings) is
 * application/xhtml+xml: a page, active content.
 *
 * Heuristics on text can be wrong both ways; what matters for safety is that
 * the answer never depends on the client, and that anything that might be
 * active content (HTML, SVG) is called so.
 */
import { fileTypeFromBuffer } from 'file-type';
import { decodeText as decodeAnyText, wideEncoding } from './text-encoding.ts';

export interface SniffedType {
  mime: string;
  /** The usual extension, without a dot. */
  ext: string;
}

/** Bytes read to decide: enough for file-type's deepest checks (Office files look inside the zip). */
export const SNIFF_BYTES = 64 * 1024;

export const OCTET_STREAM: SniffedType = { mime: 'application/octet-stream', ext: 'bin' };

/**
 * The type of a file whose first bytes are `head`. `complete` says whether
 * `head` is the whole file (JSON is then parsed, not just recognized).
 */
export async function sniffType(head: Uint8Array, complete: boolean): Promise<SniffedType> {
  if (head.length === 0) return OCTET_STREAM;
  const detected = await fileTypeFromBuffer(head);
  if ((!detected || detected.mime === 'audio/mpeg') && wideEncoding(head)) {
    // UTF-16/32 text (file-type takes a UTF-16 byte-order mark for an MP3 frame); a real MP3
    // decoded so is full of control characters, and stays what file-type said.
    const text = decodeAnyText(head).text.replace(/^\uFEFF/, '');
    if (!hasBinaryChars(text)) return classifyText(text, complete);
  }
  if (detected) {
    if (detected.mime === 'application/xml' && isSvg(decodeText(head))) return { mime: 'image/svg+xml', ext: 'svg' };
    if (detected.mime === 'application/xml' && isXhtml(decodeText(head.subarray(0, 4096)))) return { mime: 'application/xhtml+xml', ext: 'xhtml' };
    if (detected.mime === 'application/x-cfb') return compoundFileType(head) ?? { mime: detected.mime, ext: detected.ext };
    return { mime: detected.mime, ext: detected.ext };
  }
  // A TIFF whose first directory lies past the head: file-type looks for it and gives up.
  if (isTiffSignature(head)) return { mime: 'image/tiff', ext: 'tif' };
  if (hasBinaryBytes(head)) return OCTET_STREAM;
  return classifyText(decodeText(head), complete);
}

/** The streams that tell an OLE compound file's program, as its directory names them (UTF-16LE), most telling first. */
const COMPOUND_STREAMS: Array<[string, SniffedType]> = [
  ['EncryptedPackage', { mime: 'application/x-cfb', ext: 'cfb' }],
  ['__substg1.0_', { mime: 'application/vnd.ms-outlook', ext: 'msg' }],
  ['WordDocument', { mime: 'application/msword', ext: 'doc' }],
  ['PowerPoint Document', { mime: 'application/vnd.ms-powerpoint', ext: 'ppt' }],
  ['Workbook', { mime: 'application/vnd.ms-excel', ext: 'xls' }],
];

/**
 * Word, Excel, PowerPoint 97–2003 or an Outlook message, from the stream names of an OLE
 * compound file's directory when the head holds it (small files, and most written by Office:
 * the directory comes early); else null, and the file stays application/x-cfb (the reader
 * looks at the whole file).
 */
function compoundFileType(head: Uint8Array): SniffedType | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  for (const [stream, type] of COMPOUND_STREAMS) {
    if (bytes.includes(Buffer.from(stream, 'utf16le'))) return type.mime === 'application/x-cfb' ? null : type;
  }
  return null;
}

export const isTiffSignature = (bytes: Uint8Array) =>
  (bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 0x2a && bytes[3] === 0) || (bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0 && bytes[3] === 0x2a);

/** Whether decoded text holds a character that never occurs in text (the bytes' list, as code points; U+FFFD aside). */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const hasBinaryChars = (text: string) => /[\u0000-\u0008\u000B\u000E-\u001A\u001C-\u001F]/.test(text);

/** Whether XML text's root element is <html> (XHTML, inline XBRL filings): a page, not data. */
export function isXhtml(text: string): boolean {
  let at = 0;
  for (let steps = 0; steps < 100; steps += 1) {
    at = text.indexOf('<', at);
    if (at < 0) return false;
    if (text.startsWith('<?', at)) at = text.indexOf('?>', at) + 2;
    else if (text.startsWith('<!--', at)) at = text.indexOf('-->', at) + 3;
    else if (text.startsWith('<!', at)) at = text.indexOf('>', at) + 1;
    else return /^<(?:[\w-]+:)?html[\s>]/i.test(text.slice(at, at + 20));
    if (at <= 1) return false;
  }
  return false;
}

function hasBinaryBytes(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}

/** UTF-8 without failing: text in another 8-bit encoding still reads well enough to classify. */
const decodeText = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');

const HTML_START_RE =
  /^<(?:!doctype\s+html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)(?:[\s>]|$)/i;
// A comment's body may not contain "-->" (not a lazy [\s\S]*?): with lazy bodies a run of
// comments can be split in exponentially many ways before failing, a few hundred bytes of
// "<!-- a -->" froze the process.
const SVG_RE = /^(?:<\?xml[^>]*>\s*)?(?:<!--(?:(?!-->)[\s\S])*-->\s*)*(?:<!doctype\s+svg[^>]*>\s*)?<svg[\s>]/i;
const HEADER_LINE_RE = /^([A-Za-z][A-Za-z0-9-]*):/;
const CONTINUATION_RE = /^[ \t]/;
const MAIL_HEADERS = new Set(['from', 'to', 'subject', 'date', 'message-id', 'received', 'return-path', 'mime-version']);
const JSON_START_RE = /^[[{]\s*(?:["{[\]}]|-?\d|true\b|false\b|null\b|$)/;
// Bounded link text and target: unbounded, a line of "[" is tried from every position (quadratic).
const MARKDOWN_RE = /^(?:#{1,6}[ \t]+\S|```|~~~)|\[[^\]\n]{1,300}\]\([^)\s]{1,2000}\)/m;

const isSvg = (text: string) => SVG_RE.test(text.trimStart());

function classifyText(text: string, complete: boolean): SniffedType {
  const start = text.trimStart();
  if (isSvg(start)) return { mime: 'image/svg+xml', ext: 'svg' };
  if (HTML_START_RE.test(start)) return { mime: 'text/html', ext: 'html' };
  if (isEmail(text)) return { mime: 'message/rfc822', ext: 'eml' };
  if (isJson(start, complete)) return { mime: 'application/json', ext: 'json' };
  const delimiter = tableDelimiter(text, complete);
  if (delimiter === '\t') return { mime: 'text/tab-separated-values', ext: 'tsv' };
  if (delimiter) return { mime: 'text/csv', ext: 'csv' };
  if (MARKDOWN_RE.test(text)) return { mime: 'text/markdown', ext: 'md' };
  return { mime: 'text/plain', ext: 'txt' };
}

function isEmail(text: string): boolean {
  const end = text.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? text : text.slice(0, end)).split(/\r?\n/);
  if (!HEADER_LINE_RE.test(lines[0] ?? '')) return false;
  const known = new Set<string>();
  for (const line of lines) {
    const header = HEADER_LINE_RE.exec(line);
    if (header) {
      if (MAIL_HEADERS.has(header[1]!.toLowerCase())) known.add(header[1]!.toLowerCase());
    } else if (!CONTINUATION_RE.test(line) && line !== '') {
      return false;
    }
  }
  return known.size >= 2;
}

function isJson(start: string, complete: boolean): boolean {
  if (!complete) return JSON_START_RE.test(start);
  if (!start.startsWith('{') && !start.startsWith('[')) return false;
  try {
    JSON.parse(start);
    return true;
  } catch {
    return false;
  }
}

/**
 * The delimiter of a table when every record read has the same number of it
 * (outside double quotes, where a record may span lines), or null.
 */
function tableDelimiter(text: string, complete: boolean): string | null {
  for (const delimiter of [',', '\t', ';']) {
    const counts: number[] = [];
    let count = 0;
    let quoted = false;
    let sawContent = false;
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index];
      if (char === '"') quoted = !quoted;
      else if (!quoted && char === delimiter) count += 1;
      else if (!quoted && char === '\n') {
        if (sawContent) counts.push(count);
        count = 0;
        sawContent = false;
        continue;
      }
      if (char !== '\r') sawContent = true;
    }
    // The last record counts only when it is known to be whole.
    if (complete && sawContent && !quoted) counts.push(count);
    if (counts.length >= 2 && counts[0]! >= 1 && counts.every((value) => value === counts[0])) return delimiter;
  }
  return null;
}

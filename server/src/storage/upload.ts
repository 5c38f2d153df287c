/**
 * The one way an upload route receives files: a multipart/form-data body read
 * part by part (@fastify/multipart, registered in app.ts), each file streamed
 * straight into the file store — hashed, counted, size-checked and sniffed on
 * the way (files.ts) — and never held whole in memory or written under the
 * client's name.
 *
 * Bad input is a 4xx naming the field: a file over the size limit is a 413, as
 * are too many files or fields; a file in a field the route does not take, a
 * NUL in a name or value, a field sent twice or a malformed body is a 400. A
 * client that goes away mid-file leaves nothing of that file behind (its staged
 * bytes are removed). Files of the same request stored before a failure have no
 * using row, so the store's sweep removes them after its grace period.
 */
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError, fieldError } from '../resources/errors.ts';
import { NUL_MESSAGE } from '../resources/nul.ts';
import type { FileStore, StoredFile } from './files.ts';
import { FileTooLargeError } from './storage.ts';

export interface UploadedFile extends StoredFile {
  /** The form field the file came in. */
  field: string;
  /** The client's file name, made safe to show and to send back (sanitizeFilename). */
  filename: string;
}

export interface UploadOptions {
  tenantId: string;
  /** Largest file accepted (config.fileUploadLimitBytes). */
  maxFileBytes: number;
  /** Files accepted in one request (default 1). */
  maxFiles?: number;
  /** The fields files may come in (default ["file"]); the first is named in errors about files in general. */
  fileFields?: string[];
  /** Text fields accepted in one request (default 50), and the longest value (default 64 KiB). */
  maxFields?: number;
  maxFieldBytes?: number;
  /** Whether an empty file is accepted (default false: a 400 naming the field). */
  allowEmpty?: boolean;
  /**
   * Hold each file for the row that will use it (FileStore put's `hold`): the caller releases
   * the holds in that row's transaction, or discards them when it fails. When the upload itself
   * fails, the files stored so far are discarded here.
   */
  hold?: boolean;
}

export interface ReceivedUpload {
  files: UploadedFile[];
  /** Text fields by name; each may be sent once. */
  fields: Record<string, string>;
}

const MAX_FILENAME_BYTES = 255;
/** C0 and C1 controls, and the bidirectional overrides that make "exe.txt" read as "txt.exe". */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const UNSAFE_CHARS_RE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A client's file name reduced to a plain name: the last segment of any path
 * (either slash), without control characters or bidi overrides, without
 * leading dots or surrounding spaces, at most 255 UTF-8 bytes (the extension
 * kept). Nothing is left → "file". It is only ever shown or sent back as a
 * download name: files are stored under their hash.
 */
export function sanitizeFilename(raw: string): string {
  const base = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  let name = base.replace(UNSAFE_CHARS_RE, '').trim().replace(/^\.+/, '').trim();
  if (Buffer.byteLength(name) > MAX_FILENAME_BYTES) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    let stem = name.slice(0, name.length - ext.length);
    while (Buffer.byteLength(stem + ext) > MAX_FILENAME_BYTES) stem = [...stem].slice(0, -1).join('');
    name = stem + ext;
  }
  return name === '' ? 'file' : name;
}

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;

const fileTooLarge = (field: string, filename: string, limit: number) =>
  new ApiError(413, 'file_too_large', `${field}: the file "${filename}" is larger than the limit of ${formatBytes(limit)}.`, {
    [field]: [`The file "${filename}" is larger than the limit of ${formatBytes(limit)}.`],
  });

/** Reads the request's parts, storing every file; see the module comment. */
export async function receiveUpload(request: FastifyRequest, store: FileStore, options: UploadOptions): Promise<ReceivedUpload> {
  const fileFields = options.fileFields ?? ['file'];
  const primary = fileFields[0] ?? 'file';
  const maxFiles = options.maxFiles ?? 1;
  const maxFields = options.maxFields ?? 50;
  if (!request.isMultipart()) throw fieldError(primary, 'Send the upload as multipart/form-data.');

  const parts = request.parts({
    // One byte over the limit reaches the store, which refuses it; at exactly the limit
    // busboy would cut the file short without an error.
    limits: {
      fileSize: options.maxFileBytes + 1,
      files: maxFiles,
      fields: maxFields,
      fieldSize: options.maxFieldBytes ?? 64 * 1024,
      parts: maxFiles + maxFields,
    },
  });
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  try {
    await readAll(parts, primary, maxFiles, files, fields, store, options, fileFields);
  } catch (error) {
    if (options.hold) await store.discard(options.tenantId, files.flatMap((file) => (file.hold ? [file.hold] : [])));
    throw error;
  }
  return { files, fields };
}

async function readAll(
  parts: AsyncIterable<Multipart>,
  primary: string,
  maxFiles: number,
  files: UploadedFile[],
  fields: Record<string, string>,
  store: FileStore,
  options: UploadOptions,
  fileFields: string[],
): Promise<void> {
  for await (const part of readParts(parts, primary, maxFiles)) {
    if (part.fieldname.includes('\u0000')) throw fieldError(part.fieldname.split('\u0000').join('\\u0000'), NUL_MESSAGE);
    if (part.type === 'field') {
      if (part.fieldnameTruncated) throw fieldError(part.fieldname, 'The field name is too long.');
      if (part.valueTruncated) {
        throw new ApiError(413, 'field_too_large', `${part.fieldname}: the value is too long.`, { [part.fieldname]: ['The value is too long.'] });
      }
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      if (value.includes('\u0000')) throw fieldError(part.fieldname, NUL_MESSAGE);
      if (Object.hasOwn(fields, part.fieldname)) throw fieldError(part.fieldname, 'Sent more than once: send each field once.');
      fields[part.fieldname] = value;
      continue;
    }
    files.push(await receiveFile(part, store, options, fileFields));
  }
}

/**
 * The parts, with the reader's own failures (limits, malformed bodies, a client
 * gone) turned into API errors. Failures of the store pass through untouched:
 * they are the server's, not the request's.
 */
async function* readParts(parts: AsyncIterable<Multipart>, primary: string, maxFiles: number): AsyncGenerator<Multipart> {
  try {
    for await (const part of parts) yield part;
  } catch (error) {
    throw uploadError(error, primary, maxFiles);
  }
}

async function receiveFile(part: MultipartFile, store: FileStore, options: UploadOptions, fileFields: string[]): Promise<UploadedFile> {
  const field = part.fieldname;
  if (!fileFields.includes(field)) {
    throw fieldError(field, `Files are not accepted in this field: send them in ${fileFields.map((name) => `"${name}"`).join(' or ')}.`);
  }
  if (part.filename.includes('\u0000')) throw fieldError(field, `The file name: ${NUL_MESSAGE}`);
  const filename = sanitizeFilename(part.filename);
  let stored: StoredFile;
  try {
    stored = await store.put(options.tenantId, part.file, { maxBytes: options.maxFileBytes, hold: options.hold === true });
  } catch (error) {
    if (error instanceof FileTooLargeError) throw fileTooLarge(field, filename, options.maxFileBytes);
    // The request's body failed under the file (cut short, malformed): the client's doing.
    if (part.file.errored) throw uploadError(part.file.errored, field, 1);
    throw error;
  }
  if (stored.size === 0 && (part.filename === '' || !options.allowEmpty)) {
    if (stored.hold) await store.discard(options.tenantId, [stored.hold]);
    // A nameless empty part is what a browser sends for a file input left empty.
    if (part.filename === '') throw fieldError(field, 'No file was chosen.');
    throw fieldError(field, `The file "${filename}" is empty.`);
  }
  return { ...stored, field, filename };
}

/** Errors of the multipart reader as the API's own. */
function uploadError(error: unknown, primary: string, maxFiles: number): unknown {
  if (error instanceof ApiError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return new ApiError(413, 'too_many_files', `${primary}: at most ${maxFiles} file${maxFiles === 1 ? '' : 's'} per request.`, {
        [primary]: [`At most ${maxFiles} file${maxFiles === 1 ? '' : 's'} per request.`],
      });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new ApiError(413, 'too_many_fields', 'The upload has too many fields.');
    case 'FST_PROTO_VIOLATION':
      return fieldError('__proto__', 'Not a valid field name.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ApiError(400, 'invalid', 'A field declared as JSON is not valid JSON.');
    default:
      // busboy's parse errors (malformed parts, a body cut short) and a client gone mid-upload.
      return new ApiError(400, 'invalid', `The upload could not be read as multipart/form-data: ${(error as Error).message}.`);
  }
}

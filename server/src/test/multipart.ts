import { randomBytes } from 'node:crypto';

export interface MultipartOptions {
  field?: string;
  contentType?: string;
}

/** One part of a multipart/form-data body: a file when it has a filename, else a text field. */
export interface FormPart {
  field: string;
  filename?: string;
  content: Buffer | string;
  contentType?: string;
}

/** A multipart/form-data body of the given parts, for app.inject (payload + headers). */
export function multipartForm(parts: FormPart[]) {
  const boundary = `----intelnotes${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType ?? (part.filename === undefined ? null : 'application/octet-stream');
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A multipart/form-data body with one file, for app.inject (payload + headers). */
export function multipart(filename: string, content: Buffer | string, options: MultipartOptions = {}) {
  return multipartForm([{ field: options.field ?? 'file', filename, content, contentType: options.contentType ?? 'application/octet-stream' }]);
}

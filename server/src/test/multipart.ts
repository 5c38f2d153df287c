import { randomBytes } from 'node:crypto';

export interface MultipartOptions {
  field?: string;
  contentType?: string;
}

/** A multipart/form-data body with one file, for app.inject (payload + headers). */
export function multipart(filename: string, content: Buffer | string, options: MultipartOptions = {}) {
  const boundary = `----intelnotes${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${filename}"\r\n` +
    `Content-Type: ${options.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), Buffer.isBuffer(content) ? content : Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Upload helpers for the ledger and investments API tests (their files: test/xlsx.ts). */
import { randomBytes } from 'node:crypto';

/** A multipart body with one file in the field "file", as app.inject options. */
export function multipart(filename: string, content: Buffer) {
  const boundary = `----ledger${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Opaque bearer tokens: 32 random bytes for the client, only a SHA-256 kept. */
import { createHash, randomBytes } from 'node:crypto';

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Reads `Authorization: Bearer <token>`; undefined when absent, null when malformed. */
export function bearerToken(header: string | undefined): string | null | undefined {
  if (header === undefined || header === '') return undefined;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
  return match?.[1] ?? null;
}

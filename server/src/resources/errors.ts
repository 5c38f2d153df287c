/**
 * The one error shape of the API ({detail, code, errors?, item_errors?}) and the errors that
 * carry it. Services and the resource engine throw these — they run for jobs as well as
 * requests, so they are the engine's and know nothing of Fastify; http/error-handler.ts answers
 * them over HTTP.
 */
import type { ErrorBody } from '../contracts.ts';
import { itemMessage, type ItemError } from './values.ts';

export type FieldErrors = Record<string, string[]>;
/** Per list field, the items refused, by position: what a form marks without reading messages. */
export type ItemErrors = Record<string, ItemError[]>;

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    readonly itemErrors?: ItemErrors,
  ) {
    super(detail);
  }

  toBody(): ErrorBody {
    return {
      detail: this.detail,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.itemErrors && Object.keys(this.itemErrors).length > 0 ? { item_errors: this.itemErrors } : {}),
    };
  }
}

export const badRequest = (detail: string, errors?: FieldErrors, itemErrors?: ItemErrors) =>
  new ApiError(400, 'invalid', detail, errors, undefined, itemErrors);
/** A 400 naming one field and why it was rejected. */
export const fieldError = (field: string, message: string) =>
  new ApiError(400, 'invalid', `${field}: ${message}`, { [field]: [message] });
/** A 400 naming one item of a list field (its position from 0) and why it was rejected. */
export const itemError = (field: string, index: number, message: string) => {
  const item = { index, message };
  return badRequest(`${field}: ${itemMessage(item)}`, { [field]: [itemMessage(item)] }, { [field]: [item] });
};
export const notAuthenticated = (detail = 'Authentication credentials were not provided or are invalid.') =>
  new ApiError(401, 'not_authenticated', detail);
export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, 'permission_denied', detail);
export const notFound = (detail = 'Not found.') => new ApiError(404, 'not_found', detail);
/**
 * A paywalled record asked for by a signed-out visitor (docs/engine.md "Paywalled records"):
 * that it exists is no secret — the lists count it behind a lock — but nothing of it is sent,
 * so the page can offer the sign-in instead of saying "not found".
 */
export const paywalled = (label: string) =>
  new ApiError(403, 'paywalled', `This ${label.toLowerCase()} is for signed-in readers.`);
export const conflict = (detail: string, errors?: FieldErrors) => new ApiError(409, 'conflict', detail, errors);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, undefined, {
    'retry-after': String(retryAfterSeconds),
  });

/** How long a client is asked to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** The answer while the database cannot be reached or is not serving (db/errors.ts): retried, not a failure of the request. */
export const databaseUnavailable = () =>
  new ApiError(503, 'database_unavailable', 'The database is unavailable for the moment. Try again shortly.', undefined, {
    'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
  });

/** True when a database error is a unique-key violation (Drizzle wraps the driver's error). */
export function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause];
  return candidates.some((candidate) => (candidate as { code?: unknown } | null)?.code === '23505');
}

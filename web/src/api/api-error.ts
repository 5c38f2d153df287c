import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { ErrorBody } from '@intelnotes/server/contracts';

export type ApiError = FetchBaseQueryError | SerializedError;

function isErrorBody(data: unknown): data is ErrorBody {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { detail?: unknown }).detail === 'string' &&
    typeof (data as { code?: unknown }).code === 'string'
  );
}

function httpStatusMessage(status: number): string {
  if (status === 401) return 'Your session has expired. Please sign in again.';
  if (status === 403) return 'You do not have access to this.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many requests. Please wait a moment and try again.';
  if (status >= 500) return `The server is unavailable right now (HTTP ${status}). Please try again shortly.`;
  return `The request failed (HTTP ${status}).`;
}

/** A sentence to show the user for any failed API call (SPEC §8 generic statuses). */
export function apiErrorMessage(error: ApiError): string {
  if (!('status' in error)) return error.message ?? 'Something went wrong. Please try again.';
  if (typeof error.status === 'number') {
    return isErrorBody(error.data) ? error.data.detail : httpStatusMessage(error.status);
  }
  switch (error.status) {
    case 'FETCH_ERROR':
      return 'Cannot reach the server. Check your connection and try again.';
    case 'TIMEOUT_ERROR':
      return 'The server took too long to respond. Please try again.';
    case 'PARSING_ERROR':
      return `The server sent an unexpected response (HTTP ${error.originalStatus}).`;
    case 'CUSTOM_ERROR':
      return error.error;
  }
}

/** Per-field messages from a 400 response (`errors` in the error body), if any. */
export function apiFieldErrors(error: ApiError): Record<string, string[]> {
  if ('status' in error && isErrorBody(error.data) && error.data.errors) return error.data.errors;
  return {};
}

/** One refused item of a list field: its position (from 0) in the list sent, and why. */
export type ItemError = NonNullable<ErrorBody['item_errors']>[string][number];

/** The refused items of list fields (`item_errors` in the error body), by field. */
export function apiItemErrors(error: ApiError): Record<string, ItemError[]> {
  if ('status' in error && isErrorBody(error.data) && error.data.item_errors) return error.data.item_errors;
  return {};
}

/**
 * Whether the server refused a paywalled record to a signed-out visitor (403 `paywalled`,
 * docs/engine.md "Paywalled records"): the page offers the sign-in instead of "not found".
 */
export function isPaywalledError(error: ApiError | undefined): boolean {
  return error !== undefined && 'status' in error && error.status === 403 && isErrorBody(error.data) && error.data.code === 'paywalled';
}

/**
 * Database faults as a worker sees them: whether an error means the database could not be
 * reached (retry later, with backoff) rather than that a statement was wrong, and a reason to
 * log that names the fault without the statement or its parameters (drizzle's query errors
 * carry both in their message; the driver's error is their cause).
 */

/** Node's socket errors and PostgreSQL's "the server is going away or not there yet". */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is shutting down, or the backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting or in recovery
]);

/** What node-postgres says when a connection ends under it, or a pool waits too long for one. */
const UNREACHABLE_MESSAGE = /Connection terminated|connection error|timeout exceeded when trying to connect|Connection ended unexpectedly/i;

/** The error and its causes, outermost first. */
function* chain(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Whether the error says the database could not be reached (SQLSTATE class 08, a cut or refused socket). */
export function isConnectionError(error: unknown): boolean {
  for (const link of chain(error)) {
    const code = codeOf(link);
    if (code !== undefined && (code.startsWith('08') || UNREACHABLE.has(code))) return true;
    if (link instanceof Error && UNREACHABLE_MESSAGE.test(link.message)) return true;
  }
  return false;
}

/** The innermost error's code and message: the fault, never the statement or its parameters. */
export function faultReason(error: unknown): string {
  const links = [...chain(error)];
  const root = links.at(-1);
  const code = codeOf(root);
  // A query error without a cause would name the statement and its parameters.
  const message = root !== null && typeof root === 'object' && 'params' in root ? 'a statement failed' : root instanceof Error ? root.message || root.name : String(root);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 500);
}

/** Exponential backoff with jitter: `base` doubled per failure in a row, at most `max`, ±20%. */
export function backoffDelay(failures: number, base: number, max: number): number {
  const delay = Math.min(max, base * 2 ** Math.max(0, failures - 1));
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

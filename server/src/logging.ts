/**
 * Log hygiene, for every logger of every process (the app's Fastify logger, the worker's and
 * start-up's pino loggers): no log line carries a query's parameters, a token, a token hash,
 * a password or a cookie (docs/faults.md). It is done on the structure, not by hoping callers
 * remember:
 * - errors, wherever they sit in a log object, are written as an allow-list of fields: type,
 *   message and stack (drizzle's "params: …" cut, values PostgreSQL quotes taken out), the
 *   SQLSTATE and the names of the constraint, table and column, the SQL text — never `params`
 *   or any other field an error happens to carry;
 * - a request is its method, its URL with token-like query parameters blanked, host and
 *   address — never its headers;
 * - any key that names a secret (authorization, cookie, password, token, token_hash, secret,
 *   api key…) is blanked at any depth, and message texts lose bearer tokens, token query
 *   parameters and SHA-256 hex strings (what a token hash looks like).
 */
import { pino, type Logger, type LoggerOptions } from 'pino';
import { databaseErrorFields, safeDatabaseMessage } from './db/errors.ts';

export const REDACTED = '[Redacted]';

/** Keys whose values are secrets, compared lower-case without "-" and "_". */
const SECRET_KEY_RE = /(?:password|passwd|secret|token|tokenhash|authorization|cookie|apikey|secretaccesskey|privatekey)$/;
/** Query parameter names that carry secrets (same comparison). */
const SECRET_PARAM_RE = /token|secret|passw|signature|credential|apikey|^key$|^sig$|^auth/;

const normalized = (name: string) => name.toLowerCase().replace(/[-_]/g, '');
const isSecretKey = (key: string) => SECRET_KEY_RE.test(normalized(key));

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A URL (or a request's path and query) with the values of token-like query parameters blanked. */
export function safeUrl(raw: string): string {
  const url = raw.replace(USERINFO_RE, `$1${REDACTED}@`);
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && SECRET_PARAM_RE.test(normalized(decoded(name))) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/** The password of a URL's user information (postgres://user:password@host). */
const USERINFO_RE = /(\/\/[^/\s:@]+:)[^@\s/]+@/g;
const BEARER_RE = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const QUERY_SECRET_RE = /([?&][^=&\s"'#?]*(?:token|secret|passw|signature|credential|api[-_]?key)[^=&\s"'#?]*=)[^&\s"'#]*/gi;
/** A SHA-256 in hex: a token hash looks like this (a file's hash too, which loses nothing by it). */
const SHA256_HEX_RE = /\b[0-9a-f]{64}\b/gi;
/** drizzle's "Failed query: …\nparams: …" tail. */
const PARAMS_TAIL_RE = /\nparams: [\s\S]*$/;

/** A free text (a log message, an error's message or stack) without the secrets it may quote. */
export function safeText(text: string): string {
  return text
    .replace(PARAMS_TAIL_RE, '')
    .replace(USERINFO_RE, `$1${REDACTED}@`)
    .replace(BEARER_RE, `$1${REDACTED}`)
    .replace(QUERY_SECRET_RE, `$1${REDACTED}`)
    .replace(SHA256_HEX_RE, REDACTED);
}

/** Fields of Node's system errors and of HTTP-ish errors that say what failed, not with what. */
const PLAIN_FIELDS = ['statusCode', 'errno', 'syscall', 'address', 'port', 'validationContext'] as const;
const MAX_DEPTH = 4;

export interface SafeError {
  type: string;
  message: string;
  stack?: string;
  [field: string]: unknown;
}

/** An error as it may be logged (see the module comment); anything else is returned as it is. */
export function safeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const record = error as unknown as Record<string, unknown>;
  const code = typeof record['code'] === 'string' ? record['code'] : undefined;
  const original = typeof error.message === 'string' ? error.message : '';
  const message = safeText(safeDatabaseMessage(original, code));
  const out: SafeError = { type: error.constructor?.name || error.name || 'Error', message };
  if (typeof error.stack === 'string') {
    // The stack starts with the message: the original is swapped for the safe one first, so
    // a multi-line message does not leave its tail in the stack.
    out.stack = safeText(original !== '' ? error.stack.replace(original, message) : error.stack);
  }
  for (const [name, value] of Object.entries(databaseErrorFields(record))) {
    out[name] = typeof value === 'string' ? safeText(value) : value;
  }
  for (const name of PLAIN_FIELDS) {
    const value = record[name];
    if (typeof value === 'string' || typeof value === 'number') out[name] = typeof value === 'string' ? safeText(value) : value;
  }
  const metadata = record['$metadata'];
  if (metadata && typeof metadata === 'object' && typeof (metadata as { httpStatusCode?: unknown }).httpStatusCode === 'number') {
    out['httpStatusCode'] = (metadata as { httpStatusCode: number }).httpStatusCode;
  }
  if (depth < MAX_DEPTH) {
    if (record['cause'] instanceof Error) out['cause'] = safeError(record['cause'], depth + 1);
    if (error instanceof AggregateError && Array.isArray(error.errors)) out['errors'] = error.errors.slice(0, 5).map((inner) => safeError(inner, depth + 1));
  }
  return out;
}

/** A request as it may be logged: no headers, the URL's secrets blanked. */
export function safeRequest(request: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } | null }) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? safeUrl(request.url) : request.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

const isPlainObject = (value: object) => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * A log object with errors made safe and secret keys blanked, at any depth (to a limit).
 * Instances of other classes (a request, a reply) are left to the serializers of their key.
 */
export function scrubLogObject(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return safeError(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH + 2) return value;
  if (Array.isArray(value)) return value.map((item) => scrubLogObject(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (isSecretKey(key)) out[key] = REDACTED;
    else if (typeof inner === 'string' && /(?:^|[-_])?(?:url|uri|href)$/i.test(key)) out[key] = safeUrl(inner);
    else out[key] = scrubLogObject(inner, depth + 1);
  }
  return out;
}

/** Header paths blanked even if a serializer someday logs headers. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

/**
 * Adds the hygiene to logger options (Fastify's `logger`, or pino's), keeping the caller's
 * level, stream and other settings.
 */
export function withLogHygiene<T extends LoggerOptions>(options: T): T {
  const ownLog = options.formatters?.log;
  const ownLogMethod = options.hooks?.logMethod;
  return {
    ...options,
    serializers: { ...options.serializers, err: safeError, error: safeError, req: safeRequest },
    formatters: {
      ...options.formatters,
      log: (object: Record<string, unknown>) => scrubLogObject(ownLog ? ownLog(object) : object) as Record<string, unknown>,
    },
    hooks: {
      ...options.hooks,
      // Message texts (and format arguments): Fastify itself writes error messages and URLs into some.
      logMethod(this: Logger, args: Parameters<Logger['info']>, method: Parameters<NonNullable<NonNullable<LoggerOptions['hooks']>['logMethod']>>[1], level: number) {
        const safe = (args as unknown[]).map((arg) => (typeof arg === 'string' ? safeText(arg) : arg)) as Parameters<Logger['info']>;
        if (ownLogMethod) ownLogMethod.call(this, safe, method, level);
        else method.apply(this, safe);
      },
    },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
}

/** A process's own pino logger (start-up, worker), with the hygiene. */
export function createLogger(level: string, base?: Record<string, unknown>): Logger {
  return pino(withLogHygiene({ level, ...(base ? { base } : {}) }));
}

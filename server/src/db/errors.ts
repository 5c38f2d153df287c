/**
 * What a database error means, read from the error itself: whether the server is away for
 * now (so a request can be answered 503 and retried, docs/faults.md), and which of its fields
 * can be logged. drizzle wraps a failing query's error (DrizzleQueryError: "Failed query: …
 * params: …", the driver's error as `cause`), pg and the pool throw their own, and a connect
 * to several addresses fails with an AggregateError: each is looked through.
 */

/**
 * SQLSTATEs of a server that is there but not serving: shutting down or killed
 * (57P01 admin_shutdown, 57P02 crash_shutdown), starting up or shutting down (57P03
 * cannot_connect_now), out of connection slots (53300 too_many_connections). Class 08
 * (connection exceptions) is matched by its prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket and name-lookup failures on the way to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Messages of pg and pg-pool, which carry no code: a connection that ended under a query,
 * the connect time-outs (pool and client), a connection found dead, a pool that is closing.
 */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated\b/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

/** The error, its causes and the errors it aggregates, to a small depth (a cycle ends it too). */
function* chainOf(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const queue: Array<[unknown, number]> = [[error, 0]];
  while (queue.length > 0) {
    const [current, depth] = queue.shift()!;
    if (current === null || typeof current !== 'object' || seen.has(current) || depth > 4) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    yield record;
    queue.push([record['cause'], depth + 1]);
    if (Array.isArray(record['errors'])) for (const inner of record['errors']) queue.push([inner, depth + 1]);
  }
}

/**
 * Failures of the app's other network dependencies, which also end in socket errors: the S3
 * client's (the AWS SDK marks its errors with `$metadata`) and fetch's (undici's "fetch
 * failed", the socket error as its cause). A store or a site that is away is not the database.
 */
function isOtherDependency(record: Record<string, unknown>): boolean {
  return '$metadata' in record || (record instanceof TypeError && record.message === 'fetch failed');
}

/** Whether the error says the database cannot be reached or is not serving for now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const chain = [...chainOf(error)];
  if (chain.some(isOtherDependency)) return false;
  for (const record of chain) {
    const code = record['code'];
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || NETWORK_CODES.has(code))) return true;
    const message = record['message'];
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/** A PostgreSQL error's SQLSTATE, from the error or what it wraps. */
export function sqlState(error: unknown): string | undefined {
  for (const record of chainOf(error)) {
    const code = record['code'];
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The names a PostgreSQL error carries: safe to log (no values). */
const NAME_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'hint', 'position'] as const;

/**
 * drizzle's message for a failing query is "Failed query: <sql>\nparams: <values>": the SQL
 * text stays, the values go.
 */
const PARAMS_RE = /\nparams: [\s\S]*$/;

/**
 * Values PostgreSQL quotes in its own texts: the input a data exception (class 22) refused
 * (`invalid input syntax for type uuid: "…"`, anything quoted), a key's values (`Key (email)=(…) already
 * exists.`) and a failing row (`Failing row contains (…).`).
 */
function redactValues(text: string, code: string | undefined): string {
  let redacted = text
    .replace(/(Key \([^)]*\)=\()[\s\S]*?(\) (?:already exists|is not present|is still referenced|conflicts with))/g, '$1…$2')
    .replace(/(Failing row contains \()[\s\S]*(\))/g, '$1…$2');
  // A data exception quotes the refused input (and no names): every quoted text goes.
  if (code?.startsWith('22')) redacted = redacted.replace(/"[^"]*"/g, '"…"').replace(/'[^']*'/g, "'…'");
  return redacted;
}

/** A database error's message without the values it may quote (query parameters, row values). */
export function safeDatabaseMessage(message: string, code: string | undefined): string {
  return redactValues(message.replace(PARAMS_RE, ''), code);
}

/**
 * The fields of a database error that may be logged: its names (SQLSTATE, constraint, table,
 * column…), the SQL text of a drizzle query, and its detail with the values taken out. Never
 * the query's parameters, nor PL/pgSQL context (`where`), which can quote values.
 */
export function databaseErrorFields(error: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const code = typeof error['code'] === 'string' ? error['code'] : undefined;
  for (const name of NAME_FIELDS) {
    const value = error[name];
    if (typeof value === 'string' || typeof value === 'number') fields[name] = value;
  }
  if (typeof error['detail'] === 'string') fields['detail'] = redactValues(error['detail'], code);
  // DrizzleQueryError: the statement's text, whose parameters are $1, $2 … markers, not values.
  if (typeof error['query'] === 'string') fields['query'] = error['query'];
  return fields;
}

/** What counts as "the database is away" (a 503) and what of a database error may be logged. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseErrorFields, isDatabaseUnavailable, safeDatabaseMessage, sqlState } from './errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** drizzle's wrapper around a failing query's error. */
const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { query: 'select 1', params: [], cause });

describe('isDatabaseUnavailable', () => {
  it('knows a server that is down, restarting, shutting down or full, and a lost or timed-out connection', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('getaddrinfo EAI_AGAIN db', 'EAI_AGAIN'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection because of crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('the database system is shutting down', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      withCode('server closed the connection unexpectedly', '08003'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Cannot use a pool after calling end on the pool'),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'), withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')]),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, error.message);
      assert.equal(isDatabaseUnavailable(wrapped(error)), true, `wrapped: ${error.message}`);
    }
  });

  it('leaves the errors of a statement or of the code alone', () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint "x"', '23505'),
      withCode('invalid input syntax for type uuid: "x"', '22P02'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('permission denied for table x', '42501'),
      new Error('Cannot read properties of undefined'),
      new TypeError('x is not a function'),
      'a string',
      null,
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error));
      assert.equal(isDatabaseUnavailable(wrapped(error)), false, `wrapped: ${String(error)}`);
    }
  });

  it("leaves the socket errors of the app's other dependencies alone: S3 (AWS SDK) and fetch", () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:9000', 'ECONNREFUSED');
    assert.equal(isDatabaseUnavailable(Object.assign(refused, { $metadata: { attempts: 3 } })), false);
    assert.equal(isDatabaseUnavailable(new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED') })), false);
  });

  it('ends on a cycle of causes', () => {
    const error: Error & { cause?: unknown } = new Error('a');
    error.cause = error;
    assert.equal(isDatabaseUnavailable(error), false);
  });
});

describe('what of a database error may be logged', () => {
  it('finds the SQLSTATE under a wrapper', () => {
    assert.equal(sqlState(wrapped(withCode('x', '23505'))), '23505');
    assert.equal(sqlState(withCode('x', 'ECONNREFUSED')), undefined);
  });

  it('cuts drizzle params and the values PostgreSQL quotes, keeps names', () => {
    assert.equal(safeDatabaseMessage('Failed query: select $1\nparams: hunter2', undefined), 'Failed query: select $1');
    assert.equal(safeDatabaseMessage('invalid input syntax for type uuid: "hunter2"', '22P02'), 'invalid input syntax for type uuid: "…"');
    assert.equal(safeDatabaseMessage('relation "users" does not exist', '42P01'), 'relation "users" does not exist');
    const fields = databaseErrorFields({
      code: '23502',
      table: 'sessions',
      column: 'token_hash',
      constraint: undefined,
      detail: 'Failing row contains (1, abc123, 2026-01-01).',
      where: 'PL/pgSQL function f() line 3 at RAISE',
      params: ['hunter2'],
    });
    assert.deepEqual(fields, { code: '23502', table: 'sessions', column: 'token_hash', detail: 'Failing row contains (…).' });
    assert.deepEqual(databaseErrorFields({ code: '23503', detail: 'Key (tenant_id, sha256)=(t, abc) is not present in table "stored_files".' }), {
      code: '23503',
      detail: 'Key (tenant_id, sha256)=(…) is not present in table "stored_files".',
    });
  });
});

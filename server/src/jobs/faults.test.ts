/** Which errors mean "the database is away", and the reason a worker logs: the fault, never the statement or its parameters. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DrizzleQueryError } from 'drizzle-orm';
import { backoffDelay, faultReason, isConnectionError } from './faults.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('database faults', () => {
  it('tells an unreachable database from a failing statement, through drizzle’s wrapper', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    assert.equal(isConnectionError(refused), true);
    assert.equal(isConnectionError(withCode('terminating connection due to administrator command', '57P01')), true);
    assert.equal(isConnectionError(withCode('the database system is starting up', '57P03')), true);
    assert.equal(isConnectionError(withCode('connection failure', '08006')), true);
    assert.equal(isConnectionError(new Error('Connection terminated unexpectedly')), true);
    assert.equal(isConnectionError(new DrizzleQueryError('SELECT 1', [], refused)), true);
    assert.equal(isConnectionError(withCode('relation "nope" does not exist', '42P01')), false);
    assert.equal(isConnectionError(new DrizzleQueryError('SELECT $1', ['secret'], withCode('duplicate key value', '23505'))), false);
  });

  it('gives the driver’s code and message, never the statement or its parameters', () => {
    const wrapped = new DrizzleQueryError('UPDATE users SET token_hash = $1', ['a-token-hash'], withCode('terminating connection due to administrator command', '57P01'));
    assert.equal(faultReason(wrapped), '57P01: terminating connection due to administrator command');
    assert.equal(faultReason(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')), 'connect ECONNREFUSED 127.0.0.1:5432');
    assert.doesNotMatch(faultReason(new DrizzleQueryError('SELECT $1', ['a-token-hash'])), /token|SELECT/);
  });

  it('backs off exponentially up to its longest wait, jittered by at most a fifth', () => {
    for (const [failures, expected] of [[1, 250], [2, 500], [5, 4_000], [20, 15_000]] as const) {
      const delay = backoffDelay(failures, 250, 15_000);
      assert.ok(delay >= expected * 0.8 && delay <= expected * 1.2, `${failures} failures: ${delay}`);
    }
  });
});

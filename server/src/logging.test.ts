/**
 * Log hygiene (logging.ts): what the app's logger writes, captured line by line, never holds a
 * query's parameters, a bearer token or its hash, a password or a token query parameter —
 * whether the failure is a query's, a token's, a sign-in's or the database's.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from './db/client.ts';
import { hashToken } from './auth/tokens.ts';
import { REDACTED, safeError, safeText, safeUrl, scrubLogObject } from './logging.ts';
import type { TenantRow } from './tenancy/tenants.repository.ts';
import { testServerUrl } from './test/test-db.ts';
import { startPgProxy, type PgProxy } from './test/pg-proxy.ts';
import { createTestApp, type TestContext } from './test/test-app.ts';

describe('log hygiene, pure parts', () => {
  it('blanks token-like query parameters and URL passwords, and keeps the rest', () => {
    assert.equal(safeUrl('/api/v1/emails/confirm/?token=abc&x=1'), `/api/v1/emails/confirm/?token=${REDACTED}&x=1`);
    assert.equal(
      safeUrl('/f?X-Amz-Signature=s1&X-Amz-Credential=c1&access_token=t&api-key=k&page=2'),
      `/f?X-Amz-Signature=${REDACTED}&X-Amz-Credential=${REDACTED}&access_token=${REDACTED}&api-key=${REDACTED}&page=2`,
    );
    assert.equal(safeUrl('/plain/path'), '/plain/path');
    assert.equal(safeUrl('postgres://app:hunter2@db:5432/x'), `postgres://app:${REDACTED}@db:5432/x`);
  });

  it('cleans free text: drizzle params, bearer tokens, token parameters, SHA-256 hex', () => {
    const hash = 'a'.repeat(64);
    assert.equal(safeText('Failed query: select $1\nparams: s3cret,other'), 'Failed query: select $1');
    assert.equal(safeText('header was Bearer abcDEF_123-xyz'), `header was Bearer ${REDACTED}`);
    assert.equal(safeText('Reply was already sent in the "/api/v1/x/?token=zzz&a=b" route'), `Reply was already sent in the "/api/v1/x/?token=${REDACTED}&a=b" route`);
    assert.equal(safeText(`hash ${hash} here`), `hash ${REDACTED} here`);
  });

  it('writes errors as an allow-list: no params, no values quoted by PostgreSQL, causes kept', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "t_v_key"'), {
      code: '23505',
      constraint: 't_v_key',
      table: 't',
      detail: 'Key (v)=(s3cret) already exists.',
      where: 'SQL statement "INSERT … s3cret"',
    });
    const wrapped = Object.assign(new Error('Failed query: insert into t (v) values ($1)\nparams: s3cret'), {
      query: 'insert into t (v) values ($1)',
      params: ['s3cret'],
      cause,
    });
    const safe = safeError(wrapped) as Record<string, unknown>;
    const text = JSON.stringify(safe);
    assert.ok(!text.includes('s3cret'), text);
    assert.equal(safe['message'], 'Failed query: insert into t (v) values ($1)');
    assert.equal(safe['query'], 'insert into t (v) values ($1)');
    assert.equal(safe['params'], undefined);
    const inner = safe['cause'] as Record<string, unknown>;
    assert.equal(inner['code'], '23505');
    assert.equal(inner['constraint'], 't_v_key');
    assert.equal(inner['table'], 't');
    assert.equal(inner['detail'], 'Key (v)=(…) already exists.');
    assert.equal(inner['where'], undefined);
    assert.match(String(safe['stack']), /^Error: Failed query: insert into t \(v\) values \(\$1\)\n\s+at /);
  });

  it('blanks secret keys at any depth and makes nested errors safe', () => {
    const scrubbed = scrubLogObject({
      user: { email: 'a@b.c', password: 'pw', token_hash: 'h', 'X-Api-Key': 'k' },
      headers: { authorization: 'Bearer t', cookie: 'c', accept: 'json' },
      list: [{ refreshToken: 'r' }],
      failure: { err: Object.assign(new Error('boom'), { params: ['p'] }) },
      webhookUrl: 'https://x.test/hook?token=abc',
    }) as Record<string, Record<string, unknown>>;
    assert.deepEqual(scrubbed['user'], { email: 'a@b.c', password: REDACTED, token_hash: REDACTED, 'X-Api-Key': REDACTED });
    assert.deepEqual(scrubbed['headers'], { authorization: REDACTED, cookie: REDACTED, accept: 'json' });
    assert.deepEqual(scrubbed['list'], [{ refreshToken: REDACTED }]);
    assert.equal((scrubbed['failure']!['err'] as Record<string, unknown>)['params'], undefined);
    assert.equal(scrubbed['webhookUrl'], `https://x.test/hook?token=${REDACTED}`);
  });
});


describe('log hygiene of the app', () => {
  const SECRET = `secret-${randomBytes(8).toString('hex')}`;
  const lines: string[] = [];
  let proxy: PgProxy;
  let t: TestContext;
  let acme: TenantRow;
  let token: string;

  /** Everything logged since `from`, as parsed lines. */
  const logged = (from: number) => lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
  /** Asserts no line since `from` contains any of the secrets. */
  const assertClean = (from: number, secrets: Record<string, string>) => {
    const text = lines.slice(from).join('');
    for (const [name, secret] of Object.entries(secrets)) assert.ok(!text.includes(secret), `the log holds the ${name}:\n${text}`);
  };
  const errorLine = (from: number, msg: string) => {
    const line = logged(from).find((entry) => entry['msg'] === msg);
    assert.ok(line, `no "${msg}" line in:\n${lines.slice(from).join('')}`);
    return line['err'] as Record<string, unknown>;
  };

  before(async () => {
    proxy = await startPgProxy(await testServerUrl());
    t = await createTestApp(
      {},
      (app) => {
        // Queries that fail with the secret among their parameters.
        app.get('/api/v1/log-probe/cast/', (request) => request.tx((tx) => query(tx, sql`SELECT ${SECRET}::uuid AS id`)));
        // As the owner, on a table without row-level security: PostgreSQL names the duplicated
        // key's values in the error's detail only where the caller could read them.
        app.get('/api/v1/log-probe/duplicate/', async () => {
          await t.db.owner.execute(sql`INSERT INTO log_probe (value) VALUES (${SECRET}), (${SECRET})`);
          return {};
        });
      },
      undefined,
      { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } }, databaseUrl: (url) => proxy.urlFor(url) },
    );
    await t.db.owner.execute(sql.raw('CREATE TABLE log_probe (value text PRIMARY KEY)'));
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    token = await t.login(acme, 'admin@acme.test');
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('logs a failing query with its SQL and SQLSTATE, without its parameters, the token or the token query parameter', async () => {
    const from = lines.length;
    const response = await t.request(acme, { method: 'GET', url: `/api/v1/log-probe/cast/?token=${SECRET}-q`, token });
    assert.equal(response.statusCode, 500);
    const err = errorLine(from, 'unhandled error');
    assert.match(String(err['query']), /SELECT \$1::uuid AS id/);
    assert.equal((err['cause'] as Record<string, unknown>)['code'], '22P02');
    const incoming = logged(from).find((entry) => entry['msg'] === 'incoming request');
    assert.equal((incoming?.['req'] as { url?: string } | undefined)?.url, `/api/v1/log-probe/cast/?token=${REDACTED}`);
    assertClean(from, { 'query parameter': SECRET, 'bearer token': token, 'token hash': hashToken(token) });
  });

  it('logs a unique violation with its constraint and table, not the duplicated value', async () => {
    const from = lines.length;
    const response = await t.request(acme, { method: 'GET', url: '/api/v1/log-probe/duplicate/', token });
    assert.equal(response.statusCode, 500);
    const cause = errorLine(from, 'unhandled error')['cause'] as Record<string, unknown>;
    assert.equal(cause['code'], '23505');
    assert.equal(cause['table'], 'log_probe');
    assert.equal(cause['constraint'], 'log_probe_pkey');
    assert.equal(cause['detail'], 'Key (value)=(…) already exists.');
    assertClean(from, { 'duplicated value': SECRET, 'bearer token': token });
  });

  it('never logs a refused bearer token, nor a wrong password', async () => {
    const from = lines.length;
    const refused = `${SECRET}-bearer-token`;
    assert.equal((await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token: refused })).statusCode, 401);
    const password = `${SECRET}-password`;
    const login = await t.request(acme, { method: 'POST', url: '/api/v1/auth/login/', payload: { email: 'admin@acme.test', password } });
    assert.equal(login.statusCode, 401);
    assert.ok(lines.length > from, 'the requests were logged');
    assertClean(from, { 'refused token': refused, 'its hash': hashToken(refused), password });
  });

  it('logs a request refused for a database outage without the token or its hash (the parameters of the session lookup)', async () => {
    const from = lines.length;
    await proxy.down('refuse');
    try {
      const response = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(response.statusCode, 503);
    } finally {
      await proxy.up();
    }
    const err = errorLine(from, 'database unavailable');
    // Refused, or terminated when the pool's idle connection was cut under the query.
    assert.match(JSON.stringify(err), /ECONNREFUSED|Connection terminated/);
    assert.match(String(err['query']), /app_live_session\(\$1, \$2\)/);
    assert.equal(err['params'], undefined);
    assertClean(from, { 'bearer token': token, 'token hash': hashToken(token) });
  });

  it('blanks secret keys in what the app logs itself', () => {
    const from = lines.length;
    t.app.log.info({ user: { password: SECRET, token_hash: hashToken(SECRET) }, headers: { authorization: `Bearer ${SECRET}` } }, 'probe');
    assertClean(from, { secret: SECRET, hash: hashToken(SECRET) });
    assert.equal(logged(from).length, 1);
  });
});

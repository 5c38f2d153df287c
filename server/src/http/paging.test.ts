/**
 * Every list route of the API reads limit and offset the same way (resources/list-query.ts
 * parsePaging, docs/validation.md "Paging"): the routes are taken from the OpenAPI document, as
 * the route fuzz takes them, so a new list is checked without a test of its own. A bad value is a
 * 400 of the one error shape naming the parameter, with the same message on every route — never
 * a 500 (issue 25 point 8: ?offset=1e309 reached SQL as Infinity on users/, facts/share-codes/
 * and clients/).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_LIMIT, pagingInteger, parsePaging } from '../resources/list-query.ts';
import { operationsOf, type Operation } from '../test/route-fuzz.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

const RANDOM_ID = '00000000-0000-4000-8000-000000000000';
const MAX = Number.MAX_SAFE_INTEGER;

/** Bad values and the message each gets, per parameter. */
const BAD: Array<{ value: string; limit: string; offset: string }> = [
  { value: '1e309', limit: 'Must be a whole number.', offset: 'Must be a whole number.' },
  { value: '-1e309', limit: 'Must be a whole number.', offset: 'Must be a whole number.' },
  { value: '-1', limit: 'Must be at least 1.', offset: 'Must be at least 0.' },
  { value: '1.5', limit: 'Must be a whole number.', offset: 'Must be a whole number.' },
  { value: 'abc', limit: 'Must be a whole number.', offset: 'Must be a whole number.' },
  { value: 'NaN', limit: 'Must be a whole number.', offset: 'Must be a whole number.' },
  { value: 'Infinity', limit: 'Must be a whole number.', offset: 'Must be a whole number.' },
  { value: '99999999999999999999', limit: `Must be at most ${MAX}.`, offset: `Must be at most ${MAX}.` },
  { value: String(MAX + 1), limit: `Must be at most ${MAX}.`, offset: `Must be at most ${MAX}.` },
  { value: '0', limit: 'Must be at least 1.', offset: '' },
];

describe('paging: every list route', () => {
  let t: TestContext;
  let main: TenantRow;
  let token: string;
  let lists: Operation[];

  before(async () => {
    t = await createTestApp();
    // The default tenant's admin may use every list, tenants (clients/) too.
    main = await t.createTenant('main', { isDefault: true });
    await t.createUser(main, 'admin@main.test', { is_admin: true });
    token = await t.login(main, 'admin@main.test');
    lists = operationsOf(t.app).filter((operation) => operation.method === 'GET' && operation.query.some((name) => name === 'limit' || name === 'offset'));
  });
  after(() => t.close());

  const get = (operation: Operation, query: string) =>
    t.request(main, { method: 'GET', url: `${operation.path.replace(/\{\w+\}/g, RANDOM_ID)}?${query}`, token });

  it('finds the lists in the OpenAPI document, those outside the engine too', () => {
    const paths = lists.map((operation) => operation.path);
    for (const expected of ['/api/v1/users/', '/api/v1/clients/', '/api/v1/facts/share-codes/', '/api/v1/lists/{id}/items/', '/api/v1/search/',
      '/api/v1/assets/organizations/', '/api/v1/assets/organizations/{id}/related/', '/api/v1/raw-data/', '/api/v1/suggested-entities/organizations/']) {
      assert.ok(paths.includes(expected), `${expected} among ${paths.length} lists`);
    }
    assert.ok(lists.length > 40, `${lists.length} lists`);
  });

  it('answers a bad limit or offset with a 400 naming it, the same message on every route', async () => {
    const failures: string[] = [];
    for (const operation of lists) {
      for (const name of ['limit', 'offset'] as const) {
        if (!operation.query.includes(name)) continue;
        for (const bad of BAD) {
          const response = await get(operation, `${name}=${encodeURIComponent(bad.value)}`);
          const label = `GET ${operation.path}?${name}=${bad.value} → ${response.statusCode} ${response.body.slice(0, 160)}`;
          if (bad[name] === '') {
            if (response.statusCode === 400 || response.statusCode >= 500) failures.push(label);
            continue;
          }
          const body = response.statusCode === 400 ? (response.json() as { detail?: string; code?: string; errors?: Record<string, string[]> }) : null;
          if (!body || body.code !== 'invalid' || body.detail !== `${name}: ${bad[name]}` || JSON.stringify(body.errors) !== JSON.stringify({ [name]: [bad[name]] })) {
            failures.push(label);
          }
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('takes good values: a limit past the maximum is served as the maximum, the largest safe offset is a page past the end', async () => {
    const failures: string[] = [];
    for (const operation of lists) {
      const query = operation.query.includes('offset') ? `limit=1000&offset=${MAX}` : 'limit=1000';
      const response = await get(operation, query);
      // A record of a random id is not found; a download answers with its file.
      if (![200, 404].includes(response.statusCode)) failures.push(`GET ${operation.path}?${query} → ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    assert.deepEqual(failures, []);
  });

  it('parsePaging reads text and the numbers a schema read alike', () => {
    assert.deepEqual(parsePaging({}), { limit: 25, offset: 0 });
    assert.deepEqual(parsePaging({ limit: '7', offset: ' 12 ' }), { limit: 7, offset: 12 });
    assert.deepEqual(parsePaging({ limit: 7, offset: 12 }), { limit: 7, offset: 12 });
    assert.deepEqual(parsePaging({ limit: 5000 }), { limit: MAX_LIMIT, offset: 0 });
    assert.deepEqual(parsePaging({ limit: 80 }, { defaultLimit: 10, maxLimit: 50 }), { limit: 50, offset: 0 });
    assert.deepEqual(parsePaging({ offset: -0 }), { limit: 25, offset: 0 });
    for (const raw of [Infinity, -Infinity, NaN, 1.5, 2 ** 60, -1, '1e3', ['1', '2'], true]) {
      assert.throws(() => pagingInteger('offset', raw, 0, 0, MAX), (error: { statusCode?: number; errors?: Record<string, string[]> }) =>
        error.statusCode === 400 && Object.keys(error.errors ?? {}).join() === 'offset', String(raw));
    }
  });
});

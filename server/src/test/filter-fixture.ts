/**
 * The fixture of tests of list filters (list membership, link filters): a test app with two
 * signed-in tenants (created before the tests, closed after), records created by a key —
 * `post` remembers each id under its key — and lists read back as those keys: `found` lists a
 * resource of the first tenant with a query as a role and answers the keys of the rows (sorted),
 * checking the page's total counts the same rows; `refused` answers a 400's errors.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from './test-app.ts';

type Row = Record<string, unknown> & { id: string };

export interface FilterContext {
  t: TestContext;
  acme: TenantRow;
  beta: TenantRow;
  tokens: Record<string, string | undefined>;
}

/** Call inside a describe: its before hook runs ahead of the describe's own. */
export function filterFixture() {
  const ctx = {} as FilterContext;
  before(async () => {
    ctx.t = await createTestApp();
    Object.assign(ctx, await ctx.t.signInTwoTenants());
  });
  after(() => ctx.t?.close());
  const ids: Record<string, string> = {};
  const names = new Map<string, string>();
  const post = async (tenant: TenantRow, token: string | undefined, url: string, key: string, payload: Record<string, unknown>) => {
    const response = await ctx.t.request(tenant, { method: 'POST', url: `${url}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    ids[key] = (response.json() as Row).id;
    names.set(ids[key], key);
  };
  const found = async (url: string, query: string, role = 'admin'): Promise<string[]> => {
    const response = await ctx.t.request(ctx.acme, { method: 'GET', url: `${url}/?limit=100&${query}`, token: ctx.tokens[role] });
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
    const page = response.json() as { count: number; results: Row[] };
    assert.equal(page.count, page.results.length, `${query}: the total counts the same rows`);
    return page.results.map((row) => names.get(row.id) ?? row.id).sort();
  };
  const refused = async (url: string, query: string): Promise<Record<string, string[]>> => {
    const response = await ctx.t.request(ctx.acme, { method: 'GET', url: `${url}/?${query}`, token: ctx.tokens['admin'] });
    assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    return (response.json() as { errors: Record<string, string[]> }).errors;
  };
  return { ctx, ids, post, found, refused };
}

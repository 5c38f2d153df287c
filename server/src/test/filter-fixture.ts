/**
 * Records created by a key and lists read back as those keys, for tests of list filters
 * (list membership, link filters): `post` creates a record and remembers its id under a key,
 * `found` lists a resource with a query as a role and answers the keys of the rows (sorted),
 * checking the page's total counts the same rows, and `refused` answers a 400's errors.
 */
import assert from 'node:assert/strict';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import type { TestContext } from './test-app.ts';

type Row = Record<string, unknown> & { id: string };

export function filterFixture(context: () => { t: TestContext; tenant: TenantRow; tokens: Record<string, string | undefined> }) {
  const ids: Record<string, string> = {};
  const names = new Map<string, string>();
  const post = async (tenant: TenantRow, token: string | undefined, url: string, key: string, payload: Record<string, unknown>) => {
    const response = await context().t.request(tenant, { method: 'POST', url: `${url}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    ids[key] = (response.json() as Row).id;
    names.set(ids[key], key);
  };
  const found = async (url: string, query: string, role = 'admin'): Promise<string[]> => {
    const { t, tenant, tokens } = context();
    const response = await t.request(tenant, { method: 'GET', url: `${url}/?limit=100&${query}`, token: tokens[role] });
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
    const page = response.json() as { count: number; results: Row[] };
    assert.equal(page.count, page.results.length, `${query}: the total counts the same rows`);
    return page.results.map((row) => names.get(row.id) ?? row.id).sort();
  };
  const refused = async (url: string, query: string): Promise<Record<string, string[]>> => {
    const { t, tenant, tokens } = context();
    const response = await t.request(tenant, { method: 'GET', url: `${url}/?${query}`, token: tokens['admin'] });
    assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    return (response.json() as { errors: Record<string, string[]> }).errors;
  };
  return { ids, post, found, refused };
}

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

/**
 * A list search spells each prefix out as the tenant's words that start with it
 * (migration 0170 search_query_in): the same records must match as with the
 * prefixes, whatever the vocabulary holds.
 */
describe('search vocabulary', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const create = async (tenant: TenantRow, payload: object, token = tenant === acme ? tokens['admin'] : tokens['beta']) => {
    const response = await t.request(tenant, { method: 'POST', url: '/api/v1/assets/organizations/', token, payload: { visibility: 'public', ...payload } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const names = async (search: string, tenant = acme) => {
    const response = await t.request(tenant, { method: 'GET', url: `/api/v1/assets/organizations/?limit=100&search=${encodeURIComponent(search)}`, token: tenant === acme ? tokens['admin'] : tokens['beta'] });
    assert.equal(response.statusCode, 200, response.body);
    const page = response.json() as { count: number; results: Array<{ name_inc: string }> };
    assert.equal(page.count, page.results.length);
    return page.results.map((row) => row.name_inc).sort();
  };
  const spelled = (tenant: TenantRow, search: string, most?: number) =>
    t.db.withTenant({ tenantId: tenant.id }, async (tx) =>
      (await query<{ q: string | null }>(tx, sql`SELECT search_query_in('organizations', ${search}${most === undefined ? sql`` : sql`, ${most}`}) AS q`))[0]!.q);

  it('spells a prefix as the tenant\'s words that start with it, and matches what the prefix matched', async () => {
    await create(acme, { name_inc: 'Maria Lopez Trading' });
    await create(acme, { name_inc: 'Mariana Lopes Shipping' });
    await create(acme, { name_inc: 'Marina Bay Lopezz', notes: 'maritime' });
    await create(beta, { name_inc: 'Mariachi Lopez Beta' });
    const query = await spelled(acme, 'mari lop');
    assert.match(query!, /^\('[a-z]+'( \| '[a-z]+')*\) & \('[a-z]+'( \| '[a-z]+')*\)$/);
    for (const word of ['maria', 'mariana', 'marina', 'maritime', 'lopez', 'lopes', 'lopezz']) assert.ok(query!.includes(`'${word}'`), `${word} in ${query}`);
    assert.ok(!query!.includes('mariachi'), 'another tenant\'s words are not the tenant\'s');
    assert.deepEqual(await names('mari lop'), ['Maria Lopez Trading', 'Mariana Lopes Shipping', 'Marina Bay Lopezz']);
    assert.deepEqual(await names('lopez'), ['Maria Lopez Trading', 'Marina Bay Lopezz']);
    assert.deepEqual(await names('mari lop', beta), ['Mariachi Lopez Beta']);
  });

  it('a word the tenant has none starting with is kept exact and matches nothing; no words give no query', async () => {
    assert.equal(await spelled(acme, 'zyxw'), "'zyxw'");
    assert.deepEqual(await names('zyxw'), []);
    assert.equal(await spelled(acme, '!!! ...'), null);
  });

  it('words added by an edit join the vocabulary, and a removed word no longer matches', async () => {
    const id = await create(acme, { name_inc: 'Quillon Works' });
    assert.deepEqual(await names('quillo'), ['Quillon Works']);
    const edited = await t.request(acme, { method: 'PATCH', url: `/api/v1/assets/organizations/${id}/`, token: tokens['admin'], payload: { name_inc: 'Brackenridge Works', notes: "O'Hara's annex" } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.deepEqual(await names('bracken'), ['Brackenridge Works']);
    assert.deepEqual(await names('quillo'), [], 'the old word stays in the vocabulary but no record holds it');
    assert.deepEqual(await names("o'har"), ['Brackenridge Works'], 'a word with an apostrophe is quoted');
  });

  it('a prefix that starts more than `most` words stays a prefix, with the same matches', async () => {
    await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query(tx, sql`INSERT INTO organizations (tenant_id, name_inc, visibility)
                    SELECT ${acme.id}, 'Plexo' || n || ' Group', 'public' FROM generate_series(1, 40) AS n`),
    );
    assert.equal(await spelled(acme, 'plexo'), "'plexo':*");
    assert.match((await spelled(acme, 'plexo', 64))!, /^\('plexo1'/);
    assert.equal((await names('plexo')).length, 40);
    assert.equal((await names('plexo3')).length, 11, 'plexo3 and plexo30–39');
  });
});

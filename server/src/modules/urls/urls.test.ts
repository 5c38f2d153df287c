import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/urls';

describe('source URLs API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  const tokens: Record<string, string | undefined> = {};
  let reuters: Record<string, unknown> & { id: string };

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(beta, 'research@beta.test', { is_research: true });
    Object.assign(tokens, await t.signInAudiences(acme));
    tokens['beta'] = await t.login(beta, 'research@beta.test');
    const created = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: { url: 'https://www.reuters.com/markets/', alias: 'Reuters markets' } });
    assert.equal(created.statusCode, 201, created.body);
    reuters = created.json();
  });
  after(() => t.close());

  const create = (payload: object, role = 'research', tenant = acme) => t.request(tenant, { method: 'POST', url: `${BASE}/`, token: tokens[role], payload });

  it('only research users and admins read or write source URLs', async () => {
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/` })).statusCode, 401);
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/`, token: tokens['paywall'] })).statusCode, 403);
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${reuters.id}/`, token: tokens['paywall'] })).statusCode, 403);
    assert.equal((await create({ url: 'example.org' }, 'paywall')).statusCode, 403);
    for (const role of ['research', 'admin']) {
      const list = await t.request(acme, { method: 'GET', url: `${BASE}/`, token: tokens[role] });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().results.map((row: { alias: string }) => row.alias), ['Reuters markets'], role);
      assert.equal(list.json().count, 1);
    }
  });

  it('stores the URL normalized, named by its alias (or the URL)', async () => {
    const response = await create({ url: '  ft.com/companies ' });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.json().url, 'https://ft.com/companies');
    assert.equal(response.json().display_name, 'https://ft.com/companies');
    assert.equal(reuters.url, 'https://www.reuters.com/markets/');
    assert.equal(reuters.display_name, 'Reuters markets');
    const search = await t.request(acme, { method: 'GET', url: `${BASE}/?search=reuters`, token: tokens['research'] });
    assert.equal(search.json().count, 1);
  });

  it('refuses the same address again (scheme, www, case and trailing slash aside) with a 400 naming url', async () => {
    for (const url of ['http://reuters.com/markets', 'https://WWW.Reuters.com/Markets/', 'reuters.com/markets/']) {
      const response = await create({ url, alias: 'again' });
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.match(response.json().errors.url[0], /already a source/);
    }
    const other = (await create({ url: 'https://bloomberg.com' })).json();
    const clash = await t.request(acme, { method: 'PATCH', url: `${BASE}/${other.id}/`, token: tokens['research'], payload: { url: 'reuters.com/markets' } });
    assert.equal(clash.statusCode, 400);
    assert.ok(clash.json().errors.url);
    const own = await t.request(acme, { method: 'PATCH', url: `${BASE}/${reuters.id}/`, token: tokens['research'], payload: { url: 'https://reuters.com/markets' } });
    assert.equal(own.statusCode, 200, own.body);
  });

  it('another tenant may keep the same address, and cannot see ours', async () => {
    assert.equal((await create({ url: 'https://www.reuters.com/markets/' }, 'beta', beta)).statusCode, 201);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await t.request(beta, { method, url: `${BASE}/${reuters.id}/`, token: tokens['beta'], ...(method === 'PATCH' ? { payload: { alias: 'x' } } : {}) });
      assert.equal(response.statusCode, 404, method);
    }
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['no URL', { alias: 'x' }, 'url'],
    ['a blank URL', { url: '  ' }, 'url'],
    ['a URL that is not web', { url: 'ftp://files.example.org' }, 'url'],
    ['a URL that is not text', { url: 42 }, 'url'],
    ['a single-label host', { url: 'intranet' }, 'url'],
    ['an alias too long', { url: 'https://long.example.org', alias: 'x'.repeat(201) }, 'alias'],
    ['an unknown field', { url: 'https://x.example.org', visibility: 'public' }, 'visibility'],
  ];
  for (const [what, payload, field] of bad) {
    it(`rejects ${what} with a 400 naming ${field}`, async () => {
      const response = await create(payload);
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.json().errors[field], response.body);
    });
  }

  it('research users delete a source; it then counts no more', async () => {
    const doomed = (await create({ url: 'https://doomed.example.org' })).json();
    const before = (await t.request(acme, { method: 'GET', url: `${BASE}/`, token: tokens['research'] })).json().count;
    assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${doomed.id}/`, token: tokens['research'] })).statusCode, 204);
    const after = (await t.request(acme, { method: 'GET', url: `${BASE}/`, token: tokens['research'] })).json().count;
    assert.equal(after, before - 1);
    const counts = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count', token: tokens['admin'] })).json();
    assert.equal(counts.source.hidden_count, after);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/keywords';

describe('keywords API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    for (const [key, body] of Object.entries({
      open: { name: 'Fintech', visibility: 'public' },
      paid: { name: 'Payments', visibility: 'paywalled' },
      secret: { name: 'Stealth', visibility: 'hidden' },
    })) {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: body });
      assert.equal(response.statusCode, 201, response.body);
      ids[key] = response.json().id;
    }
  });
  after(() => t.close());

  const create = (payload: unknown, role = 'research') => t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens[role], payload: payload as object });

  it('reads by visibility: public sees public, paywall public and paywalled, research (curators) and admins all', async () => {
    const expected: Record<string, string[]> = {
      public: ['Fintech'],
      paywall: ['Fintech', 'Payments'],
      research: ['Fintech', 'Payments', 'Stealth'],
      admin: ['Fintech', 'Payments', 'Stealth'],
    };
    for (const [role, names] of Object.entries(expected)) {
      const response = await t.request(acme, { method: 'GET', url: `${BASE}/?ordering=name`, token: tokens[role] });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().results.map((row: { name: string }) => row.name), names, role);
      assert.equal(response.json().count, names.length, role);
    }
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['secret']}/`, token: tokens['paywall'] })).statusCode, 404);
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['secret']}/`, token: tokens['research'] })).statusCode, 200);
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['paid']}/` })).statusCode, 404);
  });

  it('new keywords are public by default; only research and admin write', async () => {
    assert.equal((await create({ name: 'Nope' }, 'public')).statusCode, 401);
    assert.equal((await create({ name: 'Nope' }, 'paywall')).statusCode, 403);
    const created = await create({ name: 'Climate' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().visibility, 'public');
    assert.equal(created.json().display_name, 'Climate');
  });

  it('refuses a duplicate name ignoring case with a 400 naming name, on create and on edit', async () => {
    for (const name of ['fintech', 'FINTECH', '  Fintech ']) {
      const response = await create({ name });
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().errors.name[0], /already exists/);
    }
    const other = (await create({ name: 'Insurtech' })).json();
    const renamed = await t.request(acme, { method: 'PATCH', url: `${BASE}/${other.id}/`, token: tokens['research'], payload: { name: 'payments' } });
    assert.equal(renamed.statusCode, 400);
    assert.ok(renamed.json().errors.name);
    // Changing only the case of its own name is not a duplicate.
    const recased = await t.request(acme, { method: 'PATCH', url: `${BASE}/${other.id}/`, token: tokens['research'], payload: { name: 'INSURTECH' } });
    assert.equal(recased.statusCode, 200, recased.body);
    assert.equal(recased.json().name, 'INSURTECH');
  });

  it('concurrent creates of one name leave one keyword; the others get a 400 or 409, never a 500', async () => {
    const responses = await Promise.all(['Race', 'race', 'RACE', 'Race', 'rAce'].map((name) => create({ name })));
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1, statuses.join(','));
    assert.ok(statuses.every((status) => [201, 400, 409].includes(status)), statuses.join(','));
  });

  it('the same name is fine in another tenant', async () => {
    const response = await t.request(beta, { method: 'POST', url: `${BASE}/`, token: tokens['beta'], payload: { name: 'Fintech' } });
    assert.equal(response.statusCode, 201, response.body);
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['no name', { description: 'x' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name that is not text', { name: 7 }, 'name'],
    ['a name too long', { name: 'x'.repeat(101) }, 'name'],
    ['a description too long', { name: 'Long', description: 'x'.repeat(5001) }, 'description'],
    ['a bad visibility', { name: 'Vis', visibility: 'secret' }, 'visibility'],
    ['a non-boolean flag', { name: 'Flag', show_on_dashboard: 'maybe' }, 'show_on_dashboard'],
    ['an unknown field', { name: 'Unknown', colour: 'red' }, 'colour'],
  ];
  for (const [what, payload, field] of bad) {
    it(`rejects ${what} with a 400 naming ${field}`, async () => {
      const response = await create(payload);
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.json().errors[field], response.body);
    });
  }

  it("another tenant's keyword is a 404 for read, edit and delete", async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await t.request(beta, {
        method,
        url: `${BASE}/${ids['open']}/`,
        token: tokens['beta'],
        ...(method === 'PATCH' ? { payload: { description: 'x' } } : {}),
      });
      assert.equal(response.statusCode, 404, method);
    }
  });

  it('deleting a keyword removes it from the terms that carry it', async () => {
    const keyword = (await create({ name: 'Doomed' })).json();
    const term = await t.request(acme, { method: 'POST', url: '/api/v1/terminology/', token: tokens['research'], payload: { term: 'Runway', keywords: [keyword.id, ids['open']] } });
    assert.equal(term.statusCode, 201, term.body);
    assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${keyword.id}/`, token: tokens['research'] })).statusCode, 204);
    const after = await t.request(acme, { method: 'GET', url: `/api/v1/terminology/${term.json().id}/`, token: tokens['research'] });
    assert.deepEqual(after.json().keywords.map((ref: { id: string }) => ref.id), [ids['open']]);
  });
});

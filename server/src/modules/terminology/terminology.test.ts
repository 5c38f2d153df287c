import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/terminology';

describe('terminology API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};
  let keyword: string;
  let hiddenKeyword: string;
  let betaKeyword: string;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    const newKeyword = async (tenant: TenantRow, token: string | undefined, body: object) =>
      (await t.request(tenant, { method: 'POST', url: '/api/v1/keywords/', token, payload: body })).json().id as string;
    keyword = await newKeyword(acme, tokens['admin'], { name: 'Finance' });
    hiddenKeyword = await newKeyword(acme, tokens['admin'], { name: 'Internal', visibility: 'hidden' });
    betaKeyword = await newKeyword(beta, tokens['beta'], { name: 'Finance' });
    for (const [key, body] of Object.entries({
      open: { term: 'EBITDA', definition: 'Earnings before interest, taxes,\ndepreciation and amortization.', keywords: [keyword, hiddenKeyword] },
      paid: { term: 'CAGR', definition: 'Compound annual growth rate.', visibility: 'paywalled' },
      secret: { term: 'Burn rate', visibility: 'hidden' },
    })) {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: body });
      assert.equal(response.statusCode, 201, response.body);
      ids[key] = response.json().id;
    }
  });
  after(() => t.close());

  const create = (payload: object, role = 'research') => t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens[role], payload });

  it('reads by visibility, alphabetically on request', async () => {
    const expected: Record<string, string[]> = {
      public: ['EBITDA'],
      paywall: ['CAGR', 'EBITDA'],
      research: ['Burn rate', 'CAGR', 'EBITDA'],
      admin: ['Burn rate', 'CAGR', 'EBITDA'],
    };
    for (const [role, terms] of Object.entries(expected)) {
      const response = await t.request(acme, { method: 'GET', url: `${BASE}/?ordering=term`, token: tokens[role] });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().results.map((row: { term: string }) => row.term), terms, role);
    }
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['paid']}/` })).statusCode, 404);
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['secret']}/`, token: tokens['paywall'] })).statusCode, 404);
    assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['secret']}/`, token: tokens['research'] })).statusCode, 200);
  });

  it('keeps the definition as written and shows only the keywords a reader may see', async () => {
    const forPublic = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/` })).json();
    assert.equal(forPublic.definition, 'Earnings before interest, taxes,\ndepreciation and amortization.');
    assert.deepEqual(forPublic.keywords, [{ id: keyword, display_name: 'Finance', kind: 'keyword' }]);
    const forAdmin = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['admin'] })).json();
    assert.equal(forAdmin.keywords.length, 2);
  });

  it('new terms are public; research writes, paywall readers do not', async () => {
    assert.equal((await create({ term: 'Nope' }, 'public')).statusCode, 401);
    assert.equal((await create({ term: 'Nope' }, 'paywall')).statusCode, 403);
    const created = await create({ term: 'Runway', definition: 'Months of cash left.' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().visibility, 'public');
    const edited = await t.request(acme, { method: 'PATCH', url: `${BASE}/${created.json().id}/`, token: tokens['research'], payload: { keywords: [keyword] } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().definition, 'Months of cash left.');
    assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${created.json().id}/`, token: tokens['paywall'] })).statusCode, 403);
    assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${created.json().id}/`, token: tokens['research'] })).statusCode, 204);
  });

  it('a research user (a curator) sees a term\'s hidden keywords and edits them like any other', async () => {
    const shown = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['research'] })).json();
    assert.equal(shown.keywords.length, 2);
    const edited = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['research'], payload: { keywords: [keyword] } });
    assert.equal(edited.statusCode, 200);
    const forAdmin = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['admin'] })).json();
    assert.equal(forAdmin.keywords.length, 1);
  });

  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['no term', { definition: 'x' }, 'term'],
    ['a blank term', { term: ' ' }, 'term'],
    ['a term too long', { term: 'x'.repeat(301) }, 'term'],
    ['a definition too long', { term: 'Long', definition: 'x'.repeat(20_001) }, 'definition'],
    ['keywords that are not ids', { term: 'K', keywords: ['finance'] }, 'keywords'],
    ['keywords not a list', { term: 'K', keywords: 'x' }, 'keywords'],
    ['an unknown keyword', { term: 'K', keywords: ['00000000-0000-0000-0000-000000000000'] }, 'keywords'],
    ['a bad visibility', { term: 'K', visibility: 'everyone' }, 'visibility'],
  ];
  for (const [what, payload, field] of bad) {
    it(`rejects ${what} with a 400 naming ${field}`, async () => {
      const response = await create(payload);
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.json().errors[field], response.body);
    });
  }

  it("another tenant's keyword is unknown here, and its terms are 404s there", async () => {
    const response = await create({ term: 'Cross', keywords: [betaKeyword] });
    assert.equal(response.statusCode, 400);
    assert.ok(response.json().errors.keywords);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const other = await t.request(beta, { method, url: `${BASE}/${ids['open']}/`, token: tokens['beta'], ...(method === 'PATCH' ? { payload: { term: 'x' } } : {}) });
      assert.equal(other.statusCode, 404, method);
    }
  });

  it('counts terms by visibility', async () => {
    const counts = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count', token: tokens['admin'] })).json();
    assert.deepEqual([counts.terminology.public_count, counts.terminology.paywall_count, counts.terminology.hidden_count], [1, 1, 1]);
  });
});

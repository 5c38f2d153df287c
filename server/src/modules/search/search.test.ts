import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

describe('quick search and entity counts', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let admin: string;
  let reader: string;

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(acme, 'reader@acme.test');
    await t.createUser(beta, 'admin@beta.test', { is_admin: true });
    admin = await t.login(acme, 'admin@acme.test');
    reader = await t.login(acme, 'reader@acme.test');
    const betaAdmin = await t.login(beta, 'admin@beta.test');
    const create = (tenant: TenantRow, token: string, path: string, payload: object) =>
      t.request(tenant, { method: 'POST', url: `/api/v1/assets/${path}/`, token, payload });
    await create(acme, admin, 'organizations', { name_inc: 'Globex Corporation', visibility: 'public' });
    await create(acme, admin, 'organizations', { name_inc: 'Global Dynamics', visibility: 'public' });
    await create(acme, admin, 'organizations', { name_inc: 'Mega Globex Holdings', visibility: 'paywalled' });
    await create(acme, admin, 'organizations', { name_inc: 'Globex Secret Arm', visibility: 'hidden' });
    await create(acme, admin, 'organizations', { name_inc: 'Zoë Ångström Labs', visibility: 'public' });
    await create(acme, admin, 'people', { name_given: 'Hank', name_family: 'Scorpio', visibility: 'public' });
    await create(acme, admin, 'people', { name_given: 'Globex', name_family: 'Fan', visibility: 'paywalled' });
    await create(beta, betaAdmin, 'organizations', { name_inc: 'Globex Beta Branch', visibility: 'public' });
  });
  after(() => t.close());

  const search = (query: string, token?: string) => t.request(acme, { method: 'GET', url: `/api/v1/search/?${query}`, token });
  const names = (response: Awaited<ReturnType<typeof search>>) =>
    response.json().results.map((result: { display_name: string }) => result.display_name);

  it('ranks exact and prefix matches first, respects visibility and tenant', async () => {
    const response = await search('q=globex');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(names(response), ['Globex Corporation']);
    const forReader = names(await search('q=globex', reader));
    assert.deepEqual(forReader.slice(0, 2), ['Globex Corporation', 'Mega Globex Holdings']);
    assert.ok(forReader.includes('Globex Fan'));
    assert.ok(!forReader.includes('Globex Secret Arm'));
    assert.ok(names(await search('q=globex', admin)).includes('Globex Secret Arm'));
    assert.ok(!names(await search('q=globex', admin)).includes('Globex Beta Branch'), 'never another tenant');
  });

  it('results carry id, type, display_name and slug', async () => {
    const [first] = (await search('q=hank')).json().results;
    assert.deepEqual(Object.keys(first).sort(), ['display_name', 'id', 'slug', 'type']);
    assert.equal(first.type, 'Person');
  });

  it('tolerates typos, accents and case', async () => {
    assert.ok(names(await search('q=globx')).includes('Globex Corporation'), 'typo');
    assert.deepEqual(names(await search('q=ZOE%20angstrom')), ['Zoë Ångström Labs']);
    assert.deepEqual(names(await search('q=SCORPIO')), ['Hank Scorpio']);
  });

  it('ranks in tiers: exact, starts with (name order), contains (word start first), then typos', async () => {
    const gamma = await t.createTenant('gamma');
    await t.createUser(gamma, 'admin@gamma.test', { is_admin: true });
    const token = await t.login(gamma, 'admin@gamma.test');
    // Created in scrambled order so that insertion order cannot pass for ranking.
    for (const name of ['Casanova Films', 'Novara Group', 'Super Nova Ltd', 'Nova Labs', 'Nova', 'Unrelated Works']) {
      const created = await t.request(gamma, { method: 'POST', url: '/api/v1/assets/organizations/', token, payload: { name_inc: name } });
      assert.equal(created.statusCode, 201);
    }
    const ranked = async (query: string) =>
      (await t.request(gamma, { method: 'GET', url: `/api/v1/search/?${query}`, token })).json().results.map(
        (result: { display_name: string }) => result.display_name,
      );
    assert.deepEqual(await ranked('q=nova'), ['Nova', 'Nova Labs', 'Novara Group', 'Super Nova Ltd', 'Casanova Films']);
    assert.deepEqual(await ranked('q=nova&limit=2'), ['Nova', 'Nova Labs'], 'a full first tier is the answer');
    assert.equal((await ranked('q=NOVA%20l'))[0], 'Nova Labs', 'case-insensitive prefix over several words');
    const typo = await ranked('q=novas');
    assert.equal(typo[0], 'Nova', 'closest by word similarity first');
    assert.ok(typo.includes('Nova Labs') && !typo.includes('Unrelated Works'));
  });

  it('a word of the name: records with the word itself first, each record once, following edits and deletes', async () => {
    const delta = await t.createTenant('delta');
    await t.createUser(delta, 'admin@delta.test', { is_admin: true });
    const token = await t.login(delta, 'admin@delta.test');
    const ids: Record<string, string> = {};
    for (const name of ['Blue Novara Trust', 'Red Nova Novara Group', 'Green Nova Works', 'Quiet Fields']) {
      const created = await t.request(delta, { method: 'POST', url: '/api/v1/assets/organizations/', token, payload: { name_inc: name, hq_city: 'Novi Sad' } });
      assert.equal(created.statusCode, 201, created.body);
      ids[name] = created.json().id;
    }
    const ranked = async (q: string) =>
      (await t.request(delta, { method: 'GET', url: `/api/v1/search/?q=${encodeURIComponent(q)}&type=Organization`, token })).json().results.map(
        (result: { display_name: string }) => result.display_name,
      );
    const nova = await ranked('nova');
    assert.deepEqual(nova.slice(0, 2).sort(), ['Green Nova Works', 'Red Nova Novara Group'], 'the word itself first');
    assert.equal(nova[2], 'Blue Novara Trust', 'then longer words');
    assert.equal(nova.length, 3, 'a record with "nova" and "novara" once');
    assert.deepEqual((await ranked('novi')).sort(), ['Blue Novara Trust', 'Green Nova Works', 'Quiet Fields', 'Red Nova Novara Group'], 'other fields: the city');
    const edited = await t.request(delta, { method: 'PATCH', url: `/api/v1/assets/organizations/${ids['Green Nova Works']}/`, token, payload: { name_inc: 'Green Orbit Works' } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.ok(!(await ranked('nova')).includes('Green Orbit Works'), 'an old name word is gone');
    assert.deepEqual(await ranked('orbit'), ['Green Orbit Works'], 'a new one is found');
    await t.request(delta, { method: 'DELETE', url: `/api/v1/assets/organizations/${ids['Blue Novara Trust']}/`, token });
    assert.deepEqual(await ranked('novara'), ['Red Nova Novara Group'], 'a deleted record is gone');
  });

  it('filters by type and limits per type', async () => {
    const people = (await search('q=globex&type=Person', reader)).json().results;
    assert.ok(people.every((result: { type: string }) => result.type === 'Person'));
    const limited = (await search('q=glob&limit=1', admin)).json().results;
    assert.equal(limited.filter((result: { type: string }) => result.type === 'Organization').length, 1);
  });

  it('finds keywords only when asked for (type=Keyword), as SPEC §2 lists no keyword results', async () => {
    const created = await t.request(acme, { method: 'POST', url: '/api/v1/keywords/', token: admin, payload: { name: 'Globex watch' } });
    assert.equal(created.statusCode, 201, created.body);
    assert.ok(!(await search('q=globex', admin)).json().results.some((result: { type: string }) => result.type === 'Keyword'));
    const asked = (await search('q=globex&type=Keyword,Organization', admin)).json().results as Array<{ type: string; display_name: string }>;
    assert.ok(asked.some((result) => result.type === 'Keyword' && result.display_name === 'Globex watch'), JSON.stringify(asked));
    assert.ok(asked.some((result) => result.type === 'Organization'));
  });

  it('an empty q returns no results; bad parameters are 400s', async () => {
    assert.deepEqual((await search('q=')).json(), { results: [] });
    assert.deepEqual((await search('')).json(), { results: [] });
    assert.equal((await search('q=x&type=Spaceship')).statusCode, 400);
    assert.equal((await search('q=x&limit=abc')).statusCode, 400);
    assert.equal((await search(`q=${'x'.repeat(201)}`)).statusCode, 400);
  });

  describe('entity counts', () => {
    it('free-ahead counts need no auth and show public and paywall counts only', async () => {
      const response = await t.request(acme, { method: 'GET', url: '/api/v1/tools/free-ahead-entities-count/' });
      assert.equal(response.statusCode, 200);
      const counts = response.json();
      assert.deepEqual(counts.organizations, { public_count: 3, paywall_count: 1 });
      assert.deepEqual(counts.people, { public_count: 1, paywall_count: 1 });
      assert.deepEqual(counts.library, { public_count: 0, paywall_count: 0 }, 'kinds not built yet report zeros');
      assert.equal(Object.keys(counts).length, 17);
    });

    it('entities-count needs sign-in; only admins get hidden counts', async () => {
      assert.equal((await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count/' })).statusCode, 401);
      const forReader = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count/', token: reader })).json();
      assert.equal(forReader.organizations.hidden_count, undefined);
      const forAdmin = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count/', token: admin })).json();
      assert.deepEqual(forAdmin.organizations, { public_count: 3, paywall_count: 1, hidden_count: 1 });
      assert.equal(forAdmin.users.hidden_count, 2);
    });

    it('counters follow visibility changes and deletes', async () => {
      const created = (await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/', token: admin, payload: { name_inc: 'Counted' } })).json();
      const count = async () => (await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count/', token: admin })).json().organizations;
      assert.equal((await count()).hidden_count, 2);
      await t.request(acme, { method: 'PATCH', url: `/api/v1/assets/organizations/${created.id}/`, token: admin, payload: { visibility: 'public' } });
      assert.deepEqual(await count(), { public_count: 4, paywall_count: 1, hidden_count: 1 });
      await t.request(acme, { method: 'DELETE', url: `/api/v1/assets/organizations/${created.id}/`, token: admin });
      assert.deepEqual(await count(), { public_count: 3, paywall_count: 1, hidden_count: 1 });
    });
  });
});

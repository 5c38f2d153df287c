/**
 * Issue 27: the Operator never answers a silently broadened query (a partial answer has no list
 * request until accepted), refuses changes plainly, and reads each class of meaning — negation,
 * created/updated timestamps, list membership and lists naming the subject, ownership types and
 * nationality adjectives from the tenant's own values, superlatives on the right field,
 * currencies as amounts, misspelt values and subjects (with the correction said), relations
 * through the engine's link filters, lists as the subject, countries of organizations' cities,
 * questions that name no subject — as list calls
 * that run, for each audience, without ever naming or counting a hidden row.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OperatorAnswer } from '../../contracts.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { seedGeography } from '../geos/geo-seed.ts';

const ASK = '/api/v1/ai-assistant/queries/nlp-to-query/';
type Json = Record<string, unknown> & { id: string };

describe('Operator meanings (issue 27)', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const create = async (path: string, payload: Record<string, unknown>): Promise<Json> => {
    const response = await t.request(acme, { method: 'POST', url: `/api/v1${path}/`, token: tokens['admin'], payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Json;
  };
  const ask = (query: string, role = 'admin', extra: Record<string, unknown> = {}) =>
    t.request(acme, { method: 'POST', url: ASK, token: tokens[role], payload: { query, ...extra } });
  const answer = async (query: string, role = 'admin', extra: Record<string, unknown> = {}): Promise<OperatorAnswer> => {
    const response = await ask(query, role, extra);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as OperatorAnswer;
  };
  /** The list parameters of a fully understood answer (without its page size). */
  const params = async (query: string, role = 'admin'): Promise<Record<string, string>> => {
    const got = await answer(query, role);
    assert.deepEqual(got.not_understood, [], `${query}: ${got.explanation}`);
    assert.ok(got.list, query);
    const { limit: _limit, ...rest } = got.list.params;
    return rest;
  };
  /** The names of the rows an answer's list call returns, as the role. */
  const rows = async (got: OperatorAnswer, role = 'admin'): Promise<string[]> => {
    assert.ok(got.list);
    const response = await t.request(acme, { method: 'GET', url: `/api/v1${got.list.path}?${new URLSearchParams({ ...got.list.params, limit: '100' })}`, token: tokens[role] });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json() as { results: Json[] }).results.map((row) => String(row['display_name'])).sort();
  };

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
    const org = async (key: string, payload: Record<string, unknown>) => {
      ids[key] = (await create('/assets/organizations', { name_inc: key, visibility: 'public', ...payload })).id;
    };
    await org('Acme Robotics', { hq_city: 'London', ownership_type: 'Private', founding_date: '1990' });
    await org('Globex', { hq_city: 'Zürich', ownership_type: 'State-owned', founding_date: '2015' });
    await org('Initech', { hq_city: 'Paris', ownership_type: 'Public', founding_date: '1880' });
    await org('Hidden Co', { hq_city: 'London', ownership_type: 'Private', founding_date: '2021', visibility: 'hidden' });
    ids['top'] = (await create('/lists', { name: 'Top Fintech 2024', kind: 'OrganizationsList', visibility: 'public', auto_tagging: false })).id;
    ids['secretList'] = (await create('/lists', { name: 'Secret Picks', kind: 'OrganizationsList', visibility: 'hidden', auto_tagging: false })).id;
    for (const [list, members] of [['top', ['Acme Robotics', 'Hidden Co']], ['secretList', ['Globex']]] as const) {
      for (const member of members) {
        const response = await t.request(acme, { method: 'POST', url: `/api/v1/lists/${ids[list]}/items/`, token: tokens['admin'], payload: { id: ids[member] } });
        assert.ok(response.statusCode < 300, response.body);
      }
    }
    const person = (given: string, family: string, payload: Record<string, unknown>) =>
      create('/assets/people', { name_given: given, name_family: family, visibility: 'public', ...payload });
    ids['Jane Doe'] = (await person('Jane', 'Doe', { current_address_city: 'London', passport_country: 'United Kingdom', birth_date: '1980', gender: 'F' })).id;
    ids['Jean Dupont'] = (await person('Jean', 'Dupont', { current_address_city: 'Paris', passport_country: 'France', birth_date: '1950', gender: 'M' })).id;
    await person('Aiko', 'Sato', { current_address_city: 'Tokyo', passport_country: 'Japan', birth_date: '2001', gender: 'F' });
    ids['big'] = (await create('/assets/ledger', { caption: 'Big round', amount: '2000000000', currency: 'USD', year: 2022, visibility: 'public', organizations: [ids['Acme Robotics']], people: [ids['Jane Doe']] })).id;
    ids['euro'] = (await create('/assets/ledger', { caption: 'Euro round', amount: '5000000', currency: 'EUR', year: 2021, visibility: 'public', organizations: [ids['Initech']] })).id;
    await create('/assets/ledger', { caption: 'Secret round', year: 2020, visibility: 'hidden', organizations: [ids['Globex']], people: [ids['Jean Dupont']] });
    await create('/assets/investments', { ledger_entry: ids['big'], owner: ids['Globex'], visibility: 'public' });
    await create('/assets/investments', { ledger_entry: ids['euro'], owner_person: ids['Jane Doe'], visibility: 'public' });
    // Countries of organizations are the countries of their cities (GeoNames' cities, seeded at start in the app).
    await seedGeography(t.db);
  });
  after(() => t?.close());

  it('a question with words it does not understand answers no list request until the partial query is accepted', async () => {
    const partial = await answer('organizations in London with more than 500 employees');
    assert.equal(partial.partial, true);
    assert.equal(partial.list, null, 'no result set: the rest alone would answer more than was asked');
    assert.ok(partial.not_understood.some((words) => /employees/.test(words)), JSON.stringify(partial.not_understood));
    assert.deepEqual(partial.query.conditions.map((condition) => condition.param), ['hq_city'], 'the understood part is still shown');
    const accepted = await answer('organizations in London with more than 500 employees', 'admin', { accept_partial: true });
    assert.equal(accepted.partial, true);
    assert.deepEqual(accepted.list?.params, { hq_city: 'London', limit: '25' });
    const whole = await answer('organizations in London');
    assert.equal(whole.partial, false);
    assert.ok(whole.list);
    // "with a good ESG score" is not read as a text search that would look like an answer.
    const esg = await answer('ledger entries with a good ESG score');
    assert.equal(esg.list, null);
    assert.equal(esg.query.search, null);
  });

  it('refuses requests to change data, saying it is read-only, for every audience', async () => {
    for (const [question, role] of [
      ['delete all organizations in London', 'admin'], ['add Jane Doe to the Key Investors list', 'admin'], ['rename Acme Robotics to Acme AI', 'research'],
      ['make all hidden people public', 'admin'], ['Please create a new organization called Foo', 'paywall'], ['can you update the founding date of Globex to 2019', 'public'],
      ["I'd like to remove Jane Doe from the Key Investors list", 'admin'], ['hide all people in London', 'research'], ['please star Globex', 'paywall'],
    ] as const) {
      const response = await ask(question, role);
      assert.equal(response.statusCode, 400, question);
      const body = response.json() as { code: string; detail: string; errors: Record<string, string[]> };
      assert.equal(body.code, 'read_only', question);
      assert.match(body.detail, /read-only: it cannot \w+ records, and nothing was changed/);
      assert.ok(body.errors['query']);
    }
    assert.equal((await ask('organizations created before 2020')).statusCode, 200, 'a past participle reads');
  });

  it('keyword-style questions, names before the subject, bare years and stakes, with real records (third round)', async () => {
    // Each run of words is a value the tenant has: a city, an ownership type, a record's name.
    assert.deepEqual(await params('london private cos'), { hq_city: 'London', ownership_type: 'Private' });
    assert.deepEqual(await rows(await answer('london private cos')), ['Acme Robotics', 'Hidden Co']);
    assert.deepEqual(await rows(await answer('london private cos', 'paywall'), 'paywall'), ['Acme Robotics']);
    assert.deepEqual(await params('acme robotics deals'), { organizations: ids['Acme Robotics']! });
    assert.deepEqual(await params('ledger 2021'), { year: '2021' });
    assert.deepEqual(await params('deals 2021-2022'), { year__gte: '2021', year__lte: '2022' });
    assert.deepEqual(await params('deals globex has a stake in'), { investors: ids['Globex']! });
    assert.deepEqual(await rows(await answer('ppl who put money into initech')), ['Jane Doe']);
    // A word that no value, record or phrasing reads is still reported, and nothing runs.
    const unknown = await answer('london private cos with unicorn status');
    assert.equal(unknown.list, null);
    assert.ok(unknown.not_understood.some((words) => /unicorn/.test(words)), JSON.stringify(unknown.not_understood));
    // A look-alike is taken only when every word written is like one of its name: "acme robotics
    // series b" is no organization (flagged), never Acme Robotics in silence.
    const series = await answer('people linked to acme robotics series b');
    assert.equal(series.list, null);
    assert.deepEqual(series.corrections, []);
    // "public" beside an ownership type is one; alone it is the visibility.
    assert.deepEqual(await params('private or public companies'), { ownership_type: 'Private,Public' });
    assert.deepEqual(await params('public companies in London'), { visibility: 'public', hq_city: 'London' });
  });

  it('negation in its phrasings', async () => {
    assert.deepEqual(await params("people who don't live in London"), { current_address_city__not: 'London' });
    assert.deepEqual(await params('people who do not live in London'), { current_address_city__not: 'London' });
    assert.deepEqual(await params('companies that are not private'), { ownership_type__not: 'Private' });
    assert.deepEqual(await params('ledger entries not in US dollars'), { currency__not: 'USD' });
    assert.deepEqual(await params("library entries that aren’t articles"), { type__not: 'Article' });
    assert.deepEqual(await params('everyone except people with a French passport'), { passport_country__not: 'France' });
  });

  it('created and updated dates each to their own timestamp, founded to the founding date', async () => {
    assert.deepEqual(await params('ledger entries created in 2019'), { created_at_after: '2019-01-01', created_at_before: '2020-01-01' });
    assert.deepEqual(await params('organizations created before 2020'), { created_at_before: '2020-01-01' });
    assert.deepEqual(await params('organizations founded before 2020'), { founding_date__lt: '2020' });
    const today = new Date().toISOString().slice(0, 10);
    const modified = await params('library entries modified today');
    assert.equal(modified['updated_at_after'], today);
    assert.deepEqual(await rows(await answer('organizations added this year')), ['Acme Robotics', 'Globex', 'Hidden Co', 'Initech']);
    assert.deepEqual(await rows(await answer('organizations created before 2020')), []);
    assert.deepEqual((await answer('most recently updated people')).query.ordering, [{ field: 'updated_at', descending: true }]);
  });

  it('list membership, by the list named, among lists the caller may see', async () => {
    const inTop = await answer('organizations in the Top Fintech 2024 list');
    assert.deepEqual(inTop.list?.params, { lists: ids['top'], limit: '25' });
    assert.deepEqual(await rows(inTop), ['Acme Robotics', 'Hidden Co']);
    assert.deepEqual(await rows(inTop, 'paywall'), ['Acme Robotics'], 'a hidden member is neither shown nor counted');
    assert.deepEqual(await params('Top Fintech 2024 companies based in London'), { lists: ids['top']!, hq_city: 'London' });
    // A hidden list is a name nobody has for a reader: its members are none for them (an empty
    // answer, never a broader one), the same as for a list nobody has, and its id is never sent.
    const secret = await answer('organizations in the Secret Picks list', 'paywall');
    const nobody = await answer('organizations in the Absent Picks list', 'paywall');
    assert.deepEqual(secret.list?.params, { lists: '00000000-0000-0000-0000-000000000000', limit: '25' });
    assert.deepEqual(nobody.list?.params, secret.list?.params);
    assert.deepEqual(await rows(secret, 'paywall'), []);
    assert.ok(!JSON.stringify(secret).includes(ids['secretList']!));
    assert.match(secret.explanation, /No list of organizations named “Secret Picks” is visible to you/);
    // Named alone, such a list is looked for among the lists the reader may see: none.
    const alone = await answer('secret picks list', 'paywall');
    assert.equal(alone.query.entity, 'lists');
    assert.deepEqual(await rows(alone, 'paywall'), []);
    assert.ok(!JSON.stringify(alone).includes(ids['secretList']!));
    assert.deepEqual(await params('organizations in the Secret Picks list'), { lists: ids['secretList']! });
  });

  it('ownership types and nationality adjectives from the tenant values', async () => {
    assert.deepEqual(await params('private companies in London'), { ownership_type: 'Private', hq_city: 'London' });
    assert.deepEqual(await params('state-owned organizations'), { ownership_type: 'State-owned' });
    assert.deepEqual(await params('government-owned enterprises'), { ownership_type: 'State-owned' });
    assert.deepEqual(await params('publicly listed companies'), { ownership_type: 'Public' });
    assert.deepEqual(await params('British people'), { passport_country: 'United Kingdom' });
    assert.deepEqual(await params('French passport holders'), { passport_country: 'France' });
    assert.deepEqual(await params('Japanese women'), { passport_country: 'Japan', gender: 'F' });
  });

  it('superlatives order by the right field, among records with a value, one for a singular subject', async () => {
    assert.deepEqual(await params('the oldest organization'), { ordering: 'founding_date', founding_date__empty: 'false' });
    assert.equal((await answer('the oldest organization')).query.limit, 1);
    assert.deepEqual(await params('most recently founded organizations'), { ordering: '-founding_date', founding_date__empty: 'false' });
    assert.deepEqual(await params('oldest people'), { ordering: 'birth_date', birth_date__empty: 'false' });
    assert.deepEqual(await params('who is the youngest person?'), { ordering: '-birth_date', birth_date__empty: 'false' });
    assert.deepEqual(await params('largest deal in US dollars'), { currency: 'USD', ordering: '-amount', amount__empty: 'false' });
  });

  it('currencies are amounts, never regions', async () => {
    assert.deepEqual(await params('deals larger than $1 billion'), { currency: 'USD', amount__gt: '1000000000' });
    assert.deepEqual(await params('CHF deals'), { currency: 'CHF' });
    assert.deepEqual(await params('ledger entries in EUR'), { currency: 'EUR' });
    assert.deepEqual(await params('smallest euro deals'), { currency: 'EUR', ordering: 'amount', amount__empty: 'false' });
    assert.deepEqual(await rows(await answer('deals larger than $1 billion', 'public')), ['Big round']);
  });

  it('misspelt values and subjects are read as the closest, and the correction is said', async () => {
    const londn = await answer('organizations in Londn');
    assert.deepEqual(londn.list?.params, { hq_city: 'London', limit: '25' });
    assert.deepEqual(londn.corrections, [{ written: 'Londn', read: 'London' }]);
    const peple = await answer('peple in Paris');
    assert.equal(peple.query.entity, 'people');
    assert.deepEqual(peple.corrections, [{ written: 'peple', read: 'people' }]);
    assert.equal((await answer('orgnaisations founded after 2010')).query.entity, 'organizations');
    assert.deepEqual(await params('companies in Zurich'), { hq_city: 'Zürich' });
  });

  it('relations through the link filters: people linked to an organization, what an investor invested in, who invested', async () => {
    assert.deepEqual(await params('people linked to Acme Robotics'), { linked_organizations: ids['Acme Robotics']! });
    assert.deepEqual(await rows(await answer('people connected with Acme Robotics')), ['Jane Doe']);
    assert.deepEqual(await rows(await answer('people associated with Globex')), ['Jean Dupont']);
    assert.deepEqual(await rows(await answer('people associated with Globex', 'paywall'), 'paywall'), [], 'linked only through a hidden deal');
    assert.deepEqual(await params('which organizations did Globex invest in?'), { investors: ids['Globex']! });
    assert.deepEqual(await rows(await answer('companies Globex has invested in')), ['Acme Robotics']);
    assert.deepEqual(await rows(await answer('which deals did Jane Doe invest in?')), ['Euro round']);
    assert.deepEqual(await rows(await answer('organizations that invested in Acme Robotics')), ['Globex']);
    // A name nobody has is reported, never dropped.
    const nobody = await answer('which organizations did Nobody Holdings invest in?');
    assert.equal(nobody.list, null);
  });

  it('lists as the subject, and questions that name no subject', async () => {
    assert.deepEqual(await rows(await answer('show all lists')), ['Secret Picks', 'Top Fintech 2024']);
    assert.deepEqual(await rows(await answer('show all lists', 'paywall'), 'paywall'), ['Top Fintech 2024']);
    assert.deepEqual(await params('which organization lists do we have?'), { kind: 'OrganizationsList' });
    assert.deepEqual(await params('people lists'), { kind: 'PeopleList' });
    assert.deepEqual(await params('members of the Top Fintech 2024 list'), { lists: ids['top']! });
    assert.deepEqual(await params('state-owned firms'), { ownership_type: 'State-owned' });
    assert.deepEqual(await params('private ones in London'), { ownership_type: 'Private', hq_city: 'London' }, 'a subject from its ownership type');
    assert.deepEqual(await params('Britons living in London'), { passport_country: 'United Kingdom', current_address_city: 'London' });
    assert.deepEqual(await params('anything over €1M'), { amount__gt: '1000000', currency: 'EUR' });
  });

  it('organizations by country: the tenant cities of that country', async () => {
    assert.deepEqual(await params('Swiss companies'), { hq_city: 'Zürich' });
    assert.deepEqual(await rows(await answer('French organizations')), ['Initech']);
    assert.deepEqual(await params('organizations in the United Kingdom'), { hq_city: 'London' });
    assert.deepEqual(await params('companies outside France'), { hq_city__not: 'Paris' });
    // A country none of whose cities is a headquarters: asked as written, which nothing matches (never all organizations).
    const japanese = await answer('Japanese companies');
    assert.deepEqual(await rows(japanese), []);
  });
});

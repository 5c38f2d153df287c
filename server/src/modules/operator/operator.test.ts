import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { seedGeography } from '../geos/geo-seed.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const ASK = '/api/v1/ai-assistant/queries/nlp-to-query/';
const VALIDATE = '/api/v1/ai-assistant/queries/validate/';

type Json = Record<string, unknown> & { id: string };
interface Answer {
  query: { entity: string; search: string | null; conditions: Array<{ field: string; op: string; values: string[]; labels: string[]; param: string; text: string }>; ordering: unknown[]; limit: number };
  list: { path: string; params: Record<string, string> };
  explanation: string;
  not_understood: string[];
  source: string;
}

describe('Operator API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const create = async (path: string, payload: Record<string, unknown>): Promise<Json> => {
    const response = await t.request(acme, { method: 'POST', url: `/api/v1${path}/`, token: tokens['admin'], payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Json;
  };
  const ask = (query: unknown, role = 'admin') => t.request(acme, { method: 'POST', url: ASK, token: tokens[role], payload: { query, accept_partial: true } });
  // accept_partial: these tests read the understood part of partial answers too (operator-meanings.test.ts checks the default).
  const answer = async (query: string, role = 'admin'): Promise<Answer> => {
    const response = await ask(query, role);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as Answer;
  };
  const validate = (query: unknown, role = 'admin') => t.request(acme, { method: 'POST', url: VALIDATE, token: tokens[role], payload: { query } });
  /** Runs an answer's list request as the role: a normal list call. */
  const run = async (list: Answer['list'], role = 'admin') => {
    const url = `/api/v1${list.path}?${new URLSearchParams(list.params)}`;
    const response = await t.request(acme, { method: 'GET', url, token: tokens[role] });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; results: Json[] };
  };
  const names = (page: { results: Json[] }) => page.results.map((row) => row['display_name']).sort();
  const badRequest = (response: { statusCode: number; json(): unknown }, field: string, reason?: RegExp) => {
    assert.equal(response.statusCode, 400);
    const body = response.json() as { errors?: Record<string, string[]> };
    assert.ok(body.errors?.[field], `names ${field}: ${JSON.stringify(body)}`);
    if (reason) assert.match(body.errors[field]![0]!, reason);
  };

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
    ids['fintech'] = (await create('/keywords', { name: 'Fintech', visibility: 'public' })).id;
    ids['secret'] = (await create('/keywords', { name: 'Skunkworks', visibility: 'hidden' })).id;
    ids['nova'] = (await create('/assets/organizations', { name_inc: 'Nova Pay', hq_city: 'Berlin', founding_date: '2018', keywords: [ids['fintech']], visibility: 'public' })).id;
    ids['old'] = (await create('/assets/organizations', { name_inc: 'Old Bank', hq_city: 'Berlin', founding_date: '1999', emails: ['info@oldbank.example'], visibility: 'paywalled' })).id;
    ids['shadow'] = (await create('/assets/organizations', { name_inc: 'Shadow Labs', hq_city: 'Berlin', founding_date: '2020', keywords: [ids['secret']], visibility: 'hidden' })).id;
    ids['paris'] = (await create('/assets/organizations', { name_inc: 'Paris Fin', hq_city: 'Paris', founding_date: '2016', visibility: 'public' })).id;
    ids['atlantis'] = (await create('/assets/organizations', { name_inc: 'Deep Co', hq_city: 'Atlantis', visibility: 'hidden' })).id;
    ids['amelia'] = (await create('/assets/people', { name_given: 'Amelia', name_family: 'Hart', visibility: 'hidden' })).id;
    ids['jane'] = (await create('/assets/people', { name_given: 'Jane', name_family: 'Doe', visibility: 'public' })).id;
    ids['byAmeliaPublic'] = (await create('/library', { title: 'Open notes on lithium', type: 'Report', publish_date: '2023-05', authors: [ids['amelia']], visibility: 'public' })).id;
    ids['byAmeliaHidden'] = (await create('/library', { title: 'Sealed memo', type: 'Report', publish_date: '2023-07', authors: [ids['amelia']], visibility: 'hidden' })).id;
    ids['byJane'] = (await create('/library', { title: 'Jane on payments', type: 'Article', publish_date: '2022', authors: [ids['jane']], visibility: 'public' })).id;
  });
  after(() => t?.close());

  describe('bad input', () => {
    it('refuses an empty, blank, too long or non-text question with a 400 naming query', async () => {
      badRequest(await ask(''), 'query', /blank/);
      badRequest(await ask('   '), 'query', /blank/);
      badRequest(await ask(`organizations ${'x'.repeat(500)}`), 'query', /500 characters/);
      badRequest(await ask(42), 'query');
      badRequest(await t.request(acme, { method: 'POST', url: ASK, token: tokens['admin'], payload: {} }), 'query');
    });

    it('refuses NUL bytes', async () => {
      badRequest(await ask('organizations in Berlin\u0000'), 'query');
    });

    it('refuses a question about no entity type, saying what to ask', async () => {
      badRequest(await ask('what is the weather like'), 'query', /Ask about organizations, people, ledger entries, library entries or lists/);
    });

    it('refuses a bad structured query naming the path at fault', async () => {
      const good = { entity: 'organizations', search: null, conditions: [{ field: 'hq_city', op: 'is', values: ['Berlin'] }], ordering: [], limit: 25 };
      badRequest(await validate('organizations'), 'query');
      badRequest(await validate({ ...good, entity: 'planets' }), 'query.entity', /organizations, people, ledger_entries, library/);
      badRequest(await validate({ ...good, conditions: [good.conditions[0], { field: 'hq_city', op: 'near', values: ['x'] }] }), 'query.conditions[1].op', /Must be one of/);
      badRequest(await validate({ ...good, conditions: [{ field: 'colour', op: 'is', values: ['red'] }] }), 'query.conditions[0].field', /Unknown field/);
      badRequest(await validate({ ...good, conditions: [{ field: 'hq_city', op: 'gt', values: ['Berlin'] }] }), 'query.conditions[0].op', /hq_city allows: is, not, empty, not_empty/);
      badRequest(await validate({ ...good, conditions: [{ field: 'founding_date', op: 'gt', values: ['2015', '2016'] }] }), 'query.conditions[0].values', /exactly one value/);
      badRequest(await validate({ ...good, conditions: [{ field: 'founding_date', op: 'gt', values: ['last tuesday'] }] }), 'query.conditions[0].values[0]', /YYYY/);
      badRequest(await validate({ ...good, conditions: [{ field: 'keywords', op: 'is', values: ['fintech'] }] }), 'query.conditions[0].values[0]', /id of a record/);
      badRequest(await validate({ ...good, conditions: [{ field: 'emails', op: 'empty', values: ['x'] }] }), 'query.conditions[0].values', /takes no values/);
      badRequest(await validate({ ...good, conditions: [{ field: 'hq_city', op: 'is', values: ['Berlin,Paris'] }] }), 'query.conditions[0].values[0]', /comma/);
      badRequest(await validate({ ...good, conditions: [good.conditions[0], good.conditions[0]] }), 'query.conditions[1]', /already sets hq_city/);
      badRequest(await validate({ ...good, ordering: [{ field: 'colour', descending: true }] }), 'query.ordering[0].field', /Order by one of/);
      badRequest(await validate({ ...good, limit: 0 }), 'query.limit', /1 to 100/);
      badRequest(await validate({ ...good, limit: 101 }), 'query.limit');
      badRequest(await validate({ ...good, search: 'x'.repeat(201) }), 'query.search', /200 characters/);
      badRequest(await validate({ ...good, sql: 'DROP TABLE organizations' }), 'query.sql', /Unknown key/);
    });

    it('refuses a restricted field to those who may not read it, as if unknown', async () => {
      const query = { entity: 'library', search: null, conditions: [{ field: 'paywall_link', op: 'empty', values: [] }], ordering: [], limit: 25 };
      badRequest(await validate(query, 'public'), 'query.conditions[0].field', /Unknown field/);
    });
  });

  describe('answers', () => {
    it('turns a question into a structured query, its list request and an explanation', async () => {
      const result = await answer('organizations in Berlin tagged fintech, newest first');
      assert.equal(result.source, 'parser');
      assert.equal(result.query.entity, 'organizations');
      assert.deepEqual(result.query.conditions.map(({ field, op, values, labels, param }) => ({ field, op, values, labels, param })), [
        { field: 'hq_city', op: 'is', values: ['Berlin'], labels: ['Berlin'], param: 'hq_city' },
        { field: 'keywords', op: 'is', values: [ids['fintech']], labels: ['Fintech'], param: 'keywords' },
      ]);
      assert.deepEqual(result.list, { path: '/assets/organizations/', params: { hq_city: 'Berlin', keywords: ids['fintech'], ordering: '-founding_date', limit: '25' } });
      assert.equal(result.explanation, 'Organizations headquartered in Berlin, tagged “Fintech”, newest founding first.');
      assert.deepEqual(result.not_understood, []);
      assert.deepEqual(names(await run(result.list)), ['Nova Pay']);
    });

    it('resolves countries by name or code, and takes names literally', async () => {
      // Countries and regions only: the cities take a couple of seconds.
      await seedGeography(t.db, { cities: false });
      const germany = await answer('ledger entries in Germany or FR');
      assert.equal(germany.query.conditions[0]!.field, 'geos');
      assert.deepEqual(germany.query.conditions[0]!.labels, ['Germany', 'France']);
      // LIKE wildcards in a name match themselves only: "%" is no organization's name.
      const wildcard = await answer('ledger entries for %');
      assert.deepEqual(wildcard.list.params, { limit: '25' });
      assert.deepEqual(wildcard.not_understood, ['%']);
    });

    it('says what it did not understand', async () => {
      const result = await answer('purple organizations in Berlin');
      assert.deepEqual(result.not_understood, ['purple']);
      assert.deepEqual(result.list.params, { hq_city: 'Berlin', limit: '25' });
    });

    it('answers a structured query sent back by hand, with the related records named as the caller sees them', async () => {
      const response = await validate({
        entity: 'library', search: 'lithium',
        conditions: [{ field: 'authors', op: 'is', values: [ids['amelia']], labels: ['whoever'] }, { field: 'type', op: 'is', values: ['report'] }],
        ordering: [{ field: 'publish_date', descending: true }], limit: 10,
      });
      assert.equal(response.statusCode, 200, response.body);
      const result = response.json() as Answer;
      assert.equal(result.source, 'manual');
      assert.deepEqual(result.query.conditions.map((condition) => [condition.param, condition.values, condition.labels]), [
        ['authors', [ids['amelia']], ['Amelia Hart']],
        ['type', ['Report'], ['Report']],
      ]);
      assert.deepEqual(result.list.params, { search: 'lithium', authors: ids['amelia'], type: 'Report', ordering: '-publish_date', limit: '10' });
      assert.deepEqual(names(await run(result.list)), ['Open notes on lithium']);
    });
  });

  describe('lookups run through the list endpoint', () => {
    it('compares, negates and tests emptiness as the list does', async () => {
      const founded = await answer('organizations in Berlin founded after 2015');
      assert.deepEqual(founded.list.params, { hq_city: 'Berlin', founding_date__gt: '2015', limit: '25' });
      assert.deepEqual(names(await run(founded.list)), ['Nova Pay', 'Shadow Labs']);
      assert.deepEqual(names(await run(founded.list, 'public')), ['Nova Pay']);

      const notBerlin = await answer('organizations not in Berlin, alphabetically');
      assert.deepEqual(notBerlin.list.params, { hq_city__not: 'Berlin', ordering: 'display_name', limit: '25' });
      assert.deepEqual((await run(notBerlin.list)).results.map((row) => row['display_name']), ['Deep Co', 'Paris Fin']);
      assert.deepEqual(names(await run(notBerlin.list, 'public')), ['Paris Fin']);

      const noEmail = await answer('organizations in Berlin without an email');
      assert.deepEqual(names(await run(noEmail.list)), ['Nova Pay', 'Shadow Labs']);
      const withEmail = await answer('organizations with an email');
      assert.deepEqual(names(await run(withEmail.list)), ['Old Bank']);
      assert.deepEqual(names(await run(withEmail.list, 'public')), []);

      const reports = await answer('reports from 2023');
      assert.deepEqual(reports.list.params, { type: 'Report', publish_date__gte: '2023', publish_date__lte: '2023', limit: '25' });
      assert.deepEqual(names(await run(reports.list)), ['Open notes on lithium', 'Sealed memo']);
      assert.deepEqual(names(await run(reports.list, 'paywall')), ['Open notes on lithium']);
    });

    it('compares ledger amounts and currencies', async () => {
      const acmeCorp = (await create('/assets/organizations', { name_inc: 'Acme Corp', visibility: 'public' })).id;
      const entry = (caption: string, amount: number, currency: string, visibility = 'public') =>
        create('/assets/ledger', { caption, year: 2024, quarter: 'Q2', amount, currency, organizations: [acmeCorp], visibility });
      await entry('Series B', 8_000_000, 'USD');
      await entry('Seed', 900_000, 'USD');
      await entry('Euro round', 7_000_000, 'EUR');
      await entry('Secret round', 50_000_000, 'USD', 'hidden');
      const result = await answer('ledger entries for Acme in Q2 2024 over $5M, largest first');
      assert.deepEqual(result.list.params, {
        organizations: acmeCorp, year: '2024', quarter: 'Q2', amount__gt: '5000000', currency: 'USD', ordering: '-amount', limit: '25',
      });
      assert.deepEqual((await run(result.list)).results.map((row) => row['display_name']), ['Secret round', 'Series B']);
      assert.deepEqual(names(await run(result.list, 'paywall')), ['Series B']);
    });
  });

  describe('visibility', () => {
    it('resolves names among the records the caller may see only', async () => {
      const admin = await answer('library entries by Amelia Hart');
      assert.deepEqual(admin.list.params, { authors: ids['amelia'], limit: '25' });

      for (const role of ['public', 'paywall']) {
        const reader = await answer('library entries by Amelia Hart', role);
        assert.deepEqual(reader.list.params, { limit: '25' }, role);
        assert.deepEqual(reader.not_understood, ['Amelia Hart']);
        assert.ok(!JSON.stringify(reader).includes(ids['amelia']!), 'the hidden person is not named by id');
      }
      const keyword = await answer('organizations tagged Skunkworks', 'public');
      assert.deepEqual(keyword.list.params, { limit: '25' });
      assert.deepEqual(keyword.not_understood, ['Skunkworks']);
    });

    it('labels a hidden record sent back by hand with what was sent, never its name', async () => {
      const response = await validate({ entity: 'library', search: null, conditions: [{ field: 'authors', op: 'is', values: [ids['amelia']] }], ordering: [], limit: 25 }, 'public');
      assert.equal(response.statusCode, 200, response.body);
      const result = response.json() as Answer;
      assert.deepEqual(result.query.conditions[0]!.labels, [ids['amelia']]);
      assert.ok(!response.body.includes('Amelia'));
      // Run as the anonymous visitor: a hidden author's id matches nothing they may see.
      assert.deepEqual(names(await run(result.list, 'public')), []);
    });

    it("never returns hidden rows from a reader's Operator query", async () => {
      // Asked as it was (never broadened to every visible row): a reader sees no hidden row, and the answer says why.
      const hidden = await answer('hidden organizations in Berlin', 'paywall');
      assert.deepEqual(hidden.not_understood, []);
      assert.deepEqual(hidden.list?.params, { visibility: 'hidden', hq_city: 'Berlin', limit: '25' });
      assert.match(hidden.explanation, /Hidden records are seen by the research team only/);
      assert.deepEqual(names(await run(hidden.list, 'paywall')), []);
      assert.deepEqual(names(await run(hidden.list, 'public')), []);
      // The same query by hand with visibility=hidden is a list call like any other: nothing hidden comes back.
      const byHand = await validate({ entity: 'organizations', search: null, conditions: [{ field: 'visibility', op: 'is', values: ['hidden'] }], ordering: [], limit: 100 }, 'paywall');
      assert.equal(byHand.statusCode, 200, byHand.body);
      assert.deepEqual((await run((byHand.json() as Answer).list, 'paywall')).count, 0);
      const atlantis = await answer('organizations in Atlantis', 'public');
      assert.deepEqual((await run(atlantis.list, 'public')).count, 0);
      // The admin who may see them gets them.
      const admin = await answer('hidden organizations in Berlin');
      assert.deepEqual(names(await run(admin.list)), ['Shadow Labs']);
    });

    it("never widens a reader's view with negations and comparisons either", async () => {
      const notBy = await answer('library entries not by Amelia Hart', 'public');
      assert.deepEqual(notBy.not_understood, ['Amelia Hart']);
      assert.deepEqual(names(await run(notBy.list, 'public')), ['Jane on payments', 'Open notes on lithium']);
      // Sent by hand: the hidden author's id is an id that matches nothing, so none of her hidden entries show.
      for (const op of ['not', 'is']) {
        const response = await validate({ entity: 'library', search: null, conditions: [{ field: 'authors', op, values: [ids['amelia']] }], ordering: [], limit: 100 }, 'paywall');
        assert.equal(response.statusCode, 200, response.body);
        const titles = names(await run((response.json() as Answer).list, 'paywall'));
        assert.ok(!titles.includes('Sealed memo'), `${op}: ${titles.join(', ')}`);
      }
      const recent = await answer('organizations founded after 2010', 'public');
      assert.deepEqual(names(await run(recent.list, 'public')), ['Nova Pay', 'Paris Fin']);
    });
  });
});

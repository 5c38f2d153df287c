import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { EXACT_COUNT_CAP, whereClause } from '../../resources/repository.ts';
import { SearchStatisticsCache } from '../../resources/search-statistics.ts';
import { organizations } from '../organizations/organizations.resource.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

/**
 * Search across every declared field (resources' `search`): list `search=` and
 * quick search.
 */
describe('full-text search across fields', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    const create = async (tenant: TenantRow, path: string, key: string, payload: object, token = tokens['admin']) => {
      const response = await t.request(tenant, { method: 'POST', url: `/api/v1/${path}/`, token, payload });
      assert.equal(response.statusCode, 201, response.body);
      ids[key] = response.json().id;
    };
    await create(acme, 'assets/organizations', 'thames', {
      name_inc: 'Thames Analytics Ltd', hq_city: 'London', visibility: 'public',
      emails: ['press@thames-analytics.co.uk'], associated_urls: ['https://www.thamesanalytics.example/about'],
      notes: 'Supplies hydraulic pumps to water utilities.', ownership_type: 'Private',
    });
    await create(acme, 'assets/organizations', 'zurich', { name_inc: 'Alpine Steelworks', hq_city: 'Zürich', visibility: 'public' });
    await create(acme, 'assets/organizations', 'secret', { name_inc: 'Quiet Holdings', hq_city: 'London', notes: 'Covert hydraulic research.', visibility: 'hidden' });
    await create(acme, 'assets/organizations', 'londonName', { name_inc: 'London Bridge Partners', visibility: 'public' });
    await create(acme, 'assets/organizations', 'greater', { name_inc: 'Greater London Works', visibility: 'public' });
    await create(acme, 'assets/people', 'ada', {
      name_given: 'Ada', name_family: 'Lovelace', current_address_city: 'London', visibility: 'public',
      professional_profile: 'Analyst of engines', about: 'Wrote the first algorithm.', emails: ['ada@engines.example'],
    });
    await create(acme, 'library', 'paper', {
      title: 'Notes on the Engine', abstract: 'A translation with extensive annotations about Bernoulli numbers.',
      publisher: 'Scientific Memoirs', visibility: 'public',
    });
    await create(acme, 'assets/ledger', 'ledger', { caption: 'Quarterly tonnage of Øresund shipping', symbol: 'ORSD', year: 2024, data: 'Tonnage up 4 %', visibility: 'public' });
    await create(acme, 'assets/ledger', 'hiddenLedger', { caption: 'Covert tonnage ledger', year: 2024, visibility: 'hidden' });
    await create(beta, 'assets/organizations', 'betaLondon', { name_inc: 'Beta London Office', hq_city: 'London', notes: 'hydraulic', visibility: 'public' }, tokens['beta']);
  });
  after(() => t.close());

  const list = async (path: string, query: string, token?: string, tenant = acme) => {
    const response = await t.request(tenant, { method: 'GET', url: `/api/v1/${path}/?${query}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; results: Array<{ id: string; display_name: string }> };
  };
  const found = async (path: string, search: string, token?: string, tenant = acme) =>
    (await list(path, `search=${encodeURIComponent(search)}`, token, tenant)).results.map((row) => row.id);
  const quick = async (q: string, token?: string, extra = '') => {
    const response = await t.request(acme, { method: 'GET', url: `/api/v1/search/?q=${encodeURIComponent(q)}${extra}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().results as Array<{ id: string; type: string; display_name: string }>;
  };

  it('a list search matches each kind of declared field: names, cities, notes, e-mails, URLs, categories', async () => {
    for (const term of ['thames', 'hydraulic', 'press@thames-analytics.co.uk', 'thames-analytics', 'thamesanalytics.example', 'private']) {
      assert.deepEqual(await found('assets/organizations', term), [ids['thames']], term);
    }
    assert.deepEqual(await found('assets/people', 'algorithm'), [ids['ada']], 'about');
    assert.deepEqual(await found('assets/people', 'analyst'), [ids['ada']], 'professional profile');
    assert.deepEqual(await found('assets/people', 'engines.example'), [ids['ada']], 'e-mail domain');
    assert.deepEqual(await found('library', 'bernoulli'), [ids['paper']], 'abstract');
    assert.deepEqual(await found('library', 'memoirs'), [ids['paper']], 'publisher');
    assert.deepEqual(await found('assets/ledger', 'shipping'), [ids['ledger']], 'caption');
    assert.deepEqual(await found('assets/ledger', 'orsd'), [ids['ledger']], 'symbol');
    assert.deepEqual(await found('assets/ledger', 'tonnage up'), [ids['ledger']], 'data');
  });

  it('matches word prefixes, ignoring case and accents, every word required', async () => {
    assert.deepEqual(await found('assets/organizations', 'HYDRAUL'), [ids['thames']]);
    assert.deepEqual(await found('assets/organizations', 'zurich'), [ids['zurich']]);
    assert.deepEqual(await found('assets/organizations', 'ZÜRI'), [ids['zurich']]);
    assert.deepEqual(await found('assets/ledger', 'oresund'), [ids['ledger']]);
    assert.deepEqual(await found('assets/organizations', 'hydraulic london'), [ids['thames']]);
    assert.deepEqual(await found('assets/organizations', 'hydraulic zurich'), []);
    // A fragment inside a word is not a prefix: nothing matches it as typed, so the list forgives
    // it as quick search does (word similarity, migration 0200), and says so.
    const fragment = await list('assets/organizations', 'search=draulic') as { results: Array<{ id: string }>; search_includes_similar?: boolean };
    assert.deepEqual([fragment.results.map((row) => row.id), fragment.search_includes_similar], [[ids['thames']], true], 'a fragment inside a word is not a prefix');
    assert.deepEqual(await found('assets/organizations', '!!!'), [], 'no words, no matches');
  });

  it('ordering=relevance ranks names starting with the text first, then names with the word, then other fields', async () => {
    const ranked = await list('assets/organizations', 'search=london&ordering=relevance');
    assert.deepEqual(ranked.results.map((row) => row.id), [ids['londonName'], ids['greater'], ids['thames']]);
    assert.equal(ranked.count, 3);
    const ordered = await list('assets/organizations', 'search=london&ordering=name_inc');
    assert.deepEqual(ordered.results.map((row) => row.display_name), ['Greater London Works', 'London Bridge Partners', 'Thames Analytics Ltd']);
    const paged = await list('assets/organizations', 'search=london&ordering=relevance&limit=1&offset=1');
    assert.deepEqual(paged.results.map((row) => row.id), [ids['greater']]);
    assert.equal(paged.count, 3);
    const recent = await list('assets/organizations', 'search=london');
    assert.deepEqual(recent.results.map((row) => row.id), [ids['greater'], ids['londonName'], ids['thames']], 'without it: the list order');
    const refused = await t.request(acme, { method: 'GET', url: '/api/v1/assets/organizations/?ordering=relevance' });
    assert.equal(refused.statusCode, 400);
    assert.ok(refused.json().errors.ordering);
  });

  it('hidden records are found only by those who may read them; never another tenant\'s', async () => {
    assert.deepEqual(await found('assets/organizations', 'covert'), [], 'anonymous');
    assert.deepEqual(await found('assets/organizations', 'covert', tokens['paywall']), []);
    assert.deepEqual(await found('assets/organizations', 'covert', tokens['admin']), [ids['secret']]);
    assert.deepEqual(await found('assets/ledger', 'covert'), []);
    assert.ok(!(await found('assets/organizations', 'hydraulic', tokens['admin'])).includes(ids['betaLondon']!));
    assert.deepEqual(await found('assets/organizations', 'thames', tokens['beta'], beta), []);
    assert.deepEqual(await found('assets/organizations', 'hydraulic', tokens['beta'], beta), [ids['betaLondon']]);
  });

  it('quick search finds records by their other fields after the names, and ledger entries', async () => {
    const london = await quick('london');
    const names = london.map((result) => result.display_name);
    assert.deepEqual(names.slice(0, 2), ['London Bridge Partners', 'Greater London Works'], 'name matches first');
    assert.ok(names.includes('Thames Analytics Ltd'), 'headquartered in London');
    assert.ok(names.includes('Ada Lovelace'), 'lives in London');
    assert.ok(!names.includes('Quiet Holdings') && !names.includes('Beta London Office'));
    assert.ok((await quick('london', tokens['admin'])).some((result) => result.id === ids['secret']));
    const ledger = await quick('shipping');
    assert.deepEqual(ledger.map((result) => [result.type, result.id]), [['LedgerEntry', ids['ledger']]]);
    assert.deepEqual((await quick('orsd', undefined, '&type=LedgerEntry')).map((result) => result.id), [ids['ledger']]);
    assert.deepEqual(await quick('covert'), []);
    assert.deepEqual((await quick('bernoulli')).map((result) => result.id), [ids['paper']]);
  });

  let gamma: TenantRow;
  it('a total beyond the exact cap is an estimate within 25% of the truth', async () => {
    gamma = await t.createTenant('gamma');
    // 12,000 organizations, a third of them paywalled: 4,000 public ones about analytics (far
    // beyond the cap: not counted at all), 2,000 public marine ones (counted up to the cap,
    // then estimated), the rest about neither.
    await t.db.withTenant({ tenantId: gamma.id }, (tx) =>
      query(tx, sql`INSERT INTO organizations (tenant_id, name_inc, notes, visibility)
                    SELECT ${gamma.id}, 'Firm ' || n,
                           CASE WHEN n % 2 = 0 THEN 'Big data analytics' ELSE 'Shipbuilding' END || CASE WHEN n % 4 = 1 THEN ' marine' ELSE '' END,
                           CASE WHEN n % 3 = 0 THEN 'paywalled' ELSE 'public' END
                    FROM generate_series(1, 12000) AS n`),
    );
    // The estimate reads the planner's statistics (what autovacuum's ANALYZE keeps on a server).
    await t.db.withAdvisoryLock('full-text-test', (session) => session.query('ANALYZE organizations'));
    for (const [term, truth] of [['analytics', 4000], ['marine', 2000]] as const) {
      const page = await list('assets/organizations', `search=${term}`, undefined, gamma) as { count: number; count_is_estimate?: boolean; results: unknown[] };
      assert.equal(page.count_is_estimate, true, term);
      assert.ok(page.count > EXACT_COUNT_CAP, term);
      assert.ok(Math.abs(page.count - truth) <= truth * 0.25, `${term}: estimate ${page.count} for ${truth}`);
      assert.equal(page.results.length, 25);
    }
    const exact = await list('assets/organizations', 'search=shipbuilding%20firm%2011999', undefined, gamma) as { count: number; count_is_estimate?: boolean };
    assert.deepEqual([exact.count, exact.count_is_estimate], [1, undefined], 'below the cap: exact');
  });

  it('a small tenant searching a word common in the table reads its own rows, and finds the same rows', async () => {
    // gamma (previous test) holds 12,000 organizations, 6,000 of them about analytics; acme a few.
    const statisticsOf = (tenant: TenantRow) =>
      t.db.withTenant({ tenantId: tenant.id }, (tx) => new SearchStatisticsCache(organizations).of(tx, tenant.id, ['public'], { search: 'analytics', filters: {} }));
    assert.equal((await statisticsOf(acme))?.searchBy, 'scan', 'acme: 5 rows against thousands of matches table-wide');
    assert.equal((await statisticsOf(gamma))?.searchBy, 'index', 'gamma: the matches are its own');
    assert.deepEqual(await found('assets/organizations', 'analytics'), [ids['thames']]);
    // Either way of matching finds exactly the same rows, whatever the words.
    for (const tenant of [acme, gamma]) {
      for (const search of ['analytics', 'london', 'hydr', 'big data', 'marine firm 1', 'nothing-like-this']) {
        const matched = (searchBy: 'index' | 'scan') =>
          t.db.withTenant({ tenantId: tenant.id }, async (tx) =>
            (await query<{ id: string }>(tx, sql`SELECT id FROM organizations WHERE ${whereClause(organizations, ['public', 'paywalled', 'hidden'], { search, filters: {}, searchBy })} ORDER BY id`)).map((row) => row.id));
        assert.deepEqual(await matched('scan'), await matched('index'), `${tenant.code}: "${search}"`);
      }
    }
  });
});

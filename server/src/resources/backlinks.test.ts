import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccessLevel, RelatedGroup, RelatedGroups } from '../contracts.ts';
import { seedGeography } from '../modules/geos/geo-seed.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import type { Visibility } from './fields.ts';
import { visibleTo } from './visibility.ts';

const API = '/api/v1';
const PEOPLE = `${API}/assets/people`;
const ORGS = `${API}/assets/organizations`;
const LIBRARY = `${API}/library`;
const LEDGER = `${API}/assets/ledger`;
const INVESTMENTS = `${API}/assets/investments`;
const KEYWORDS = `${API}/keywords`;
const LISTS = `${API}/lists`;
const RULES = `${API}/taggingrules`;
const AUDIENCES: AccessLevel[] = ['public', 'paywall', 'research', 'admin'];

describe('GET {resource}/{id}/related/ (backlinks derived from the relation declarations)', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};
  /** The visibility of each library entry written by Ada, by title. */
  const adaEntries: Record<string, Visibility> = { 'Open Report': 'public', 'Paid Book': 'paywalled', 'Secret Memo': 'hidden' };

  const create = async (path: string, body: Record<string, unknown>, role = 'admin') => {
    const response = await t.request(acme, { method: 'POST', url: `${path}/`, token: tokens[role], payload: body });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const related = async (role: string, url: string, tenant: TenantRow = acme) => {
    const response = await t.request(tenant, { method: 'GET', url, token: tokens[role] });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as RelatedGroups;
  };
  const group = (answer: RelatedGroups, key: string): RelatedGroup | undefined => answer.groups.find((entry) => entry.key === key);
  const names = (entry: RelatedGroup | undefined) => (entry?.results ?? []).map((item) => item.display_name).sort();

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    ids['ada'] = await create(PEOPLE, { name_given: 'Ada', name_family: 'Lovelace', current_address_city: 'London', visibility: 'public' });
    ids['hiddenPerson'] = await create(PEOPLE, { name_given: 'Hidden', name_family: 'Person', visibility: 'hidden' });
    ids['acmeCorp'] = await create(ORGS, { name_inc: 'Acme Corp', hq_city: 'Berlin', visibility: 'public' });
    ids['fintech'] = await create(KEYWORDS, { name: 'Fintech', visibility: 'public' });
    for (const [title, visibility] of Object.entries(adaEntries)) {
      ids[title] = await create(LIBRARY, {
        title, type: 'Report', publish_date: '2024-03', publisher: 'FT', authors: [ids['ada']], assets: [ids['acmeCorp']], keywords: [ids['fintech']], visibility,
      });
    }
    ids['revenue'] = await create(LEDGER, { caption: 'Acme revenue', year: 2024, organizations: [ids['acmeCorp']], people: [ids['ada']], visibility: 'public' });
    ids['stake'] = await create(INVESTMENTS, {
      ledger_entry: ids['revenue'], owner_person: ids['ada'], ownership_percentage: 12.5, admin_notes: 'ADMIN-ONLY-NOTE', private_url: 'https://private.example.com/x', visibility: 'public',
    });
    ids['openList'] = await create(LISTS, { name: 'Founders', kind: 'PeopleList', visibility: 'public', auto_tagging: false });
    ids['hiddenList'] = await create(LISTS, { name: 'Watchlist', kind: 'PeopleList', visibility: 'hidden', auto_tagging: false });
    const listed = await t.request(acme, { method: 'PATCH', url: `${PEOPLE}/${ids['ada']}/`, token: tokens['admin'], payload: { lists: [ids['openList'], ids['hiddenList']] } });
    assert.equal(listed.statusCode, 200, listed.body);
    await create(ORGS, { name_inc: 'Tagged Org', keywords: [ids['fintech']], visibility: 'public' });
    await create(PEOPLE, { name_given: 'Tagged', name_family: 'Person', keywords: [ids['fintech']], visibility: 'paywalled' });
    await create(RULES, { pattern: 'payments', keywords: [ids['fintech']] });
  });
  after(() => t?.close());

  it('a person page: library entries they wrote, ledger entries and investments they appear in, lists holding them', async () => {
    const answer = await related('admin', `${PEOPLE}/${ids['ada']}/related/`);
    assert.deepEqual(answer.groups.map((entry) => entry.key), ['library.authors', 'ledger_entries.people', 'investments.owner_person', 'lists.items']);
    const library = group(answer, 'library.authors')!;
    assert.equal(library.label, 'Library entries as author');
    assert.equal(library.count, 3);
    assert.equal(library.limit, 10);
    const open = library.results.find((item) => item.display_name === 'Open Report')!;
    assert.deepEqual(
      { kind: open.kind, type: open.type, visibility: open.visibility, summary: open.summary.map((part) => part.text) },
      { kind: 'library', type: 'LibraryEntry', visibility: 'public', summary: ['Report', '2024-03', 'FT'] },
    );
    assert.equal(group(answer, 'ledger_entries.people')!.label, 'Ledger entries');
    const stake = group(answer, 'investments.owner_person')!;
    assert.equal(stake.label, 'Investments held');
    // An investment has no page of its own: its second line names (and links) the ledger entry it is in.
    assert.deepEqual(stake.results[0]!.summary[0], { field: 'ledger_entry', kind: 'relation', text: 'Acme revenue', ref: { id: ids['revenue'], display_name: 'Acme revenue', kind: 'ledger_entries' } });
    const lists = group(answer, 'lists.items')!;
    assert.deepEqual(names(lists), ['Founders', 'Watchlist']);
    assert.deepEqual(lists.results.map((item) => [item.kind, item.type, item.slug]).sort(), [['lists', 'PeopleList', 'founders'], ['lists', 'PeopleList', 'watchlist']]);
    assert.equal(lists.results.find((item) => item.slug === 'founders')!.summary[0]!.text, 'People list', 'choices read as their labels');
  });

  for (const audience of AUDIENCES) {
    it(`${audience}: every linked record is one the audience may read`, async () => {
      const answer = await related(audience, `${PEOPLE}/${ids['ada']}/related/`);
      const readable = visibleTo(audience);
      const expected = Object.entries(adaEntries).filter(([, visibility]) => readable.includes(visibility)).map(([title]) => title).sort();
      assert.deepEqual(names(group(answer, 'library.authors')), expected);
      assert.equal(group(answer, 'library.authors')?.count, expected.length);
      assert.deepEqual(names(group(answer, 'lists.items')), readable.includes('hidden') ? ['Founders', 'Watchlist'] : ['Founders']);
      for (const entry of answer.groups) for (const item of entry.results) assert.ok(item.visibility === null || readable.includes(item.visibility as Visibility), `${entry.key}: ${item.display_name}`);
      const body = JSON.stringify(answer);
      assert.ok(!body.includes('ADMIN-ONLY-NOTE') && !body.includes('private.example.com'), 'no field beyond the summary leaves the server');
    });
  }

  it('a hidden library entry by a person does not show for anonymous visitors, nor counts', async () => {
    const answer = await related('public', `${PEOPLE}/${ids['ada']}/related/?group=library.authors`);
    assert.equal(answer.groups.length, 1);
    assert.equal(answer.groups[0]!.count, 1);
    assert.deepEqual(names(answer.groups[0]), ['Open Report']);
  });

  it('an organization page: library entries as asset, ledger entries; investments it holds once there are some', async () => {
    const answer = await related('paywall', `${ORGS}/${ids['acmeCorp']}/related/`);
    assert.deepEqual(answer.groups.map((entry) => [entry.key, entry.label, entry.count]), [
      ['library.assets', 'Library entries as asset', 2],
      ['ledger_entries.organizations', 'Ledger entries', 1],
    ]);
    const empty = await related('paywall', `${ORGS}/${ids['acmeCorp']}/related/?group=investments.owner`);
    assert.deepEqual(empty.groups.map((entry) => [entry.key, entry.count, entry.results.length]), [['investments.owner', 0, 0]], 'a group asked for is answered even when empty');
  });

  it("a keyword page: the records tagged with it, grouped by kind; tagging rules only for those who may read them", async () => {
    const visitor = await related('public', `${KEYWORDS}/${ids['fintech']}/related/`);
    assert.deepEqual(visitor.groups.map((entry) => [entry.key, entry.label, entry.count]), [
      ['organizations.keywords', 'Organizations', 1],
      ['library.keywords', 'Library entries', 1],
    ]);
    const admin = await related('admin', `${KEYWORDS}/${ids['fintech']}/related/`);
    assert.deepEqual(admin.groups.map((entry) => [entry.key, entry.count]), [
      ['organizations.keywords', 1],
      ['people.keywords', 1],
      ['library.keywords', 3],
      ['tagging_rules.keywords', 1],
    ]);
    const rejected = await t.request(acme, { method: 'GET', url: `${KEYWORDS}/${ids['fintech']}/related/?group=tagging_rules.keywords` });
    assert.equal(rejected.statusCode, 400, rejected.body);
    assert.ok(rejected.json().errors.group, rejected.body);
  });

  it('pages one group with limit and offset, in the source list’s order, without overlap', async () => {
    const author = await create(PEOPLE, { name_given: 'Prolific', name_family: 'Author', visibility: 'public' });
    for (let index = 1; index <= 12; index += 1) await create(LIBRARY, { title: `Essay ${String(index).padStart(2, '0')}`, authors: [author], visibility: 'public' });
    const url = `${PEOPLE}/${author}/related/?group=library.authors&limit=5`;
    const pages = await Promise.all([0, 5, 10].map((offset) => related('public', `${url}&offset=${offset}`)));
    assert.deepEqual(pages.map((page) => [page.groups[0]!.count, page.groups[0]!.offset, page.groups[0]!.results.length]), [[12, 0, 5], [12, 5, 5], [12, 10, 2]]);
    const titles = pages.flatMap((page) => page.groups[0]!.results.map((item) => item.display_name));
    assert.equal(new Set(titles).size, 12);
    // Library lists are ordered by -updated_at by default: the last written first.
    assert.equal(titles[0], 'Essay 12');
    const beyond = await related('public', `${url}&offset=40`);
    assert.deepEqual([beyond.groups[0]!.count, beyond.groups[0]!.results.length], [12, 0], 'past the end the total is still given');
    const overview = await related('public', `${PEOPLE}/${author}/related/?limit=3`);
    assert.deepEqual(overview.groups.map((entry) => [entry.key, entry.count, entry.results.length]), [['library.authors', 12, 3]]);
  });

  it('bad parameters are a 400 naming the parameter; a record the caller may not see, or of no such id, is a 404', async () => {
    for (const [query, field] of [['group=nope', 'group'], ['limit=abc', 'limit'], ['limit=0', 'limit'], ['offset=-1', 'offset'], ['sort=x', 'sort'], ['group=a&group=b', 'group']] as const) {
      const response = await t.request(acme, { method: 'GET', url: `${PEOPLE}/${ids['ada']}/related/?${query}` });
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
      assert.ok(response.json().errors[field], `${query}: ${response.body}`);
    }
    for (const [role, id] of [['public', ids['hiddenPerson']], ['paywall', ids['hiddenPerson']], ['admin', '00000000-0000-4000-8000-000000000000']] as const) {
      const response = await t.request(acme, { method: 'GET', url: `${PEOPLE}/${id}/related/`, token: tokens[role] });
      assert.equal(response.statusCode, 404, `${role} ${id}: ${response.body}`);
    }
    const malformed = await t.request(acme, { method: 'GET', url: `${PEOPLE}/not-a-uuid/related/`, token: tokens['admin'] });
    assert.equal(malformed.statusCode, 400, malformed.body);
    assert.ok(malformed.json().errors.id, malformed.body);
    const hidden = await related('admin', `${PEOPLE}/${ids['hiddenPerson']}/related/`);
    assert.deepEqual(hidden.groups, [], 'nothing points at it');
  });

  it('tenants are isolated: another tenant neither reaches the record nor sees what points at it', async () => {
    const response = await t.request(beta, { method: 'GET', url: `${PEOPLE}/${ids['ada']}/related/`, token: tokens['beta'] });
    assert.equal(response.statusCode, 404, response.body);
    const betaKeyword = await t.request(beta, { method: 'POST', url: `${KEYWORDS}/`, token: tokens['beta'], payload: { name: 'Fintech', visibility: 'public' } });
    assert.equal(betaKeyword.statusCode, 201, betaKeyword.body);
    const answer = await related('beta', `${KEYWORDS}/${betaKeyword.json().id}/related/`, beta);
    assert.deepEqual(answer.groups, [], "acme's tagged records stay in acme");
  });

  it('a shared geo lists each tenant its own ledger entries only, beside the shared regions', async () => {
    // Countries and regions only: the cities take a couple of seconds.
    await seedGeography(t.db, { cities: false });
    const search = await t.request(acme, { method: 'GET', url: `${API}/geos/?search=Germany&limit=100` });
    const germany = (search.json().results as Array<{ id: string; code: string }>).find((row) => row.code === 'DE')!.id;
    await create(LEDGER, { caption: 'German GDP', geos: [germany], visibility: 'public' });
    const keys = (answer: RelatedGroups) => answer.groups.map((entry) => entry.key);
    const fromAcme = await related('public', `${API}/geos/${germany}/related/?group=ledger_entries.geos`);
    assert.deepEqual(names(fromAcme.groups[0]), ['German GDP']);
    const fromBeta = await related('beta', `${API}/geos/${germany}/related/`, beta);
    assert.ok(keys(fromBeta).includes('geos.countries'), 'the regions holding it are shared');
    assert.ok(!keys(fromBeta).includes('ledger_entries.geos'), JSON.stringify(fromBeta));
    assert.ok(!JSON.stringify(fromBeta).includes('German GDP'));
  });
});

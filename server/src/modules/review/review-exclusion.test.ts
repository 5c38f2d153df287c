/**
 * Suggested and rejected rows are not records: they never appear in counts, lists, search,
 * relations, exports, backlinks or list memberships of curated records (docs/review.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const API = '/api/v1';
const ORGS = `${API}/assets/organizations`;
const PEOPLE = `${API}/assets/people`;
const LEDGER = `${API}/assets/ledger`;

describe('suggested and rejected rows are not records', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, role = 'admin') =>
    t.request(acme, { method, url, token: tokens[role], ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (base: string, payload: object) => {
    const response = await call('POST', `${base}/`, payload);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  /** Turns records into suggestions (or rejected ones) as the review engine stores them. */
  const setStatus = (table: string, rowIds: string[], status: string) =>
    t.db.withTenant({ tenantId: acme.id }, (tx) =>
      tx.execute(sql`UPDATE ${sql.identifier(table)} SET status = ${status} WHERE id IN (${sql.join(rowIds.map((value) => sql`${value}`), sql`, `)})`),
    );

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
    ids['curated'] = await create(ORGS, { name_inc: 'Zephyr Curated Corp', visibility: 'public', hq_city: 'Oslo' });
    ids['suggested'] = await create(ORGS, { name_inc: 'Zephyr Suggested Corp', visibility: 'public', hq_city: 'Lima' });
    ids['rejected'] = await create(ORGS, { name_inc: 'Zephyr Rejected Corp', visibility: 'public', hq_city: 'Quito' });
    ids['person'] = await create(PEOPLE, { name_given: 'Zephyr', name_family: 'Suggestedperson', visibility: 'public' });
    ids['curatedEntry'] = await create(LEDGER, { caption: 'Zephyr curated entry', visibility: 'public', organizations: [ids['curated'], ids['suggested']] });
    ids['suggestedEntry'] = await create(LEDGER, { caption: 'Zephyr suggested entry', visibility: 'public', organizations: [ids['curated']] });
    const list = await call('POST', `${API}/lists/`, { name: 'Zephyr watch', kind: 'OrganizationsList', visibility: 'public' });
    assert.equal(list.statusCode, 201, list.body);
    ids['list'] = list.json().id;
    for (const key of ['curated', 'suggested']) {
      assert.equal((await call('POST', `${API}/lists/${ids['list']}/items/`, { id: ids[key] })).statusCode, 201);
    }
    await setStatus('organizations', [ids['suggested']!], 'suggested');
    await setStatus('organizations', [ids['rejected']!], 'rejected');
    await setStatus('people', [ids['person']!], 'suggested');
    await setStatus('ledger_entries', [ids['suggestedEntry']!], 'suggested');
  });
  after(() => t.close());

  it('entity counts and list totals count curated records only', async () => {
    for (const url of [`${API}/tools/entities-count/`, `${API}/tools/free-ahead-entities-count/`]) {
      const counts = (await call('GET', url)).json();
      assert.equal(counts.organizations.public_count, 1, url);
      assert.equal(counts.people.public_count, 0, url);
      assert.equal(counts.ledger_entries.public_count, 1, url);
    }
    const organizations = (await call('GET', `${ORGS}/`)).json();
    assert.equal(organizations.count, 1);
    assert.deepEqual(organizations.results.map((row: { id: string }) => row.id), [ids['curated']]);
    assert.equal((await call('GET', `${PEOPLE}/`)).json().count, 0);
    assert.deepEqual((await call('GET', `${LEDGER}/`)).json().results.map((row: { id: string }) => row.id), [ids['curatedEntry']]);
    assert.deepEqual((await call('GET', `${ORGS}/count/`)).json(), { count: 1 });
    assert.deepEqual((await call('GET', `${ORGS}/count/?status=suggested`)).json(), { count: 1 });
  });

  it('a suggestion is not found as a record, and its values are not offered as filters', async () => {
    for (const [base, key] of [[ORGS, 'suggested'], [ORGS, 'rejected'], [PEOPLE, 'person'], [LEDGER, 'suggestedEntry']] as const) {
      assert.equal((await call('GET', `${base}/${ids[key]}/`)).statusCode, 404, key);
    }
    const filters = (await call('GET', `${ORGS}/available-filters/`)).json().filters;
    const cities = filters.find((filter: { name: string }) => filter.name === 'hq_city').values.map((entry: { value: string }) => entry.value);
    assert.deepEqual(cities, ['Oslo']);
  });

  it('list search and quick search find curated records only', async () => {
    const searched = (await call('GET', `${ORGS}/?search=zephyr`)).json();
    assert.deepEqual(searched.results.map((row: { id: string }) => row.id), [ids['curated']]);
    assert.equal((await call('GET', `${LEDGER}/?search=zephyr`)).json().count, 1);
    const quick = (await call('GET', `${API}/search/?q=zephyr`)).json().results;
    assert.deepEqual(quick.map((row: { id: string }) => row.id).sort(), [ids['curated'], ids['curatedEntry'], ids['list']].sort());
    assert.deepEqual((await call('GET', `${API}/search/?q=suggested`)).json().results, []);
  });

  it('relations neither show nor accept suggestions; relation filters ignore them', async () => {
    const entry = (await call('GET', `${LEDGER}/${ids['curatedEntry']}/`)).json();
    assert.deepEqual(entry.organizations.map((ref: { id: string }) => ref.id), [ids['curated']]);
    const linked = await call('PATCH', `${LEDGER}/${ids['curatedEntry']}/`, { organizations: [ids['curated'], ids['rejected']] });
    assert.equal(linked.statusCode, 400, linked.body);
    assert.ok(linked.json().errors.organizations, linked.body);
    const created = await call('POST', `${LEDGER}/`, { caption: 'Zephyr person entry', people: [ids['person']] });
    assert.equal(created.statusCode, 400, created.body);
    assert.equal((await call('GET', `${LEDGER}/?organizations=${ids['suggested']}`)).json().count, 0);
    const offered = (await call('GET', `${LEDGER}/available-filters/`)).json().filters.find((filter: { name: string }) => filter.name === 'organizations');
    assert.deepEqual(offered.values.map((entry: { value: string }) => entry.value), [ids['curated']]);
  });

  it('backlinks of a curated record leave suggestions out', async () => {
    const related = (await call('GET', `${ORGS}/${ids['curated']}/related/`)).json();
    const entries = related.groups.find((group: { key: string }) => group.key === 'ledger_entries.organizations');
    assert.equal(entries.count, 1);
    assert.deepEqual(entries.results.map((row: { id: string }) => row.id), [ids['curatedEntry']]);
  });

  it('exports hold curated records only', async () => {
    const response = await call('GET', `${ORGS}/?format=xlsx`);
    assert.equal(response.statusCode, 200);
    const rows = await readSheet(response.rawPayload);
    const names = rows.slice(1).map((row) => row[0]);
    assert.deepEqual(names, ['Zephyr Curated Corp']);
  });

  it('list memberships: a suggestion is not an item, and cannot be added', async () => {
    const items = (await call('GET', `${API}/lists/${ids['list']}/items/`)).json();
    assert.equal(items.count, 1);
    assert.deepEqual(items.results.map((row: { id: string }) => row.id), [ids['curated']]);
    const added = await call('POST', `${API}/lists/${ids['list']}/items/`, { id: ids['rejected'] });
    assert.equal(added.statusCode, 400, added.body);
    const lists = (await call('GET', `${API}/lists/?kind=OrganizationsList`)).json().results;
    assert.equal(lists.find((list: { id: string }) => list.id === ids['list']).item_count, 1);
  });
});

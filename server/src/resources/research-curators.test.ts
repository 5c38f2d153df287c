/**
 * Research users are the team's curators (issue 12, point 1): they read
 * hidden records everywhere — details, lists, search, filters, relations,
 * exports, available filters — so a hidden record they create never turns
 * into "not found" for them. Anonymous visitors and paywall readers still do
 * not see it; admin-only fields stay admin-only; home counts keep SPEC §1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readSheet } from 'read-excel-file/node';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

interface Kind {
  path: string;
  /** A hidden record's payload (its name contains NAME). */
  payload: () => Record<string, unknown>;
  /** The quick-search type, when quick search returns the kind. */
  quickType?: string;
}

const NAME = 'Zephyrine';

describe('research users read hidden records', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  let hiddenKeyword: string;
  let hiddenEntry: string;
  const created: Record<string, string> = {};

  const send = (method: 'GET' | 'POST', url: string, role?: string, payload?: object) =>
    t.request(acme, { method, url: `/api/v1${url}`, token: role ? tokens[role] : undefined, ...(payload ? { payload } : {}) });

  const KINDS: Kind[] = [
    { path: '/assets/organizations', payload: () => ({ name_inc: `${NAME} Holdings`, keywords: [hiddenKeyword] }), quickType: 'Organization' },
    { path: '/assets/people', payload: () => ({ name_given: NAME, name_family: 'Curie', keywords: [hiddenKeyword] }), quickType: 'Person' },
    { path: '/assets/ledger', payload: () => ({ caption: `${NAME} round`, keywords: [hiddenKeyword] }) },
    { path: '/library', payload: () => ({ title: `${NAME} report`, keywords: [hiddenKeyword] }), quickType: 'LibraryEntry' },
    { path: '/lists', payload: () => ({ kind: 'OrganizationsList', name: `${NAME} watch`, visibility: 'hidden' }), quickType: 'OrganizationsList' },
    { path: '/keywords', payload: () => ({ name: `${NAME} tag`, visibility: 'hidden' }), quickType: 'Keyword' },
    { path: '/terminology', payload: () => ({ term: `${NAME} term`, visibility: 'hidden', keywords: [hiddenKeyword] }) },
    { path: '/assets/investments', payload: () => ({ ledger_entry: hiddenEntry, inv_currency: 'EUR', keywords: [hiddenKeyword] }) },
  ];

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
    // A public record of each kind, so lists are not trivially empty for the other audiences.
    const keyword = await send('POST', '/keywords/', 'research', { name: 'Curated secret', visibility: 'hidden' });
    assert.equal(keyword.statusCode, 201, keyword.body);
    hiddenKeyword = keyword.json().id;
    const entry = await send('POST', '/assets/ledger/', 'research', { caption: 'Entry for investments' });
    hiddenEntry = entry.json().id;
    for (const kind of KINDS) {
      const response = await send('POST', `${kind.path}/`, 'research', kind.payload());
      assert.equal(response.statusCode, 201, `${kind.path}: ${response.body}`);
      assert.equal(response.json().visibility, 'hidden', `${kind.path} is hidden`);
      created[kind.path] = response.json().id;
    }
  });
  after(() => t.close());

  for (const kind of [
    '/assets/organizations', '/assets/people', '/assets/ledger', '/library', '/lists', '/keywords', '/terminology', '/assets/investments',
  ]) {
    describe(kind, () => {
      it('research: the detail is a 200 after creating it (a reload never 404s)', async () => {
        const detail = await send('GET', `${kind}/${created[kind]}/`, 'research');
        assert.equal(detail.statusCode, 200, detail.body);
        assert.equal(detail.json().visibility, 'hidden');
      });

      it('research: it is listed, and the list total matches the rows seen', async () => {
        const page = (await send('GET', `${kind}/?limit=100`, 'research')).json();
        assert.ok(page.results.some((row: { id: string }) => row.id === created[kind]), 'listed');
        assert.equal(page.count, page.results.length, 'count = rows seen');
        const hiddenOnly = (await send('GET', `${kind}/?visibility=hidden&limit=100`, 'research')).json();
        assert.ok(hiddenOnly.results.some((row: { id: string }) => row.id === created[kind]), 'the visibility filter finds it');
        assert.equal(hiddenOnly.count, hiddenOnly.results.length);
      });

      it('research: list search, export and available filters include it', async () => {
        if (kind !== '/assets/investments') {
          const found = (await send('GET', `${kind}/?search=${NAME.toLowerCase()}`, 'research')).json();
          assert.deepEqual(found.results.map((row: { id: string }) => row.id), [created[kind]], 'search');
          assert.equal(found.count, 1);
        }
        const exported = await send('GET', `${kind}/?format=xlsx&visibility=hidden`, 'research');
        assert.equal(exported.statusCode, 200);
        const rows = await readSheet(exported.rawPayload);
        const idColumn = rows[0]!.indexOf('id');
        assert.ok(rows.some((cells) => cells[idColumn] === created[kind]), 'exported');
        const filters = (await send('GET', `${kind}/available-filters/`, 'research')).json().filters as Array<{ name: string; type: string; values: Array<{ value: unknown }> }>;
        const visibility = filters.find((filter) => filter.name === 'visibility');
        assert.ok(visibility?.values.some((entry) => entry.value === 'hidden'), 'hidden offered as a visibility value');
        // Where keywords are a filter (not only a field that can be asked to be empty).
        const keywords = filters.find((filter) => filter.name === 'keywords' && filter.type === 'relation');
        if (keywords) assert.ok(keywords.values.some((entry) => entry.value === hiddenKeyword), 'the hidden keyword is offered');
      });

      it('anonymous and paywall readers still do not see it anywhere', async () => {
        for (const role of [undefined, 'paywall']) {
          assert.equal((await send('GET', `${kind}/${created[kind]}/`, role)).statusCode, 404, `${role ?? 'anonymous'} detail`);
          const page = (await send('GET', `${kind}/?limit=100`, role)).json();
          assert.ok(!page.results.some((row: { id: string }) => row.id === created[kind]), `${role ?? 'anonymous'} list`);
          assert.equal(page.count, page.results.length);
        }
        const exported = await readSheet((await send('GET', `${kind}/?format=xlsx`, 'paywall')).rawPayload);
        assert.ok(!exported.some((cells) => cells.includes(created[kind]!)), 'paywall export');
      });
    });
  }

  it('quick search finds hidden records for research users only', async () => {
    for (const kind of KINDS.filter((entry) => entry.quickType)) {
      const url = `/search/?q=${NAME.toLowerCase()}&type=${kind.quickType}`;
      const research = (await send('GET', url, 'research')).json();
      assert.ok(JSON.stringify(research).includes(created[kind.path]!), `${kind.quickType} for research`);
      for (const role of [undefined, 'paywall']) {
        assert.ok(!JSON.stringify((await send('GET', url, role)).json()).includes(created[kind.path]!), `${kind.quickType} for ${role ?? 'anonymous'}`);
      }
    }
  });

  it('relations show hidden targets to research users and filter by them', async () => {
    const organization = (await send('GET', `/assets/organizations/${created['/assets/organizations']}/`, 'research')).json();
    assert.deepEqual(organization.keywords.map((ref: { id: string }) => ref.id), [hiddenKeyword]);
    const filtered = (await send('GET', `/assets/organizations/?keywords=${hiddenKeyword}`, 'research')).json();
    assert.deepEqual(filtered.results.map((row: { id: string }) => row.id), [created['/assets/organizations']]);
    const investment = (await send('GET', `/assets/investments/${created['/assets/investments']}/`, 'research')).json();
    assert.equal(investment.ledger_entry?.id, hiddenEntry);
    // A research user may point records at hidden ones they see.
    const entry = await send('POST', '/assets/ledger/', 'research', { caption: 'Links hidden', organizations: [created['/assets/organizations']] });
    assert.equal(entry.statusCode, 201, entry.body);
    assert.equal(entry.json().organizations[0].id, created['/assets/organizations']);
  });

  it('admin-only fields stay admin-only', async () => {
    const admin = await send('GET', `/assets/investments/${created['/assets/investments']}/`, 'admin');
    assert.ok('admin_notes' in admin.json());
    const research = await send('GET', `/assets/investments/${created['/assets/investments']}/`, 'research');
    assert.ok(!('admin_notes' in research.json()), 'research does not receive admin_notes');
  });

  it('home counts keep SPEC §1: research sees public and paywall counts, no hidden ones', async () => {
    const research = (await send('GET', '/tools/entities-count/', 'research')).json();
    const paywall = (await send('GET', '/tools/entities-count/', 'paywall')).json();
    const admin = (await send('GET', '/tools/entities-count/', 'admin')).json();
    assert.deepEqual(research, paywall, 'research counts equal a signed-in reader\'s');
    assert.equal(research.organizations.hidden_count, undefined);
    assert.ok(admin.organizations.hidden_count >= 1);
  });
});

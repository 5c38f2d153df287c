import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { multipart } from '../../test/multipart.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { slugify } from './lists.resource.ts';

const BASE = '/api/v1/lists';
const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';
const KEYWORDS = '/api/v1/keywords';
const LIBRARY = '/api/v1/library';

type Json = Record<string, unknown> & { id: string };

describe('lists API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const call = (role: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, tenant?: TenantRow) =>
    t.request(tenant ?? acme, { method, url, token: tokens[role], ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  const create = async (path: string, body: Record<string, unknown>, role = 'admin', tenant?: TenantRow): Promise<Json> => {
    const response = await call(role, 'POST', `${path}/`, body, tenant);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };

  const items = async (role: string, listId: string, query = '') => {
    const response = await call(role, 'GET', `${BASE}/${listId}/items/${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; next: string | null; previous: string | null; results: Json[] };
  };

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    ({ acme, beta, tokens } = await t.signInTwoTenants());

    for (const [key, body] of Object.entries({
      open: { name: 'Open Watchlist', kind: 'OrganizationsList', visibility: 'public', description: 'Companies to follow' },
      paid: { name: 'Paid Watchlist', kind: 'OrganizationsList', visibility: 'paywalled' },
      secret: { name: 'Secret Watchlist', kind: 'OrganizationsList', visibility: 'hidden' },
      team: { name: 'Team', kind: 'PeopleList' },
    })) {
      ids[key] = (await create(BASE, body)).id;
    }
    ids['orgPublic'] = (await create(ORGS, { name_inc: 'Public Org', visibility: 'public' })).id;
    ids['orgPaid'] = (await create(ORGS, { name_inc: 'Paid Org', visibility: 'paywalled' })).id;
    ids['orgHidden'] = (await create(ORGS, { name_inc: 'Hidden Org', visibility: 'hidden' })).id;
    ids['person'] = (await create(PEOPLE, { name_given: 'Ada', name_family: 'Lovelace', visibility: 'public' })).id;
  });
  after(() => t.close());

  describe('visibility on read', () => {
    const expected: Record<string, string[]> = {
      public: ['Open Watchlist', 'Team'],
      paywall: ['Open Watchlist', 'Paid Watchlist', 'Team'],
      research: ['Open Watchlist', 'Paid Watchlist', 'Secret Watchlist', 'Team'],
      admin: ['Open Watchlist', 'Paid Watchlist', 'Secret Watchlist', 'Team'],
    };
    for (const [role, names] of Object.entries(expected)) {
      it(`${role} lists exactly ${names.length} and counts them`, async () => {
        const response = await call(role, 'GET', `${BASE}/?ordering=name`);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        const mine = body.results.map((row: Json) => row['name']).filter((name: string) => names.includes(name) || /Watchlist|Team/.test(name));
        assert.deepEqual(mine, names);
      });
    }

    it('a list the caller may not see is a 404 by id and by slug; a paywalled one tells a visitor it is locked', async () => {
      for (const [role, key, status] of [
        ['public', 'paid', 403],
        ['public', 'secret', 404],
        ['paywall', 'secret', 404],
        ['paywall', 'secret', 404],
        ['research', 'secret', 200],
        ['admin', 'secret', 200],
        ['paywall', 'paid', 200],
      ] as const) {
        const byId = await call(role, 'GET', `${BASE}/${ids[key]}/`);
        assert.equal(byId.statusCode, status, `${role} ${key} by id`);
        const slug = key === 'paid' ? 'paid-watchlist' : 'secret-watchlist';
        const bySlug = await call(role, 'GET', `${BASE}/organizations/${slug}/`);
        assert.equal(bySlug.statusCode, status, `${role} ${key} by slug`);
        const items = await call(role, 'GET', `${BASE}/${ids[key]}/items/`);
        assert.equal(items.statusCode, status, `${role} ${key} items`);
        // Locked: the kind's label only, nothing of the list (its name, slug or items).
        if (status === 403) for (const answer of [byId, bySlug, items]) assert.deepEqual(answer.json(), { code: 'paywalled', detail: 'This list is for signed-in readers.' });
      }
    });

    it('filters by kind (the web app\'s type parameter) and finds lists by name', async () => {
      const people = (await call('admin', 'GET', `${BASE}/?kind=PeopleList`)).json();
      assert.ok(people.results.every((row: Json) => row['kind'] === 'PeopleList'));
      assert.ok(people.results.some((row: Json) => row['name'] === 'Team'));
      const bad = await call('admin', 'GET', `${BASE}/?kind=Nope`);
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.json().errors.kind);
      // What the add-to-list widget on entity pages asks for.
      const widget = await call('research', 'GET', `${BASE}/?kind=OrganizationsList&search=watch&limit=20`);
      assert.equal(widget.statusCode, 200);
      const rows = widget.json().results as Json[];
      // Research users are curators: the hidden list is offered to them too.
      assert.deepEqual(rows.map((row) => row['name']).sort(), ['Open Watchlist', 'Paid Watchlist', 'Secret Watchlist']);
      for (const row of rows) {
        assert.ok(row.id && row['name'] && row['slug'] && row['kind'] === 'OrganizationsList');
      }
    });

    it("another tenant's list is a 404 for read, patch, delete and the item routes", async () => {
      for (const [method, url, payload] of [
        ['GET', `${BASE}/${ids['open']}/`, undefined],
        ['PATCH', `${BASE}/${ids['open']}/`, { name: 'Taken over' }],
        ['DELETE', `${BASE}/${ids['open']}/`, undefined],
        ['GET', `${BASE}/organizations/open-watchlist/`, undefined],
        ['GET', `${BASE}/${ids['open']}/items/`, undefined],
        ['POST', `${BASE}/${ids['open']}/items/`, { id: ids['orgPublic'] }],
        ['DELETE', `${BASE}/${ids['open']}/items/${ids['orgPublic']}/`, undefined],
        ['PUT', `${BASE}/${ids['open']}/items/order/`, { ids: [ids['orgPublic']] }],
      ] as const) {
        const response = await call('beta', method, url, payload, beta);
        assert.equal(response.statusCode, 404, `${method} ${url}`);
      }
      const betaList = await create(BASE, { name: 'Beta list', kind: 'OrganizationsList' }, 'beta', beta);
      const foreign = await call('beta', 'POST', `${BASE}/${betaList.id}/items/`, { id: ids['orgPublic'] }, beta);
      assert.equal(foreign.statusCode, 400);
      assert.match(foreign.json().errors.id[0], /Unknown organization id/);
    });
  });

  describe('writes', () => {
    it('need research or admin', async () => {
      const body = { name: 'Nope', kind: 'PeopleList' };
      assert.equal((await call('public', 'POST', `${BASE}/`, body)).statusCode, 401);
      assert.equal((await call('paywall', 'POST', `${BASE}/`, body)).statusCode, 403);
      assert.equal((await call('research', 'POST', `${BASE}/`, { ...body, name: 'By research' })).statusCode, 201);
      assert.equal((await call('paywall', 'PATCH', `${BASE}/${ids['open']}/`, { name: 'x' })).statusCode, 403);
      assert.equal((await call('paywall', 'DELETE', `${BASE}/${ids['open']}/`)).statusCode, 403);
      for (const [method, url, payload] of [
        ['POST', `${BASE}/${ids['open']}/items/`, { id: ids['orgPublic'] }],
        ['DELETE', `${BASE}/${ids['open']}/items/${ids['orgPublic']}/`, undefined],
        ['PUT', `${BASE}/${ids['open']}/items/order/`, { ids: [ids['orgPublic']] }],
      ] as const) {
        assert.equal((await call('public', method, url, payload)).statusCode, 401, `public ${method} ${url}`);
        assert.equal((await call('paywall', method, url, payload)).statusCode, 403, `paywall ${method} ${url}`);
      }
    });

    it('new lists are public with auto-tagging on, and get a slug from the name', async () => {
      const list = await create(BASE, { name: '  Café Société & Friends  ', kind: 'librarylist' });
      assert.equal(list['kind'], 'LibraryList');
      assert.equal(list['name'], 'Café Société & Friends');
      assert.equal(list['slug'], 'cafe-societe-friends');
      assert.equal(list['visibility'], 'public');
      assert.equal(list['auto_tagging'], true);
      assert.equal(list['show_on_dashboard'], false);
      assert.deepEqual(list['keywords'], []);
      assert.equal(list['description'], null);
      assert.equal(list.display_name, 'Café Société & Friends');
    });

    const invalid: Array<[string, Record<string, unknown>, string]> = [
      ['kind', { name: 'x' }, 'This field is required.'],
      ['kind', { name: 'x', kind: 'BookList' }, 'Must be one of'],
      ['kind', { name: 'x', kind: 42 }, 'Must be one of'],
      ['name', { kind: 'PeopleList' }, 'This field is required.'],
      ['name', { kind: 'PeopleList', name: '   ' }, 'This field is required.'],
      ['name', { kind: 'PeopleList', name: 'x'.repeat(201) }, 'no more than 200'],
      ['name', { kind: 'PeopleList', name: ['x'] }, 'Must be text'],
      ['description', { kind: 'PeopleList', name: 'x', description: 'x'.repeat(5001) }, 'no more than 5000'],
      ['visibility', { kind: 'PeopleList', name: 'x', visibility: 'secret' }, 'Must be one of'],
      ['auto_tagging', { kind: 'PeopleList', name: 'x', auto_tagging: 'maybe' }, 'true or false'],
      ['show_on_dashboard', { kind: 'PeopleList', name: 'x', show_on_dashboard: {} }, 'true or false'],
      ['keywords', { kind: 'PeopleList', name: 'x', keywords: 'k' }, 'list of record ids'],
      ['keywords', { kind: 'PeopleList', name: 'x', keywords: ['00000000-0000-4000-8000-000000000000'] }, 'Unknown keyword id'],
      ['colour', { kind: 'PeopleList', name: 'x', colour: 'red' }, 'Unknown field'],
    ];
    for (const [field, body, message] of invalid) {
      it(`refuses a bad ${field} (${JSON.stringify(body).slice(0, 60)}) with a 400 naming it`, async () => {
        const response = await call('admin', 'POST', `${BASE}/`, body);
        assert.equal(response.statusCode, 400, response.body);
        const errors = response.json().errors as Record<string, string[]>;
        assert.ok(errors[field], response.body);
        assert.ok(errors[field]!.join(' ').includes(message), errors[field]!.join(' '));
      });
    }

    it('keeps the kind once set and ignores a slug sent with the record', async () => {
      const list = await create(BASE, { name: 'Fixed kind', kind: 'PeopleList', slug: 'chosen-by-me' });
      assert.equal(list['slug'], 'fixed-kind');
      const changed = await call('admin', 'PATCH', `${BASE}/${list.id}/`, { kind: 'LedgerList' });
      assert.equal(changed.statusCode, 400);
      assert.match(changed.json().errors.kind[0], /cannot be changed/);
      const same = await call('admin', 'PATCH', `${BASE}/${list.id}/`, { ...list, description: 'Sent back whole' });
      assert.equal(same.statusCode, 200, same.body);
      assert.equal(same.json()['slug'], 'fixed-kind');
      const blank = await call('admin', 'PATCH', `${BASE}/${list.id}/`, { name: null });
      assert.equal(blank.statusCode, 400);
      assert.ok(blank.json().errors.name);
    });

    it('accepts keywords and presents them as references', async () => {
      const keyword = await create(KEYWORDS, { name: 'fintech' });
      const list = await create(BASE, { name: 'Tagged', kind: 'OrganizationsList', keywords: [keyword.id] });
      assert.deepEqual(list['keywords'], [{ id: keyword.id, display_name: 'fintech', kind: 'keyword' }]);
    });
  });

  describe('slugs', () => {
    it('turns names into lower-case ASCII words joined by hyphens', () => {
      assert.equal(slugify('Top 10: Fintech (2024)!'), 'top-10-fintech-2024');
      assert.equal(slugify('Straße Ärzte'), 'strasse-arzte');
      assert.equal(slugify('日本語'), 'list');
      assert.equal(slugify('---'), 'list');
      const long = slugify('word '.repeat(60));
      assert.ok(long.length <= 100 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(long), long);
    });

    it('are unique per tenant and kind', async () => {
      const first = await create(BASE, { name: 'Top Picks', kind: 'OrganizationsList' });
      const second = await create(BASE, { name: 'top picks', kind: 'OrganizationsList' });
      const third = await create(BASE, { name: 'Top — Picks', kind: 'OrganizationsList' });
      const people = await create(BASE, { name: 'Top Picks', kind: 'PeopleList' });
      const other = await create(BASE, { name: 'Top Picks', kind: 'OrganizationsList' }, 'beta', beta);
      assert.deepEqual(
        [first['slug'], second['slug'], third['slug'], people['slug'], other['slug']],
        ['top-picks', 'top-picks-2', 'top-picks-3', 'top-picks', 'top-picks'],
      );
      // A freed slug is given out again.
      assert.equal((await call('admin', 'DELETE', `${BASE}/${second.id}/`)).statusCode, 204);
      assert.equal((await create(BASE, { name: 'Top Picks', kind: 'OrganizationsList' }))['slug'], 'top-picks-2');
    });

    it('stay distinct when lists of one name are created at the same time', async () => {
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => call('admin', 'POST', `${BASE}/`, { name: 'Same Moment', kind: 'PeopleList' })),
      );
      assert.deepEqual(responses.map((response) => response.statusCode), [201, 201, 201, 201, 201]);
      assert.deepEqual(
        responses.map((response) => response.json()['slug']).sort(),
        ['same-moment', 'same-moment-2', 'same-moment-3', 'same-moment-4', 'same-moment-5'],
      );
    });

    it('follow a rename; the old slug redirects (308) to the current one', async () => {
      const list = await create(BASE, { name: 'Early Bets', kind: 'OrganizationsList' });
      const renamed = await call('admin', 'PATCH', `${BASE}/${list.id}/`, { name: 'Later Bets' });
      assert.equal(renamed.statusCode, 200);
      assert.equal(renamed.json()['slug'], 'later-bets');

      const current = await call('public', 'GET', `${BASE}/organizations/later-bets/`);
      assert.equal(current.statusCode, 200);
      assert.equal(current.json().id, list.id);

      const old = await call('public', 'GET', `${BASE}/organizations/early-bets/`);
      assert.equal(old.statusCode, 308);
      assert.equal(old.headers['location'], '/api/v1/lists/organizations/later-bets/');
      assert.equal(old.headers['cache-control'], 'no-store');
      assert.equal(old.json().slug, 'later-bets');
      assert.equal(old.json().id, list.id);
      assert.equal(old.json().code, 'moved');

      // An old slug stays with its list: a new list of that name gets another one.
      assert.equal((await create(BASE, { name: 'Early Bets', kind: 'OrganizationsList' }))['slug'], 'early-bets-2');
      // A name that gives the same slug keeps it.
      const recased = await call('admin', 'PATCH', `${BASE}/${list.id}/`, { name: 'LATER bets' });
      assert.equal(recased.json()['slug'], 'later-bets');
      // Renamed back: the first slug is current again, the second redirects.
      const back = await call('admin', 'PATCH', `${BASE}/${list.id}/`, { name: 'Early Bets' });
      assert.equal(back.json()['slug'], 'early-bets');
      assert.equal((await call('public', 'GET', `${BASE}/organizations/early-bets/`)).statusCode, 200);
      const second = await call('public', 'GET', `${BASE}/organizations/later-bets/`);
      assert.equal(second.statusCode, 308);
      assert.equal(second.json().slug, 'early-bets');
    });

    it('resolve by id too, only under their own kind, and never reveal a hidden list', async () => {
      assert.equal((await call('public', 'GET', `${BASE}/organizations/${ids['open']}/`)).json()['slug'], 'open-watchlist');
      assert.equal((await call('public', 'GET', `${BASE}/people/open-watchlist/`)).statusCode, 404);
      assert.equal((await call('public', 'GET', `${BASE}/people/${ids['open']}/`)).statusCode, 404);
      assert.equal((await call('public', 'GET', `${BASE}/organizations/no-such-list/`)).statusCode, 404);
      assert.equal((await call('public', 'GET', `${BASE}/books/open-watchlist/`)).statusCode, 404);

      const hidden = await create(BASE, { name: 'Quiet One', kind: 'PeopleList', visibility: 'hidden' });
      await call('admin', 'PATCH', `${BASE}/${hidden.id}/`, { name: 'Quiet Two' });
      assert.equal((await call('paywall', 'GET', `${BASE}/people/quiet-one/`)).statusCode, 404);
      assert.equal((await call('admin', 'GET', `${BASE}/people/quiet-one/`)).statusCode, 308);
    });

    it('named like a route word still resolve', async () => {
      const items = await create(BASE, { name: 'Items', kind: 'PeopleList' });
      const history = await create(BASE, { name: 'History', kind: 'PeopleList' });
      assert.equal((await call('public', 'GET', `${BASE}/people/items/`)).json().id, items.id);
      assert.equal((await call('public', 'GET', `${BASE}/people/history/`)).json().id, history.id);
    });
  });

  describe('items', () => {
    it('are added in order, presented by their own resource, and hidden ones only to those who may see them', async () => {
      const list = await create(BASE, { name: 'Ordered', kind: 'OrganizationsList' });
      for (const key of ['orgPaid', 'orgPublic', 'orgHidden']) {
        const added = await call('admin', 'POST', `${BASE}/${list.id}/items/`, { id: ids[key] });
        assert.equal(added.statusCode, 201, added.body);
        assert.equal(added.json().id, ids[key]);
      }
      const again = await call('admin', 'POST', `${BASE}/${list.id}/items/`, { id: ids['orgPublic'] });
      assert.equal(again.statusCode, 200);

      const admin = await items('admin', list.id);
      assert.deepEqual(admin.results.map((row) => row['name_inc']), ['Paid Org', 'Public Org', 'Hidden Org']);
      assert.equal(admin.count, 3);
      // Presented like GET assets/organizations/{id}/: fields, lists_as_item with slugs.
      assert.equal(admin.results[0]!['visibility'], 'paywalled');
      assert.deepEqual(
        (admin.results[0]!['lists_as_item'] as Json[]).map((entry) => [entry['slug'], entry['kind']]),
        [['ordered', 'OrganizationsList']],
      );
      const paywall = await items('paywall', list.id);
      assert.deepEqual(paywall.results.map((row) => row['name_inc']), ['Paid Org', 'Public Org']);
      assert.equal(paywall.count, 2);
      const anonymous = await items('public', list.id);
      assert.deepEqual(anonymous.results.map((row) => row['name_inc']), ['Public Org']);

      const paged = await items('admin', list.id, '?limit=2&offset=1');
      assert.deepEqual(paged.results.map((row) => row['name_inc']), ['Public Org', 'Hidden Org']);
      assert.equal(paged.next, null);
      assert.ok(paged.previous);
      const first = await items('admin', list.id, '?limit=1');
      assert.ok(first.next?.includes('offset=1'));
      assert.equal((await call('admin', 'GET', `${BASE}/${list.id}/items/?limit=0`)).statusCode, 400);
      assert.equal((await call('admin', 'GET', `${BASE}/${list.id}/items/?offset=-1`)).statusCode, 400);
    });

    it('refuse records of the wrong kind, unknown ids and bad bodies with a 400 naming id', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ id: ids['person'] }, /That is a person; an organizations list holds only organizations\./],
        [{ id: ids['open'] }, /Unknown organization id/],
        [{ id: '00000000-0000-4000-8000-000000000000' }, /Unknown organization id/],
        [{ id: 'not-an-id' }, /Must be the id of a record/],
        [{ id: 7 }, /Must be text/],
        [{}, /This field is required/],
      ];
      for (const [body, message] of cases) {
        const response = await call('admin', 'POST', `${BASE}/${ids['open']}/items/`, body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assert.match(response.json().errors.id[0], message);
      }
      const people = await call('admin', 'POST', `${BASE}/${ids['team']}/items/`, { id: ids['orgPublic'] });
      assert.match(people.json().errors.id[0], /That is an organization; a people list holds only people\./);
      const notObject = await call('admin', 'POST', `${BASE}/${ids['open']}/items/`, ['x']);
      assert.equal(notObject.statusCode, 400);
    });

    it('a research user (a curator) adds hidden records and adds to hidden lists; unknown ids are refused', async () => {
      const unknown = await call('research', 'POST', `${BASE}/${ids['open']}/items/`, { id: '00000000-0000-4000-8000-000000000000' });
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.json().errors.id[0], /Unknown organization id/);
      assert.equal((await call('research', 'POST', `${BASE}/${ids['open']}/items/`, { id: ids['orgHidden'] })).statusCode, 201);
      assert.equal((await call('research', 'POST', `${BASE}/${ids['secret']}/items/`, { id: ids['orgPublic'] })).statusCode, 201);
      assert.equal((await call('research', 'POST', `${BASE}/${ids['open']}/items/`, { id: ids['orgPublic'] })).statusCode, 201);
    });

    it('are removed one at a time; the record stays', async () => {
      const list = await create(BASE, { name: 'Short-lived membership', kind: 'OrganizationsList' });
      await call('admin', 'POST', `${BASE}/${list.id}/items/`, { id: ids['orgPublic'] });
      const removed = await call('research', 'DELETE', `${BASE}/${list.id}/items/${ids['orgPublic']}/`);
      assert.equal(removed.statusCode, 204);
      assert.equal((await items('admin', list.id)).count, 0);
      assert.equal((await call('admin', 'DELETE', `${BASE}/${list.id}/items/${ids['orgPublic']}/`)).statusCode, 404);
      const malformed = await call('admin', 'DELETE', `${BASE}/${list.id}/items/not-an-id/`);
      assert.equal(malformed.statusCode, 400);
      assert.deepEqual(malformed.json().errors, { itemId: ['Must be the id of a record.'] });
      assert.equal((await call('admin', 'GET', `${ORGS}/${ids['orgPublic']}/`)).statusCode, 200);
    });

    it('are reordered by id; items left out (or unseen) keep their places', async () => {
      const list = await create(BASE, { name: 'Reorderable', kind: 'OrganizationsList' });
      const extra = [];
      for (const name of ['A', 'B', 'C', 'D']) extra.push((await create(ORGS, { name_inc: `Order ${name}`, visibility: name === 'B' ? 'hidden' : 'public' })).id);
      for (const itemId of extra) await call('admin', 'POST', `${BASE}/${list.id}/items/`, { id: itemId });
      const [a, , c, d] = extra as [string, string, string, string];

      const names = async (role = 'admin') => (await items(role, list.id)).results.map((row) => String(row['name_inc']).slice(-1)).join('');
      assert.equal(await names(), 'ABCD');
      // A research user reverses A, C and D, leaving B out: B keeps its place; a paywall reader does not see hidden B.
      const reordered = await call('research', 'PUT', `${BASE}/${list.id}/items/order/`, { ids: [d, c, a] });
      assert.equal(reordered.statusCode, 204, reordered.body);
      assert.equal(await names(), 'DBCA');
      assert.equal(await names('research'), 'DBCA');
      assert.equal(await names('paywall'), 'DCA');
      assert.equal((await call('admin', 'PUT', `${BASE}/${list.id}/items/order/`, { ids: [a, d] })).statusCode, 204);
      assert.equal(await names(), 'ABCD');

      // An item's error names its position (from 0) in item_errors as well as in the message.
      const bad: Array<[unknown, RegExp, number?]> = [
        [{ ids: [ids['orgPaid']] }, /Item 1: .* is not an item of this list/, 0],
        [{ ids: [a, ids['orgPaid']] }, /Item 2: .* is not an item of this list/, 1],
        [{ ids: [a, a] }, /Item 2: .* listed twice/, 1],
        [{ ids: [] }, /at least 1 item/],
        [{ ids: 'abc' }, /Must be a list/],
        [{ ids: ['x'] }, /Item 1: Must be the id/, 0],
        [{}, /required/],
      ];
      for (const [body, message, index] of bad) {
        const response = await call(body === bad[0]![0] ? 'research' : 'admin', 'PUT', `${BASE}/${list.id}/items/order/`, body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assert.match(response.json().errors.ids[0], message);
        assert.deepEqual(response.json().item_errors?.ids?.map((item: { index: number }) => item.index), index === undefined ? undefined : [index]);
      }
    });

    it('receive the list keywords with auto_tagging on, and not with it off', async () => {
      const fintech = await create(KEYWORDS, { name: 'fintech-auto' });
      const ai = await create(KEYWORDS, { name: 'ai-auto' });
      const on = await create(BASE, { name: 'Auto on', kind: 'OrganizationsList', keywords: [fintech.id, ai.id] });
      const off = await create(BASE, { name: 'Auto off', kind: 'OrganizationsList', keywords: [ai.id], auto_tagging: false });
      const org = await create(ORGS, { name_inc: 'Tag Me Ltd', keywords: [ai.id] });
      const plain = await create(ORGS, { name_inc: 'Leave Me Ltd' });

      await call('admin', 'POST', `${BASE}/${on.id}/items/`, { id: org.id });
      const tagged = (await call('admin', 'GET', `${ORGS}/${org.id}/`)).json();
      assert.deepEqual((tagged.keywords as Json[]).map((keyword) => keyword['display_name']).sort(), ['ai-auto', 'fintech-auto']);

      await call('admin', 'POST', `${BASE}/${off.id}/items/`, { id: plain.id });
      assert.deepEqual((await call('admin', 'GET', `${ORGS}/${plain.id}/`)).json().keywords, []);

      // Removing the item leaves the keywords it received.
      await call('admin', 'DELETE', `${BASE}/${on.id}/items/${org.id}/`);
      assert.equal((await call('admin', 'GET', `${ORGS}/${org.id}/`)).json().keywords.length, 2);

      // The same through the entity's own `lists` field.
      const viaEntity = await create(ORGS, { name_inc: 'Via Entity', lists: [on.id] });
      assert.deepEqual((viaEntity['keywords'] as Json[]).map((keyword) => keyword['display_name']).sort(), ['ai-auto', 'fintech-auto']);
    });

    it('show on the entity as lists_as_item (lists the reader may see only), and in the history of both', async () => {
      const org = await create(ORGS, { name_inc: 'Member Co', visibility: 'public' });
      await call('admin', 'POST', `${BASE}/${ids['open']}/items/`, { id: org.id });
      await call('admin', 'POST', `${BASE}/${ids['secret']}/items/`, { id: org.id });
      const asAdmin = (await call('admin', 'GET', `${ORGS}/${org.id}/`)).json();
      assert.deepEqual(
        (asAdmin.lists_as_item as Json[]).map((entry) => entry['slug']).sort(),
        ['open-watchlist', 'secret-watchlist'],
      );
      const asReader = (await call('paywall', 'GET', `${ORGS}/${org.id}/`)).json();
      assert.deepEqual(asReader.lists_as_item, [{ id: ids['open'], name: 'Open Watchlist', slug: 'open-watchlist', kind: 'OrganizationsList' }]);

      const listHistory = (await call('admin', 'GET', `${BASE}/${ids['open']}/history/`)).json().results as Json[];
      assert.ok(listHistory.some((entry) => (entry['changes'] as Record<string, { to: Json | null }>)['items']?.to?.id === org.id));
      const orgHistory = (await call('admin', 'GET', `${ORGS}/${org.id}/history/`)).json().results as Json[];
      assert.ok(orgHistory.some((entry) => 'lists' in (entry['changes'] as object)));
    });

    it('of a library list are library entries', async () => {
      const list = await create(BASE, { name: 'Reading', kind: 'LibraryList' });
      const entry = await create(LIBRARY, { title: 'A Paper', visibility: 'public' });
      const added = await call('research', 'POST', `${BASE}/${list.id}/items/`, { id: entry.id });
      assert.equal(added.statusCode, 201, added.body);
      assert.deepEqual((await items('public', list.id)).results.map((row) => row['title']), ['A Paper']);
      const wrong = await call('research', 'POST', `${BASE}/${list.id}/items/`, { id: ids['orgPublic'] });
      assert.match(wrong.json().errors.id[0], /an organization; a library list holds only library entries/);
    });
  });

  describe('delete', () => {
    it('removes the list, its items and its old slugs — not the records', async () => {
      const list = await create(BASE, { name: 'Doomed', kind: 'OrganizationsList' });
      await call('admin', 'PATCH', `${BASE}/${list.id}/`, { name: 'Doomed Still' });
      await call('admin', 'POST', `${BASE}/${list.id}/items/`, { id: ids['orgPaid'] });
      assert.equal((await call('research', 'DELETE', `${BASE}/${list.id}/`)).statusCode, 204);
      assert.equal((await call('admin', 'GET', `${BASE}/${list.id}/`)).statusCode, 404);
      assert.equal((await call('admin', 'GET', `${BASE}/${list.id}/items/`)).statusCode, 404);
      assert.equal((await call('admin', 'GET', `${BASE}/organizations/doomed/`)).statusCode, 404);
      const org = await call('admin', 'GET', `${ORGS}/${ids['orgPaid']}/`);
      assert.equal(org.statusCode, 200);
      assert.ok(!(org.json().lists_as_item as Json[]).some((entry) => entry.id === list.id));
      // The slugs are free again.
      assert.equal((await create(BASE, { name: 'Doomed', kind: 'OrganizationsList' }))['slug'], 'doomed');
    });
  });

  describe('search and counts', () => {
    it('quick search finds lists with their kind as type and their slug', async () => {
      const response = await call('public', 'GET', '/api/v1/search/?q=watchlist');
      assert.equal(response.statusCode, 200);
      const results = response.json().results as Array<{ id: string; type: string; slug: string; display_name: string }>;
      assert.deepEqual(
        results.filter((result) => result.type.endsWith('List')).map((result) => [result.display_name, result.type, result.slug]),
        [['Open Watchlist', 'OrganizationsList', 'open-watchlist']],
      );
      const typed = await call('admin', 'GET', '/api/v1/search/?q=team&type=PeopleList');
      assert.deepEqual(typed.json().results.map((result: { type: string; slug: string }) => [result.type, result.slug]), [['PeopleList', 'team']]);
      const wrongType = await call('admin', 'GET', '/api/v1/search/?q=team&type=OrganizationsList');
      assert.deepEqual(wrongType.json().results, []);
    });

    it('entity counts report each kind of list by visibility', async () => {
      const fresh = await t.createTenant('counts');
      await t.createUser(fresh, 'admin@counts.test', { is_admin: true });
      tokens['counts'] = await t.login(fresh, 'admin@counts.test');
      for (const body of [
        { name: 'L1', kind: 'LibraryList' },
        { name: 'L2', kind: 'LibraryList', visibility: 'paywalled' },
        { name: 'O1', kind: 'OrganizationsList', visibility: 'hidden' },
        { name: 'P1', kind: 'PeopleList' },
        { name: 'G1', kind: 'LedgerList', visibility: 'paywalled' },
      ]) {
        await create(BASE, body, 'counts', fresh);
      }
      const counts = (await t.request(fresh, { method: 'GET', url: '/api/v1/tools/entities-count/', token: tokens['counts'] })).json();
      assert.deepEqual(counts.library_lists, { public_count: 1, paywall_count: 1, hidden_count: 0 });
      assert.deepEqual(counts.organizations_lists, { public_count: 0, paywall_count: 0, hidden_count: 1 });
      assert.deepEqual(counts.people_lists, { public_count: 1, paywall_count: 0, hidden_count: 0 });
      assert.deepEqual(counts.ledger_lists, { public_count: 0, paywall_count: 1, hidden_count: 0 });
      const free = (await t.request(fresh, { method: 'GET', url: '/api/v1/tools/free-ahead-entities-count/' })).json();
      assert.deepEqual(free.organizations_lists, { public_count: 0, paywall_count: 0 });
      // Unfiltered totals come from the same counters.
      const anonymous = (await t.request(fresh, { method: 'GET', url: `${BASE}/` })).json();
      assert.equal(anonymous.count, 2);
    });
  });

  describe('spreadsheets', () => {
    it('import creates lists with slugs and ignores a slug column; an export imports back onto the same lists', async () => {
      const csv = 'Name,Type,Description,Slug\nImported Picks,OrganizationsList,From a file,my-own-slug\nImported Picks,PeopleList,,\nBroken,BookList,,\n';
      const upload = (content: string | Buffer, query = '') =>
        t.request(acme, { method: 'POST', url: `${BASE}/upload/${query}`, token: tokens['research'], ...multipart('lists.csv', content) });
      const partial = await upload(csv, '?partial=true');
      assert.equal(partial.statusCode, 200, partial.body);
      assert.equal(partial.json().created, 2);
      assert.equal(partial.json().failed, 1);
      assert.ok(JSON.stringify(partial.json().errors).includes('kind'));
      const found = (await call('admin', 'GET', `${BASE}/?search=imported%20picks&ordering=kind`)).json().results as Json[];
      assert.deepEqual(found.map((row) => [row['kind'], row['slug'], row['description']]), [
        ['OrganizationsList', 'imported-picks', 'From a file'],
        ['PeopleList', 'imported-picks', null],
      ]);
      // Lists may share a name: rows without an id are new lists, with slugs of their own.
      const again = await upload(csv, '?partial=true');
      assert.equal(again.json().created, 2, again.body);
      const twice = (await call('admin', 'GET', `${BASE}/?search=imported%20picks&kind=PeopleList`)).json().results as Json[];
      assert.deepEqual(twice.map((row) => row['slug']).sort(), ['imported-picks', 'imported-picks-2']);

      const exported = await call('admin', 'GET', `${BASE}/?format=xlsx&search=imported%20picks`);
      assert.equal(exported.statusCode, 200);
      assert.equal(exported.rawPayload.subarray(0, 2).toString('latin1'), 'PK');
      const back = await t.request(acme, { method: 'POST', url: `${BASE}/upload/`, token: tokens['admin'], ...multipart('lists.xlsx', exported.rawPayload) });
      assert.equal(back.statusCode, 200, back.body);
      assert.equal(back.json().updated, 4, back.body);
      assert.equal(back.json().created, 0, back.body);
    });
  });

  describe('metadata', () => {
    it('describes the slug as read-only and the kind as required and immutable', async () => {
      const meta = (await call('public', 'GET', '/api/v1/resources/')).json() as Array<{ kind: string; fields: Json[]; filters: string[] }>;
      const lists = meta.find((entry) => entry.kind === 'lists')!;
      const field = (name: string) => lists.fields.find((entry) => entry['name'] === name)!;
      assert.equal(field('slug')['read_only'], true);
      assert.equal(field('kind')['required'], true);
      assert.equal(field('kind')['immutable'], true);
      assert.equal(field('name')['required'], true);
      assert.equal(field('name')['max_length'], 200);
      assert.deepEqual(field('kind')['choices'], ['LibraryList', 'LedgerList', 'OrganizationsList', 'PeopleList']);
      assert.equal(field('visibility')['default'], 'public');
      assert.equal(field('auto_tagging')['default'], true);
      assert.ok(lists.filters.includes('kind'));
    });
  });
});

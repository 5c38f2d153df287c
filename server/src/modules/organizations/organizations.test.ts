import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/assets/organizations';

describe('organizations API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());

    for (const [key, body] of Object.entries({
      open: { name_inc: 'Open Data Inc', visibility: 'public', hq_city: 'Berlin', ownership_type: 'private' },
      paid: { name_inc: 'Paid Research LLC', visibility: 'paywalled', hq_city: 'Paris' },
      secret: { name_inc: 'Secret Holdings', visibility: 'hidden', hq_city: 'Zug' },
    })) {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: body });
      assert.equal(response.statusCode, 201, response.body);
      ids[key] = response.json().id;
    }
  });
  after(() => t.close());

  const list = (role: string, query = '') => t.request(acme, { method: 'GET', url: `${BASE}/${query}`, token: tokens[role] });

  describe('visibility on read', () => {
    const expected: Record<string, string[]> = {
      public: ['Open Data Inc'],
      paywall: ['Open Data Inc', 'Paid Research LLC'],
      research: ['Open Data Inc', 'Paid Research LLC', 'Secret Holdings'],
      admin: ['Open Data Inc', 'Paid Research LLC', 'Secret Holdings'],
    };
    for (const [role, names] of Object.entries(expected)) {
      it(`${role} lists exactly ${names.length} and counts them`, async () => {
        const response = await list(role, '?ordering=name_inc');
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assert.deepEqual(body.results.map((row: { name_inc: string }) => row.name_inc), names);
        assert.equal(body.count, names.length);
      });
    }

    it('a row the caller may not see is a 404 (a 403 paywalled for a visitor), as is an unknown id; a malformed id is a 400 naming it', async () => {
      for (const [role, id, status] of [
        // A visitor is told a paywalled record is locked, and given nothing of it (docs/engine.md "Paywalled records").
        ['public', ids['paid'], 403],
        ['paywall', ids['secret'], 404],
        ['admin', ids['secret'], 200],
        ['admin', '00000000-0000-0000-0000-000000000000', 404],
        ['admin', 'not-a-uuid', 400],
        ['admin', 'urn:uuid:00000000-0000-0000-0000-000000000000', 400],
      ] as const) {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/${id}/`, token: tokens[role] });
        assert.equal(response.statusCode, status, `${role} ${id}`);
        if (status === 400) assert.deepEqual(response.json().errors, { id: ['Must be the id of a record.'] });
      }
      // The visitor learns the record is locked, and nothing else; a hidden one stays unknown.
      const locked = await t.request(acme, { method: 'GET', url: `${BASE}/${ids['paid']}/` });
      assert.deepEqual(locked.json(), { code: 'paywalled', detail: 'This organization is for signed-in readers.' });
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['secret']}/` })).statusCode, 404);
    });

    it("another tenant's id is a 404 for read, patch and delete", async () => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await t.request(beta, {
          method,
          url: `${BASE}/${ids['open']}/`,
          token: tokens['beta'],
          ...(method === 'PATCH' ? { payload: { notes: 'x' } } : {}),
        });
        assert.equal(response.statusCode, 404, method);
      }
    });
  });

  describe('writes', () => {
    it('need research or admin', async () => {
      const body = { name_inc: 'Nope' };
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, payload: body })).statusCode, 401);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['paywall'], payload: body })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: body })).statusCode, 201);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'] })).statusCode, 403);
    });

    it('new rows default to hidden and record who wrote them', async () => {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { name_dba: 'Defaults Co' } });
      const body = response.json();
      assert.equal(body.visibility, 'hidden');
      assert.equal(body.show_on_dashboard, false);
      assert.deepEqual(body.emails, []);
      assert.equal(body.display_name, 'Defaults Co');
      assert.ok(body.updated_by);
      assert.ok(body.created_at && body.updated_at);
    });

    it('normalizes emails, phones, URLs and incomplete dates', async () => {
      const response = await t.request(acme, {
        method: 'POST',
        url: `${BASE}/`,
        token: tokens['admin'],
        payload: {
          name_inc: 'Normal GmbH',
          emails: ['Info <info@Normal.DE>', 'info@normal.de'],
          phones: ['+49 30 901820'],
          associated_urls: ['normal.de/about'],
          founding_date: '2019-03',
        },
      });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json();
      assert.deepEqual(body.emails, ['info@normal.de']);
      assert.deepEqual(body.phones, ['+4930901820']);
      assert.deepEqual(body.associated_urls, ['https://normal.de/about']);
      assert.equal(body.founding_date, '2019-03');
      assert.equal(body.founding_date_incomplete_day, true);
      assert.equal(body.founding_date_incomplete_month, false);
      const again = await t.request(acme, { method: 'GET', url: `${BASE}/${body.id}/`, token: tokens['admin'] });
      assert.equal(again.json().founding_date, '2019-03');
    });

    it('PATCH changes only the fields sent', async () => {
      const created = (await t.request(acme, {
        method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { name_inc: 'Patchy', notes: 'keep me', hq_city: 'Rome' },
      })).json();
      const patched = await t.request(acme, { method: 'PATCH', url: `${BASE}/${created.id}/`, token: tokens['admin'], payload: { hq_city: 'Milan' } });
      assert.equal(patched.statusCode, 200);
      assert.equal(patched.json().hq_city, 'Milan');
      assert.equal(patched.json().notes, 'keep me');
      assert.ok(patched.json().updated_at >= created.updated_at);
    });

    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no name at all', { notes: 'x' }, 'name_inc'],
      ['blank names', { name_inc: '  ', name_dba: '' }, 'name_inc'],
      ['a name that is not text', { name_inc: 42 }, 'name_inc'],
      ['a name too long', { name_inc: 'x'.repeat(301) }, 'name_inc'],
      ['a bad email', { name_inc: 'A', emails: ['not-an-email'] }, 'emails'],
      ['emails not a list', { name_inc: 'A', emails: 'a@b.com' }, 'emails'],
      ['a bad phone', { name_inc: 'A', phones: ['call me'] }, 'phones'],
      ['a bad URL', { name_inc: 'A', associated_urls: ['ftp://x.org'] }, 'associated_urls'],
      ['an impossible date', { name_inc: 'A', founding_date: '2019-02-30' }, 'founding_date'],
      ['a bad visibility', { name_inc: 'A', visibility: 'secret' }, 'visibility'],
      ['a non-boolean flag', { name_inc: 'A', show_on_dashboard: 'perhaps' }, 'show_on_dashboard'],
      ['an unknown field', { name_inc: 'A', colour: 'red' }, 'colour'],
      ['an unknown list', { name_inc: 'A', lists: ['00000000-0000-0000-0000-000000000000'] }, 'lists'],
      ['suggested_fields not an object', { name_inc: 'A', suggested_fields: [1] }, 'suggested_fields'],
    ];
    for (const [what, payload, field] of bad) {
      it(`rejects ${what} with a 400 naming ${field}, writing nothing`, async () => {
        const before = (await list('admin')).json().count;
        const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
        assert.equal((await list('admin')).json().count, before);
      });
    }

    it('names the refused item of a list by its position, apart from the message text', async () => {
      const payload = { name_inc: 'A', emails: ['a@example.org', 'not-an-email'], keywords: ['x'] };
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload });
      assert.equal(response.statusCode, 400, response.body);
      const body = response.json();
      assert.deepEqual(body.errors.emails, ['Item 2: Enter a valid email address.']);
      assert.deepEqual(body.item_errors, {
        emails: [{ index: 1, message: 'Enter a valid email address.' }],
        keywords: [{ index: 0, message: 'Must be the id of a record.' }],
      });
    });

    it('rejects a body that is not an object', async () => {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: [1, 2] });
      assert.equal(response.statusCode, 400);
    });

    it('PATCH that would leave no name is refused', async () => {
      const response = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['admin'], payload: { name_inc: null } });
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().errors.name_inc);
    });

    it('DELETE removes the row and its list memberships in one go', async () => {
      const created = (await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { name_inc: 'Doomed', visibility: 'public' } })).json();
      const listId = await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        const { sql } = await import('drizzle-orm');
        const result = (await tx.execute(sql`INSERT INTO lists (tenant_id, kind, name, slug) VALUES (${acme.id}, 'OrganizationsList', 'Watch', 'watch') RETURNING id`)) as unknown as { rows: Array<{ id: string }> };
        return result.rows[0]!.id;
      });
      const withList = await t.request(acme, { method: 'PATCH', url: `${BASE}/${created.id}/`, token: tokens['admin'], payload: { lists: [listId] } });
      assert.equal(withList.statusCode, 200, withList.body);
      assert.deepEqual(withList.json().lists_as_item.map((entry: { slug: string }) => entry.slug), ['watch']);
      const deleted = await t.request(acme, { method: 'DELETE', url: `${BASE}/${created.id}/`, token: tokens['admin'] });
      assert.equal(deleted.statusCode, 204);
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${created.id}/`, token: tokens['admin'] })).statusCode, 404);
      const dangling = await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        const { sql } = await import('drizzle-orm');
        const result = (await tx.execute(sql`SELECT count(*)::int AS n FROM list_items WHERE organization_id = ${created.id}`)) as unknown as { rows: Array<{ n: number }> };
        return result.rows[0]!.n;
      });
      assert.equal(dangling, 0);
    });
  });

  describe('list parameters', () => {
    it('searches accent- and case-insensitively across fields', async () => {
      await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { name_inc: 'Café Société', visibility: 'public', notes: 'Roasts beans' } });
      for (const term of ['cafe', 'SOCIETE', 'roasts', 'cafe soc']) {
        const response = await list('public', `?search=${encodeURIComponent(term)}`);
        assert.deepEqual(response.json().results.map((row: { name_inc: string }) => row.name_inc), ['Café Société'], term);
        assert.equal(response.json().count, 1);
      }
      assert.equal((await list('public', '?search=50%25')).json().count, 0, 'wildcards are literal');
    });

    it('filters by declared fields, ignoring empty values', async () => {
      const berlin = (await list('admin', '?hq_city=Berlin')).json();
      assert.deepEqual(berlin.results.map((row: { name_inc: string }) => row.name_inc), ['Open Data Inc']);
      const two = (await list('admin', '?hq_city=Berlin,Paris&ordering=name_inc')).json();
      assert.equal(two.count, 2);
      assert.equal((await list('admin', '?hq_city=&ordering=name_inc')).statusCode, 200);
      const publicOnly = (await list('admin', '?visibility=public')).json();
      assert.ok(publicOnly.results.every((row: { visibility: string }) => row.visibility === 'public'));
      const sneaky = (await list('public', '?visibility=hidden')).json();
      assert.equal(sneaky.count, 0, 'a filter cannot widen what a caller sees');
    });

    it('pages with limit and offset, with next and previous links', async () => {
      const first = (await list('admin', '?limit=2&ordering=name_inc')).json();
      assert.equal(first.results.length, 2);
      assert.equal(first.previous, null);
      assert.match(first.next, /offset=2/);
      const second = (await list('admin', '?limit=2&offset=2&ordering=name_inc')).json();
      assert.notEqual(second.results[0].id, first.results[0].id);
      assert.match(second.previous, /offset=0/);
      assert.equal((await list('admin', '?limit=1000')).json().results.length <= 100, true);
    });

    it('orders by several fields', async () => {
      const response = await list('admin', '?ordering=-hq_city,name_inc');
      assert.equal(response.statusCode, 200);
      const cities = response.json().results.map((row: { hq_city: string | null }) => row.hq_city).filter(Boolean);
      assert.deepEqual(cities, [...cities].sort().reverse());
    });

    const badParams: Array<[string, string]> = [
      ['?ordering=password', 'ordering'],
      ['?ordering=-nope', 'ordering'],
      ['?colour=red', 'colour'],
      ['?offset=-1', 'offset'],
      ['?limit=ten', 'limit'],
      ['?limit=0', 'limit'],
      ['?show_on_dashboard=maybe', 'show_on_dashboard'],
      ['?visibility=secret', 'visibility'],
      ['?format=pdf', 'format'],
      [`?search=${'x'.repeat(201)}`, 'search'],
    ];
    for (const [queryString, parameter] of badParams) {
      it(`${queryString.slice(0, 40)} → 400 naming ${parameter}`, async () => {
        const response = await list('admin', queryString);
        assert.equal(response.statusCode, 400);
        assert.ok(response.json().errors[parameter], response.body);
      });
    }
  });

  describe('available-filters', () => {
    it('offers values with counts only from rows the caller may see', async () => {
      const values = async (role: string) => {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/`, token: tokens[role] });
        assert.equal(response.statusCode, 200);
        const city = response.json().filters.find((filter: { name: string }) => filter.name === 'hq_city');
        return city.values.map((entry: { value: string }) => entry.value);
      };
      const publicCities = await values('public');
      assert.ok(publicCities.includes('Berlin'));
      assert.ok(!publicCities.includes('Paris'), 'paywalled city leaked to public');
      assert.ok(!publicCities.includes('Zug'), 'hidden city leaked to public');
      assert.ok(!(await values('paywall')).includes('Zug'), 'hidden city leaked to paywall');
      assert.ok((await values('admin')).includes('Zug'));
    });
  });

  describe('count?status=', () => {
    it('counts curated organizations by default and suggestions on request', async () => {
      const suggested = await t.request(acme, { method: 'GET', url: `${BASE}/count/?status=suggested`, token: tokens['admin'] });
      assert.deepEqual(suggested.json(), { count: 0 });
      const active = await t.request(acme, { method: 'GET', url: `${BASE}/count/`, token: tokens['public'] });
      assert.equal(active.json().count, (await list('public')).json().count);
      for (const [query, errors] of [
        ['?status=weird', { status: ['Must be one of: suggested, active, rejected.'] }],
        ['?status=active&status=rejected', { status: ['Must be one of: suggested, active, rejected.'] }],
        ['?kind=people', { kind: ['Unknown parameter.'] }],
        ['?status=act%00ive', { status: ['Must not contain the NUL character (U+0000).'] }],
      ] as const) {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/count/${query}` });
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
        assert.deepEqual(response.json().errors, errors, query);
      }
      assert.deepEqual((await t.request(acme, { method: 'GET', url: `${BASE}/count/?status=suggested` })).json().code, 'not_authenticated', 'suggestions are for research');
    });
  });
});

/**
 * Saved views (issue 28 item 2): private or shared with the team, changed only by their owner,
 * one default per user and table, their state checked against the list they show, stored per
 * tenant under row-level security — for every audience, on two tenants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

describe('saved views', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  /** A second research user of acme: a teammate. */
  let mate: string;

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: object, tenant?: TenantRow) =>
    t.request(tenant ?? acme, { method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });
  const create = async (token: string | undefined, body: object) => {
    const response = await send('POST', '/views/', token, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: string; owner_id: string; state: Record<string, unknown>; shared: boolean; is_default: boolean };
  };
  const listIds = async (token: string | undefined, query = '') => {
    const response = await send('GET', `/views/?limit=100${query}`, token);
    assert.equal(response.statusCode, 200, response.body);
    return (response.json().results as Array<{ id: string }>).map((row) => row.id);
  };

  const STATE = {
    search: 'acme',
    ordering: '-founding_date',
    filters: { ownership_type: ['private'], founding_date__gte: ['2015'] },
    columns: ['display_name', 'hq_city', 'ownership_type'],
    density: 'compact',
    group_by: 'ownership_type',
    page_size: 50,
  };

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    await t.createUser(acme, 'mate@acme.test', { is_research: true });
    mate = await t.login(acme, 'mate@acme.test');
  });
  after(() => t.close());

  it('a research user saves a view; its state comes back as saved, with its owner', async () => {
    const view = await create(tokens.research, { name: 'Private companies', resource: 'organizations', state: STATE });
    assert.deepEqual(view.state, STATE);
    assert.equal(view.shared, false);
    assert.equal(view.is_default, false);
    const me = (await send('GET', '/auth/me/', tokens.research)).json();
    assert.equal(view.owner_id, me.id);
    const read = await send('GET', `/views/${view.id}/`, tokens.research);
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json().state, STATE);
    // Settings left out are the table's own.
    const bare = await create(tokens.research, { name: 'Everything', resource: 'organizations' });
    assert.deepEqual(bare.state, { search: '', ordering: '', filters: {}, columns: null, density: null, group_by: null, page_size: null });
  });

  it('visitors and paywall readers have no saved views (401, 403)', async () => {
    assert.equal((await send('GET', '/views/', undefined)).statusCode, 401);
    assert.equal((await send('GET', '/views/', tokens.paywall)).statusCode, 403);
    assert.equal((await send('POST', '/views/', tokens.paywall, { name: 'x', resource: 'organizations' })).statusCode, 403);
    assert.equal((await send('POST', '/views/', undefined, { name: 'x', resource: 'organizations' })).statusCode, 401);
  });

  it('private views are their owner\'s alone; shared views are read by the team, changed only by their owner', async () => {
    const mine = await create(tokens.research, { name: 'Mine', resource: 'people' });
    const ours = await create(tokens.research, { name: 'Ours', resource: 'people', shared: true });
    for (const token of [mate, tokens.admin]) {
      const ids = await listIds(token, '&resource=people');
      assert.ok(ids.includes(ours.id), 'a shared view is listed for the team');
      assert.ok(!ids.includes(mine.id), 'a private view is not');
      assert.equal((await send('GET', `/views/${mine.id}/`, token)).statusCode, 404, 'a private view is not found, even by id');
      assert.equal((await send('GET', `/views/${ours.id}/`, token)).statusCode, 200);
      const edit = await send('PATCH', `/views/${ours.id}/`, token, { name: 'Taken over' });
      assert.equal(edit.statusCode, 403, edit.body);
      assert.match(edit.json().detail, /owner/);
      assert.equal((await send('DELETE', `/views/${ours.id}/`, token)).statusCode, 403);
      assert.equal((await send('PATCH', `/views/${mine.id}/`, token, { name: 'x' })).statusCode, 404);
      assert.equal((await send('DELETE', `/views/${mine.id}/`, token)).statusCode, 404);
      // Admins read the history of what they may read only.
      if (token === tokens.admin) {
        assert.equal((await send('GET', `/views/${mine.id}/history/`, token)).statusCode, 404);
        assert.equal((await send('GET', `/views/${ours.id}/history/`, token)).statusCode, 200);
      }
    }
    // The count is the rows the reader may read.
    const page = (await send('GET', '/views/?resource=people', mate)).json();
    assert.equal(page.count, page.results.length);
    // The owner renames, unshares and deletes.
    assert.equal((await send('PATCH', `/views/${ours.id}/`, tokens.research, { name: 'Renamed', shared: false })).statusCode, 200);
    assert.ok(!(await listIds(mate, '&resource=people')).includes(ours.id), 'unshared: gone for the team');
    const history = await send('GET', `/views/${ours.id}/history/`, tokens.admin);
    assert.equal(history.statusCode, 404, 'unshared: its history is no longer the admin\'s to read');
    assert.equal((await send('DELETE', `/views/${mine.id}/`, tokens.research)).statusCode, 204);
    assert.equal((await send('GET', `/views/${mine.id}/`, tokens.research)).statusCode, 404);
  });

  it('row-level security holds the rule below the engine: another user\'s private view is no row at all', async () => {
    const mine = await create(tokens.research, { name: 'Only mine', resource: 'library' });
    const mateUser = (await send('GET', '/auth/me/', mate)).json();
    const researchUser = (await send('GET', '/auth/me/', tokens.research)).json();
    const seen = (userId: string | null) =>
      t.db.withTenant({ tenantId: acme.id, userId }, (tx) => query<{ id: string }>(tx, sql`SELECT id FROM saved_views WHERE id = ${mine.id}`));
    assert.equal((await seen(researchUser.id)).length, 1);
    assert.equal((await seen(mateUser.id)).length, 0, 'a teammate reads no row');
    assert.equal((await seen(null)).length, 0, 'a transaction without a user reads none');
    // Nor can a statement write one in another user's name, or change another's row.
    await assert.rejects(
      t.db.withTenant({ tenantId: acme.id, userId: mateUser.id }, (tx) =>
        query(tx, sql`INSERT INTO saved_views (tenant_id, owner_id, name, resource) VALUES (${acme.id}, ${researchUser.id}, 'forged', 'library')`)),
      (error: Error) => /row-level security/.test(String(error.cause ?? error)),
    );
    const changed = await t.db.withTenant({ tenantId: acme.id, userId: mateUser.id }, (tx) =>
      query(tx, sql`UPDATE saved_views SET shared = true WHERE id = ${mine.id} RETURNING id`));
    assert.equal(changed.length, 0);
  });

  it('a view of tenant A is never readable from tenant B, even by id', async () => {
    const shared = await create(tokens.admin, { name: 'Acme team view', resource: 'organizations', shared: true });
    assert.equal((await send('GET', `/views/${shared.id}/`, tokens.beta, undefined, beta)).statusCode, 404);
    assert.equal((await send('PATCH', `/views/${shared.id}/`, tokens.beta, { name: 'x' }, beta)).statusCode, 404);
    assert.equal((await send('PUT', `/views/${shared.id}/default/`, tokens.beta, undefined, beta)).statusCode, 404);
    const listed = (await send('GET', '/views/?limit=100', tokens.beta, undefined, beta)).json();
    assert.ok(!listed.results.some((row: { id: string }) => row.id === shared.id));
    // Acme's token on beta's host is no one there.
    assert.equal((await send('GET', `/views/${shared.id}/`, tokens.admin, undefined, beta)).statusCode, 401);
  });

  it('one default per user and table: any view they may read, theirs alone', async () => {
    const first = await create(tokens.research, { name: 'First', resource: 'ledger_entries', state: { group_by: 'year' } });
    const second = await create(tokens.research, { name: 'Second', resource: 'ledger_entries', shared: true });
    const made = await send('PUT', `/views/${first.id}/default/`, tokens.research);
    assert.equal(made.statusCode, 200, made.body);
    assert.equal(made.json().is_default, true);
    assert.equal((await send('PUT', `/views/${second.id}/default/`, tokens.research)).statusCode, 200);
    const views = (await send('GET', '/views/?resource=ledger_entries', tokens.research)).json().results as Array<{ id: string; is_default: boolean }>;
    assert.deepEqual(views.filter((view) => view.is_default).map((view) => view.id), [second.id], 'making another the default replaces the first');
    // A teammate makes the shared view their default too; each default is its user's own.
    assert.equal((await send('PUT', `/views/${second.id}/default/`, mate)).statusCode, 200);
    assert.equal((await send('DELETE', `/views/${second.id}/default/`, tokens.research)).statusCode, 204);
    const forMate = (await send('GET', `/views/${second.id}/`, mate)).json();
    assert.equal(forMate.is_default, true, 'the teammate\'s default stays');
    assert.equal((await send('GET', `/views/${second.id}/`, tokens.research)).json().is_default, false);
    assert.equal((await send('DELETE', `/views/${second.id}/default/`, tokens.research)).statusCode, 404, 'not a default any more');
    // A private view of someone else cannot be made one's default.
    assert.equal((await send('PUT', `/views/${first.id}/default/`, mate)).statusCode, 404);
    assert.equal((await send('PUT', `/views/${first.id}/default/`, tokens.paywall)).statusCode, 403);
    assert.equal((await send('PUT', `/views/${first.id}/default/`, undefined)).statusCode, 401);
    assert.equal((await send('PUT', '/views/not-an-id/default/', tokens.research)).statusCode, 400);
    // A deleted view is no one's default any more.
    assert.equal((await send('DELETE', `/views/${second.id}/`, tokens.research)).statusCode, 204);
    const mateViews = (await send('GET', '/views/?resource=ledger_entries', mate)).json().results as Array<{ is_default: boolean }>;
    assert.ok(mateViews.every((view) => !view.is_default));
  });

  describe('bad input is a 400 naming the setting, and writes nothing', () => {
    const cases: Array<[string, object, string, RegExp]> = [
      ['no name', { resource: 'organizations' }, 'name', /required/],
      ['an unknown resource', { name: 'x', resource: 'spaceships' }, 'resource', /Unknown resource/],
      ['the views themselves', { name: 'x', resource: 'saved_views' }, 'resource', /Unknown resource/],
      ['state not an object', { name: 'x', resource: 'organizations', state: [1] }, 'state', /object/],
      ['an unknown setting', { name: 'x', resource: 'organizations', state: { colour: 'red' } }, 'state.colour', /Unknown setting/],
      ['an unknown filter', { name: 'x', resource: 'organizations', state: { filters: { planet: ['mars'] } } }, 'state.filters.planet', /Unknown filter/],
      ['an unknown lookup', { name: 'x', resource: 'organizations', state: { filters: { hq_city__like: ['Ber'] } } }, 'state.filters.hq_city__like', /Unknown lookup/],
      ['a bad choice', { name: 'x', resource: 'organizations', state: { filters: { visibility__not: ['secret'] } } }, 'state.filters.visibility__not', /Must be one of: hidden, paywalled, public/],
      ['a bad date', { name: 'x', resource: 'organizations', state: { filters: { founding_date__gt: ['2015-13'] } } }, 'state.filters.founding_date__gt', /./],
      ['a setting as a filter', { name: 'x', resource: 'organizations', state: { filters: { ordering: ['name_inc'] } } }, 'state.filters.ordering', /setting of its own/],
      ['filters not an object', { name: 'x', resource: 'organizations', state: { filters: 'hq_city=Berlin' } }, 'state.filters', /object/],
      ['an ordering it cannot order by', { name: 'x', resource: 'organizations', state: { ordering: 'notes' } }, 'state.ordering', /./],
      ['an unknown column', { name: 'x', resource: 'organizations', state: { columns: ['display_name', 'shoe_size'] } }, 'state.columns', /shoe_size/],
      ['a bad density', { name: 'x', resource: 'organizations', state: { density: 'tight' } }, 'state.density', /comfortable, compact/],
      ['group by a field of many values', { name: 'x', resource: 'organizations', state: { group_by: 'keywords' } }, 'state.group_by', /Group by one of/],
      ['a page size not offered', { name: 'x', resource: 'organizations', state: { page_size: 30 } }, 'state.page_size', /25, 50, 100/],
      ['a search too long', { name: 'x', resource: 'organizations', state: { search: 'x'.repeat(201) } }, 'state.search', /200/],
    ];
    for (const [what, body, field, message] of cases) {
      it(what, async () => {
        const before = await listIds(tokens.admin);
        const response = await send('POST', '/views/', tokens.research, body);
        assert.equal(response.statusCode, 400, response.body);
        const errors = response.json().errors as Record<string, string[]>;
        assert.ok(errors[field], `names ${field}: ${response.body}`);
        assert.match(errors[field]![0]!, message);
        assert.deepEqual(await listIds(tokens.admin), before, 'nothing written');
      });
    }

    it('an edit is checked the same way; the resource cannot change', async () => {
      const view = await create(tokens.research, { name: 'Edited', resource: 'organizations', state: STATE });
      const bad = await send('PATCH', `/views/${view.id}/`, tokens.research, { state: { ...STATE, group_by: 'notes' } });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.json().errors['state.group_by']);
      const moved = await send('PATCH', `/views/${view.id}/`, tokens.research, { resource: 'people' });
      assert.equal(moved.statusCode, 400);
      assert.ok(moved.json().errors['resource']);
      assert.deepEqual((await send('GET', `/views/${view.id}/`, tokens.research)).json().state, STATE, 'unchanged');
      // Sent back as read (owner_id, is_default), a view saves.
      const read = (await send('GET', `/views/${view.id}/`, tokens.research)).json();
      assert.equal((await send('PATCH', `/views/${view.id}/`, tokens.research, { ...read, name: 'Edited again' })).statusCode, 200);
    });

    it('an admin-only field is no filter, column or group of a research user\'s view', async () => {
      const filter = await send('POST', '/views/', tokens.research, { name: 'x', resource: 'assets/ledger', state: {} });
      assert.equal(filter.statusCode, 400, 'resource is the kind, not the path');
      const meta = (await send('GET', '/resources/', tokens.research)).json() as Array<{ kind: string; read_access: string; fields: Array<{ name: string; kind: string; read_access: string }> }>;
      const restricted = meta
        .filter((resource) => resource.read_access !== 'admin')
        .flatMap((resource) => resource.fields.filter((field) => field.read_access === 'admin' && field.kind !== 'object').map((field) => [resource.kind, field.name] as const));
      assert.ok(restricted.length > 0, 'some field is for admins only');
      const [kind, name] = restricted[0]!;
      const asColumn = await send('POST', '/views/', tokens.research, { name: 'x', resource: kind, state: { columns: ['display_name', name] } });
      assert.equal(asColumn.statusCode, 400, asColumn.body);
      assert.ok(asColumn.json().errors['state.columns']);
      const byAdmin = await send('POST', '/views/', tokens.admin, { name: 'x', resource: kind, state: { columns: ['display_name', name] } });
      assert.equal(byAdmin.statusCode, 201, byAdmin.body);
    });
  });

  it('resource metadata names the fields each list can be grouped by', async () => {
    const meta = (await send('GET', '/resources/', tokens.research)).json() as Array<{ kind: string; group_by: string[] }>;
    const of = (kind: string) => meta.find((resource) => resource.kind === kind)!.group_by;
    assert.ok(of('organizations').includes('ownership_type'));
    assert.ok(of('organizations').includes('visibility'));
    assert.ok(!of('organizations').includes('keywords'), 'a field of many values is no group');
    assert.ok(of('ledger_entries').includes('year'));
    assert.ok(of('raw_data').includes('bucket'), 'a relation to one record');
  });
});

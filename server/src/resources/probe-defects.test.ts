/**
 * Defects a black-box probe of every route found (issue 12, point 8): relation
 * filters as an oracle for hidden records, concurrent deletes of one record,
 * and shared rows (geos, cities) exposing another tenant's user ids.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { RESOURCES } from '../modules/registry.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { filterNames } from './list-query.ts';

describe('probe defects', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, role?: string, payload?: object, tenant = acme) =>
    t.request(tenant, { method, url: `/api/v1${url}`, token: role ? tokens[role] : undefined, ...(payload ? { payload } : {}) });
  const create = async (path: string, payload: object) => {
    const response = await send('POST', `${path}/`, 'admin', payload);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };

  describe('relation filters match only through targets the caller may see', () => {
    /** Public records, each with the relation filters → the hidden target it points at. */
    const probes: Array<{ path: string; id: string; filters: Record<string, string> }> = [];

    before(async () => {
      const keyword = await create('/keywords', { name: 'Hidden keyword', visibility: 'hidden' });
      const organization = await create('/assets/organizations', { name_inc: 'Hidden Holdings', visibility: 'hidden' });
      const person = await create('/assets/people', { name_given: 'Hidden', name_family: 'Person', visibility: 'hidden' });
      const entry = await create('/assets/ledger', { caption: 'Hidden entry', visibility: 'hidden' });
      const records: Array<[string, object, Record<string, string>]> = [
        ['/assets/organizations', { name_inc: 'Public Tagged' }, { keywords: keyword }],
        ['/assets/people', { name_given: 'Public', name_family: 'Tagged' }, { keywords: keyword }],
        ['/assets/ledger', { caption: 'Public entry', organizations: [organization], people: [person] }, { organizations: organization, people: person, keywords: keyword }],
        ['/library', { title: 'Public paper', authors: [person], assets: [organization, entry] }, { authors: person, assets: entry, keywords: keyword }],
        ['/assets/investments', { ledger_entry: entry, owner: organization }, { ledger_entry: entry, owner: organization }],
        ['/assets/investments', { ledger_entry: entry, owner_person: person }, { owner_person: person }],
        ['/terminology', { term: 'Public term' }, { keywords: keyword }],
      ];
      const section = await create('/facts/sections', { name: 'Probe section' });
      const paper = await create('/library', { title: 'Hidden paper', visibility: 'hidden' });
      const hiddenFact = await create('/facts', { text: 'Hidden parent', section, visibility: 'hidden' });
      records.push(
        ['/facts', { text: 'Public fact', section, sources_library: [paper], organizations: [organization], people: [person], ledger_entries: [entry] },
          { sources_library: paper, organizations: organization, people: person, ledger_entries: entry, keywords: keyword }],
        // A child is never more visible than its parent: the hidden parent's child is hidden too.
        ['/facts', { text: 'Hidden child', parent: hiddenFact, visibility: 'hidden' }, { parent: hiddenFact }],
      );
      for (const [path, payload, filters] of records) {
        probes.push({ path, id: await create(path, { keywords: [keyword], visibility: 'public', ...payload }), filters });
      }
    });

    it('covers every relation filter of every resource whose targets have a visibility', () => {
      const covered = probes.flatMap(({ path, filters }) => Object.keys(filters).map((name) => `${path}?${name}`));
      const relationFilters = RESOURCES.filter((resource) => !resource.readAccess).flatMap((resource) =>
        filterNames(resource)
          .filter((name) => resource.fields[name]?.relation && resource.fields[name]!.relation!.targets.some((kind) => RESOURCES.find((r) => r.kind === kind)!.hasVisibility))
          .map((name) => `${resource.path}?${name}`),
      );
      assert.deepEqual(relationFilters.filter((name) => !covered.includes(name)), []);
    });

    for (const role of [undefined, 'paywall']) {
      it(`${role ?? 'an anonymous visitor'} filtering by a hidden record's id gets nothing, as for an unknown id`, async () => {
        for (const { path, filters } of probes) {
          for (const [name, hiddenId] of Object.entries(filters)) {
            for (const url of [`${path}/?${name}=${hiddenId}`, `${path}/?${name}=${hiddenId}&search=public`, `${path}/?${name}=${hiddenId}&offset=5`]) {
              const page = await send('GET', url, role);
              assert.equal(page.statusCode, 200, `${url}: ${page.body}`);
              assert.deepEqual([page.json().count, page.json().results.length], [0, 0], url);
            }
            const exported = await send('GET', `${path}/?${name}=${hiddenId}&format=xlsx`, role);
            assert.equal(exported.statusCode, 200, `${path} export`);
            assert.ok(!exported.rawPayload.includes(Buffer.from('Public ')), `${path}?${name} export holds no row`);
          }
        }
      });
    }

    it('a caller who sees the target still filters by it (one of several ids is enough)', async () => {
      for (const { path, id, filters } of probes) {
        for (const [name, hiddenId] of Object.entries(filters)) {
          const page = (await send('GET', `${path}/?${name}=${hiddenId},00000000-0000-4000-8000-000000000000`, 'admin')).json();
          assert.ok(page.results.some((row: { id: string }) => row.id === id), `${path}?${name}`);
        }
      }
    });
  });

  describe('concurrent deletes of one record', () => {
    it('exactly one succeeds and writes one delete audit entry; the others 404', async () => {
      const doomed: Record<string, object> = {
        '/assets/organizations': { name_inc: 'Doomed' },
        '/assets/ledger': { caption: 'Doomed' },
        '/lists': { kind: 'OrganizationsList', name: 'Doomed list' },
      };
      for (const [path, payload] of Object.entries(doomed)) {
        const rowId = await create(path, payload);
        const statuses = (await Promise.all(Array.from({ length: 20 }, () => send('DELETE', `${path}/${rowId}/`, 'admin')))).map((response) => response.statusCode);
        assert.deepEqual([statuses.filter((status) => status === 204).length, statuses.filter((status) => status === 404).length], [1, 19], `${path}: ${statuses.join(' ')}`);
        const audits = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
          query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM audit_entries WHERE record_id = ${rowId} AND action = 'delete'`),
        );
        assert.equal(audits[0]!.n, 1, path);
      }
    });
  });

  describe('body keys naming what every object inherits', () => {
    it('are unknown fields (400 naming them) on create and PATCH, never a 500', async () => {
      const records: Record<string, object> = {
        '/assets/organizations': { name_inc: 'Prototype Probe' },
        '/assets/ledger': { caption: 'Prototype probe' },
        '/keywords': { name: 'Prototype probe' },
        '/lists': { kind: 'OrganizationsList', name: 'Prototype probe list' },
      };
      for (const [path, payload] of Object.entries(records)) {
        const rowId = await create(path, payload);
        for (const key of ['toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
          for (const [method, url] of [['POST', `${path}/`], ['PATCH', `${path}/${rowId}/`]] as const) {
            const response = await send(method, url, 'admin', { ...payload, [key]: 1 });
            assert.equal(response.statusCode, 400, `${method} ${url} ${key}: ${response.body}`);
            assert.deepEqual(response.json().errors?.[key], ['Unknown field.'], `${method} ${url} ${key}: ${response.body}`);
          }
        }
      }
    });

    it('are unknown fields where the route schema refuses extra keys', async () => {
      for (const key of ['toString', 'constructor', 'hasOwnProperty']) {
        const response = await send('PATCH', '/settings/', 'admin', { [key]: 1 });
        assert.equal(response.statusCode, 400, `${key}: ${response.body}`);
        assert.deepEqual(response.json().errors, { [key]: ['Unknown field.'] }, key);
      }
    });
  });

  describe('shared geos and cities', () => {
    it('never show another tenant the user id of whoever wrote them', async () => {
      const main = await t.createTenant('main', { isDefault: true });
      await t.createUser(main, 'manager@main.test', { is_admin: true });
      const manager = await t.login(main, 'manager@main.test');
      const geo = await t.request(main, { method: 'POST', url: '/api/v1/geos/', token: manager, payload: { name: 'Probe Region', code: 'PROBE', geo_type: 'region' } });
      assert.equal(geo.statusCode, 201, geo.body);
      const city = await t.request(main, { method: 'POST', url: '/api/v1/cities/', token: manager, payload: { name: 'Probe City' } });
      assert.equal(city.statusCode, 201, city.body);
      const managerId = geo.json().updated_by as string;
      assert.ok(managerId, 'the writer sees their own id');
      for (const [path, rowId] of [['/geos', geo.json().id], ['/cities', city.json().id]] as const) {
        const own = await t.request(main, { method: 'GET', url: `/api/v1${path}/${rowId}/`, token: manager });
        assert.equal(own.json().updated_by, managerId, `${path}: the writer's tenant keeps it`);
        for (const [tenant, role] of [[acme, undefined], [acme, 'admin'], [beta, 'beta']] as const) {
          const detail = await send('GET', `${path}/${rowId}/`, role, undefined, tenant);
          assert.equal(detail.statusCode, 200);
          assert.equal(detail.json().updated_by, null, `${path} detail for ${tenant.code} ${role ?? 'anonymous'}`);
          const listed = await send('GET', `${path}/?search=probe`, role, undefined, tenant);
          assert.ok(listed.json().results.length > 0);
          assert.ok(listed.json().results.every((row: { updated_by: string | null }) => row.updated_by === null), `${path} list`);
          const exported = await send('GET', `${path}/?search=probe&format=xlsx`, role, undefined, tenant);
          assert.ok(!exported.rawPayload.includes(Buffer.from(managerId)), `${path} export`);
        }
      }
    });
  });
});

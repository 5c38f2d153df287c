import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

const ORGS = '/api/v1/assets/organizations';
const LISTS = '/api/v1/lists';

describe('list memberships written through a record (PATCH {lists})', () => {
  let t: TestContext;
  let acme: TenantRow;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  const call = (role: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
    t.request(acme, { method, url, token: tokens[role], ...(payload ? { payload } : {}) });
  const listsOf = async (role: string, orgId: string) => {
    const response = await call(role, 'GET', `${ORGS}/${orgId}/`);
    assert.equal(response.statusCode, 200, response.body);
    return (response.json().lists as string[]).slice().sort();
  };

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(acme, 'research@acme.test', { is_research: true });
    tokens['admin'] = await t.login(acme, 'admin@acme.test');
    tokens['research'] = await t.login(acme, 'research@acme.test');
    for (const [key, visibility] of [['secret', 'hidden'], ['open', 'public'], ['other', 'public']] as const) {
      const response = await call('admin', 'POST', `${LISTS}/`, { name: `${key} list`, kind: 'OrganizationsList', visibility, auto_tagging: false });
      assert.equal(response.statusCode, 201, response.body);
      ids[key] = response.json().id;
    }
  });
  after(() => t?.close());

  it('a research user (a curator) sees every list a record is in, hidden ones too, and replaces them all', async () => {
    const org = await call('admin', 'POST', `${ORGS}/`, { name_inc: 'Member Org', visibility: 'public', lists: [ids['secret'], ids['open']] });
    assert.equal(org.statusCode, 201, org.body);
    const orgId = org.json().id as string;
    assert.deepEqual(await listsOf('research', orgId), [ids['secret'], ids['open']].sort());
    assert.deepEqual(await listsOf('paywall', orgId), [ids['open']], 'a reader sees only the lists they may read');

    const swapped = await call('research', 'PATCH', `${ORGS}/${orgId}/`, { lists: [ids['other']] });
    assert.equal(swapped.statusCode, 200, swapped.body);
    assert.deepEqual(swapped.json().lists, [ids['other']]);
    assert.deepEqual(await listsOf('admin', orgId), [ids['other']]);

    // Admins see every list, so what they send is the whole set.
    const cleared = await call('admin', 'PATCH', `${ORGS}/${orgId}/`, { lists: [] });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.deepEqual(await listsOf('admin', orgId), []);
  });

  it('a research user adds a record to a hidden list; an unknown list id is a 400', async () => {
    const org = await call('research', 'POST', `${ORGS}/`, { name_inc: 'Probe Org', visibility: 'public' });
    assert.equal(org.statusCode, 201, org.body);
    const added = await call('research', 'PATCH', `${ORGS}/${org.json().id}/`, { lists: [ids['secret']] });
    assert.equal(added.statusCode, 200, added.body);
    const unknown = await call('research', 'PATCH', `${ORGS}/${org.json().id}/`, { lists: ['00000000-0000-4000-8000-000000000000'] });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.ok(unknown.json().errors.lists, unknown.body);
    // An id is an id whatever its case.
    const upper = await call('research', 'PATCH', `${ORGS}/${org.json().id}/`, { lists: [ids['secret']!.toUpperCase()] });
    assert.equal(upper.statusCode, 200, upper.body);
    assert.deepEqual(upper.json().lists, [ids['secret']]);
  });
});

// What the web app's inline table editing (docs/web.md "Editing in the table") relies on from the
// server: the metadata's `editable` per field, a PATCH of one field changing only that field with
// one audit entry naming it, a refused value answered {field: [message]} with nothing written,
// the field's write_access enforced, and another tenant's record out of reach.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

const LEDGER = '/api/v1/assets/ledger';

type FieldInfo = { name: string; editable: boolean; read_only: boolean; immutable: boolean; kind: string; write_access: string };

describe('inline editing: metadata and one-field updates', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  let entry: string;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    const created = await t.request(acme, { method: 'POST', url: `${LEDGER}/`, token: tokens['admin'], payload: { caption: 'Grid entry', year: 2010, quarter: 'Q1', visibility: 'public' } });
    assert.equal(created.statusCode, 201, created.body);
    entry = (created.json() as { id: string }).id;
  });
  after(() => t.close());

  const fieldsOf = async (kind: string) => {
    const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<{ kind: string; fields: FieldInfo[] }>;
    return new Map(meta.find((resource) => resource.kind === kind)!.fields.map((field) => [field.name, field]));
  };

  it('says which fields an update may set: not read-only, immutable or JSON objects', async () => {
    const ledger = await fieldsOf('ledger_entries');
    for (const name of ['caption', 'year', 'quarter', 'organizations', 'visibility', 'amount']) assert.equal(ledger.get(name)?.editable, true, name);
    const lists = await fieldsOf('lists');
    assert.equal(lists.get('slug')?.editable, false, 'read-only');
    assert.equal(lists.get('kind')?.editable, false, 'immutable');
    assert.equal(lists.get('name')?.editable, true);
    const organizations = await fieldsOf('organizations');
    assert.equal(organizations.get('suggested_fields')?.editable, false, 'a JSON object');
    const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<{ fields: FieldInfo[] }>;
    for (const field of meta.flatMap((resource) => resource.fields)) {
      assert.equal(field.editable, !field.read_only && !field.immutable && field.kind !== 'object', field.name);
    }
  });

  it('a PATCH of one field changes that field only and leaves one audit entry naming it', async () => {
    const response = await t.request(acme, { method: 'PATCH', url: `${LEDGER}/${entry}/`, token: tokens['research'], payload: { year: 2001 } });
    assert.equal(response.statusCode, 200, response.body);
    const record = response.json() as Record<string, unknown>;
    assert.deepEqual([record['year'], record['quarter'], record['caption']], [2001, 'Q1', 'Grid entry']);
    const history = (await t.request(acme, { method: 'GET', url: `${LEDGER}/${entry}/history/`, token: tokens['admin'] })).json() as {
      results: Array<{ action: string; changes: Record<string, { from: unknown; to: unknown }> }>;
    };
    const [latest] = history.results;
    assert.equal(latest?.action, 'update');
    assert.deepEqual(Object.keys(latest?.changes ?? {}), ['year']);
    assert.deepEqual(latest?.changes['year'], { from: 2010, to: 2001 });
  });

  it('refuses a bad value with the field and the reason, and writes nothing', async () => {
    const response = await t.request(acme, { method: 'PATCH', url: `${LEDGER}/${entry}/`, token: tokens['research'], payload: { year: 12345, quarter: 'Q2' } });
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual((response.json() as { errors: Record<string, string[]> }).errors, { year: ['Must be at most 9999.'] });
    const stored = (await t.request(acme, { method: 'GET', url: `${LEDGER}/${entry}/`, token: tokens['admin'] })).json() as Record<string, unknown>;
    assert.deepEqual([stored['year'], stored['quarter']], [2001, 'Q1'], 'no partial write');
  });

  it('readers may not edit, and another tenant cannot reach the record', async () => {
    for (const role of ['paywall', 'public']) {
      const response = await t.request(acme, { method: 'PATCH', url: `${LEDGER}/${entry}/`, token: tokens[role], payload: { year: 2002 } });
      assert.ok([401, 403].includes(response.statusCode), `${role}: ${response.statusCode}`);
    }
    const other = await t.request(beta, { method: 'PATCH', url: `${LEDGER}/${entry}/`, token: tokens['beta'], payload: { year: 2002 } });
    assert.equal(other.statusCode, 404, other.body);
    const stored = (await t.request(acme, { method: 'GET', url: `${LEDGER}/${entry}/`, token: tokens['admin'] })).json() as Record<string, unknown>;
    assert.equal(stored['year'], 2001);
  });
});

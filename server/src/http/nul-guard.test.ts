/**
 * A NUL character (U+0000) anywhere in text input is a 400 naming the field,
 * decided at the edge for every route, and nothing is written.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { xlsx } from '../test/xlsx.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { multipart } from '../test/multipart.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { NUL_MESSAGE, nulField } from '../resources/nul.ts';

describe('NUL characters in input', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, role?: string, payload?: unknown) =>
    t.request(acme, {
      method,
      url: `/api/v1${url}`,
      token: role ? tokens[role] : undefined,
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json' } }),
    });
  const assertNul = (response: Awaited<ReturnType<typeof send>>, field: string) => {
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(response.json().errors, { [field]: [NUL_MESSAGE] });
  };

  it('finds the top-level field of a NUL in a value or key at any depth, without recursion limits', () => {
    assert.equal(nulField({ a: 'x', b: ['y', { c: 'z\u0000' }] }), 'b');
    assert.equal(nulField({ a: { 'k\u0000': 1 } }), 'a');
    assert.equal(nulField({ 'k\u0000': 1 }), 'k\\u0000');
    assert.equal(nulField('a\u0000'), 'non_field_errors');
    assert.equal(nulField({ a: 'fine', b: [1, null, true] }), null);
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(nulField({ deep }), 'deep');
  });

  it('in a query string, anonymously: search, list search, filters, ordering', async () => {
    assertNul(await send('GET', '/search/?q=%00'), 'q');
    assertNul(await send('GET', '/search/?q=acme%00corp&type=Organization'), 'q');
    for (const path of ['/assets/organizations', '/assets/people', '/library', '/assets/ledger', '/lists', '/keywords', '/terminology', '/geos']) {
      assertNul(await send('GET', `${path}/?search=a%00b`), 'search');
    }
    assertNul(await send('GET', '/assets/organizations/?hq_city=%00'), 'hq_city');
    assertNul(await send('GET', '/library/?publisher=x%00'), 'publisher');
    assertNul(await send('GET', '/assets/organizations/?ordering=%00'), 'ordering');
    assertNul(await send('GET', '/assets/organizations/?a%00b=1'), 'a\\u0000b');
    // Found by fuzzing every route: a repeated quick-search parameter was a 500.
    for (const name of ['q', 'type', 'limit']) {
      const repeated = await send('GET', `/search/?${name}=1&${name}=2`);
      assert.equal(repeated.statusCode, 400, repeated.body);
      assert.ok(repeated.json().errors[name], name);
    }
  });

  it('in a path parameter', async () => {
    assertNul(await send('GET', '/lists/library/a%00b/'), 'slug');
    assertNul(await send('GET', '/assets/organizations/%00/'), 'id');
  });

  it('in a body field: sign-in, records, users, settings, tenants — and nothing is written', async () => {
    assertNul(await send('POST', '/auth/login/', undefined, { email: 'a\u0000b', password: 'x' }), 'email');
    const before = (await send('GET', '/assets/organizations/', 'admin')).json().count;
    assertNul(await send('POST', '/assets/organizations/', 'admin', { name_inc: 'Nul\u0000Corp' }), 'name_inc');
    assertNul(await send('POST', '/assets/organizations/', 'research', { name_inc: 'Fine', emails: ['a@b.c', 'x\u0000@y.z'] }), 'emails');
    assertNul(await send('POST', '/assets/people/', 'admin', { name_given: 'Ann', suggested_fields: { 'key\u0000': 'v' } }), 'suggested_fields');
    assertNul(await send('POST', '/library/', 'admin', { title: 'T', abstract: 'ab\u0000c' }), 'abstract');
    assertNul(await send('POST', '/users/', 'admin', { email: 'n\u0000@acme.test', password: 'long enough password' }), 'email');
    assertNul(await send('PATCH', '/settings/', 'admin', { footer_text: 'f\u0000' }), 'footer_text');
    assert.equal((await send('GET', '/assets/organizations/', 'admin')).json().count, before, 'nothing written');
  });

  it('a research user gets the same 400 on every write', async () => {
    const created = await send('POST', '/assets/organizations/', 'research', { name_inc: 'Clean Corp' });
    assert.equal(created.statusCode, 201, created.body);
    assertNul(await send('PATCH', `/assets/organizations/${created.json().id}/`, 'research', { notes: 'n\u0000' }), 'notes');
    assert.equal((await send('GET', `/assets/organizations/${created.json().id}/`, 'admin')).json().notes, null);
  });

  it('in a spreadsheet cell: a row error naming the field, nothing imported', async () => {
    const file = await xlsx([['name_inc', 'notes'], ['Sheet Corp', 'bad_x0000_note']]);
    const response = await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/upload/', token: tokens['admin'], ...multipart('orgs.xlsx', file) });
    // The .xlsx escape _x0000_ decodes to a NUL when the sheet is read.
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(response.json().report.errors, [{ row: 2, field: 'notes', message: NUL_MESSAGE }]);
    const search = (await send('GET', '/assets/organizations/?search=sheet', 'admin')).json();
    assert.equal(search.count, 0);
  });
});

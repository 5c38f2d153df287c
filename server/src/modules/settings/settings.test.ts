import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const SETTINGS_URL = '/api/v1/settings/';

const DEFAULTS = {
  payment_access_link: null,
  payment_access_message: null,
  open_data_link: null,
  header_show_tenant_name: true,
  header_show_access_level: true,
  footer_text: null,
  footer_show_open_data_link: true,
  footer_show_setup_invite: true,
};

describe('settings API', () => {
  let t: TestContext;
  let main: TenantRow;
  let acme: TenantRow;
  let beta: TenantRow;
  const tokens: Record<string, string | undefined> = {};

  before(async () => {
    t = await createTestApp();
    main = await t.createTenant('default', { isDefault: true, name: 'Main' });
    acme = await t.createTenant('acme', { name: 'Acme' });
    beta = await t.createTenant('beta', { name: 'Beta' });
    await t.createUser(main, 'root@main.test', { is_admin: true });
    tokens['manager'] = await t.login(main, 'root@main.test');
    Object.assign(tokens, await t.signInAudiences(acme));
  });
  after(() => t.close());

  const patch = (payload: Record<string, unknown>, tenant = acme, token = tokens['admin']) =>
    t.request(tenant, { method: 'PATCH', url: SETTINGS_URL, token, payload });
  const publicInfo = async (tenant: TenantRow) => (await t.request(tenant, { method: 'GET', url: '/api/v1/tenant/' })).json();

  it('only admins of the tenant: public 401, paywall and research 403', async () => {
    for (const method of ['GET', 'PATCH'] as const) {
      for (const [caller, status] of [['public', 401], ['paywall', 403], ['research', 403], ['admin', 200]] as const) {
        const response = await t.request(acme, { method, url: SETTINGS_URL, token: tokens[caller], ...(method === 'PATCH' ? { payload: {} } : {}) });
        assert.equal(response.statusCode, status, `${caller} ${method}`);
      }
    }
    const manager = await t.request(main, { method: 'GET', url: SETTINGS_URL, token: tokens['manager'] });
    assert.equal(manager.statusCode, 200, "a tenant manager edits the default tenant's settings like any admin");
    assert.equal(manager.json().name, 'Main');
  });

  it('starts from the defaults that reproduce the usual layout, and shows them to visitors', async () => {
    const response = await t.request(acme, { method: 'GET', url: SETTINGS_URL, token: tokens['admin'] });
    assert.deepEqual(response.json(), { name: 'Acme', ...DEFAULTS, suggestion_min_confidence: 0.6 });
    const info = await publicInfo(acme);
    for (const [name, value] of Object.entries(DEFAULTS)) assert.equal(info[name], value, name);
    const unknown = (await t.request('nobody', { method: 'GET', url: '/api/v1/tenant/' })).json();
    assert.equal(unknown.exists, false);
    assert.equal(unknown.header_show_tenant_name, true);
    assert.equal(unknown.footer_text, null);
  });

  it('changes what was sent; GET tenant/ and clients/info/ show it to every visitor at once', async () => {
    assert.equal((await publicInfo(acme)).footer_text, null, 'read once, so the tenant cache holds the old row');
    const response = await patch({
      name: ' Acme Research ',
      open_data_link: 'data.acme.example/open',
      footer_text: '  Acme Research Ltd · research@acme.example ',
      header_show_access_level: false,
      footer_show_setup_invite: false,
      payment_access_link: 'https://acme.example/subscribe',
      payment_access_message: 'Subscribe for the paywalled notes.',
    });
    assert.equal(response.statusCode, 200, response.body);
    const expected = {
      name: 'Acme Research',
      payment_access_link: 'https://acme.example/subscribe',
      payment_access_message: 'Subscribe for the paywalled notes.',
      open_data_link: 'https://data.acme.example/open',
      header_show_tenant_name: true,
      header_show_access_level: false,
      footer_text: 'Acme Research Ltd · research@acme.example',
      footer_show_open_data_link: true,
      footer_show_setup_invite: false,
    };
    assert.deepEqual(response.json(), { ...expected, suggestion_min_confidence: 0.6 });
    assert.deepEqual((await t.request(acme, { method: 'GET', url: SETTINGS_URL, token: tokens['admin'] })).json(), { ...expected, suggestion_min_confidence: 0.6 });

    const info = await publicInfo(acme);
    for (const [name, value] of Object.entries(expected)) assert.equal(info[name], value, name);
    const byCode = (await t.request(beta, { method: 'GET', url: '/api/v1/clients/info/acme/' })).json();
    assert.equal(byCode.footer_text, expected.footer_text);
    assert.equal(byCode.header_show_access_level, false);

    const other = (await t.request(beta, { method: 'GET', url: SETTINGS_URL })).statusCode;
    assert.equal(other, 401);
    assert.equal((await publicInfo(beta)).footer_text, null, "another tenant's settings are untouched");
  });

  it('an admin changes only their own tenant, whatever they send', async () => {
    const response = await patch({ footer_text: 'Ours' }, beta, tokens['admin']);
    assert.equal(response.statusCode, 401, "a token of acme is not valid on beta's host");
    assert.equal((await publicInfo(beta)).footer_text, null);
  });

  it('empty text and null clear a setting', async () => {
    const response = await patch({ footer_text: '   ', open_data_link: null, payment_access_link: '' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().footer_text, null);
    assert.equal(response.json().open_data_link, null);
    assert.equal(response.json().payment_access_link, null);
    const info = await publicInfo(acme);
    assert.equal(info.open_data_link, null);
  });

  it('refuses bad values with a 400 naming each field, and changes nothing', async () => {
    const before = (await t.request(acme, { method: 'GET', url: SETTINGS_URL, token: tokens['admin'] })).json();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: '' }, ['name']],
      [{ name: 'n'.repeat(101) }, ['name']],
      [{ open_data_link: 'not a link' }, ['open_data_link']],
      [{ open_data_link: 'javascript:alert(1)' }, ['open_data_link']],
      [{ payment_access_link: 'ftp://files.acme.example' }, ['payment_access_link']],
      [{ payment_access_message: 'm'.repeat(1001) }, ['payment_access_message']],
      [{ footer_text: 'f'.repeat(301) }, ['footer_text']],
      [{ header_show_tenant_name: 'sometimes' }, ['header_show_tenant_name']],
      [{ footer_show_open_data_link: 3 }, ['footer_show_open_data_link']],
      [{ code: 'renamed' }, ['code']],
      [{ is_default: true }, ['is_default']],
      [{ name: '', open_data_link: 'nope', footer_text: 'f'.repeat(301) }, ['footer_text', 'name', 'open_data_link']],
      [{ suggestion_min_confidence: 1.5 }, ['suggestion_min_confidence']],
      [{ suggestion_min_confidence: -0.1 }, ['suggestion_min_confidence']],
      [{ suggestion_min_confidence: 'high' }, ['suggestion_min_confidence']],
      [{ suggestion_min_confidence: null }, ['suggestion_min_confidence']],
    ];
    for (const [payload, fields] of cases) {
      const response = await patch(payload);
      assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 80)} → ${response.body}`);
      assert.deepEqual(Object.keys(response.json().errors).sort(), fields, JSON.stringify(payload).slice(0, 80));
    }
    const reason = (await patch({ suggestion_min_confidence: 1.5 })).json().errors.suggestion_min_confidence.join(' ');
    assert.match(reason, /1/, `the reason names the bound: ${reason}`);
    const exactly = await patch({ footer_text: 'f'.repeat(300) });
    assert.equal(exactly.statusCode, 200, '300 characters are allowed');
    const afterwards = (await t.request(acme, { method: 'GET', url: SETTINGS_URL, token: tokens['admin'] })).json();
    assert.deepEqual(afterwards, { ...before, footer_text: 'f'.repeat(300) });
  });

  it("keeps the tenant's suggestion threshold for its admins, not its visitors", async () => {
    for (const value of [0, 1, 0.75]) {
      const response = await patch({ suggestion_min_confidence: value });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().suggestion_min_confidence, value);
    }
    assert.equal((await t.request(acme, { method: 'GET', url: SETTINGS_URL, token: tokens['admin'] })).json().suggestion_min_confidence, 0.75);
    assert.equal((await publicInfo(acme)).suggestion_min_confidence, undefined, 'not part of the layout visitors read');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { APP_ROLE, query } from '../../db/client.ts';
import { findTenantByCode, type TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { childrenFirst } from './clients.repository.ts';

const BASE = '/api/v1/clients';
const ADMIN_PASSWORD = 'first admin password';

describe('clients (tenants) API', () => {
  let t: TestContext;
  let main: TenantRow;
  let acme: TenantRow;
  const tokens: Record<string, string | undefined> = {};

  before(async () => {
    t = await createTestApp();
    main = await t.createTenant('default', { isDefault: true, name: 'Main workspace' });
    acme = await t.createTenant('acme', { name: 'Acme' });
    await t.createUser(main, 'root@main.test', { is_admin: true });
    await t.createUser(main, 'research@main.test', { is_research: true });
    await t.createUser(main, 'reader@main.test');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    tokens['manager'] = await t.login(main, 'root@main.test');
    tokens['research'] = await t.login(main, 'research@main.test');
    tokens['paywall'] = await t.login(main, 'reader@main.test');
    tokens['acme-admin'] = await t.login(acme, 'admin@acme.test');
  });
  after(() => t.close());

  const asManager = (options: Parameters<TestContext['request']>[1]) => t.request(main, { token: tokens['manager'], ...options });
  const create = (payload: Record<string, unknown>) => asManager({ method: 'POST', url: `${BASE}/`, payload });
  const tenantRow = async (code: string): Promise<TenantRow> => {
    const row = await t.db.withTenant({ tenantId: null }, (tx) => findTenantByCode(tx, code));
    assert.ok(row, `tenant ${code} exists`);
    return row;
  };
  const tenantInfo = async (code: string) => (await t.request(code, { method: 'GET', url: '/api/v1/tenant/' })).json();

  describe('who may call', () => {
    it('only tenant managers (admins of the default tenant)', async () => {
      const calls = [
        { method: 'GET' as const, url: `${BASE}/` },
        { method: 'POST' as const, url: `${BASE}/`, payload: { code: 'intruder', name: 'Intruder' } },
        { method: 'GET' as const, url: `${BASE}/${acme.id}/` },
        { method: 'PATCH' as const, url: `${BASE}/${acme.id}/`, payload: { name: 'Taken over' } },
        { method: 'DELETE' as const, url: `${BASE}/${acme.id}/?confirm=acme` },
      ];
      for (const call of calls) {
        const cases: Array<[TenantRow, string | undefined, number, string]> = [
          [main, undefined, 401, 'public'],
          [main, tokens['paywall'], 403, 'paywall'],
          [main, tokens['research'], 403, 'research'],
          [acme, tokens['acme-admin'], 403, 'admin of another tenant'],
        ];
        for (const [tenant, token, status, caller] of cases) {
          const response = await t.request(tenant, { ...call, token });
          assert.equal(response.statusCode, status, `${caller} ${call.method} ${call.url}`);
        }
      }
      assert.equal((await tenantInfo('acme')).name, 'Acme', 'nothing changed');
      assert.equal((await tenantInfo('intruder')).exists, false);
    });

    it('the public info routes stay open to everyone', async () => {
      const info = await t.request(acme, { method: 'GET', url: `${BASE}/info/acme/` });
      assert.equal(info.statusCode, 200);
      assert.equal(info.json().exists, true);
      const unknown = await t.request(acme, { method: 'GET', url: `${BASE}/info/nobody/` });
      assert.equal(unknown.json().exists, false);
    });
  });

  describe('create', () => {
    it('creates a tenant with its first admin, who can sign in on its host at once', async () => {
      assert.equal((await tenantInfo('globex')).exists, false, 'unknown before (and remembered by the tenant cache)');
      const response = await create({
        code: 'globex',
        name: '  Globex Research ',
        payment_access_link: 'pay.globex.example/subscribe',
        payment_access_message: 'Subscribe to read everything.',
        admin_email: 'Owner@Globex.example',
        admin_password: ADMIN_PASSWORD,
      });
      assert.equal(response.statusCode, 201, response.body);
      const client = response.json();
      assert.deepEqual(Object.keys(client).sort(), [
        'code', 'created_at', 'id', 'is_default', 'name', 'payment_access_link', 'payment_access_message', 'updated_at',
      ]);
      assert.equal(client.code, 'globex');
      assert.equal(client.name, 'Globex Research');
      assert.equal(client.payment_access_link, 'https://pay.globex.example/subscribe');
      assert.equal(client.is_default, false);

      const info = await tenantInfo('globex');
      assert.equal(info.exists, true, 'the tenant cache does not serve the stale "unknown"');
      assert.equal(info.name, 'Globex Research');
      const token = await t.login(await tenantRow('globex'), 'owner@globex.example', ADMIN_PASSWORD);
      const me = (await t.request('globex', { method: 'GET', url: '/api/v1/auth/me/', token })).json();
      assert.equal(me.is_admin, true);
      assert.equal(me.tenant_id, client.id);
      assert.equal(me.can_manage_tenants, false, 'admins of other tenants do not manage tenants');
    });

    it('creates a tenant without an admin when both admin fields are left out', async () => {
      const response = await create({ code: 'initech', name: 'Initech', admin_email: '', admin_password: null });
      assert.equal(response.statusCode, 201, response.body);
      const [users] = await t.db.withTenant({ tenantId: response.json().id }, (tx) =>
        query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM users`),
      );
      assert.equal(users!.n, 0);
    });

    it('accepts a 63-character code and digits-only codes', async () => {
      for (const code of ['a'.repeat(63), '2024', 'a-b-c']) {
        const response = await create({ code, name: `Tenant ${code.slice(0, 10)}` });
        assert.equal(response.statusCode, 201, `${code}: ${response.body}`);
      }
    });

    it('refuses codes that are not DNS labels, reserved or taken, naming code', async () => {
      const cases: Array<[unknown, number]> = [
        ['', 400],
        ['Acme2', 400],
        ['under_score', 400],
        ['dot.ted', 400],
        ['space d', 400],
        ['-lead', 400],
        ['trail-', 400],
        ['a'.repeat(64), 400],
        ['xn--nxasmq6b', 400],
        ['www', 400],
        ['api', 400],
        ['admin', 400],
        ['default', 400],
        ['acme', 409],
        ['globex', 409],
      ];
      for (const [code, status] of cases) {
        const response = await create({ code, name: 'Some name' });
        assert.equal(response.statusCode, status, `${String(code)}: ${response.body}`);
        assert.deepEqual(Object.keys(response.json().errors), ['code'], String(code));
      }
      const missing = await create({ name: 'No code' });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(Object.keys(missing.json().errors), ['code']);
    });

    it('validates the other fields, every problem at once, and writes nothing', async () => {
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{ code: 'valid-one', name: '  ' }, ['name']],
        [{ code: 'valid-one' }, ['name']],
        [{ code: 'valid-one', name: 'x'.repeat(101) }, ['name']],
        [{ code: 'valid-one', name: 'Fine', payment_access_link: 'javascript:alert(1)' }, ['payment_access_link']],
        [{ code: 'valid-one', name: 'Fine', payment_access_link: 'not a url' }, ['payment_access_link']],
        [{ code: 'valid-one', name: 'Fine', payment_access_message: 'm'.repeat(1001) }, ['payment_access_message']],
        [{ code: 'valid-one', name: 'Fine', admin_email: 'boss@valid.example' }, ['admin_password']],
        [{ code: 'valid-one', name: 'Fine', admin_password: ADMIN_PASSWORD }, ['admin_email']],
        [{ code: 'valid-one', name: 'Fine', admin_email: 'nope', admin_password: ADMIN_PASSWORD }, ['admin_email']],
        [{ code: 'valid-one', name: 'Fine', admin_email: 'boss@valid.example', admin_password: 'short' }, ['admin_password']],
        [{ code: 'valid-one', name: 'Fine', is_default: true }, ['is_default']],
        [{ code: 'BAD', name: '', payment_access_link: 'ftp://x.example' }, ['code', 'name', 'payment_access_link']],
        // Every required field in one round, whether left out or left empty.
        [{}, ['code', 'name']],
        [{ code: '', name: '', admin_email: '', admin_password: 'short' }, ['code', 'name', 'admin_email', 'admin_password']],
      ];
      for (const [payload, fields] of cases) {
        const response = await create(payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)} → ${response.body}`);
        assert.deepEqual(Object.keys(response.json().errors).sort(), fields.sort(), JSON.stringify(payload));
      }
      assert.equal((await tenantInfo('valid-one')).exists, false);
    });
  });

  describe('list, get and patch', () => {
    it('lists every tenant ordered by code, with search and paging', async () => {
      const all = (await asManager({ method: 'GET', url: `${BASE}/?limit=100` })).json();
      const codes = all.results.map((client: { code: string }) => client.code);
      assert.deepEqual(codes, [...codes].sort());
      assert.ok(codes.includes('default') && codes.includes('acme') && codes.includes('globex'));
      assert.equal(all.count, codes.length);

      const found = (await asManager({ method: 'GET', url: `${BASE}/?search=RESEARCH` })).json();
      assert.deepEqual(found.results.map((client: { code: string }) => client.code), ['globex']);

      const page = (await asManager({ method: 'GET', url: `${BASE}/?limit=2&offset=1&ordering=-code` })).json();
      assert.deepEqual(page.results.map((client: { code: string }) => client.code), [...codes].reverse().slice(1, 3));
      assert.match(page.next, /offset=3/);
      assert.match(page.previous, /offset=0/);

      const byName = (await asManager({ method: 'GET', url: `${BASE}/?ordering=name&limit=100` })).json();
      const names = byName.results.map((client: { name: string }) => client.name.toLowerCase());
      assert.deepEqual(names, [...names].sort());

      for (const [url, field] of [
        [`${BASE}/?ordering=secret`, 'ordering'],
        [`${BASE}/?limit=x`, 'limit'],
        [`${BASE}/?offset=-3`, 'offset'],
        [`${BASE}/?search=${'s'.repeat(201)}`, 'search'],
        [`${BASE}/?is_default=true`, 'is_default'],
      ] as const) {
        const response = await asManager({ method: 'GET', url });
        assert.equal(response.statusCode, 400, url);
        assert.deepEqual(Object.keys(response.json().errors), [field]);
      }
    });

    it('gets one tenant; an unknown id is a 404, a malformed one a 400 naming it', async () => {
      const response = await asManager({ method: 'GET', url: `${BASE}/${acme.id}/` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().code, 'acme');
      for (const [id, status] of [['00000000-0000-4000-8000-000000000000', 404], ['acme', 400]] as const) {
        const got = await asManager({ method: 'GET', url: `${BASE}/${id}/` });
        const patched = await asManager({ method: 'PATCH', url: `${BASE}/${id}/`, payload: { name: 'X' } });
        for (const answer of [got, patched]) {
          assert.equal(answer.statusCode, status, `${id}: ${answer.body}`);
          if (status === 400) assert.deepEqual(answer.json().errors, { id: ['Must be the id of a record.'] });
        }
      }
    });

    it('changes name, payment link and message; visitors see it at once', async () => {
      const response = await asManager({
        method: 'PATCH',
        url: `${BASE}/${acme.id}/`,
        payload: { name: 'Acme Intelligence', payment_access_link: 'https://acme.example/pay', payment_access_message: 'Pay to read.' },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().name, 'Acme Intelligence');
      const info = await tenantInfo('acme');
      assert.equal(info.name, 'Acme Intelligence');
      assert.equal(info.payment_access_link, 'https://acme.example/pay');
      assert.equal(info.payment_access_message, 'Pay to read.');
      const byCode = (await t.request(main, { method: 'GET', url: `${BASE}/info/acme/` })).json();
      assert.equal(byCode.payment_access_message, 'Pay to read.');

      const cleared = await asManager({ method: 'PATCH', url: `${BASE}/${acme.id}/`, payload: { payment_access_link: '', payment_access_message: null } });
      assert.equal(cleared.json().payment_access_link, null);
      assert.equal(cleared.json().payment_access_message, null);
    });

    it('refuses bad values and fields that cannot change, naming them', async () => {
      for (const [payload, field] of [
        [{ name: '' }, 'name'],
        [{ payment_access_link: 'mailto:pay@acme.example' }, 'payment_access_link'],
        [{ payment_access_message: 'm'.repeat(1001) }, 'payment_access_message'],
        [{ code: 'renamed' }, 'code'],
        [{ is_default: true }, 'is_default'],
      ] as const) {
        const response = await asManager({ method: 'PATCH', url: `${BASE}/${acme.id}/`, payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(Object.keys(response.json().errors), [field]);
      }
      assert.equal((await tenantInfo('acme')).name, 'Acme Intelligence');
    });

    it('names every field at fault in one 400, whether the schema or the rules refuse it', async () => {
      const mistyped = await create({ code: 7, name: ['Acme'], payment_access_link: 5, admin_email: true, admin_password: 12, owner: 'me' });
      assert.equal(mistyped.statusCode, 400);
      assert.deepEqual(mistyped.json().errors, {
        code: ['Must be text.'],
        name: ['Must be text.'],
        payment_access_link: ['Must be text or null.'],
        admin_email: ['Must be text or null.'],
        admin_password: ['Must be text or null.'],
        owner: ['Unknown field.'],
      });
      const patched = await asManager({ method: 'PATCH', url: `${BASE}/${acme.id}/`, payload: { name: 1, payment_access_message: {}, code: 'renamed' } });
      assert.deepEqual(patched.json().errors, { name: ['Must be text.'], payment_access_message: ['Must be text or null.'], code: ['Unknown field.'] });
      const tooLong = await asManager({ method: 'PATCH', url: `${BASE}/${acme.id}/`, payload: { name: 'n'.repeat(1001), payment_access_link: 'l'.repeat(4097) } });
      assert.deepEqual(Object.keys(tooLong.json().errors).sort(), ['name', 'payment_access_link']);
      assert.equal((await tenantInfo('acme')).name, 'Acme Intelligence', 'nothing was written');
    });

    it('a NUL character anywhere is a 400 naming where it is', async () => {
      const nul = 'Must not contain the NUL character (U+0000).';
      const cases: Array<[Parameters<TestContext['request']>[1], string]> = [
        [{ method: 'GET', url: `${BASE}/?ordering=co%00de` }, 'ordering'],
        [{ method: 'GET', url: `${BASE}/ac%00me/` }, 'id'],
        [{ method: 'POST', url: `${BASE}/`, payload: { code: 'nul-code', name: 'N\u0000L' } }, 'name'],
        [{ method: 'PATCH', url: `${BASE}/${acme.id}/`, payload: { payment_access_message: 'Pay\u0000' } }, 'payment_access_message'],
        [{ method: 'DELETE', url: `${BASE}/${acme.id}/?confirm=ac%00me` }, 'confirm'],
      ];
      for (const [call, field] of cases) {
        const response = await asManager(call);
        assert.equal(response.statusCode, 400, `${String(call.url)} ${response.body}`);
        assert.deepEqual(response.json().errors, { [field]: [nul] }, String(call.url));
      }
      assert.equal((await tenantInfo('nul-code')).exists, false);
      assert.equal((await tenantInfo('acme')).exists, true);
    });
  });

  describe('delete', () => {
    let doomed: TenantRow;
    let survivor: TenantRow;
    let survivorCounts: Record<string, number>;

    /** Rows per tenant-scoped table, counted under the tenant's own row-level security. */
    const rowCounts = (tenantId: string) =>
      t.db.withTenant({ tenantId }, async (tx) => {
        const tables = await query<{ table_name: string }>(
          tx,
          sql`SELECT table_name FROM information_schema.columns
              WHERE table_schema = current_schema() AND column_name = 'tenant_id' AND table_name <> 'tenants'`,
        );
        const counts: Record<string, number> = {};
        for (const { table_name } of tables) {
          const [row] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table_name)}`);
          counts[table_name] = row!.n;
        }
        return counts;
      });

    /** Users, sessions, failed sign-ins, organizations, people and counters for a tenant, through the API. */
    async function fill(code: string): Promise<void> {
      const token = await t.login(await tenantRow(code), `owner@${code}.example`, ADMIN_PASSWORD);
      for (const name of ['One', 'Two', 'Three']) {
        const organization = await t.request(code, {
          method: 'POST',
          url: '/api/v1/assets/organizations/',
          token,
          payload: { name_inc: `${name} ${code} Ltd`, visibility: 'public' },
        });
        assert.equal(organization.statusCode, 201, organization.body);
      }
      const person = await t.request(code, {
        method: 'POST',
        url: '/api/v1/assets/people/',
        token,
        payload: { name_given: 'Ada', name_family: code, visibility: 'hidden' },
      });
      assert.equal(person.statusCode, 201, person.body);
      const user = await t.request(code, {
        method: 'POST',
        url: '/api/v1/users/',
        token,
        payload: { email: `reader@${code}.example`, password: ADMIN_PASSWORD },
      });
      assert.equal(user.statusCode, 201, user.body);
      await t.login(await tenantRow(code), `reader@${code}.example`, ADMIN_PASSWORD);
      const failed = await t.request(code, { method: 'POST', url: '/api/v1/auth/login/', payload: { email: 'x@y.example', password: 'wrong' } });
      assert.equal(failed.statusCode, 401);
    }

    before(async () => {
      // A table added after this code was written, referencing another tenant table with
      // ON DELETE RESTRICT: deletion must find it and empty it before its parent.
      await t.db.owner.execute(sql`
        CREATE TABLE later_notes (
          tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
          id uuid NOT NULL DEFAULT gen_random_uuid(),
          organization_id uuid NOT NULL,
          body text NOT NULL,
          PRIMARY KEY (tenant_id, id),
          FOREIGN KEY (tenant_id, organization_id) REFERENCES organizations (tenant_id, id) ON DELETE RESTRICT
        )`);
      await t.db.owner.execute(sql`SELECT enable_tenant_isolation('later_notes')`);
      await t.db.owner.execute(sql.raw(`GRANT SELECT, INSERT, UPDATE, DELETE ON later_notes TO ${APP_ROLE}`));
      for (const code of ['doomed', 'survivor']) {
        const response = await create({ code, name: code, admin_email: `owner@${code}.example`, admin_password: ADMIN_PASSWORD });
        assert.equal(response.statusCode, 201, response.body);
        await fill(code);
      }
      doomed = await tenantRow('doomed');
      survivor = await tenantRow('survivor');
      for (const tenant of [doomed, survivor]) {
        await t.db.withTenant({ tenantId: tenant.id }, (tx) =>
          tx.execute(sql`INSERT INTO later_notes (tenant_id, organization_id, body)
                         SELECT tenant_id, id, 'note' FROM organizations`),
        );
      }
      survivorCounts = await rowCounts(survivor.id);
    });

    it('orders tables so that children come before the tables they reference', () => {
      const order = childrenFirst(
        ['lists', 'list_items', 'organizations', 'users', 'sessions'],
        [
          { child: 'list_items', parent: 'lists' },
          { child: 'list_items', parent: 'organizations' },
          { child: 'sessions', parent: 'users' },
          { child: 'organizations', parent: 'organizations' },
        ],
      );
      assert.ok(order.indexOf('list_items') < order.indexOf('lists'));
      assert.ok(order.indexOf('list_items') < order.indexOf('organizations'));
      assert.ok(order.indexOf('sessions') < order.indexOf('users'));
      assert.equal(order.length, 5);
      assert.deepEqual(childrenFirst(['a', 'b'], [{ child: 'a', parent: 'b' }, { child: 'b', parent: 'a' }]).sort(), ['a', 'b']);
    });

    it('requires ?confirm= with the tenant code, naming confirm, and no other parameter', async () => {
      for (const url of [`${BASE}/${doomed.id}/`, `${BASE}/${doomed.id}/?confirm=`, `${BASE}/${doomed.id}/?confirm=survivor`, `${BASE}/${doomed.id}/?confirm=DOOMED`]) {
        const response = await asManager({ method: 'DELETE', url });
        assert.equal(response.statusCode, 400, url);
        assert.deepEqual(Object.keys(response.json().errors), ['confirm'], url);
      }
      const extra = await asManager({ method: 'DELETE', url: `${BASE}/${doomed.id}/?confirm=doomed&force=yes` });
      assert.equal(extra.statusCode, 400);
      assert.deepEqual(extra.json().errors, { force: ['Unknown parameter.'] });
      const twice = await asManager({ method: 'DELETE', url: `${BASE}/${doomed.id}/?confirm=doomed&confirm=doomed` });
      assert.deepEqual(Object.keys(twice.json().errors), ['confirm']);
      assert.equal((await tenantInfo('doomed')).exists, true, 'nothing was deleted');
      assert.equal((await rowCounts(doomed.id))['organizations'], 3);
    });

    it("refuses the default tenant, which is also the manager's own", async () => {
      const response = await asManager({ method: 'DELETE', url: `${BASE}/${main.id}/?confirm=default` });
      assert.equal(response.statusCode, 409);
      assert.equal(response.json().code, 'protected_tenant');
      assert.equal((await tenantInfo('default')).exists, true);
    });

    it('an unknown id is a 404, a malformed one a 400 naming it', async () => {
      for (const [id, status] of [['00000000-0000-4000-8000-000000000000', 404], ['doomed', 400]] as const) {
        const response = await asManager({ method: 'DELETE', url: `${BASE}/${id}/?confirm=doomed` });
        assert.equal(response.statusCode, status, id);
        if (status === 400) assert.deepEqual(response.json().errors, { id: ['Must be the id of a record.'] });
      }
    });

    it("removes every row of that tenant in every tenant table, reports the counts, and nothing of the others'", async () => {
      const token = await t.login(doomed, 'owner@doomed.example', ADMIN_PASSWORD);
      const before = await rowCounts(doomed.id);
      const response = await asManager({ method: 'DELETE', url: `${BASE}/${doomed.id}/?confirm=doomed` });
      assert.equal(response.statusCode, 200, response.body);
      const report = response.json();
      assert.equal(report.code, 'doomed');
      const expected = Object.fromEntries(Object.entries(before).filter(([, count]) => count > 0));
      assert.deepEqual(report.deleted, expected);
      for (const table of ['users', 'sessions', 'login_limits', 'organizations', 'people', 'entity_counters', 'later_notes']) {
        assert.ok((report.deleted[table] ?? 0) > 0, `${table} rows were removed and reported`);
      }
      assert.equal(report.total, Object.values(expected).reduce((sum: number, count) => sum + (count as number), 0));

      const after = await rowCounts(doomed.id);
      assert.ok(Object.values(after).every((count) => count === 0), JSON.stringify(after));
      assert.deepEqual(await rowCounts(survivor.id), survivorCounts, 'the other tenants keep everything');

      assert.equal((await asManager({ method: 'GET', url: `${BASE}/${doomed.id}/` })).statusCode, 404);
      assert.equal((await tenantInfo('doomed')).exists, false, 'the tenant cache forgot it');
      const me = await t.request('doomed', { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(me.statusCode, 404);
      assert.equal(me.json().code, 'tenant_not_found');

      const again = await asManager({ method: 'DELETE', url: `${BASE}/${doomed.id}/?confirm=doomed` });
      assert.equal(again.statusCode, 404);
      const recreated = await create({ code: 'doomed', name: 'Doomed again' });
      assert.equal(recreated.statusCode, 201, 'the code is free again');
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, TEST_PASSWORD, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/users';
const NEW_PASSWORD = 'a brand new secret';

describe('users API', () => {
  let t: TestContext;
  let main: TenantRow;
  let acme: TenantRow;
  let beta: TenantRow;
  const tokens: Record<string, string | undefined> = {};
  const ids: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    main = await t.createTenant('default', { isDefault: true });
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(main, 'root@main.test', { is_admin: true });
    ids['admin'] = (await t.createUser(acme, 'admin@acme.test', { is_admin: true })).id;
    ids['research'] = (await t.createUser(acme, 'research@acme.test', { is_research: true })).id;
    ids['reader'] = (await t.createUser(acme, 'reader@acme.test')).id;
    ids['beta'] = (await t.createUser(beta, 'admin@beta.test', { is_admin: true })).id;
    tokens['admin'] = await t.login(acme, 'admin@acme.test');
    tokens['research'] = await t.login(acme, 'research@acme.test');
    tokens['paywall'] = await t.login(acme, 'reader@acme.test');
    tokens['beta'] = await t.login(beta, 'admin@beta.test');
    tokens['manager'] = await t.login(main, 'root@main.test');
  });
  after(() => t.close());

  const asAdmin = (options: Parameters<TestContext['request']>[1]) => t.request(acme, { token: tokens['admin'], ...options });
  const create = (payload: Record<string, unknown>) => asAdmin({ method: 'POST', url: `${BASE}/`, payload });
  const patch = (id: string, payload: Record<string, unknown>, token = tokens['admin']) =>
    t.request(acme, { method: 'PATCH', url: `${BASE}/${id}/`, token, payload });
  const me = (tenant: TenantRow, token: string) => t.request(tenant, { method: 'GET', url: '/api/v1/auth/me/', token });
  const loginStatus = async (tenant: TenantRow, email: string, password: string) =>
    (await t.request(tenant, { method: 'POST', url: '/api/v1/auth/login/', payload: { email, password } })).statusCode;

  describe('who may call', () => {
    it('only admins of the tenant: public 401, paywall and research 403, admin 200', async () => {
      const id = ids['reader']!;
      const calls = [
        { method: 'GET' as const, url: `${BASE}/` },
        { method: 'POST' as const, url: `${BASE}/`, payload: { email: 'x@acme.test', password: NEW_PASSWORD } },
        { method: 'GET' as const, url: `${BASE}/${id}/` },
        { method: 'PATCH' as const, url: `${BASE}/${id}/`, payload: { alias: 'Reader' } },
        { method: 'POST' as const, url: `${BASE}/${id}/reset-password/`, payload: { password: NEW_PASSWORD } },
      ];
      for (const call of calls) {
        for (const [caller, status] of [['public', 401], ['paywall', 403], ['research', 403]] as const) {
          const response = await t.request(acme, { ...call, token: tokens[caller] });
          assert.equal(response.statusCode, status, `${caller} ${call.method} ${call.url}`);
        }
      }
      const listed = await asAdmin({ method: 'GET', url: `${BASE}/` });
      assert.equal(listed.statusCode, 200);
    });

    it('a tenant manager manages the users of the default tenant only, like any admin', async () => {
      const own = await t.request(main, { method: 'GET', url: `${BASE}/`, token: tokens['manager'] });
      assert.equal(own.statusCode, 200);
      assert.deepEqual(own.json().results.map((user: { email: string }) => user.email), ['root@main.test']);
      const elsewhere = await t.request(acme, { method: 'GET', url: `${BASE}/`, token: tokens['manager'] });
      assert.equal(elsewhere.statusCode, 401, 'a token is only valid on the tenant that issued it');
    });

    it('there is no DELETE: users are disabled instead', async () => {
      const response = await asAdmin({ method: 'DELETE', url: `${BASE}/${ids['reader']}/` });
      assert.equal(response.statusCode, 404);
    });
  });

  describe('list', () => {
    it("lists this tenant's users only, ordered by email, without password hashes", async () => {
      const response = await asAdmin({ method: 'GET', url: `${BASE}/` });
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['count', 'next', 'previous', 'results']);
      const emails = body.results.map((user: { email: string }) => user.email);
      assert.deepEqual(emails, [...emails].sort());
      assert.ok(emails.includes('admin@acme.test'));
      assert.ok(!emails.includes('admin@beta.test'));
      assert.equal(body.count, emails.length);
      for (const user of body.results) {
        assert.deepEqual(Object.keys(user).sort(), [
          'alias', 'created_at', 'disabled', 'email', 'id', 'is_admin', 'is_research', 'last_login_at', 'updated_at',
        ]);
      }
      assert.doesNotMatch(response.body, /scrypt|password/);
    });

    it('pages with limit and offset and links next and previous', async () => {
      for (let index = 0; index < 5; index += 1) {
        const response = await create({ email: `page${index}@acme.test`, password: NEW_PASSWORD, alias: `Pager ${index}` });
        assert.equal(response.statusCode, 201, response.body);
      }
      const first = (await asAdmin({ method: 'GET', url: `${BASE}/?search=page&limit=2` })).json();
      assert.equal(first.count, 5);
      assert.deepEqual(first.results.map((user: { email: string }) => user.email), ['page0@acme.test', 'page1@acme.test']);
      assert.equal(first.previous, null);
      assert.match(first.next, /offset=2/);
      assert.match(first.next, /search=page/);
      const second = (await asAdmin({ method: 'GET', url: first.next })).json();
      assert.deepEqual(second.results.map((user: { email: string }) => user.email), ['page2@acme.test', 'page3@acme.test']);
      assert.match(second.previous, /offset=0/);
      const last = (await asAdmin({ method: 'GET', url: `${BASE}/?search=page&limit=2&offset=4` })).json();
      assert.equal(last.next, null);
    });

    it('orders by any listed field, descending with a minus', async () => {
      const response = (await asAdmin({ method: 'GET', url: `${BASE}/?search=pager&ordering=-alias` })).json();
      assert.deepEqual(response.results.map((user: { alias: string }) => user.alias), ['Pager 4', 'Pager 3', 'Pager 2', 'Pager 1', 'Pager 0']);
      const byLogin = await asAdmin({ method: 'GET', url: `${BASE}/?ordering=-last_login_at` });
      assert.equal(byLogin.statusCode, 200);
      // Never-signed-in users come last, even in descending order.
      const logins = byLogin.json().results.map((user: { last_login_at: string | null }) => user.last_login_at);
      assert.notEqual(logins[0], null);
      assert.equal(logins.at(-1), null);
    });

    it('searches email and alias, ignoring case, and treats % and _ literally', async () => {
      const byAlias = (await asAdmin({ method: 'GET', url: `${BASE}/?search=PAGER%203` })).json();
      assert.deepEqual(byAlias.results.map((user: { email: string }) => user.email), ['page3@acme.test']);
      const wildcard = (await asAdmin({ method: 'GET', url: `${BASE}/?search=%25` })).json();
      assert.equal(wildcard.count, 0);
    });

    it('filters by is_admin, is_research and disabled', async () => {
      const admins = (await asAdmin({ method: 'GET', url: `${BASE}/?is_admin=true` })).json();
      assert.deepEqual(admins.results.map((user: { email: string }) => user.email), ['admin@acme.test']);
      const research = (await asAdmin({ method: 'GET', url: `${BASE}/?is_research=true&is_admin=false` })).json();
      assert.deepEqual(research.results.map((user: { email: string }) => user.email), ['research@acme.test']);
    });

    it('names a bad parameter in the 400', async () => {
      for (const [url, field] of [
        [`${BASE}/?limit=abc`, 'limit'],
        [`${BASE}/?limit=0`, 'limit'],
        [`${BASE}/?limit=2.5`, 'limit'],
        [`${BASE}/?offset=-1`, 'offset'],
        [`${BASE}/?ordering=email&ordering=alias`, 'ordering'],
        [`${BASE}/?disabled=true&disabled=false`, 'disabled'],
        [`${BASE}/?ordering=password_hash`, 'ordering'],
        [`${BASE}/?is_admin=maybe`, 'is_admin'],
        [`${BASE}/?color=red`, 'color'],
        [`${BASE}/?search=${'x'.repeat(201)}`, 'search'],
      ] as const) {
        const response = await asAdmin({ method: 'GET', url });
        assert.equal(response.statusCode, 400, url);
        assert.deepEqual(Object.keys(response.json().errors), [field], url);
      }
    });
  });

  describe('create', () => {
    it('creates a user who can sign in; the email is stored in lower case', async () => {
      const response = await create({ email: ' New.Person@Acme.TEST ', alias: ' Newbie ', password: NEW_PASSWORD, is_research: true });
      assert.equal(response.statusCode, 201, response.body);
      const user = response.json();
      assert.equal(user.email, 'new.person@acme.test');
      assert.equal(user.alias, 'Newbie');
      assert.equal(user.is_research, true);
      assert.equal(user.is_admin, false);
      assert.equal(user.disabled, false);
      assert.equal(user.last_login_at, null);
      assert.equal(await loginStatus(acme, 'new.person@acme.test', NEW_PASSWORD), 200);
      const fetched = await asAdmin({ method: 'GET', url: `${BASE}/${user.id}/` });
      assert.equal(fetched.json().last_login_at !== null, true, 'signing in is recorded');
    });

    it('refuses an email already used in this tenant, whatever its case (409 naming email)', async () => {
      const response = await create({ email: 'ADMIN@acme.test', password: NEW_PASSWORD });
      assert.equal(response.statusCode, 409);
      assert.deepEqual(Object.keys(response.json().errors), ['email']);
    });

    it('the same email may exist in another tenant', async () => {
      const response = await create({ email: 'admin@beta.test', password: NEW_PASSWORD });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(await loginStatus(beta, 'admin@beta.test', TEST_PASSWORD), 200, "beta's own user is untouched");
    });

    it('validates each field and names it', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ password: NEW_PASSWORD }, 'email'],
        [{ email: 'not-an-email', password: NEW_PASSWORD }, 'email'],
        [{ email: '', password: NEW_PASSWORD }, 'email'],
        [{ email: 'short@acme.test', password: 'too-short' }, 'password'],
        [{ email: 'short@acme.test', password: ' '.repeat(12) }, 'password'],
        [{ email: 'short@acme.test' }, 'password'],
        [{ email: 'short@acme.test', password: NEW_PASSWORD, alias: 'a'.repeat(101) }, 'alias'],
        [{ email: 'short@acme.test', password: NEW_PASSWORD, is_admin: 'yes' }, 'is_admin'],
        [{ email: 'short@acme.test', password: NEW_PASSWORD, is_research: 7 }, 'is_research'],
        [{ email: 'short@acme.test', password: NEW_PASSWORD, password_hash: 'scrypt$1' }, 'password_hash'],
        [{ email: 'short@acme.test', password: NEW_PASSWORD, disabled: true }, 'disabled'],
      ];
      for (const [payload, field] of cases) {
        const response = await create(payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.ok(Object.keys(response.json().errors).includes(field), `${JSON.stringify(payload)} → ${response.body}`);
      }
      const several = await create({ email: 'nope', password: 'short' });
      assert.deepEqual(Object.keys(several.json().errors).sort(), ['email', 'password'], 'every problem at once');
      const listed = (await asAdmin({ method: 'GET', url: `${BASE}/?search=short` })).json();
      assert.equal(listed.count, 0, 'nothing was written');
    });

    it('names every field at fault in one 400, whether the schema or the rules refuse it', async () => {
      const mistyped = await create({ email: 5, alias: 7, password: true, is_admin: 'yes', is_research: null, role: 'boss' });
      assert.equal(mistyped.statusCode, 400);
      assert.deepEqual(mistyped.json().errors, {
        email: ['Must be text.'],
        alias: ['Must be text or null.'],
        password: ['Must be text.'],
        is_admin: ['Must be true or false.'],
        is_research: ['Must be true or false.'],
        role: ['Unknown field.'],
      });
      assert.equal(mistyped.json().code, 'invalid');
      assert.match(mistyped.json().detail, /^(email|role): /, 'the detail repeats the first problem');

      const missing = await create({});
      assert.deepEqual(missing.json().errors, { email: ['This field is required.'], password: ['This field is required.'] });
      const brokenAndMissing = await create({ email: 'nope', alias: 'a'.repeat(101) });
      assert.deepEqual(Object.keys(brokenAndMissing.json().errors).sort(), ['alias', 'email', 'password']);

      const patched = await patch(ids['reader']!, { email: 1, alias: false, disabled: 'soon', is_admin: 'no', password: 'x' });
      assert.equal(patched.statusCode, 400);
      assert.deepEqual(Object.keys(patched.json().errors).sort(), ['alias', 'disabled', 'email', 'is_admin', 'password']);
      const reset = await asAdmin({ method: 'POST', url: `${BASE}/${ids['reader']}/reset-password/`, payload: { password: 10, again: 'x' } });
      assert.deepEqual(reset.json().errors, { password: ['Must be text.'], again: ['Unknown field.'] });
      assert.equal((await asAdmin({ method: 'GET', url: `${BASE}/${ids['reader']}/` })).json().email, 'reader@acme.test', 'nothing was written');
    });

    it('a NUL character anywhere is a 400 naming where it is', async () => {
      const nul = 'Must not contain the NUL character (U+0000).';
      const cases: Array<[Parameters<TestContext['request']>[1], string]> = [
        [{ method: 'GET', url: `${BASE}/?search=a%00b` }, 'search'],
        [{ method: 'GET', url: `${BASE}/a%00b/` }, 'id'],
        [{ method: 'POST', url: `${BASE}/`, payload: { email: 'nul\u0000@acme.test', password: NEW_PASSWORD } }, 'email'],
        [{ method: 'PATCH', url: `${BASE}/${ids['reader']}/`, payload: { alias: 'Re\u0000der' } }, 'alias'],
        [{ method: 'POST', url: `${BASE}/${ids['reader']}/reset-password/`, payload: { password: `${NEW_PASSWORD}\u0000` } }, 'password'],
      ];
      for (const [call, field] of cases) {
        const response = await asAdmin(call);
        assert.equal(response.statusCode, 400, `${String(call.url)} ${response.body}`);
        assert.deepEqual(response.json().errors, { [field]: [nul] }, String(call.url));
      }
      assert.equal(await loginStatus(acme, 'reader@acme.test', TEST_PASSWORD), 200, 'the password is unchanged');
    });
  });

  describe('get and patch', () => {
    it('a user of another tenant is a 404; a malformed id is a 400 naming it', async () => {
      for (const [id, status] of [[ids['beta']!, 404], ['not-a-uuid', 400]] as const) {
        const get = await asAdmin({ method: 'GET', url: `${BASE}/${id}/` });
        const changed = await patch(id, { alias: 'Hijacked' });
        const reset = await asAdmin({ method: 'POST', url: `${BASE}/${id}/reset-password/`, payload: { password: NEW_PASSWORD } });
        for (const response of [get, changed, reset]) {
          assert.equal(response.statusCode, status, response.body);
          if (status === 400) assert.deepEqual(response.json().errors, { id: ['Must be the id of a record.'] });
        }
      }
      assert.equal(await loginStatus(beta, 'admin@beta.test', TEST_PASSWORD), 200);
    });

    it('changes only the fields sent', async () => {
      const created = (await create({ email: 'editable@acme.test', alias: 'Before', password: NEW_PASSWORD })).json();
      const response = await patch(created.id, { alias: 'After', is_admin: true, is_research: true });
      assert.equal(response.statusCode, 200, response.body);
      const user = response.json();
      assert.equal(user.alias, 'After');
      assert.equal(user.email, 'editable@acme.test');
      assert.equal(user.is_admin, true);
      assert.ok(user.updated_at >= created.updated_at);
      const cleared = (await patch(created.id, { alias: '  ' })).json();
      assert.equal(cleared.alias, null);
      const renamed = (await patch(created.id, { email: 'Renamed@Acme.test' })).json();
      assert.equal(renamed.email, 'renamed@acme.test');
      assert.equal(await loginStatus(acme, 'renamed@acme.test', NEW_PASSWORD), 200);
    });

    it("refuses another user's email (409) and bad values (400 naming the field)", async () => {
      const target = ids['reader']!;
      const taken = await patch(target, { email: 'Research@acme.test' });
      assert.equal(taken.statusCode, 409);
      assert.deepEqual(Object.keys(taken.json().errors), ['email']);
      const same = await patch(target, { email: 'READER@acme.test' });
      assert.equal(same.statusCode, 200, 'its own email in another case is fine');
      for (const [payload, field] of [
        [{ email: 'broken' }, 'email'],
        [{ alias: 'a'.repeat(101) }, 'alias'],
        [{ disabled: 'soon' }, 'disabled'],
        [{ password: NEW_PASSWORD }, 'password'],
        [{ tenant_id: beta.id }, 'tenant_id'],
      ] as const) {
        const response = await patch(target, payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(Object.keys(response.json().errors), [field]);
      }
    });

    it('an admin cannot remove their own admin flag or disable themselves', async () => {
      const demote = await patch(ids['admin']!, { is_admin: false });
      assert.equal(demote.statusCode, 400);
      assert.deepEqual(Object.keys(demote.json().errors), ['is_admin']);
      const disable = await patch(ids['admin']!, { disabled: true });
      assert.equal(disable.statusCode, 400);
      assert.deepEqual(Object.keys(disable.json().errors), ['disabled']);
      const still = (await asAdmin({ method: 'GET', url: `${BASE}/${ids['admin']}/` })).json();
      assert.equal(still.is_admin, true);
      assert.equal(still.disabled, false);
      const harmless = await patch(ids['admin']!, { is_admin: true, disabled: false, alias: 'Boss' });
      assert.equal(harmless.statusCode, 200, 'keeping the flags as they are is fine');
    });

    it("demoting another admin takes effect on that admin's next request", async () => {
      const other = (await create({ email: 'second-admin@acme.test', password: NEW_PASSWORD, is_admin: true })).json();
      const token = await t.login(acme, 'second-admin@acme.test', NEW_PASSWORD);
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/`, token })).statusCode, 200);
      assert.equal((await patch(other.id, { is_admin: false })).statusCode, 200);
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/`, token })).statusCode, 403);
    });
  });

  describe('disabling', () => {
    it("revokes the user's sessions at once, refuses sign-in, and can be undone", async () => {
      const user = (await create({ email: 'leaver@acme.test', password: NEW_PASSWORD })).json();
      const tokenA = await t.login(acme, 'leaver@acme.test', NEW_PASSWORD);
      const tokenB = await t.login(acme, 'leaver@acme.test', NEW_PASSWORD);
      assert.equal((await me(acme, tokenA)).statusCode, 200);

      const disabled = await patch(user.id, { disabled: true });
      assert.equal(disabled.statusCode, 200);
      assert.equal(disabled.json().disabled, true);
      assert.equal((await me(acme, tokenA)).statusCode, 401);
      assert.equal((await me(acme, tokenB)).statusCode, 401);
      const [live] = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
        query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${user.id} AND revoked_at IS NULL`),
      );
      assert.equal(live!.n, 0, 'the sessions are revoked, not only refused');
      const signIn = await t.request(acme, { method: 'POST', url: '/api/v1/auth/login/', payload: { email: 'leaver@acme.test', password: NEW_PASSWORD } });
      assert.equal(signIn.json().code, 'account_disabled');

      const listed = (await asAdmin({ method: 'GET', url: `${BASE}/?disabled=true` })).json();
      assert.deepEqual(listed.results.map((entry: { email: string }) => entry.email), ['leaver@acme.test']);

      assert.equal((await patch(user.id, { disabled: false })).statusCode, 200);
      assert.equal(await loginStatus(acme, 'leaver@acme.test', NEW_PASSWORD), 200);
      assert.equal((await me(acme, tokenA)).statusCode, 401, 'old tokens stay revoked after re-enabling');
    });
  });

  describe('reset password', () => {
    it('sets the new password and signs the user out everywhere', async () => {
      const user = (await create({ email: 'forgetful@acme.test', password: NEW_PASSWORD })).json();
      const token = await t.login(acme, 'forgetful@acme.test', NEW_PASSWORD);
      const response = await asAdmin({ method: 'POST', url: `${BASE}/${user.id}/reset-password/`, payload: { password: 'chosen by the admin' } });
      assert.equal(response.statusCode, 204);
      assert.equal((await me(acme, token)).statusCode, 401);
      assert.equal(await loginStatus(acme, 'forgetful@acme.test', NEW_PASSWORD), 401);
      assert.equal(await loginStatus(acme, 'forgetful@acme.test', 'chosen by the admin'), 200);
    });

    it("an admin resetting their own password keeps this session and ends the others", async () => {
      await create({ email: 'self-reset@acme.test', password: NEW_PASSWORD, is_admin: true });
      const current = await t.login(acme, 'self-reset@acme.test', NEW_PASSWORD);
      const elsewhere = await t.login(acme, 'self-reset@acme.test', NEW_PASSWORD);
      const self = (await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token: current })).json();
      const response = await t.request(acme, {
        method: 'POST',
        url: `${BASE}/${self.id}/reset-password/`,
        token: current,
        payload: { password: 'my own new password' },
      });
      assert.equal(response.statusCode, 204);
      assert.equal((await me(acme, current)).statusCode, 200);
      assert.equal((await me(acme, elsewhere)).statusCode, 401);
    });

    it('validates the password and names it', async () => {
      for (const payload of [{}, { password: 'short' }, { password: null }, { password: { text: NEW_PASSWORD } }]) {
        const response = await asAdmin({ method: 'POST', url: `${BASE}/${ids['reader']}/reset-password/`, payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(Object.keys(response.json().errors), ['password']);
      }
      assert.equal(await loginStatus(acme, 'reader@acme.test', TEST_PASSWORD), 200, 'the old password still works');
    });
  });
});

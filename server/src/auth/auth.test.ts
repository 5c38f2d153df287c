import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, TEST_PASSWORD, type TestContext } from '../test/test-app.ts';
import { authorize, PUBLIC_PRINCIPAL, type Principal } from './access.ts';
import type { UserRow } from './users.repository.ts';

describe('auth', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let main: TenantRow;

  before(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_MAX: '3', LOGIN_RATE_LIMIT_WINDOW_SECONDS: '600' }, (app) => {
      // One probe route per requirement, to test the guard through real requests.
      for (const access of ['public', 'paywall', 'research', 'admin', 'manage-tenants'] as const) {
        app.get(`/api/v1/probe/${access}/`, { config: { access } }, async (request) => ({ access: request.principal.access }));
      }
    });
    main = await t.createTenant('default', { isDefault: true });
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(main, 'root@main.test', { is_admin: true });
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(acme, 'research@acme.test', { is_research: true });
    await t.createUser(acme, 'reader@acme.test');
    await t.createUser(acme, 'gone@acme.test', { disabled: true });
    await t.createUser(beta, 'reader@beta.test');
  });
  after(() => t.close());

  const login = (tenant: TenantRow, email: string, password: string, ip = '10.0.0.1') =>
    t.request(tenant, {
      method: 'POST',
      url: '/api/v1/auth/login/',
      payload: { email, password },
      remoteAddress: ip,
    });

  describe('login', () => {
    it('returns a token and the auth state of SPEC §3', async () => {
      const response = await login(acme, 'Admin@Acme.test', TEST_PASSWORD);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(typeof body.token, 'string');
      assert.ok(body.token.length >= 40);
      assert.deepEqual(
        Object.keys(body).sort(),
        ['alias', 'asset_id', 'can_manage_tenants', 'email', 'expires_at', 'id', 'is_admin', 'is_research', 'tenant_id', 'token'],
      );
      assert.equal(body.email, 'admin@acme.test');
      assert.equal(body.is_admin, true);
      assert.equal(body.tenant_id, acme.id);
      assert.equal(body.can_manage_tenants, false, 'only admins of the default tenant manage tenants');
    });

    it('stores only a hash of the token', async () => {
      const { token } = (await login(acme, 'reader@acme.test', TEST_PASSWORD)).json();
      const rows = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
        tx.execute(sql`SELECT count(*)::int AS n FROM sessions WHERE token_hash = ${token}`),
      );
      assert.equal((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n, 0);
    });

    it('answers a wrong email and a wrong password identically', async () => {
      const wrongPassword = await login(acme, 'reader@acme.test', 'nope-nope', '10.1.0.1');
      const wrongEmail = await login(acme, 'nobody@acme.test', TEST_PASSWORD, '10.1.0.2');
      assert.equal(wrongPassword.statusCode, 401);
      assert.equal(wrongEmail.statusCode, 401);
      assert.deepEqual(wrongPassword.json(), wrongEmail.json());
      assert.deepEqual(wrongPassword.json(), { detail: 'Invalid email or password.', code: 'not_authenticated' });
    });

    it('does not let a user of another tenant sign in here', async () => {
      const response = await login(acme, 'reader@beta.test', TEST_PASSWORD, '10.1.0.3');
      assert.equal(response.statusCode, 401);
    });

    it('refuses disabled users', async () => {
      const response = await login(acme, 'gone@acme.test', TEST_PASSWORD, '10.1.0.4');
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().code, 'account_disabled');
    });

    it('validates the body and names the field', async () => {
      const missing = await t.request(acme, { method: 'POST', url: '/api/v1/auth/login/', payload: { email: 'a@b.c' } });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(Object.keys(missing.json().errors), ['password']);
      const badJson = await t.request(acme, {
        method: 'POST',
        url: '/api/v1/auth/login/',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      assert.equal(badJson.statusCode, 400);
      assert.equal(badJson.json().code, 'invalid');
    });

    it('rate limits per email with 429 and Retry-After', async () => {
      for (let i = 0; i < 3; i++) {
        const response = await login(acme, 'research@acme.test', 'wrong', `10.2.0.${i}`);
        assert.equal(response.statusCode, 401);
      }
      const limited = await login(acme, 'research@acme.test', TEST_PASSWORD, '10.2.0.9');
      assert.equal(limited.statusCode, 429, 'even the right password waits once the email is locked');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 600, `Retry-After ${retryAfter}`);
      assert.equal(limited.json().code, 'rate_limited');
    });

    it('rate limits per IP across emails', async () => {
      for (let i = 0; i < 3; i++) await login(acme, `guess${i}@acme.test`, 'wrong', '10.3.0.1');
      const limited = await login(acme, 'reader@acme.test', TEST_PASSWORD, '10.3.0.1');
      assert.equal(limited.statusCode, 429);
      const otherIp = await login(acme, 'reader@acme.test', TEST_PASSWORD, '10.3.0.2');
      assert.equal(otherIp.statusCode, 200);
    });
  });

  describe('tokens', () => {
    it('GET auth/me/ returns the signed-in user', async () => {
      const token = await t.login(acme, 'reader@acme.test');
      const response = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().tenant_id, acme.id);
    });

    it('401 without a token, with a malformed header, or an unknown token', async () => {
      const none = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/' });
      assert.equal(none.statusCode, 401);
      const malformed = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', headers: { authorization: 'Basic abc' } });
      assert.equal(malformed.statusCode, 401);
      const unknown = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token: 'x'.repeat(43) });
      assert.equal(unknown.statusCode, 401);
      assert.equal(unknown.json().code, 'not_authenticated');
    });

    it('a token issued on beta.localhost is rejected on acme.localhost', async () => {
      const token = await t.login(beta, 'reader@beta.test');
      const onBeta = await t.request(beta, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(onBeta.statusCode, 200);
      const onAcme = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(onAcme.statusCode, 401);
    });

    it('logout revokes the token', async () => {
      const token = await t.login(acme, 'reader@acme.test');
      const out = await t.request(acme, { method: 'POST', url: '/api/v1/auth/logout/', token });
      assert.equal(out.statusCode, 204);
      const me = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(me.statusCode, 401);
    });

    it('an expired token is rejected', async () => {
      const token = await t.login(acme, 'admin@acme.test');
      await t.db.withTenant({ tenantId: acme.id }, (tx) =>
        tx.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second'`),
      );
      const me = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(me.statusCode, 401);
    });

    it('a user disabled after signing in loses access at once', async () => {
      const user = await t.createUser(acme, 'soon-gone@acme.test');
      const token = await t.login(acme, 'soon-gone@acme.test');
      await t.db.withTenant({ tenantId: acme.id }, (tx) =>
        tx.execute(sql`UPDATE users SET disabled = true WHERE id = ${user.id}`),
      );
      const me = await t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token });
      assert.equal(me.statusCode, 401);
    });
  });

  describe('the role guard', () => {
    const expectations: Record<string, Record<string, number>> = {
      // caller → requirement → status
      public: { public: 200, paywall: 401, research: 401, admin: 401, 'manage-tenants': 401 },
      paywall: { public: 200, paywall: 200, research: 403, admin: 403, 'manage-tenants': 403 },
      research: { public: 200, paywall: 200, research: 200, admin: 403, 'manage-tenants': 403 },
      admin: { public: 200, paywall: 200, research: 200, admin: 200, 'manage-tenants': 403 },
      'default-tenant admin': { public: 200, paywall: 200, research: 200, admin: 200, 'manage-tenants': 200 },
    };

    it('allows and refuses each role as declared, through real requests', async () => {
      const fresh = async (tenant: TenantRow, email: string, roles: Partial<UserRow>) => {
        await t.createUser(tenant, email, roles);
        return t.login(tenant, email);
      };
      const callers: Record<string, { tenant: TenantRow; token?: string }> = {
        public: { tenant: acme },
        paywall: { tenant: acme, token: await fresh(acme, 'g-paywall@acme.test', {}) },
        research: { tenant: acme, token: await fresh(acme, 'g-research@acme.test', { is_research: true }) },
        admin: { tenant: acme, token: await fresh(acme, 'g-admin@acme.test', { is_admin: true }) },
        'default-tenant admin': { tenant: main, token: await fresh(main, 'g-admin@main.test', { is_admin: true }) },
      };
      for (const [caller, requirements] of Object.entries(expectations)) {
        for (const [requirement, status] of Object.entries(requirements)) {
          const { tenant, token } = callers[caller]!;
          const response = await t.request(tenant, { method: 'GET', url: `/api/v1/probe/${requirement}/`, token });
          assert.equal(response.statusCode, status, `${caller} → ${requirement}`);
        }
      }
    });

    it('authorize() is the same check as a function', () => {
      const principal = (access: Principal['access'], canManageTenants = false): Principal => ({
        user: {} as UserRow,
        sessionId: 's',
        access,
        canManageTenants,
      });
      assert.doesNotThrow(() => authorize(PUBLIC_PRINCIPAL, 'public'));
      assert.throws(() => authorize(PUBLIC_PRINCIPAL, 'paywall'), { statusCode: 401 });
      assert.throws(() => authorize(principal('paywall'), 'research'), { statusCode: 403 });
      assert.doesNotThrow(() => authorize(principal('research'), 'research'));
      assert.throws(() => authorize(principal('research'), 'admin'), { statusCode: 403 });
      assert.throws(() => authorize(principal('admin'), 'manage-tenants'), { statusCode: 403 });
      assert.doesNotThrow(() => authorize(principal('admin', true), 'manage-tenants'));
    });
  });
});

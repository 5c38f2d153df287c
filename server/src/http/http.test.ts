import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

describe('HTTP conventions', () => {
  let t: TestContext;
  let acme: TenantRow;
  let undeclared: unknown;

  before(async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: '2048', CORS_ORIGINS: 'https://partner.example.org' }, (app) => {
      app.get('/api/v1/probe/crash/', async () => {
        throw new Error('secret internals at /srv/app.ts:42');
      });
      try {
        app.get('/api/v1/probe/:id/', async () => ({}));
      } catch (error) {
        undeclared = error;
      }
    });
    await t.createTenant('default', { isDefault: true, name: 'Main' });
    acme = await t.createTenant('acme', { name: 'Acme Research' });
  });
  after(() => t.close());

  it('an unknown tenant gets a 404 JSON error', async () => {
    const response = await t.request('nowhere', { method: 'GET', url: '/api/v1/auth/me/' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { detail: 'This tenant does not exist.', code: 'tenant_not_found' });
  });

  it('a host label that cannot be a tenant code is a 404 too', async () => {
    const response = await t.request('bad_label', { method: 'POST', url: '/api/v1/auth/login/', payload: { email: 'a', password: 'b' } });
    assert.equal(response.statusCode, 404);
  });

  it('an unknown route is a 404 in the error shape', async () => {
    const response = await t.request(acme, { method: 'GET', url: '/api/v1/no/such/thing/' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
  });

  it('trailing slashes are optional', async () => {
    const withSlash = await t.request(acme, { method: 'GET', url: '/api/v1/tenant/' });
    const without = await t.request(acme, { method: 'GET', url: '/api/v1/tenant' });
    assert.equal(withSlash.statusCode, 200);
    assert.equal(without.statusCode, 200);
  });

  it('an API route with path parameters but no params schema is refused at start', () => {
    assert.match(String(undeclared), /GET \/api\/v1\/probe\/:id\/ has path parameters but no params schema/);
  });

  it('an unexpected error is a 500 without internals, and carries the request id', async () => {
    const response = await t.request(acme, { method: 'GET', url: '/api/v1/probe/crash/' });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { detail: 'Internal server error.', code: 'server_error' });
    assert.doesNotMatch(response.body, /secret|app\.ts/);
    assert.ok(response.headers['x-request-id']);
  });

  it('echoes a sane incoming request id and replaces an unsafe one', async () => {
    const echoed = await t.request(acme, { method: 'GET', url: '/api/v1/tenant/', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(echoed.headers['x-request-id'], 'abc-123');
    const replaced = await t.request(acme, { method: 'GET', url: '/api/v1/tenant/', headers: { 'x-request-id': 'a b\tc' } });
    assert.notEqual(replaced.headers['x-request-id'], 'a b\tc');
  });

  it('rejects bodies over the limit with 413', async () => {
    const response = await t.request(acme, {
      method: 'POST',
      url: '/api/v1/auth/login/',
      payload: { email: 'a@b.c', password: 'x'.repeat(4096) },
    });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, 'payload_too_large');
  });

  it('rejects an unsupported content type with 415', async () => {
    const response = await t.request(acme, {
      method: 'POST',
      url: '/api/v1/auth/login/',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    assert.equal(response.statusCode, 415);
    assert.equal(response.json().code, 'unsupported_media_type');
  });

  it('sends security headers', async () => {
    const response = await t.request(acme, { method: 'GET', url: '/api/v1/tenant/' });
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.match(String(response.headers['content-security-policy']), /default-src 'self'/);
    assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.ok(response.headers['referrer-policy']);
  });

  describe('CORS', () => {
    const preflight = (origin: string) =>
      t.request(acme, {
        method: 'OPTIONS',
        url: '/api/v1/auth/me/',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });

    it("allows the tenant's own origin", async () => {
      const response = await preflight('http://acme.localhost:3000');
      assert.equal(response.headers['access-control-allow-origin'], 'http://acme.localhost:3000');
    });

    it("refuses another tenant's origin and foreign sites", async () => {
      for (const origin of ['http://beta.localhost:3000', 'https://evil.example.com']) {
        const response = await preflight(origin);
        assert.equal(response.headers['access-control-allow-origin'], undefined, origin);
      }
    });

    it('allows origins listed in CORS_ORIGINS', async () => {
      const response = await preflight('https://partner.example.org');
      assert.equal(response.headers['access-control-allow-origin'], 'https://partner.example.org');
    });
  });

  describe('tenant information', () => {
    it('GET clients/info/{code}/ works without auth from any host', async () => {
      const known = await t.request('nowhere', { method: 'GET', url: '/api/v1/clients/info/acme/' });
      assert.equal(known.statusCode, 200);
      const body = known.json();
      assert.equal(body.exists, true);
      assert.equal(body.id, acme.id);
      assert.ok('payment_access_link' in body && 'payment_access_message' in body);
    });

    it('an unknown or impossible code answers exists: false', async () => {
      for (const code of ['zzz', 'UNDER_score', '-x-']) {
        const response = await t.request(acme, { method: 'GET', url: `/api/v1/clients/info/${code}/` });
        assert.equal(response.statusCode, 200);
        assert.equal(response.json().exists, false, code);
        assert.equal(response.json().id, null);
      }
    });

    it("GET tenant/ describes the host's tenant; the main host is the default tenant", async () => {
      const onAcme = await t.request(acme, { method: 'GET', url: '/api/v1/tenant/' });
      assert.equal(onAcme.json().name, 'Acme Research');
      const onMain = await t.app.inject({ method: 'GET', url: '/api/v1/tenant/', headers: { host: 'www.example.com' } });
      assert.equal(onMain.json().is_default, true);
      const unknown = await t.request('nowhere', { method: 'GET', url: '/api/v1/tenant/' });
      assert.equal(unknown.statusCode, 200);
      assert.equal(unknown.json().exists, false);
    });
  });

  describe('OpenAPI', () => {
    it('serves the document generated from route schemas', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
      assert.equal(response.statusCode, 200);
      const document = response.json();
      assert.equal(document.openapi, '3.1.0');
      assert.ok(document.paths['/api/v1/auth/login/']?.post);
      assert.ok(document.paths['/api/v1/clients/info/{code}/']?.get);
      assert.ok(document.components.securitySchemes.bearer);
    });

    it('serves a viewer at /api/docs', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/docs/' });
      assert.equal(response.statusCode, 200);
      assert.match(response.headers['content-type'] as string, /text\/html/);
    });
  });
});

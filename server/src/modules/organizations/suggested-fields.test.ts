import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const PAGE = `<!doctype html><html><head>
<title>Initech | Home</title>
<meta name="description" content="Initech makes TPS report software.">
<link rel="canonical" href="/">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","legalName":"Initech, Inc.",
 "email":"hello@initech.example","telephone":"+1 415 555 2671","sameAs":["https://www.linkedin.com/company/initech"]}</script>
</head><body><a href="mailto:sales@initech.example?subject=hi">Sales</a> <a href="tel:not-a-phone">x</a></body></html>`;

describe('GET assets/organizations/suggested_fields_from_url/', () => {
  let site: http.Server;
  let siteUrl: string;
  let open: TestContext;
  let strict: TestContext;
  let tenants: { open: TenantRow; strict: TenantRow };
  let tokens: { open: string; strict: string; reader: string };

  before(async () => {
    site = http.createServer((request, response) => {
      if (request.url === '/missing') return response.writeHead(404).end('no');
      if (request.url === '/image') return response.writeHead(200, { 'content-type': 'image/png' }).end('png');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

    // Loopback is refused by default; this instance allows it so a local site can stand in for the web.
    open = await createTestApp({ FETCH_ALLOW_PRIVATE: 'true', FETCH_TIMEOUT_MS: '3000' });
    strict = await createTestApp();
    tenants = { open: await open.createTenant('acme'), strict: await strict.createTenant('acme') };
    await open.createUser(tenants.open, 'r@acme.test', { is_research: true });
    await open.createUser(tenants.open, 'reader@acme.test');
    await strict.createUser(tenants.strict, 'r@acme.test', { is_research: true });
    tokens = {
      open: await open.login(tenants.open, 'r@acme.test'),
      reader: await open.login(tenants.open, 'reader@acme.test'),
      strict: await strict.login(tenants.strict, 'r@acme.test'),
    };
  });
  after(async () => {
    await open.close();
    await strict.close();
    site.close();
  });

  const suggest = (t: TestContext, tenant: TenantRow, token: string | undefined, url: string) =>
    t.request(tenant, { method: 'GET', url: `/api/v1/assets/organizations/suggested_fields_from_url/?url=${encodeURIComponent(url)}`, token });

  it('extracts name, description, emails, phones and URLs, normalized like saved fields', async () => {
    const response = await suggest(open, tenants.open, tokens.open, `${siteUrl}/about`);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.name_inc, 'Initech, Inc.');
    assert.equal(body.notes, 'Initech makes TPS report software.');
    assert.deepEqual(body.emails.sort(), ['hello@initech.example', 'sales@initech.example']);
    assert.deepEqual(body.phones, ['+14155552671']);
    assert.ok(body.associated_urls.includes('https://www.linkedin.com/company/initech'));
  });

  it('refuses loopback addresses unless the setting allows them', async () => {
    const response = await suggest(strict, tenants.strict, tokens.strict, `${siteUrl}/about`);
    assert.equal(response.statusCode, 400);
    assert.ok(response.json().errors.url);
  });

  it('answers 4xx naming url for bad or unusable URLs', async () => {
    for (const [url, status] of [
      ['', 400],
      ['ftp://example.com/x', 400],
      ['http://', 400],
      [`${siteUrl}/missing`, 422],
      [`${siteUrl}/image`, 422],
      ['http://no-such-host.invalid/', 422],
    ] as const) {
      const response = await suggest(open, tenants.open, tokens.open, url);
      assert.equal(response.statusCode, status, `${url}: ${response.body}`);
      assert.ok(response.json().errors.url, url);
    }
  });

  it('names a missing, repeated or unknown parameter and a NUL in the 400, fetching nothing', async () => {
    const get = (query: string) =>
      open.request(tenants.open, { method: 'GET', url: `/api/v1/assets/organizations/suggested_fields_from_url/${query}`, token: tokens.open });
    for (const [query, errors] of [
      ['', { url: ['This field is required.'] }],
      [`?url=${encodeURIComponent(siteUrl)}&url=${encodeURIComponent(siteUrl)}`, { url: ['Must be text.'] }],
      [`?url=${encodeURIComponent(siteUrl)}&depth=2`, { depth: ['Unknown parameter.'] }],
      ['?url=https://initech.example/a%00b', { url: ['Must not contain the NUL character (U+0000).'] }],
    ] as const) {
      const response = await get(query);
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
      assert.deepEqual(response.json().errors, errors, query);
    }
  });

  it('is for researchers and admins only', async () => {
    assert.equal((await suggest(open, tenants.open, undefined, siteUrl)).statusCode, 401);
    assert.equal((await suggest(open, tenants.open, tokens.reader, siteUrl)).statusCode, 403);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeHost, tenantFromHost, tenantOrigin } from './host.ts';

const MAIN = 'intelnotes.example.com';

// [Host header, expected tenant code or 'default' or 'invalid']
const CASES: Array<[string | undefined, string]> = [
  ['acme.localhost', 'acme'],
  ['acme.localhost:3000', 'acme'],
  ['ACME.LocalHost:3000', 'acme'],
  ['localhost', 'default'],
  ['localhost:3000', 'default'],
  ['acme.example.com', 'acme'],
  ['example.com', 'default'],
  ['www.example.com', 'default'],
  ['www.acme.example.com', 'default'],
  ['acme.example.com.', 'acme'],
  ['acme.localhost.', 'acme'],
  ['deep.acme.example.com', 'deep'],
  ['deep.acme.localhost', 'deep'],
  ['intelnotes.example.com', 'default'],
  ['intelnotes.example.com:443', 'default'],
  ['acme.intelnotes.example.com', 'acme'],
  ['127.0.0.1', 'default'],
  ['127.0.0.1:3000', 'default'],
  ['[::1]:3000', 'default'],
  ['[::1]', 'default'],
  ['::1', 'default'],
  ['[2001:db8::1]:8080', 'default'],
  ['intranet', 'default'],
  ['co.uk', 'default'],
  ['demo.localhost:3000', 'demo'],
  ['a-b-c.example.org', 'a-b-c'],
  ['-bad.example.com', 'invalid'],
  ['under_score.localhost', 'invalid'],
  ['', 'default'],
  [undefined, 'default'],
];

describe('tenantFromHost', () => {
  for (const [host, expected] of CASES) {
    it(`${JSON.stringify(host)} → ${expected}`, () => {
      const result = tenantFromHost(host, MAIN);
      const actual = result.kind === 'tenant' ? result.code : result.kind;
      assert.equal(actual, expected);
    });
  }

  it('without MAIN_HOST, a three-label main host reads as a tenant: MAIN_HOST exists for this', () => {
    assert.deepEqual(tenantFromHost('intelnotes.example.com', null), { kind: 'tenant', code: 'intelnotes' });
    assert.deepEqual(tenantFromHost('acme.intelnotes.example.com', null), { kind: 'tenant', code: 'acme' });
  });
});

describe('normalizeHost', () => {
  it('strips port, brackets, case and trailing dots', () => {
    assert.equal(normalizeHost('Acme.Example.COM.:8443'), 'acme.example.com');
    assert.equal(normalizeHost('[FE80::1]:80'), 'fe80::1');
  });
});

describe('tenantOrigin', () => {
  const acme = { code: 'acme', is_default: false };
  it("is the tenant's subdomain of MAIN_HOST whatever the Host header says, with the request's scheme and port", () => {
    assert.equal(tenantOrigin({ protocol: 'https', host: 'acme.attacker.example' }, acme, MAIN), 'https://acme.intelnotes.example.com');
    assert.equal(tenantOrigin({ protocol: 'http', host: 'acme.intelnotes.example.com:8080' }, acme, MAIN), 'http://acme.intelnotes.example.com:8080');
    assert.equal(tenantOrigin({ protocol: 'https', host: 'www.intelnotes.example.com' }, { code: 'default', is_default: true }, MAIN), 'https://intelnotes.example.com');
  });
  it('without MAIN_HOST trusts loopback hosts only (development)', () => {
    assert.equal(tenantOrigin({ protocol: 'http', host: 'Acme.localhost:3000' }, acme, null), 'http://acme.localhost:3000');
    assert.equal(tenantOrigin({ protocol: 'http', host: '127.0.0.1:3000' }, acme, null), 'http://127.0.0.1:3000');
    assert.equal(tenantOrigin({ protocol: 'https', host: 'acme.attacker.example' }, acme, null), null);
  });
});

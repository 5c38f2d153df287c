/**
 * The sign-in limit under concurrency: the check and the count are one
 * atomic step, so tries in flight together never pass the limit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, TEST_PASSWORD, type TestContext } from '../test/test-app.ts';

const MAX = 5;

describe('sign-in rate limit under concurrency', () => {
  let t: TestContext;
  let acme: TenantRow;

  before(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_MAX: String(MAX), LOGIN_RATE_LIMIT_WINDOW_SECONDS: '600' });
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'reader@acme.test');
  });
  after(() => t.close());

  const login = (email: string, password: string, ip: string) =>
    t.request(acme, { method: 'POST', url: '/api/v1/auth/login/', payload: { email, password }, remoteAddress: ip });

  it('40 wrong tries at once from one IP: exactly the limit fail as 401, the rest get 429', async () => {
    const statuses = (await Promise.all(Array.from({ length: 40 }, (_, i) => login(`guess${i}@acme.test`, 'wrong', '10.9.0.1')))).map(
      (response) => response.statusCode,
    );
    assert.deepEqual([statuses.filter((status) => status === 401).length, statuses.filter((status) => status === 429).length], [MAX, 40 - MAX]);
    const limited = await login('reader@acme.test', TEST_PASSWORD, '10.9.0.1');
    assert.equal(limited.statusCode, 429, 'the IP stays locked, even for the right password');
    assert.ok(Number(limited.headers['retry-after']) > 0 && Number(limited.headers['retry-after']) <= 600);
  });

  it('20 wrong tries at once for one email from many IPs: exactly the limit fail as 401', async () => {
    const statuses = (await Promise.all(Array.from({ length: 20 }, (_, i) => login('victim@acme.test', 'wrong', `10.8.0.${i}`)))).map(
      (response) => response.statusCode,
    );
    assert.equal(statuses.filter((status) => status === 401).length, MAX, statuses.join(' '));
  });

  it('successful sign-ins give their slot back: many from one IP, some at once, never lock it', async () => {
    for (let round = 0; round < 3; round++) {
      const statuses = (await Promise.all(Array.from({ length: MAX }, () => login('reader@acme.test', TEST_PASSWORD, '10.7.0.1')))).map(
        (response) => response.statusCode,
      );
      assert.deepEqual(statuses, Array(MAX).fill(200));
    }
    const [row] = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query<{ failures: number }>(tx, sql`SELECT failures FROM login_limits WHERE scope = 'ip' AND key = '10.7.0.1'`),
    );
    assert.equal(row?.failures, 0);
  });

  it('a failure then a success from one IP leaves one failure counted', async () => {
    assert.equal((await login('reader@acme.test', 'wrong', '10.6.0.1')).statusCode, 401);
    assert.equal((await login('reader@acme.test', TEST_PASSWORD, '10.6.0.1')).statusCode, 200);
    const [row] = await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query<{ failures: number }>(tx, sql`SELECT failures FROM login_limits WHERE scope = 'ip' AND key = '10.6.0.1'`),
    );
    assert.equal(row?.failures, 1);
  });
});

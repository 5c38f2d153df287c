/**
 * The read cache across real API processes on one PostgreSQL server (docs/cache.md): a write
 * through one process is in that process's next read at once and reaches the other's cache
 * through the notification at commit; a visibility change drops the row for visitors of both;
 * two tenants never share an answer; and a change no process hears of (a write on the owner
 * connection) is served stale for the time to live at most.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { call, killAll, start } from '../test/processes.ts';
import { eventually } from '../test/second-app.ts';
import { createTestApp, TEST_PASSWORD, type TestContext } from '../test/test-app.ts';

describe('the read cache across API processes', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  const ports: string[] = [];
  const tokens: Record<string, string> = {};
  const TTL_MS = 10_000;

  const names = async (port: string, tenant: TenantRow, token?: string, limit = 100) => {
    const answer = await call(port, `${tenant.code}.localhost:${port}`, 'GET', `/api/v1/assets/organizations/?limit=${limit}`, undefined, token);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return (answer.json.results as Array<{ name_inc: string }>).map((row) => row.name_inc).sort();
  };
  const write = async (port: string, tenant: TenantRow, method: string, path: string, body: unknown) => {
    const answer = await call(port, `${tenant.code}.localhost:${port}`, method, path, body, tokens[tenant.code]);
    assert.ok(answer.status < 300, JSON.stringify(answer.json));
    return answer.json;
  };

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    for (const tenant of [acme, beta]) await t.createUser(tenant, `admin@${tenant.code}.test`, { is_admin: true });
    const env = { DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'warn', READ_CACHE_TTL_MS: String(TTL_MS), PORT: '0' };
    const servers = [start(env), start(env)];
    for (const server of servers) ports.push((await server.waitFor(/serving on http:\/\/localhost:(\d+)/))[1]!);
    for (const tenant of [acme, beta]) {
      const login = await call(ports[0]!, `${tenant.code}.localhost:${ports[0]}`, 'POST', '/api/v1/auth/login/', { email: `admin@${tenant.code}.test`, password: TEST_PASSWORD });
      assert.equal(login.status, 200);
      tokens[tenant.code] = login.json.token;
      await write(ports[0]!, tenant, 'POST', '/api/v1/assets/organizations/', { name_inc: `${tenant.code} public`, visibility: 'public' });
    }
  });
  after(async () => {
    killAll();
    await t.close();
  });

  it('a write through one process: in its next read at once, in the other\'s once the notification is there', async () => {
    const [first, second] = ports as [string, string];
    // Both processes have the visitors' page cached.
    for (const port of ports) assert.deepEqual(await names(port, acme), ['acme public']);
    for (const port of ports) assert.deepEqual(await names(port, beta), ['beta public']);

    const made = await write(first, acme, 'POST', '/api/v1/assets/organizations/', { name_inc: 'Acme Two', visibility: 'public' });
    assert.deepEqual(await names(first, acme), ['Acme Two', 'acme public'], 'the writer\'s process at once');
    assert.deepEqual(await eventually(() => names(second, acme), (list) => list.length === 2), ['Acme Two', 'acme public']);
    assert.deepEqual(await names(second, beta), ['beta public'], 'the other tenant untouched');

    // Public → hidden, written through the other process this time.
    await write(second, acme, 'PATCH', `/api/v1/assets/organizations/${made.id}/`, { visibility: 'hidden' });
    assert.deepEqual(await names(second, acme), ['acme public']);
    assert.deepEqual(await eventually(() => names(first, acme), (list) => list.length === 1), ['acme public']);
    // The admin still sees it, on both.
    for (const port of ports) assert.ok((await names(port, acme, tokens['acme'])).includes('Acme Two'));
  });

  it('a change no process hears of is served stale for the time to live at most', async () => {
    const [first] = ports as [string];
    // A page not asked for before: loaded now, so well within its time to live for the next read.
    assert.deepEqual(await names(first, beta, undefined, 50), ['beta public']);
    await t.db.owner.execute(sql`INSERT INTO organizations (tenant_id, name_inc, visibility) VALUES (${beta.id}, 'Behind The Back', 'public')`);
    assert.deepEqual(await names(first, beta, undefined, 50), ['beta public'], 'served from memory');
    // Nothing tells the processes; the entry's time to live ends it (the test's timeout bounds the wait).
    const seen = await eventually(() => names(first, beta, undefined, 50), (list) => list.includes('Behind The Back'));
    assert.deepEqual(seen, ['Behind The Back', 'beta public']);
  });
});

/**
 * Entity counts kept in memory: served without the database between changes, dropped on every
 * change whichever process made it — also with two app instances (two connection pools, two listeners: two processes) on one database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { eventually, openSecondApp } from '../../test/second-app.ts';
import { createTestApp, hostOf, type TestContext } from '../../test/test-app.ts';
import { CountsCache } from './counts-cache.ts';

describe('the counts cache', () => {
  it('keeps a value per tenant and variant until that tenant changes', async () => {
    const cache = new CountsCache<number>();
    cache.setActive(true);
    let loads = 0;
    const load = (value: number) => async () => {
      loads += 1;
      return value;
    };
    assert.equal(await cache.get('t1', 'a', load(1)), 1);
    assert.equal(await cache.get('t1', 'a', load(2)), 1);
    assert.equal(await cache.get('t1', 'b', load(3)), 3);
    assert.equal(await cache.get('t2', 'a', load(4)), 4);
    assert.equal(loads, 3);
    cache.invalidate('t1');
    assert.equal(await cache.get('t1', 'a', load(5)), 5);
    assert.equal(await cache.get('t1', 'b', load(6)), 6);
    assert.equal(await cache.get('t2', 'a', load(7)), 4);
    cache.invalidateAll();
    assert.equal(await cache.get('t2', 'a', load(8)), 8);
  });

  it('does not keep a load that was running when a change arrived', async () => {
    const cache = new CountsCache<string>();
    cache.setActive(true);
    let release!: () => void;
    const slow = cache.get('t1', 'a', () => new Promise<string>((resolve) => (release = () => resolve('before the change'))));
    cache.invalidate('t1');
    release();
    assert.equal(await slow, 'before the change');
    assert.equal(await cache.get('t1', 'a', async () => 'after'), 'after');

    const other = cache.get('t1', 'a', () => new Promise<string>((resolve) => (release = () => resolve('stale'))));
    cache.invalidate('t1');
    cache.invalidateAll();
    release();
    await other;
    assert.equal(await cache.get('t1', 'a', async () => 'fresh'), 'fresh');
  });

  it('keeps nothing while inactive (no change notifications)', async () => {
    const cache = new CountsCache<number>();
    assert.equal(cache.active, false);
    assert.equal(await cache.get('t1', 'a', async () => 1), 1);
    assert.equal(await cache.get('t1', 'a', async () => 2), 2);
    cache.setActive(true);
    assert.equal(await cache.get('t1', 'a', async () => 3), 3);
    cache.setActive(false);
    assert.equal(await cache.get('t1', 'a', async () => 4), 4);
  });
});

describe('entity counts served from memory', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    for (const [tenant, token] of [[acme, tokens['admin']], [beta, tokens['beta']]] as const) {
      const response = await t.request(tenant, { method: 'POST', url: '/api/v1/assets/organizations/', token, payload: { name_inc: 'Initech', visibility: 'public' } });
      assert.equal(response.statusCode, 201, response.body);
    }
  });
  after(() => t.close());

  const countsOf = async (app: FastifyInstance, tenant: TenantRow, token?: string) => {
    const url = token ? '/api/v1/tools/entities-count/' : '/api/v1/tools/free-ahead-entities-count/';
    const response = await app.inject({ method: 'GET', url, headers: { host: hostOf(tenant), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const publicOrganizations = async (app: FastifyInstance, tenant: TenantRow) => (await countsOf(app, tenant)).organizations.public_count as number;

  /** Changes a counter without telling anyone (triggers off), as nothing in the app ever does: shows whether a read hit the database. */
  const silentlyAdd = (db: Database, tenant: TenantRow, amount: number) =>
    db.owner.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`UPDATE entity_counters SET count = count + ${amount} WHERE tenant_id = ${tenant.id} AND kind = 'organizations' AND visibility = 'public'`);
    });
  /** Takes a silent change back and, this time, tells every process. */
  const restore = async (db: Database, tenant: TenantRow, amount: number) => {
    await silentlyAdd(db, tenant, -amount);
    await db.owner.execute(sql`SELECT pg_notify('intelnotes_entity_counts', ${tenant.id})`);
  };
  /** The public organizations counter as stored. */
  const stored = async (tenant: TenantRow) => {
    const result = (await t.db.owner.execute(
      sql`SELECT count::int AS n FROM entity_counters WHERE tenant_id = ${tenant.id} AND kind = 'organizations' AND visibility = 'public'`,
    )) as unknown as { rows: Array<{ n: number }> };
    return result.rows[0]!.n;
  };

  it('answers from memory until a write through the API, which the writer sees at once', async () => {
    const before = await publicOrganizations(t.app, acme);
    await silentlyAdd(t.db, acme, 100);
    assert.equal(await publicOrganizations(t.app, acme), before, 'served from memory');
    const created = await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/', token: tokens['admin'], payload: { name_inc: 'Vandelay', visibility: 'public' } });
    assert.equal(created.statusCode, 201);
    assert.equal(await publicOrganizations(t.app, acme), before + 101);
    // Visibility changes and deletes move the counts too.
    await t.request(acme, { method: 'PATCH', url: `/api/v1/assets/organizations/${created.json().id}/`, token: tokens['admin'], payload: { visibility: 'hidden' } });
    assert.equal(await publicOrganizations(t.app, acme), before + 100);
    assert.equal((await countsOf(t.app, acme, tokens['admin'])).organizations.hidden_count, 1);
    await t.request(acme, { method: 'DELETE', url: `/api/v1/assets/organizations/${created.json().id}/`, token: tokens['admin'] });
    assert.equal((await countsOf(t.app, acme, tokens['admin'])).organizations.hidden_count, 0);
    await restore(t.db, acme, 100);
    await eventually(() => publicOrganizations(t.app, acme), (count) => count === before);
  });

  it('keeps each tenant and audience apart, and a write of one tenant leaves the others cached', async () => {
    const acmeBefore = await publicOrganizations(t.app, acme);
    const betaBefore = await publicOrganizations(t.app, beta);
    const forAdmin = await countsOf(t.app, acme, tokens['admin']);
    const forReader = await countsOf(t.app, acme, tokens['paywall']);
    assert.equal(forReader.organizations.hidden_count, undefined);
    assert.equal(typeof forAdmin.organizations.hidden_count, 'number');
    assert.equal((await countsOf(t.app, acme, tokens['paywall'])).organizations.hidden_count, undefined);

    await silentlyAdd(t.db, beta, 10);
    await t.request(acme, { method: 'POST', url: '/api/v1/assets/people/', token: tokens['admin'], payload: { name_given: 'Art', name_family: 'Vandelay' } });
    assert.equal(await publicOrganizations(t.app, beta), betaBefore, 'beta still served from memory');
    assert.equal(await publicOrganizations(t.app, acme), acmeBefore);
    await restore(t.db, beta, 10);
    await eventually(() => publicOrganizations(t.app, beta), (count) => count === betaBefore);
  });

  it('a write that is not a request (another process, a script) reaches the counts through the database', async () => {
    const before = await publicOrganizations(t.app, acme);
    await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      tx.execute(sql`INSERT INTO organizations (tenant_id, name_inc, visibility) VALUES (${acme.id}, 'Scripted Ltd', 'public')`),
    );
    // The other listener hears of it a moment after the commit.
    assert.equal(await eventually(() => publicOrganizations(t.app, acme), (count) => count === before + 1), before + 1);
  });

  it('admins see a new user in their counts', async () => {
    const before = (await countsOf(t.app, acme, tokens['admin'])).users.hidden_count as number;
    await t.createUser(acme, 'new@acme.test');
    assert.equal(await eventually(async () => (await countsOf(t.app, acme, tokens['admin'])).users.hidden_count as number, (count) => count === before + 1), before + 1);
  });

  describe('two app instances on one server database (two processes)', () => {
    let second: FastifyInstance;
    let closeSecond: () => Promise<void>;

    before(async () => {
      ({ app: second, close: closeSecond } = await openSecondApp(t));
    });
    after(() => closeSecond());

    it('a write through one instance drops the other instance\'s cached counts', async () => {
      const before = await publicOrganizations(second, acme);
      await silentlyAdd(t.db, acme, 5);
      assert.equal(await publicOrganizations(second, acme), before, 'the second instance serves from memory');
      const created = await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/', token: tokens['admin'], payload: { name_inc: 'Cross Process', visibility: 'public' } });
      assert.equal(created.statusCode, 201);
      assert.equal(await publicOrganizations(t.app, acme), before + 6, 'the writer at once');
      assert.equal(await eventually(() => publicOrganizations(second, acme), (count) => count === before + 6), before + 6, 'the other instance once notified');
      await restore(t.db, acme, 5);
      await eventually(() => publicOrganizations(second, acme), (count) => count === before + 1);
    });

    it('an instance that loses its listening connection reads from the database until it listens again', async () => {
      let added = 0;
      // Cut every listening connection of this database; both instances connect again.
      await t.db.owner.execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'intelnotes-listen'`);
      await silentlyAdd(t.db, acme, 7);
      added += 7;
      // Without a listener nothing is cached: the silent change shows.
      const afterCut = await stored(acme);
      assert.equal(await eventually(() => publicOrganizations(second, acme), (count) => count === afterCut), afterCut);
      // Listening again, it caches again: a silent change stays unseen.
      await eventually(async () => {
        const seen = await publicOrganizations(second, acme);
        await silentlyAdd(t.db, acme, 1);
        added += 1;
        return (await publicOrganizations(second, acme)) === seen;
      }, Boolean);
      // …and hears of changes again.
      const created = await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/', token: tokens['admin'], payload: { name_inc: 'After Reconnect', visibility: 'public' } });
      assert.equal(created.statusCode, 201);
      const expected = await stored(acme);
      assert.equal(await eventually(() => publicOrganizations(second, acme), (count) => count === expected), expected);
      await restore(t.db, acme, added);
    });
  });
});

/**
 * The read cache (resources/read-cache.ts, docs/cache.md): visitors' and paywall readers' list
 * pages, intelbook reader and quick search served from memory per tenant, audience and
 * normalised query; research users and admins always from the database; every write — through
 * this app, another app instance on the same database (another process: its own pool, its own
 * listener) or a job's `inTenant` — moves the tenant on, and nothing is kept while notifications
 * cannot arrive.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AccessLevel } from '../contracts.ts';
import { inTenant, systemActor } from '../resources/context.ts';
import { ReadCache } from '../resources/read-cache.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { eventually, openSecondApp } from '../test/second-app.ts';
import { createTestApp, hostOf, type TestContext } from '../test/test-app.ts';

describe('the read cache', () => {
  const settings = { maxBytes: 1_000_000, ttlMs: 60_000 };
  const counting = () => {
    let loads = 0;
    return { load: <T>(value: T) => async () => ((loads += 1), value), loads: () => loads };
  };

  it('keeps an answer per tenant, audience and query until that tenant changes', async () => {
    const cache = new ReadCache(settings);
    cache.setActive(true);
    const { load, loads } = counting();
    assert.equal(await cache.get('t1', 'public', 'q', load('a')), 'a');
    assert.equal(await cache.get('t1', 'public', 'q', load('b')), 'a');
    assert.equal(await cache.get('t1', 'paywall', 'q', load('c')), 'c');
    assert.equal(await cache.get('t2', 'public', 'q', load('d')), 'd');
    assert.equal(await cache.get('t1', 'public', 'q2', load('e')), 'e');
    assert.equal(loads(), 4);
    cache.invalidate('t1');
    assert.equal(await cache.get('t1', 'public', 'q', load('f')), 'f');
    assert.equal(await cache.get('t1', 'paywall', 'q', load('g')), 'g');
    assert.equal(await cache.get('t2', 'public', 'q', load('h')), 'd', 'another tenant stays cached');
    cache.invalidateAll();
    assert.equal(await cache.get('t2', 'public', 'q', load('i')), 'i');
  });

  it('never keeps a load that was running when its tenant changed, and shares one load between concurrent readers', async () => {
    const cache = new ReadCache(settings);
    cache.setActive(true);
    let release!: (value: string) => void;
    const slow = cache.get('t1', 'public', 'q', () => new Promise<string>((resolve) => (release = resolve)));
    const alongside = cache.get('t1', 'public', 'q', async () => 'second load');
    assert.equal(cache.counters.shared, 1);
    cache.invalidate('t1');
    // A reader arriving after the change does not join the load from before it.
    assert.equal(await cache.get('t1', 'public', 'q', async () => 'after the change'), 'after the change');
    release('before the change');
    assert.equal(await slow, 'before the change');
    assert.equal(await alongside, 'before the change');
    assert.equal(await cache.get('t1', 'public', 'q', async () => 'fresh'), 'after the change');
  });

  it('keeps nothing while notifications cannot arrive, or when its size is 0', async () => {
    const cache = new ReadCache(settings);
    assert.equal(cache.active, false);
    assert.equal(await cache.get('t1', 'public', 'q', async () => 1), 1);
    assert.equal(await cache.get('t1', 'public', 'q', async () => 2), 2);
    cache.setActive(true);
    assert.equal(await cache.get('t1', 'public', 'q', async () => 3), 3);
    assert.equal(await cache.get('t1', 'public', 'q', async () => 4), 3);
    cache.setActive(false);
    assert.equal(await cache.get('t1', 'public', 'q', async () => 5), 5);
    const off = new ReadCache({ maxBytes: 0, ttlMs: 60_000 });
    off.setActive(true);
    assert.equal(off.active, false);
    assert.equal(await off.get('t1', 'public', 'q', async () => 6), 6);
    assert.equal(await off.get('t1', 'public', 'q', async () => 7), 7);
  });

  it('keeps a body per loaded value and variant, stale with its value', async () => {
    const cache = new ReadCache(settings);
    cache.setActive(true);
    let serialized = 0;
    const serialize = (text: string) => () => ((serialized += 1), text);
    const first = await cache.entry('t1', 'public', 'q', async () => ({ n: 1 }));
    assert.equal(cache.body('t1', 'public', 'q', first, 'a', serialize('one')), 'one');
    assert.equal(cache.body('t1', 'public', 'q', first, 'a', serialize('again')), 'one');
    assert.equal(cache.body('t1', 'public', 'q', first, 'b', serialize('other links')), 'other links');
    assert.equal(cache.body('t2', 'public', 'q', first, 'a', serialize('another tenant')), 'another tenant');
    assert.equal(serialized, 3);
    cache.invalidate('t1');
    // The value loaded before the change: its body is made afresh and not kept.
    assert.equal(cache.body('t1', 'public', 'q', first, 'a', serialize('stale')), 'stale');
    const second = await cache.entry('t1', 'public', 'q', async () => ({ n: 2 }));
    assert.deepEqual(second.value, { n: 2 });
    assert.equal(cache.body('t1', 'public', 'q', second, 'a', serialize('two')), 'two');
    assert.equal(cache.body('t1', 'public', 'q', second, 'a', serialize('not again')), 'two');
  });

  it('serves an entry for its time to live at most', async () => {
    let now = 1_000;
    const cache = new ReadCache({ maxBytes: 1_000_000, ttlMs: 500 }, { now: () => now });
    cache.setActive(true);
    assert.equal(await cache.get('t1', 'public', 'q', async () => 'first'), 'first');
    now += 499;
    assert.equal(await cache.get('t1', 'public', 'q', async () => 'second'), 'first');
    now += 2;
    assert.equal(await cache.get('t1', 'public', 'q', async () => 'third'), 'third');
  });

  it('stays within its bytes, the least recently used going first', async () => {
    const cache = new ReadCache({ maxBytes: 20_000, ttlMs: 60_000 });
    cache.setActive(true);
    const answer = (n: number) => async () => ({ n, text: 'x'.repeat(1_000) });
    for (let n = 0; n < 100; n += 1) {
      await cache.get('t1', 'public', `q${n}`, answer(n));
      // q0 stays in use, so it stays.
      await cache.get('t1', 'public', 'q0', answer(-1));
      assert.ok(cache.bytes <= 20_000, `${cache.bytes} bytes`);
    }
    assert.equal((await cache.get('t1', 'public', 'q0', answer(-1))).n, 0);
    assert.equal((await cache.get('t1', 'public', 'q99', answer(-1))).n, 99);
    assert.equal((await cache.get('t1', 'public', 'q1', answer(-1))).n, -1, 'an old entry was pushed out');
    // An answer larger than an eighth of the whole is not kept at all.
    await cache.get('t1', 'public', 'big', async () => 'y'.repeat(5_000));
    assert.equal(await cache.get('t1', 'public', 'big', async () => 'again'), 'again');
  });
});

describe('answers served from the read cache', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  let betaTokens: Record<AccessLevel, string | undefined>;
  const AUDIENCES: AccessLevel[] = ['public', 'paywall', 'research', 'admin'];
  const VISIBLE: Record<AccessLevel, string[]> = {
    public: ['public'],
    paywall: ['public', 'paywalled'],
    research: ['public', 'paywalled', 'hidden'],
    admin: ['public', 'paywalled', 'hidden'],
  };

  const tokenOf = (tenant: TenantRow, access: AccessLevel) => (tenant.id === acme.id ? tokens[access] : betaTokens[access]);
  const get = async (app: FastifyInstance, tenant: TenantRow, access: AccessLevel, url: string) => {
    const token = tokenOf(tenant, access);
    const response = await app.inject({ method: 'GET', url, headers: { host: hostOf(tenant), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const names = async (app: FastifyInstance, tenant: TenantRow, access: AccessLevel, query = '') =>
    ((await get(app, tenant, access, `/api/v1/assets/organizations/?limit=100${query}`)).results as Array<{ name_inc: string }>).map((row) => row.name_inc).sort();
  const create = async (tenant: TenantRow, name: string, visibility: string) => {
    const response = await t.request(tenant, { method: 'POST', url: '/api/v1/assets/organizations/', token: tokenOf(tenant, 'admin'), payload: { name_inc: name, visibility } });
    assert.equal(response.statusCode, 201, response.body);
    return String(response.json().id);
  };
  const setVisibility = async (tenant: TenantRow, id: string, visibility: string) => {
    const response = await t.request(tenant, { method: 'PATCH', url: `/api/v1/assets/organizations/${id}/`, token: tokenOf(tenant, 'admin'), payload: { visibility } });
    assert.equal(response.statusCode, 200, response.body);
  };
  /** A row written on the owner connection, which tells no cache: shows whether a read reached the database. */
  const silentlyInsert = (tenant: TenantRow, name: string, visibility: string) =>
    t.db.owner.execute(sql`INSERT INTO organizations (tenant_id, name_inc, visibility) VALUES (${tenant.id}, ${name}, ${visibility})`);
  const silentlyDelete = (name: string) => t.db.owner.execute(sql`DELETE FROM organizations WHERE name_inc = ${name}`);

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    tokens = await t.signInAudiences(acme);
    betaTokens = await t.signInAudiences(beta);
    for (const tenant of [acme, beta]) {
      for (const visibility of ['public', 'paywalled', 'hidden']) await create(tenant, `${tenant.code} ${visibility}`, visibility);
    }
  });
  after(() => t.close());

  it('gives each tenant and audience its own rows, and serves visitors and paywall readers from memory only', async () => {
    for (const tenant of [acme, beta]) {
      for (const access of AUDIENCES) {
        const expected = VISIBLE[access].map((visibility) => `${tenant.code} ${visibility}`).sort();
        assert.deepEqual(await names(t.app, tenant, access), expected, `${tenant.code} as ${access}`);
      }
    }
    // Rows no cache hears of: the cached audiences keep their answer, the others see them at once.
    for (const tenant of [acme, beta]) {
      for (const visibility of ['public', 'paywalled', 'hidden']) await silentlyInsert(tenant, `${tenant.code} silent ${visibility}`, visibility);
    }
    for (const tenant of [acme, beta]) {
      for (const access of AUDIENCES) {
        const cached = access === 'public' || access === 'paywall';
        const visible = VISIBLE[access].flatMap((visibility) => [`${tenant.code} ${visibility}`, ...(cached ? [] : [`${tenant.code} silent ${visibility}`])]).sort();
        assert.deepEqual(await names(t.app, tenant, access), visible, `${tenant.code} as ${access}`);
      }
    }
    // A write of one tenant moves that tenant on, and only it.
    const id = await create(acme, 'acme new', 'public');
    assert.deepEqual(await names(t.app, acme, 'public'), ['acme new', 'acme public', 'acme silent public']);
    assert.deepEqual(await names(t.app, acme, 'paywall'), ['acme new', 'acme paywalled', 'acme public', 'acme silent paywalled', 'acme silent public']);
    assert.deepEqual(await names(t.app, beta, 'public'), ['beta public'], 'beta still served from memory');
    await t.request(acme, { method: 'DELETE', url: `/api/v1/assets/organizations/${id}/`, token: tokens['admin'] });
    for (const tenant of [acme, beta]) {
      for (const visibility of ['public', 'paywalled', 'hidden']) await silentlyDelete(`${tenant.code} silent ${visibility}`);
    }
    await create(beta, 'beta later', 'hidden');
    assert.deepEqual(await names(t.app, beta, 'public'), ['beta public']);
    assert.deepEqual(await names(t.app, acme, 'public'), ['acme public']);
  });

  it('takes a query however it is spelled: parameter order, defaults and the order of a filter\'s values', async () => {
    const hits = () => t.engine.caches.reads.counters.hits;
    const base = await get(t.app, acme, 'paywall', '/api/v1/assets/organizations/?visibility=public,paywalled&ordering=name_inc');
    const before = hits();
    for (const url of [
      '/api/v1/assets/organizations/?ordering=name_inc&visibility=paywalled,public',
      '/api/v1/assets/organizations/?visibility=public,paywalled&ordering=name_inc&offset=0',
      '/api/v1/assets/organizations/?limit=25&visibility=public,paywalled&ordering=name_inc&hq_city=',
    ]) {
      assert.deepEqual((await get(t.app, acme, 'paywall', url)).results, base.results, url);
    }
    assert.equal(hits(), before + 3);
    // A different page is a different answer.
    await get(t.app, acme, 'paywall', '/api/v1/assets/organizations/?visibility=public,paywalled&ordering=-name_inc');
    assert.equal(hits(), before + 3);
  });

  it('a row made hidden leaves the visitors\' list, quick search and reader at once', async () => {
    const id = await create(acme, 'Zebulon Widgets', 'public');
    const section = await t.request(acme, { method: 'POST', url: '/api/v1/facts/sections/', token: tokens['admin'], payload: { name: 'Findings' } });
    assert.equal(section.statusCode, 201, section.body);
    const fact = await t.request(acme, { method: 'POST', url: '/api/v1/facts/', token: tokens['admin'], payload: { text: 'Zebulon ships widgets', section: section.json().id, visibility: 'public' } });
    assert.equal(fact.statusCode, 201, fact.body);
    const readerText = async (access: AccessLevel) =>
      JSON.stringify((await get(t.app, acme, access, `/api/v1/facts/view/?section=${section.json().id}`)).sections);
    const quick = async (access: AccessLevel) => ((await get(t.app, acme, access, '/api/v1/search/?q=zebulon')).results as Array<{ display_name: string }>).map((row) => row.display_name);

    for (const access of ['public', 'paywall'] as const) {
      assert.ok((await names(t.app, acme, access)).includes('Zebulon Widgets'));
      assert.deepEqual(await quick(access), ['Zebulon Widgets']);
      assert.match(await readerText(access), /Zebulon ships widgets/);
      // Served from memory now: a second read changes nothing.
      assert.deepEqual(await quick(access), ['Zebulon Widgets']);
    }
    await setVisibility(acme, id, 'hidden');
    const factEdit = await t.request(acme, { method: 'PATCH', url: `/api/v1/facts/${fact.json().id}/`, token: tokens['admin'], payload: { visibility: 'paywalled' } });
    assert.equal(factEdit.statusCode, 200, factEdit.body);
    for (const access of ['public', 'paywall'] as const) {
      assert.ok(!(await names(t.app, acme, access)).includes('Zebulon Widgets'), access);
      assert.deepEqual(await quick(access), [], access);
    }
    // Paywall readers and visitors are never given each other's reader.
    assert.doesNotMatch(await readerText('public'), /Zebulon ships widgets/);
    assert.equal((await get(t.app, acme, 'public', `/api/v1/facts/view/?section=${section.json().id}`)).locked_count, 1);
    assert.match(await readerText('paywall'), /Zebulon ships widgets/);
    assert.equal((await get(t.app, acme, 'paywall', `/api/v1/facts/view/?section=${section.json().id}`)).locked_count, 0);
    assert.doesNotMatch(await readerText('public'), /Zebulon ships widgets/);
  });

  it('a write outside any request (a job, a script: inTenant) reaches the cache through the database', async () => {
    const before = await names(t.app, acme, 'public');
    await inTenant(t.db, systemActor(acme.id), (ctx) => t.engine.services.get('organizations').create(ctx, { name_inc: 'Made By A Job', visibility: 'public' }));
    const seen = await eventually(() => names(t.app, acme, 'public'), (list) => list.includes('Made By A Job'));
    assert.deepEqual(seen, [...before, 'Made By A Job'].sort());
  });

  describe('two app instances on one server database (two processes)', () => {
    let second: FastifyInstance;
    let closeSecond: () => Promise<void>;

    before(async () => {
      ({ app: second, close: closeSecond } = await openSecondApp(t));
    });
    after(() => closeSecond());

    it('a write through one instance reaches the other\'s cache, for every cached audience', async () => {
      const id = await create(acme, 'Cross Process', 'public');
      for (const access of ['public', 'paywall'] as const) {
        assert.ok((await eventually(() => names(second, acme, access), (list) => list.includes('Cross Process'))).includes('Cross Process'));
      }
      await setVisibility(acme, id, 'hidden');
      assert.ok(!(await names(t.app, acme, 'public')).includes('Cross Process'), 'the writer at once');
      for (const access of ['public', 'paywall'] as const) {
        await eventually(() => names(second, acme, access), (list) => !list.includes('Cross Process'));
      }
      assert.ok((await names(second, acme, 'admin')).includes('Cross Process'));
    });

    it('under concurrent writes and reads on both instances, the last answer of each has every write', async () => {
      const written: string[] = [];
      const writes = Array.from({ length: 12 }, async (_, n) => {
        const name = `Concurrent ${String(n).padStart(2, '0')}`;
        const writer = n % 2 === 0 ? t.app : second;
        const response = await writer.inject({ method: 'POST', url: '/api/v1/assets/organizations/', headers: { host: hostOf(acme), authorization: `Bearer ${tokens['admin']}` }, payload: { name_inc: name, visibility: n % 3 === 0 ? 'paywalled' : 'public' } });
        assert.equal(response.statusCode, 201, response.body);
        written.push(name);
        // The writer's own next read has it.
        assert.ok((await names(writer, acme, n % 3 === 0 ? 'paywall' : 'public')).includes(name), name);
      });
      const reads = Array.from({ length: 24 }, (_, n) => names(n % 2 === 0 ? t.app : second, n % 4 < 2 ? acme : beta, n % 3 === 0 ? 'paywall' : 'public'));
      await Promise.all([...writes, ...reads]);
      assert.equal(written.length, 12);
      const expectedPublic = (await names(t.app, acme, 'admin')).filter((name) => name.startsWith('Concurrent ') && Number(name.slice(-2)) % 3 !== 0);
      for (const app of [t.app, second]) {
        const seen = await eventually(() => names(app, acme, 'public'), (list) => expectedPublic.every((name) => list.includes(name)));
        assert.deepEqual(seen.filter((name) => name.startsWith('Concurrent ')), expectedPublic);
        const paywall = await eventually(() => names(app, acme, 'paywall'), (list) => list.filter((name) => name.startsWith('Concurrent ')).length === 12);
        assert.equal(paywall.filter((name) => name.startsWith('Concurrent ')).length, 12);
      }
      assert.deepEqual(await names(second, beta, 'public'), ['beta public']);
    });

    it('an instance that loses its listening connection reads from the database until it listens again', async () => {
      await names(second, acme, 'public');
      await t.db.owner.execute(sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'intelnotes-listen'`);
      await silentlyInsert(acme, 'While Deaf', 'public');
      // Without a listener nothing is served from memory: the silent row shows.
      await eventually(() => names(second, acme, 'public'), (list) => list.includes('While Deaf'));
      // Listening again, it caches again: a silent change stays unseen until a write is heard.
      await eventually(async () => {
        const seen = await names(second, acme, 'public');
        await silentlyInsert(acme, `Unseen ${seen.length}`, 'public');
        return JSON.stringify(await names(second, acme, 'public')) === JSON.stringify(seen);
      }, Boolean);
      await create(acme, 'After Reconnect', 'public');
      await eventually(() => names(second, acme, 'public'), (list) => list.includes('After Reconnect') && list.some((name) => name.startsWith('Unseen ')));
    });
  });
});

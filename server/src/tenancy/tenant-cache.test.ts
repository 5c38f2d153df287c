import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { insertTenant } from './tenants.repository.ts';
import { CACHE_MAX_ENTRIES, CACHE_MS, MISS_MS, TenantCache } from './tenant-cache.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';

describe('tenant cache', () => {
  let database: TestDatabase;
  let now = 0;
  const clock = { now: () => now };

  before(async () => {
    database = await createTestDatabase();
    await database.db.withTenant({ tenantId: null, manageTenants: true }, (tx) => insertTenant(tx, { code: 'acme', name: 'ACME', is_default: false }));
  });
  after(() => database.close());

  it('stays within its bound however many unknown hosts are asked for', async () => {
    const cache = new TenantCache(database.db, clock);
    for (let index = 0; index < CACHE_MAX_ENTRIES + 200; index += 1) {
      assert.equal(await cache.resolve({ kind: 'tenant', code: `nobody-${index}` }), null);
    }
    assert.equal(cache.size, CACHE_MAX_ENTRIES);
    assert.equal((await cache.resolve({ kind: 'tenant', code: 'acme' }))?.code, 'acme');
    assert.equal(cache.size, CACHE_MAX_ENTRIES);
  });

  it('remembers a host that names no tenant only briefly, a tenant for longer', async () => {
    const cache = new TenantCache(database.db, clock);
    now = 1_000_000;
    assert.equal(await cache.resolve({ kind: 'tenant', code: 'later' }), null);
    assert.equal((await cache.resolve({ kind: 'tenant', code: 'acme' }))?.name, 'ACME');
    // Changed by another process: this one's cache is not cleared.
    await database.db.withTenant({ tenantId: null, manageTenants: true }, (tx) => insertTenant(tx, { code: 'later', name: 'Later', is_default: false }));
    await database.db.owner.execute(sql`UPDATE tenants SET name = 'Renamed' WHERE code = 'acme'`);
    assert.equal(await cache.resolve({ kind: 'tenant', code: 'later' }), null, 'the miss is remembered for a moment');
    now += MISS_MS + 1;
    assert.equal((await cache.resolve({ kind: 'tenant', code: 'later' }))?.code, 'later', 'then read again');
    assert.equal((await cache.resolve({ kind: 'tenant', code: 'acme' }))?.name, 'ACME', 'the tenant is still remembered');
    now = 1_000_000 + CACHE_MS + 1;
    assert.equal((await cache.resolve({ kind: 'tenant', code: 'acme' }))?.name, 'Renamed', 'until it expires');
  });
});

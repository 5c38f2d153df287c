import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../db/client.ts';
import { organizations } from '../modules/organizations/organizations.resource.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import * as repo from './repository.ts';
import { MAX_SHARES, SearchStatisticsCache, SHARE_TTL_MS } from './search-statistics.ts';

/**
 * The planner's share of a search is planned once and reused: for SHARE_TTL_MS per
 * (tenant, audience, search, filters), at most MAX_SHARES of them, the oldest dropped first.
 * The clock is the cache's own, and the plans are counted where they are made.
 */
describe('SearchStatisticsCache', () => {
  let test: TestDatabase;
  let tenantId: string;
  let clock = 0;
  const planned: string[] = [];
  const cache = new SearchStatisticsCache(organizations, () => clock, (tx, resource, visible, listQuery) => {
    planned.push(listQuery.search!);
    return repo.plannedShare(tx, resource, visible, listQuery);
  });
  const statistics = (search: string, visible: Array<'public' | 'paywalled' | 'hidden'> = ['public']) =>
    test.db.withTenant({ tenantId }, (tx: Tx) => cache.of(tx, tenantId, visible, { search, filters: {} }));
  /** How many plans a call made. */
  const plansOf = async (call: () => Promise<unknown>) => {
    const before = planned.length;
    await call();
    return planned.length - before;
  };

  before(async () => {
    test = await createTestDatabase();
    [{ id: tenantId }] = await query<{ id: string }>(test.db.owner, sql`INSERT INTO tenants (code, name) VALUES ('stats', 'Stats') RETURNING id`) as [{ id: string }];
  });
  after(() => test.close());

  it('plans a search once, and again once its share is SHARE_TTL_MS old', async () => {
    assert.equal(await plansOf(() => statistics('harbor')), 1);
    clock += SHARE_TTL_MS - 1;
    assert.equal(await plansOf(() => statistics('harbor')), 0, 'still fresh');
    assert.equal(await plansOf(() => statistics('harbor', ['public', 'paywalled'])), 1, 'another audience is another share');
    clock += 1;
    assert.equal(await plansOf(() => statistics('harbor')), 1, 'expired');
    assert.equal(await plansOf(() => statistics('harbor')), 0, 'planned anew, kept anew');
  });

  it(`keeps at most ${MAX_SHARES} shares, dropping the oldest first`, async () => {
    clock += SHARE_TTL_MS; // everything above has expired
    for (let index = 0; index < MAX_SHARES; index += 1) await statistics(`term${index}`);
    assert.equal(await plansOf(() => statistics('term0')), 0, `${MAX_SHARES} fit`);
    assert.equal(await plansOf(() => statistics(`term${MAX_SHARES}`)), 1, 'one more');
    assert.equal(await plansOf(() => statistics('term1')), 0, 'the second oldest stays');
    assert.equal(await plansOf(() => statistics('term0')), 1, 'the oldest was dropped');
  });

  it('a list without a search needs no statistics', async () => {
    assert.equal(await test.db.withTenant({ tenantId }, (tx: Tx) => cache.of(tx, tenantId, ['public'], { search: null, filters: {} })), null);
  });
});

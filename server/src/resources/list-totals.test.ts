import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { EXACT_COUNT_CAP, MATCHED_SET_CAP } from './repository.ts';

/** A list's `count` is read in the page's own statement; these are its edges. */
describe('list totals', () => {
  let t: TestContext;
  let acme: TenantRow;
  let admin: string;
  const BULK = EXACT_COUNT_CAP + 60;

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    admin = await t.login(acme, 'admin@acme.test');
    // More matching rows than the exact count covers, written directly for speed.
    await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query(tx, sql`INSERT INTO organizations (tenant_id, name_inc, visibility)
                    SELECT ${acme.id}, 'Bulkhead Works ' || n, 'public' FROM generate_series(1, ${BULK}) AS n`),
    );
    await t.request(acme, { method: 'POST', url: '/api/v1/assets/organizations/', token: admin, payload: { name_inc: 'Lonely Lighthouse', visibility: 'public' } });
  });
  after(() => t.close());

  const list = async (query: string) => {
    const response = await t.request(acme, { method: 'GET', url: `/api/v1/assets/organizations/?${query}`, token: admin });
    assert.equal(response.statusCode, 200);
    return response.json() as { count: number; count_is_estimate?: boolean; next: string | null; results: unknown[] };
  };

  it('an unfiltered list counts from the counters, on every page and past the last', async () => {
    for (const offset of [0, 1000, 5000]) {
      const page = await list(`limit=25&offset=${offset}`);
      assert.equal(page.count, BULK + 1);
      assert.equal(page.count_is_estimate, undefined);
    }
  });

  it('a search counts exactly up to the cap', async () => {
    const page = await list('search=lonely');
    assert.deepEqual([page.count, page.count_is_estimate, page.next], [1, undefined, null]);
    const none = await list('search=qwertyuiop');
    assert.deepEqual([none.count, none.results.length], [0, 0]);
  });

  it('beyond the cap the total is the planner\'s estimate, flagged, at least one past the cap', async () => {
    const page = await list('search=bulkhead&limit=25');
    assert.equal(page.count_is_estimate, true);
    assert.ok(page.count > EXACT_COUNT_CAP, `count ${page.count}`);
    assert.equal(page.results.length, 25);
    assert.ok(page.next);
  });

  it('past the last page of a search the total is still reported', async () => {
    const exact = await list('search=lonely&offset=50');
    assert.deepEqual([exact.count, exact.results.length], [1, 0]);
    const estimated = await list(`search=bulkhead&offset=${BULK + 100}`);
    assert.equal(estimated.results.length, 0);
    assert.equal(estimated.count_is_estimate, true);
  });

  it('a search the planner expected to match few that matches more than one set holds is paged in list order all the same', async () => {
    // Statistics taken before the rows exist: the planner expects "overflow" to match
    // next to nothing, so the page is first read as one set of every match — which the
    // rows overflow — and then read in list order.
    await t.db.withAdvisoryLock('list-totals-test', (session) => session.query('ANALYZE organizations'));
    const overflowing = MATCHED_SET_CAP + 10;
    await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query(tx, sql`INSERT INTO organizations (tenant_id, name_inc, visibility, updated_at)
                    SELECT ${acme.id}, 'Overflow Dock ' || n, 'public', now() - n * interval '1 minute'
                    FROM generate_series(1, ${overflowing}) AS n`),
    );
    const page = await list('search=overflow&limit=25') as { count: number; count_is_estimate?: boolean; results: Array<{ name_inc: string }> };
    assert.deepEqual(page.results.map((row) => row.name_inc), Array.from({ length: 25 }, (_, index) => `Overflow Dock ${index + 1}`));
    assert.equal(page.count_is_estimate, true);
    assert.ok(page.count > EXACT_COUNT_CAP, `count ${page.count}`);
  });
});

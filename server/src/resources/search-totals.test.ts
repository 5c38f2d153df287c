/**
 * Search totals stay true after a big import (planner-statistics.ts): a fresh tenant imports a
 * few thousand organizations into a table the planner knows nothing of, and at once a search
 * for a word found nowhere answers 0, a rarer word its exact total, a common one an estimate
 * within ±25% of the truth marked as one, and paging stops at the last result. Before, every
 * search answered the tenant's whole row count, with "next" links past the last page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { multipart } from '../test/multipart.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { boundedByPage } from './service.ts';

const ORGS = '/api/v1/assets/organizations';
const HARBOUR = 700;
const FREIGHT = 1_700;

describe('search totals after an import of a few thousand rows', () => {
  let t: TestContext;
  let acme: TenantRow;
  let token: string | undefined;

  before(async () => {
    // The upload waits for its import job, however long this machine takes.
    t = await createTestApp({ IMPORT_WAIT_SECONDS: '300' });
    await t.startWorker();
    ({ acme, tokens: { admin: token } } = await t.signInTwoTenants());
    const rows = [
      'name_inc,visibility',
      ...Array.from({ length: HARBOUR }, (_, index) => `Harbour Pilots ${index + 1},public`),
      ...Array.from({ length: FREIGHT }, (_, index) => `Inland Freight ${index + 1},public`),
    ];
    const response = await t.request(acme, { method: 'POST', url: `${ORGS}/upload/?partial=true`, token, ...multipart('orgs.csv', rows.join('\n') + '\n') });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().created, HARBOUR + FREIGHT);
  });
  after(() => t?.close());

  const search = async (words: string, query = '') => {
    const response = await t.request(acme, { method: 'GET', url: `${ORGS}/?search=${encodeURIComponent(words)}${query}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; count_is_estimate?: boolean; next: string | null; results: unknown[] };
  };

  it('a word found nowhere: 0, no next page', async () => {
    const page = await search('zanzibar');
    assert.equal(page.count, 0);
    assert.equal(page.count_is_estimate, undefined);
    assert.equal(page.next, null);
  });

  it('a word under the exact cap: its exact total, and paging ends at the last result', async () => {
    const first = await search('harbour', '&limit=100');
    assert.equal(first.count, HARBOUR);
    assert.equal(first.count_is_estimate, undefined);
    const last = await search('harbour', `&limit=100&offset=${HARBOUR - 100}`);
    assert.equal(last.results.length, 100);
    assert.equal(last.next, null);
  });

  it('a common word: an estimate within ±25% of the truth, shown as one', async () => {
    const page = await search('freight');
    assert.equal(page.count_is_estimate, true);
    assert.ok(Math.abs(page.count - FREIGHT) <= FREIGHT * 0.25, `${page.count} is not within 25% of ${FREIGHT}`);
  });
});

describe('boundedByPage: an estimated total never contradicts the page read', () => {
  const page = { offset: 50, limit: 25 };
  it('a short page is the last: the exact total', () => {
    assert.deepEqual(boundedByPage(3_801, page, 7), { count: 57, estimate: false });
  });
  it('an empty first page: none', () => {
    assert.deepEqual(boundedByPage(3_801, { offset: 0, limit: 25 }, 0), { count: 0, estimate: false });
  });
  it('an empty page past the first: at most its offset', () => {
    assert.deepEqual(boundedByPage(3_801, page, 0), { count: 50, estimate: true });
    assert.deepEqual(boundedByPage(20, page, 0), { count: 20, estimate: true });
  });
  it('a full page: at least one more row', () => {
    assert.deepEqual(boundedByPage(60, page, 25), { count: 76, estimate: true });
    assert.deepEqual(boundedByPage(3_801, page, 25), { count: 3_801, estimate: true });
  });
});

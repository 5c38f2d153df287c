/**
 * The intelbook reader on 10,000 facts (issue 18: "fast on 10,000 facts"; docs/intelbooks.md):
 * one section of 100 top-level facts × 9 children × 10 grandchildren (modules/facts/test-support.ts,
 * a third of the children paywalled, a quarter of the public grandchildren hidden), read through
 * GET facts/view/ in this process (app.inject: routing, the transaction, the one recursive
 * statement, the references, building the trees and serializing ~2–4 MB of JSON; no network)
 * as a public visitor, a paywall reader and an admin, and with a keyword filter and a search.
 * BENCH_FACTS_RUNS (20) timed runs each after 3 warm-ups; prints min, p50, p95 and the size.
 *
 *   node --import tsx bench/facts.ts                                        # PGlite, in memory
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/facts.ts   # a server
 */
import { sql } from 'drizzle-orm';
import { createTestApp } from '../server/src/test/test-app.ts';
import { seedFactTree, TEN_THOUSAND } from '../server/src/modules/facts/test-support.ts';

const RUNS = Number(process.env['BENCH_FACTS_RUNS'] ?? 20);
if (!Number.isInteger(RUNS) || RUNS <= 0) throw new Error('BENCH_FACTS_RUNS must be a positive whole number');

const t = await createTestApp();
try {
  const acme = await t.createTenant('acme');
  const tokens = await t.signInAudiences(acme);
  const create = async (path: string, body: object) => {
    const response = await t.request(acme, { method: 'POST', url: `/api/v1${path}/`, token: tokens['admin'], payload: body });
    if (response.statusCode !== 201) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
    return String(response.json().id);
  };
  const section = await create('/facts/sections', { name: 'Big' });
  const keyword = await create('/keywords', { name: 'Cobalt', visibility: 'public' });
  let started = performance.now();
  await t.db.withTenant({ tenantId: acme.id }, (tx) => seedFactTree(tx, acme.id, section, TEN_THOUSAND, keyword));
  await t.db.owner.execute(sql`ANALYZE facts`);
  console.log(`Database: PostgreSQL; 10,000 facts written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log('');
  console.log('| Reader | Facts shown | Locked | JSON | min | p50 | p95 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');

  const cases: Array<[string, string | undefined, string]> = [
    ['public visitor', undefined, `?section=${section}`],
    ['paywall reader', tokens['paywall'], `?section=${section}`],
    ['admin', tokens['admin'], `?section=${section}`],
    ['admin, keyword filter', tokens['admin'], `?section=${section}&keyword=${keyword}`],
    ['public visitor, search', undefined, `?section=${section}&search=prices`],
  ];
  for (const [label, token, queryString] of cases) {
    const url = `/api/v1/facts/view/${queryString}`;
    const once = async () => {
      const response = await t.request(acme, { method: 'GET', url, ...(token ? { token } : {}) });
      if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body}`);
      return response;
    };
    for (let warm = 0; warm < 3; warm += 1) await once();
    const times: number[] = [];
    let last = await once();
    for (let run = 0; run < RUNS; run += 1) {
      started = performance.now();
      last = await once();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!;
    const body = last.json() as { sections: Array<{ categories: Array<{ facts: Array<{ children: unknown[] }> }> }>; locked_count: number };
    const count = (trees: Array<{ children: unknown[] }>): number => trees.reduce((sum, tree) => sum + 1 + count(tree.children as Array<{ children: unknown[] }>), 0);
    const shown = body.sections.reduce((sum, one) => sum + one.categories.reduce((inner, category) => inner + count(category.facts), 0), 0);
    console.log(`| ${label} | ${shown.toLocaleString('en')} | ${body.locked_count.toLocaleString('en')} | ${(last.body.length / 1048576).toFixed(1)} MB | ${times[0]!.toFixed(0)} ms | ${at(0.5).toFixed(0)} ms | ${at(0.95).toFixed(0)} ms |`);
  }
} finally {
  await t.close();
}

/**
 * Per-term cost of a list search's SQL (first page, anonymous or admin), one
 * connection, no HTTP: the statements floor.list sends, timed over N runs, and
 * EXPLAIN ANALYZE of the page statement as the app decides it.
 *
 *   node --import tsx bench/profile-search.ts [database] [--explain]
 */
import pg from 'pg';
import { readSettings, tenantCode } from './config.ts';
import * as floor from './queries.ts';
import { RESOURCES } from '../server/src/modules/registry.ts';
import { SURELY_BEYOND_CAP } from '../server/src/resources/repository.ts';

const settings = readSettings();
const explain = process.argv.includes('--explain');
const visible: floor.Visibility[] = process.env.BENCH_ANONYMOUS === '0' ? floor.ADMIN_VISIBLE : ['public'];
const runs = Number(process.env.RUNS ?? 40);
const organizations = RESOURCES.find((r) => r.table === 'organizations')!;
const people = RESOURCES.find((r) => r.table === 'people')!;
const terms = (process.env.TERMS?.split(',') ?? ['o:capital', 'p:garcia', 'o:zürich', 'p:maria lopez', 'o:northwind logistics', 'p:qwertyuiop', 'o:xylophonique'])
  .map((t) => ({ resource: t.startsWith('p:') ? people : organizations, term: t.slice(2) }));

const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 1 });
const client = await pool.connect();
const { rows: [tenant] } = await client.query<{ id: string }>('SELECT id FROM tenants WHERE code = $1', [process.env.TENANT ?? tenantCode(1)]);
let total = 0;
for (const { resource, term } of terms) {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    count = await floor.inTenant(client, tenant!.id, () => floor.list(client, resource, visible, { search: term, limit: 25, offset: 0 }));
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  total += median;
  console.log(`${resource.table.padEnd(14)} ${JSON.stringify(term).padEnd(22)} count ${String(count).padStart(7)}  median ${median.toFixed(2)} ms  p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(2)} ms`);
  if (explain) {
    const plan = await floor.inTenant(client, tenant!.id, async () => {
      const spelled = resource.quickSearch ? (await client.query('SELECT search_query_in($1, $2) AS q', [resource.table, term])).rows[0].q : null;
      const statement = floor.pageStatement(resource, visible, { search: term, limit: 25, offset: 0 }, count < SURELY_BEYOND_CAP ? 'matched' : 'none', 'index', spelled);
      return (await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`, statement.values)).rows;
    });
    console.log(plan.map((row) => `    ${row['QUERY PLAN']}`).join('\n'));
  }
}
console.log(`sum of medians ${total.toFixed(1)} ms → at most ${((2 * 1000 * terms.length) / total).toFixed(0)} req/s on two cores`);
client.release();
await pool.end();

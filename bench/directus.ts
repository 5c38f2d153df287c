/**
 * The API beside Directus on the same data, in one run (issue 30 item 3): anonymous visitors,
 * `BENCH_CONCURRENCY` (8) keep-alive connections, the three sides alternating in
 * `BENCH_ROUNDS` rounds so load from other processes hits them alike.
 *
 * - **list**: the first page of the public organizations of `bench01` (400,000 rows, 158,448
 *   public): this checkout's API with its read cache (the default), the same API with the cache
 *   off (`READ_CACHE_MAX_BYTES=0`, a second process), and Directus `GET /items/organizations`.
 * - **search**: the same list with a search term, cycling through `BENCH_SEARCH_TERMS`; searched
 *   pages are never cached (docs/cache.md), so this is the query's speed — measured on the
 *   process with the cache off all the same.
 *
 * Directus must be running on `DIRECTUS_URL` with the `organizations` table of bench01 copied
 * into its database and readable by its Public policy (bench/directus/README.md does that).
 * `node --import tsx bench/directus.ts [database]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { readSettings, positiveInt, tenantCode } from './config.ts';
import { HttpClient, runBatch, summarize, type Batch, type LoadResult } from './load.ts';
import { cpuMs, startServer, type RunningServer } from './server.ts';

const settings = readSettings();
const env = process.env;
const concurrency = positiveInt(env, 'BENCH_CONCURRENCY', 8);
const rounds = positiveInt(env, 'BENCH_ROUNDS', 3);
const requests = positiveInt(env, 'BENCH_REQUESTS', 3000);
const warmupRequests = positiveInt(env, 'BENCH_WARMUP', 1000);
const maxSeconds = positiveInt(env, 'BENCH_MAX_SECONDS', 20);
const only = new Set((env.BENCH_ONLY ?? 'list,search').split(','));
const directusUrl = new URL(env.DIRECTUS_URL ?? 'http://127.0.0.1:8055');
const terms = (env.BENCH_SEARCH_TERMS ?? 'capital,zürich,northwind,xylophonique').split(',').map((term) => term.trim()).filter(Boolean);
const host = `${tenantCode(1)}.localhost`;

interface Side {
  name: string;
  client: HttpClient;
  pid: number | null;
  path: (index: number) => string;
  headers: Record<string, string>;
  check: (body: unknown) => number;
}

const ourPage = (body: unknown) => {
  const page = body as { results?: unknown[] };
  if (!Array.isArray(page.results)) throw new Error('no results');
  return page.results.length;
};
const directusPage = (body: unknown) => {
  const page = body as { data?: unknown[] };
  if (!Array.isArray(page.data)) throw new Error('no data');
  return page.data.length;
};

/** Directus runs outside this script: its CPU is read from /proc when its pid is given. */
const directusPid = env.DIRECTUS_PID ? Number(env.DIRECTUS_PID) : null;

async function measure(name: string, sides: Side[]): Promise<Array<{ side: Side; result: LoadResult; cpuPerRequest: number | null }>> {
  const batches = new Map<Side, Batch[]>(sides.map((side) => [side, []]));
  const cpu = new Map<Side, { ms: number; n: number }>(sides.map((side) => [side, { ms: 0, n: 0 }]));
  for (const side of sides) {
    const first = await side.client.get(side.path(0), side.headers);
    console.log(`  ${name} ${side.name}: first answer has ${side.check(JSON.parse(first.body.toString('utf8')))} rows`);
    await runBatch({ requests: warmupRequests, concurrency, maxSeconds: 15 }, async (index) => {
      await side.client.get(side.path(index), side.headers);
    });
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const side of sides) {
      const before = side.pid ? cpuMs(side.pid) : 0;
      const batch = await runBatch({ requests: Math.ceil(requests / rounds), concurrency, maxSeconds, firstIndex: round * requests }, async (index) => {
        // Status 200 is checked (get); bodies are not parsed, so the generator's CPU stays small.
        await side.client.get(side.path(index), side.headers);
      });
      if (side.pid) {
        const spent = cpu.get(side)!;
        spent.ms += cpuMs(side.pid) - before;
        spent.n += batch.latencies.length;
      }
      batches.get(side)!.push(batch);
      const load = os.loadavg()[0]!.toFixed(1);
      console.log(`  ${name} round ${round + 1} ${side.name}: ${(batch.latencies.length / batch.seconds).toFixed(0)} req/s, ${batch.errors} errors, load ${load}`);
    }
  }
  return sides.map((side) => {
    const spent = cpu.get(side)!;
    return { side, result: summarize(batches.get(side)!), cpuPerRequest: side.pid && spent.n ? spent.ms / spent.n : null };
  });
}

/** The API process the supervisor (main.ts) forked: the child running api.ts, whose CPU is the API's. */
function apiPid(supervisor: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === supervisor && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('api.ts')) return Number(entry);
    } catch {
      // A process that ended meanwhile.
    }
  }
  throw new Error(`no API process under ${supervisor}`);
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const servers: RunningServer[] = [];
  try {
    // No worker processes: nothing here queues jobs, and idle workers would only add noise.
    // Each is stopped in `finally`, also when the other fails to start.
    const cached = await startServer(settings.databaseUrl, { env: { WORKERS: '0' } });
    servers.push(cached);
    const uncached = await startServer(settings.databaseUrl, { env: { WORKERS: '0', READ_CACHE_MAX_BYTES: '0' } });
    servers.push(uncached);
    const ours = (server: RunningServer, name: string, search: boolean): Side => ({
      name,
      client: new HttpClient(server.port, concurrency),
      pid: apiPid(server.pid),
      path: (index) => `/api/v1/assets/organizations/?limit=25${search ? `&search=${encodeURIComponent(terms[index % terms.length]!)}` : ''}`,
      headers: { host },
      check: ourPage,
    });
    // Directus: the Public policy reads bench01's public, curated rows; sorted as our list is
    // (name_inc, then id), 25 rows, without a total (Directus counts only when asked: meta=).
    const directus = (search: boolean): Side => ({
      name: 'Directus',
      client: new HttpClient(Number(directusUrl.port), concurrency),
      pid: directusPid,
      path: (index) => `/items/organizations?limit=25&sort=name_inc,id${search ? `&search=${encodeURIComponent(terms[index % terms.length]!)}` : ''}`,
      headers: {},
      check: directusPage,
    });
    const report: string[] = [];
    const table = (title: string, rows: Awaited<ReturnType<typeof measure>>) => {
      const base = rows.find((row) => row.side.name === 'Directus')!.result.rps;
      report.push('', `### ${title}`, '', '| Side | req/s | × Directus | p50 | p95 | p99 | errors | CPU per request |', '|---|---|---|---|---|---|---|---|');
      for (const { side, result, cpuPerRequest } of rows) {
        report.push(`| ${side.name} | ${result.rps.toFixed(0)} | ${(result.rps / base).toFixed(1)}× | ${result.p50.toFixed(1)} ms | ${result.p95.toFixed(1)} ms | ${result.p99.toFixed(1)} ms | ${result.errors} | ${cpuPerRequest === null ? '—' : `${cpuPerRequest.toFixed(2)} ms`} |`);
      }
    };
    if (only.has('list')) {
      table('First page of the public organizations list', await measure('list', [ours(cached, 'API, read cache', false), ours(uncached, 'API, cache off', false), directus(false)]));
    }
    if (only.has('search')) {
      table(`List with a search term (${terms.join(', ')}), cache off`, await measure('search', [ours(uncached, 'API, cache off', true), directus(true)]));
    }
    console.log([
      `# API beside Directus, ${startedAt.toISOString()}`,
      '',
      `Database \`${settings.database}\`, tenant ${tenantCode(1)}; ${concurrency} connections, anonymous; ${rounds} rounds of ${Math.ceil(requests / rounds)} requests per side (capped at ${maxSeconds} s) after ${warmupRequests} warm-up; ${os.cpus().length} cores, load average ${os.loadavg().map((value) => value.toFixed(1)).join(' / ')} at the end.`,
      ...report,
    ].join('\n'));
  } finally {
    for (const server of servers) await server.stop();
  }
}

await main();

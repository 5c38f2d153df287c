/**
 * Entity counts under load, next to a trivial route of the same process (the ceiling of one
 * request through the app's hooks here), on the largest benchmark tenant:
 *
 *   node --import tsx bench/counts.ts [database] [checkout…]
 *
 * Each checkout (a folder holding server/src/main.ts; default this one — pass an older
 * commit's worktree to compare with) runs its own API process on the same database; the
 * scenarios alternate between them round by round, so background load hits every side alike.
 * Scenarios: anonymous `free-ahead-entities-count` (every visitor's home page), the admin's
 * `entities-count` (a token lookup on every request), and `GET tenant/`. Prints a Markdown
 * table with the median req/s over the rounds and the latencies of all rounds together.
 */
import os from 'node:os';
import path from 'node:path';
import { readSettings, tenantCode } from './config.ts';
import { HttpClient, runBatch, summarize, type Batch } from './load.ts';
import { startServer, type RunningServer } from './server.ts';

const settings = readSettings();
const roots = process.argv.slice(2).filter((arg) => arg.includes('/')).map((root) => path.resolve(root));
if (roots.length === 0) roots.push(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'));
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? '8');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? '5');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '8');
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? '5');
const host = `${tenantCode(1)}.localhost`;

interface Side {
  root: string;
  server: RunningServer;
  http: HttpClient;
  token: string;
}

const scenarios: Array<{ name: string; path: string; signedIn: boolean }> = [
  { name: 'entity counts, anonymous (free-ahead)', path: '/api/v1/tools/free-ahead-entities-count/', signedIn: false },
  { name: 'entity counts, admin', path: '/api/v1/tools/entities-count/', signedIn: true },
  { name: 'trivial route (GET tenant/)', path: '/api/v1/tenant/', signedIn: false },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const sides: Side[] = [];
try {
  for (const root of roots) {
    const server = await startServer(settings.databaseUrl, { root });
    const http = new HttpClient(server.port, CONCURRENCY);
    const login = await http.request('POST', '/api/v1/auth/login/', { host }, { email: settings.adminEmail, password: settings.adminPassword });
    if (login.status !== 200) throw new Error(`login → ${login.status}`);
    sides.push({ root, server, http, token: (JSON.parse(login.body.toString('utf8')) as { token: string }).token });
  }
  console.log(`\n${CONCURRENCY} connections, ${ROUNDS} rounds of ${SECONDS} s per scenario and checkout after ${WARMUP_SECONDS} s of warm-up; load average at the start ${os.loadavg()[0]!.toFixed(1)}.\n`);
  console.log('| Scenario | Checkout | req/s (median of rounds) | req/s per round | p50 ms | p95 ms | p99 ms | errors |\n|---|---|---:|---|---:|---:|---:|---:|');
  for (const scenario of scenarios) {
    const batches = new Map<Side, Batch[]>(sides.map((side) => [side, []]));
    const task = (side: Side) => async () => {
      await side.http.get(scenario.path, scenario.signedIn ? { host, authorization: `Bearer ${side.token}` } : { host });
    };
    for (const side of sides) await runBatch({ requests: Number.MAX_SAFE_INTEGER, concurrency: CONCURRENCY, maxSeconds: WARMUP_SECONDS }, task(side));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const side of sides) {
        batches.get(side)!.push(await runBatch({ requests: Number.MAX_SAFE_INTEGER, concurrency: CONCURRENCY, maxSeconds: SECONDS }, task(side)));
      }
    }
    for (const side of sides) {
      const rounds = batches.get(side)!;
      const result = summarize(rounds);
      const perRound = rounds.map((batch) => batch.latencies.length / batch.seconds);
      console.log(
        `| ${scenario.name} | \`${path.basename(side.root)}\` | ${median(perRound).toFixed(0)} | ${perRound.map((rps) => rps.toFixed(0)).join(', ')} | ` +
          `${result.p50.toFixed(2)} | ${result.p95.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.errors} |`,
      );
    }
  }
} finally {
  for (const side of sides) {
    side.http.close();
    await side.server.stop();
  }
}

/**
 * The job queue: throughput of no-op jobs (`probe.noop`) and enqueue-to-start latency, with 1
 * and 2 worker processes (`server/src/worker.ts`) on the PostgreSQL server.
 *
 *   node --import tsx bench/jobs.ts        (also part of npm run bench: BENCH_ONLY=jobs runs only this)
 *
 * Throughput: BENCH_JOBS jobs committed in one transaction, timed from the commit until the
 * last one succeeded. Latency: BENCH_LATENCY_JOBS jobs, each in its own transaction, one every
 * BENCH_LATENCY_GAP_MS, from the job's created_at to its started_at (both the database's clock).
 * Uses its own database (intelnotes_bench_jobs, recreated), not the seeded one.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres, query, type Database } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { enqueue } from '../server/src/jobs/queue.ts';
import { insertTenant } from '../server/src/tenancy/tenants.repository.ts';
import { stats, type LatencyStats } from './load.ts';

type Env = Record<string, string | undefined>;
const env: Env = process.env;
const int = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};

export interface JobsBenchOptions {
  jobs: number;
  latencyJobs: number;
  latencyGapMs: number;
  /** WORKER_CONCURRENCY of every worker. */
  concurrency: number;
}

export const readJobsOptions = (): JobsBenchOptions => ({
  jobs: int('BENCH_JOBS', 5000),
  latencyJobs: int('BENCH_LATENCY_JOBS', 300),
  latencyGapMs: int('BENCH_LATENCY_GAP_MS', 20),
  concurrency: int('BENCH_JOB_CONCURRENCY', 4),
});

interface Measured {
  setup: string;
  jobsPerSecond: number;
  latency: LatencyStats;
}

const DATABASE = 'intelnotes_bench_jobs';

/** Runs one statement on the PostgreSQL server (creating and dropping a benchmark's own database). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function waitUntilDone(db: Database, total: number): Promise<void> {
  for (;;) {
    const [row] = await query<{ n: number }>(db.owner, sql`SELECT count(*)::int AS n FROM jobs WHERE status = 'succeeded'`);
    if (row!.n >= total) return;
    await sleep(20);
  }
}

/** Throughput then latency, on a database whose workers are already running. */
async function measure(db: Database, tenantId: string, setup: string, options: JobsBenchOptions): Promise<Measured> {
  await db.owner.execute(sql`DELETE FROM jobs`);
  const started = performance.now();
  await db.withTenant({ tenantId }, async (tx) => {
    for (let i = 0; i < options.jobs; i++) await enqueue(tx, { name: 'probe.noop', payload: {} });
  });
  const committed = performance.now();
  await waitUntilDone(db, options.jobs);
  const jobsPerSecond = options.jobs / ((performance.now() - committed) / 1000);
  console.error(`${setup}: ${options.jobs} jobs queued in ${Math.round(committed - started)} ms, ${jobsPerSecond.toFixed(0)} jobs/s`);

  await db.owner.execute(sql`DELETE FROM jobs`);
  for (let i = 0; i < options.latencyJobs; i++) {
    await db.withTenant({ tenantId }, (tx) => enqueue(tx, { name: 'probe.noop', payload: {} }));
    await sleep(options.latencyGapMs);
  }
  await waitUntilDone(db, options.latencyJobs);
  const rows = await query<{ ms: number }>(
    db.owner,
    sql`SELECT extract(epoch FROM started_at - created_at) * 1000 AS ms FROM jobs`,
  );
  return { setup, jobsPerSecond, latency: stats(rows.map((row) => Number(row.ms))) };
}

function startWorkerProcess(databaseUrl: string, concurrency: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker.ts'], {
    env: { PATH: env.PATH ?? '', DATABASE_URL: databaseUrl, WORKER_CONCURRENCY: String(concurrency), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('worker running')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { ready, stop };
}

export async function runJobsBench(serverUrl: string, options: JobsBenchOptions = readJobsOptions()): Promise<string> {
  const results: Measured[] = [];

  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await onServer(serverUrl, `CREATE DATABASE ${DATABASE}`);
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;
  const server = await openPostgres(url.toString(), 4);
  try {
    await migrate(server);
    const tenant = await server.withTenant({ tenantId: null, manageTenants: true }, (tx) => insertTenant(tx, { code: 'bench', name: 'Bench', is_default: false }));
    for (const processes of [1, 2]) {
      const workers = Array.from({ length: processes }, () => startWorkerProcess(url.toString(), options.concurrency));
      try {
        await Promise.all(workers.map((worker) => worker.ready));
        results.push(await measure(server, tenant.id, `PostgreSQL server, ${processes} worker process${processes > 1 ? 'es' : ''}`, options));
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    }
  } finally {
    await server.close();
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }

  const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
  return [
    `### Job queue (${new Date().toISOString().slice(0, 10)})`,
    '',
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')} at the end. ` +
      `No-op jobs, WORKER_CONCURRENCY=${options.concurrency} per worker; throughput over ${options.jobs} jobs queued in one transaction; ` +
      `latency over ${options.latencyJobs} jobs queued one by one every ${options.latencyGapMs} ms.`,
    '',
    '| Setup | jobs/s | enqueue→start p50 | p99 | max |',
    '|---|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.setup} | ${r.jobsPerSecond.toFixed(0)} | ${ms(r.latency.p50)} ms | ${ms(r.latency.p99)} ms | ${ms(r.latency.max)} ms |`),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runJobsBench(env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
    .then((markdown) => console.log(markdown))
    .catch((error: unknown) => {
      console.error('bench/jobs:', error instanceof Error ? error.message : error);
      process.exit(1);
    });
}

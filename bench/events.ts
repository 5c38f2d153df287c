/**
 * Live events under load (issue 14, docs/events.md): thousands of concurrent event streams on
 * one API process on the PostgreSQL server, the clients in child processes on loopback
 * (bench/events-client.ts), events published from this process as a worker would (publish()
 * in a transaction; NOTIFY at commit reaches the API's listener).
 *
 *   node --import tsx bench/events.ts [checkout]
 *
 * `checkout`: run the API of another checkout (a folder with server/src/main.ts, e.g. an older
 * commit's worktree) on the same setup, to compare two versions run after one another.
 *
 * Measures:
 * 1. Memory: the API's RSS with BENCH_EVENT_CONNECTIONS streams open and live, less its RSS
 *    before (after a warm-up that opened and closed a few), per stream.
 * 2. Fan-out latency: BENCH_EVENT_ROUNDS rounds; in each, one event is published to every
 *    tenant at once and each stream's arrival noted. Latency runs from just before the
 *    publishing transaction begins (this process's clock; the clients' is the same machine's
 *    wall clock) to the arrival at each client; p50/p99 over every arrival, and the time until
 *    the last stream of the round had it.
 * 3. Sustained delivery: the streams of all tenants but one are closed, leaving that tenant's
 *    (BENCH_EVENT_CONNECTIONS / tenants, 1,000 by default); events are published to it at each
 *    rate of BENCH_EVENT_RATES for BENCH_EVENT_STEP_SECONDS, in a transaction every 20 ms. Per
 *    step: the rate published, the rate each stream received (until the last had the last
 *    event), the lag (sampled), streams the server dropped as slow, and CPU per process. Steps
 *    stop after the first where streams were dropped or the median lag passed 2 s.
 *
 * The API gets EVENTS_MAX_CONNECTIONS_PER_USER raised to what each user holds; the streams are
 * spread over BENCH_EVENT_TENANTS tenants of BENCH_EVENT_USERS research users each, and over
 * BENCH_EVENT_CLIENT_PROCESSES client processes. Uses its own database (intelnotes_bench_events,
 * recreated, dropped at the end). Needs Linux (/proc) and a file-descriptor limit above the
 * number of streams, which it raises to the hard limit with prlimit(1) when it is lower.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { insertUser } from '../server/src/auth/users.repository.ts';
import { sql } from 'drizzle-orm';
import { openPostgres, query, type Database } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { publish } from '../server/src/events/bus.ts';
import { inTenant, systemActor } from '../server/src/resources/context.ts';
import { insertTenant, type TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { positiveInt } from './config.ts';
import type { ClientReply, ClientRequest, StreamTarget, TenantStatus } from './events-client.ts';
import { onServer } from './jobs.ts';
import { stats, type LatencyStats } from './load.ts';
import { cpuMs, rssMiB, startServer, type RunningServer } from './server.ts';

const env = process.env;
const int = (name: string, fallback: number) => positiveInt(env, name, fallback);

export interface EventsBenchOptions {
  connections: number;
  tenants: number;
  usersPerTenant: number;
  clientProcesses: number;
  rounds: number;
  rates: number[];
  stepSeconds: number;
}

export const readEventsOptions = (): EventsBenchOptions => ({
  connections: int('BENCH_EVENT_CONNECTIONS', 5000),
  tenants: int('BENCH_EVENT_TENANTS', 5),
  usersPerTenant: int('BENCH_EVENT_USERS', 5),
  clientProcesses: int('BENCH_EVENT_CLIENT_PROCESSES', 2),
  rounds: int('BENCH_EVENT_ROUNDS', 20),
  rates: (env['BENCH_EVENT_RATES'] ?? '50,100,200,400,800').split(',').map((rate) => {
    const value = Number(rate.trim());
    if (!Number.isInteger(value) || value <= 0) throw new Error('BENCH_EVENT_RATES must be comma-separated positive whole numbers');
    return value;
  }),
  stepSeconds: int('BENCH_EVENT_STEP_SECONDS', 10),
});

const DATABASE = 'intelnotes_bench_events';
const PASSWORD = 'bench-events-password';
/** Streams each client process opens at once. */
const OPEN_CONCURRENCY = 32;
/** A step whose median lag passes this is not sustained: the steps stop after it. */
const MAX_SUSTAINED_LAG_MS = 2_000;
const PUBLISH_TICK_MS = 20;

const wallClock = () => performance.timeOrigin + performance.now();

/** The soft and hard limits on open files of this process (and so of the children it starts). */
function fileLimits(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((text) => text.startsWith('Max open files'));
  const [soft, hard] = (line ?? '').split(/\s{2,}/).slice(1, 3).map((value) => (value === 'unlimited' ? Number.POSITIVE_INFINITY : Number(value)));
  return { soft: soft ?? 1024, hard: hard ?? 1024 };
}

/**
 * Makes sure the API process (one socket per stream) and each client process can open enough
 * files: `ulimit -n` belongs to the shell that started this script, so the soft limit is raised
 * here, for this process and the children started after, up to the hard limit.
 */
function ensureFileLimit(needed: number): string {
  const { soft, hard } = fileLimits();
  if (soft >= needed) return `open files limit ${soft}`;
  if (hard < needed) throw new Error(`${needed} open files are needed; the hard limit is ${hard} (raise it, e.g. in /etc/security/limits.conf)`);
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${hard}:${hard}`]);
  return `open files limit raised from ${soft} to ${fileLimits().soft}`;
}

function request(port: number, host: string, method: string, url: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const call = http.request({ host: '127.0.0.1', port, method, path: url, headers: { host, 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    call.on('error', reject);
    call.end(payload);
  });
}

/** A client process and a request/reply call over its IPC channel. */
function startClient() {
  const child: ChildProcess = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'events-client.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const waiting = new Map<number, (reply: ClientReply) => void>();
  child.on('message', (message: ClientReply & { seq: number }) => {
    waiting.get(message.seq)?.(message);
    waiting.delete(message.seq);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <T extends ClientReply['type']>(body: ClientRequest): Promise<Extract<ClientReply, { type: T }>> =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, resolve as (reply: ClientReply) => void);
      child.send({ ...body, seq: id }, (error) => error && reject(error));
    });
  return { pid: child.pid!, ask, exited };
}
type Client = ReturnType<typeof startClient>;

/** Status per tenant, summed over the client processes. */
async function statusOf(clients: Client[]): Promise<TenantStatus[]> {
  const replies = await Promise.all(clients.map((client) => client.ask<'status'>({ type: 'status' })));
  const merged: TenantStatus[] = [];
  for (const reply of replies) {
    reply.tenants.forEach((entry, tenant) => {
      const into = (merged[tenant] ??= { open: 0, minLastId: Number.POSITIVE_INFINITY, maxLastId: 0, received: 0, dropped: 0, closedByServer: 0 });
      into.open += entry.open;
      if (entry.open > 0) into.minLastId = Math.min(into.minLastId, entry.minLastId);
      into.maxLastId = Math.max(into.maxLastId, entry.maxLastId);
      into.received += entry.received;
      into.dropped += entry.dropped;
      into.closedByServer += entry.closedByServer;
    });
  }
  for (const entry of merged) if (entry.open === 0) entry.minLastId = 0;
  return merged;
}

/** Waits until every open stream of each tenant has the tenant's event `ids[tenant]`; false after `timeoutMs`. */
async function allReached(clients: Client[], ids: Map<number, number>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const tenants = await statusOf(clients);
    if ([...ids].every(([tenant, id]) => (tenants[tenant]?.open ?? 0) === 0 || tenants[tenant]!.minLastId >= id)) return true;
    if (performance.now() > deadline) return false;
    await sleep(25);
  }
}

async function collect(clients: Client[]): Promise<Array<[number, number, number[]]>> {
  const replies = await Promise.all(clients.map((client) => client.ask<'collected'>({ type: 'collect' })));
  return replies.flatMap((reply) => reply.arrivals);
}

/** Publishes `count` events to the tenant in one transaction; returns their ids. */
async function publishTo(db: Database, tenant: TenantRow, count: number): Promise<number[]> {
  return inTenant(db, systemActor(tenant.id), async (ctx) => {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await publish(ctx, 'generate_raw_data_report_start', { task_id: crypto.randomUUID() }));
    return ids;
  });
}

/** Median RSS of the API over a second, in MiB. */
async function steadyRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(rssMiB(pid));
    await sleep(100);
  }
  return samples.sort((a, b) => a - b)[5]!;
}

interface SustainedStep {
  rate: number;
  published: number;
  publishedPerSecond: number;
  deliveredPerStreamPerSecond: number;
  streams: number;
  lag: LatencyStats;
  lastArrivalMs: number;
  dropped: number;
  serverCpu: number;
  clientCpu: number;
  postgresCpu: number | null;
  reachedAll: boolean;
}

/**
 * CPU time of the PostgreSQL backends connected to the benchmark's database, by process id,
 * when the server runs on this machine (other sessions' backends on the same server are left out).
 */
async function postgresCpuMs(db: Database): Promise<Map<number, number> | null> {
  const rows = await query<{ pid: number }>(db.owner, sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const times = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      times.set(pid, cpuMs(pid));
    } catch {
      return null;
    }
  }
  return times;
}

/** CPU used between two snapshots by the backends present in both (the pool's and the listener's stay). */
function postgresCpuSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let spent = 0;
  for (const [pid, time] of after) spent += time - (before.get(pid) ?? time);
  return spent;
}

export async function runEventsBench(serverUrl: string, options: EventsBenchOptions = readEventsOptions(), serverRoot?: string): Promise<string> {
  const perTenant = Math.floor(options.connections / options.tenants);
  const perUser = Math.ceil(perTenant / options.usersPerTenant);
  if (perUser > 1_000) throw new Error(`${perUser} streams per user is above EVENTS_MAX_CONNECTIONS_PER_USER's maximum (1,000): add users`);
  const perClientProcess = Math.ceil(options.connections / options.clientProcesses);
  const limits = ensureFileLimit(Math.max(options.connections, perClientProcess) + 1_000);
  const loadAtStart = os.loadavg();
  console.error(`bench/events: ${limits}; load ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')}`);

  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await onServer(serverUrl, `CREATE DATABASE ${DATABASE}`);
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;
  const db = await openPostgres(url.toString(), 8);
  let server: RunningServer | null = null;
  const clients: Client[] = [];
  try {
    await migrate(db);
    const passwordHash = await hashPassword(PASSWORD);
    const tenants: TenantRow[] = [];
    for (let index = 0; index < options.tenants; index++) {
      const tenant = await db.withTenant({ tenantId: null, manageTenants: true }, (tx) =>
        insertTenant(tx, { code: `events${index + 1}`, name: `Events ${index + 1}`, is_default: false }),
      );
      for (let user = 0; user < options.usersPerTenant; user++) {
        await db.withTenant({ tenantId: tenant.id }, (tx) =>
          insertUser(tx, { tenant_id: tenant.id, email: `reader${user + 1}@events.test`, password_hash: passwordHash, alias: `reader${user + 1}`, is_research: true }),
        );
      }
      tenants.push(tenant);
    }

    server = await startServer(url.toString(), { env: { WORKERS: '0', EVENTS_MAX_CONNECTIONS_PER_USER: String(perUser) }, ...(serverRoot ? { root: serverRoot } : {}) });
    const port = server.port;
    const hostOf = (tenant: TenantRow) => `${tenant.code}.localhost:${port}`;
    const tokens: string[][] = [];
    for (const tenant of tenants) {
      const ofTenant: string[] = [];
      for (let user = 0; user < options.usersPerTenant; user++) {
        const login = await request(port, hostOf(tenant), 'POST', '/api/v1/auth/login/', { email: `reader${user + 1}@events.test`, password: PASSWORD });
        if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.json)}`);
        ofTenant.push(login.json.token);
      }
      tokens.push(ofTenant);
    }
    const targets: StreamTarget[] = [];
    for (let index = 0; index < perTenant * options.tenants; index++) {
      const tenant = index % options.tenants;
      const user = Math.floor(index / options.tenants) % options.usersPerTenant;
      targets.push({ tenant, host: hostOf(tenants[tenant]!), token: tokens[tenant]![user]! });
    }
    for (let index = 0; index < options.clientProcesses; index++) clients.push(startClient());
    const share = (list: StreamTarget[], index: number) => list.filter((_, position) => position % options.clientProcesses === index);

    // Warm-up: the API's stream path runs (and is compiled) before the baseline.
    const warmup = targets.slice(0, 20 * options.tenants);
    await Promise.all(clients.map((client, index) => client.ask<'opened'>({ type: 'open', port, targets: share(warmup, index), concurrency: 8 })));
    const warmIds = new Map<number, number>();
    await Promise.all(tenants.map(async (tenant, index) => warmIds.set(index, (await publishTo(db, tenant, 1))[0]!)));
    if (!(await allReached(clients, warmIds, 30_000))) throw new Error('warm-up event did not reach every stream');
    await Promise.all(clients.map((client) => client.ask<'done'>({ type: 'keepOnly', tenant: -1 })));
    await collect(clients);
    await sleep(3_000);
    const rssBefore = await steadyRss(server.pid);

    // 1. Open every stream.
    const openCpuBefore = cpuMs(server.pid);
    const opened = await Promise.all(clients.map((client, index) => client.ask<'opened'>({ type: 'open', port, targets: share(targets, index), concurrency: OPEN_CONCURRENCY })));
    const openedCount = opened.reduce((sum, reply) => sum + reply.ok, 0);
    const openSeconds = Math.max(...opened.map((reply) => reply.ms)) / 1000;
    const openCpu = cpuMs(server.pid) - openCpuBefore;
    const failed = opened.reduce((sum, reply) => sum + reply.failed, 0);
    if (failed > 0) throw new Error(`${failed} streams failed to open: ${opened.find((reply) => reply.firstError)?.firstError}`);
    console.error(`bench/events: ${openedCount} streams open in ${openSeconds.toFixed(1)} s`);
    // Every stream has caught up and follows its tenant's feed once it has had an event published after it opened.
    const liveIds = new Map<number, number>();
    await Promise.all(tenants.map(async (tenant, index) => liveIds.set(index, (await publishTo(db, tenant, 1))[0]!)));
    if (!(await allReached(clients, liveIds, 60_000))) throw new Error('the first event did not reach every stream');
    await collect(clients);
    await sleep(3_000);
    const rssOpen = await steadyRss(server.pid);
    const perStreamKiB = ((rssOpen - rssBefore) * 1024) / openedCount;
    console.error(`bench/events: RSS ${rssBefore.toFixed(0)} → ${rssOpen.toFixed(0)} MiB, ${perStreamKiB.toFixed(1)} KiB per stream`);

    // 2. Fan-out latency: one event to every tenant at once, per round.
    const latencies: number[] = [];
    const lastArrivals: number[] = [];
    const fanoutCpuBefore = cpuMs(server.pid);
    for (let round = 0; round < options.rounds; round++) {
      const publishedAt = new Map<string, number>();
      const ids = new Map<number, number>();
      await Promise.all(
        tenants.map(async (tenant, index) => {
          const at = wallClock();
          const [id] = await publishTo(db, tenant, 1);
          publishedAt.set(`${index}:${id}`, at);
          ids.set(index, id!);
        }),
      );
      if (!(await allReached(clients, ids, 30_000))) throw new Error(`round ${round}: the event did not reach every stream within 30 s`);
      let last = 0;
      for (const [tenant, id, times] of await collect(clients)) {
        const at = publishedAt.get(`${tenant}:${id}`);
        if (at === undefined) continue;
        for (const time of times) {
          latencies.push(time - at);
          last = Math.max(last, time - at);
        }
      }
      lastArrivals.push(last);
      await sleep(300);
    }
    const fanoutCpu = cpuMs(server.pid) - fanoutCpuBefore;
    const fanout = stats(latencies);
    const lastOfRound = stats(lastArrivals);
    console.error(`bench/events: fan-out p50 ${fanout.p50.toFixed(1)} ms, p99 ${fanout.p99.toFixed(1)} ms, last of a round p50 ${lastOfRound.p50.toFixed(0)} ms`);
    const streamsBefore = await statusOf(clients);
    const droppedDuringLatency = streamsBefore.reduce((sum, entry) => sum + entry.dropped + entry.closedByServer, 0);

    // 3. Sustained delivery to one tenant's streams.
    const kept = 0;
    await Promise.all(clients.map((client) => client.ask<'done'>({ type: 'keepOnly', tenant: kept })));
    const steps: SustainedStep[] = [];
    const tenant = tenants[kept]!;
    for (const rate of options.rates) {
      const total = rate * options.stepSeconds;
      const every = Math.max(1, Math.round(total / 400));
      await Promise.all(clients.map((client) => client.ask<'done'>({ type: 'sample', every })));
      await collect(clients);
      const before = (await statusOf(clients))[kept]!;
      const cpuBefore = { server: cpuMs(server.pid), clients: clients.reduce((sum, client) => sum + cpuMs(client.pid), 0), postgres: await postgresCpuMs(db) };
      const publishedAt = new Map<number, number>();
      const started = performance.now();
      let published = 0;
      let lastId = 0;
      while (performance.now() - started < options.stepSeconds * 1000) {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate)) - published;
        if (due > 0) {
          const at = wallClock();
          const ids = await publishTo(db, tenant, due);
          for (const id of ids) if (id % every === 0) publishedAt.set(id, at);
          published += due;
          lastId = ids.at(-1)!;
        }
        await sleep(PUBLISH_TICK_MS);
      }
      const publishSeconds = (performance.now() - started) / 1000;
      const reachedAll = await allReached(clients, new Map([[kept, lastId]]), 60_000);
      // Within the status poll's 25 ms.
      const deliveredSeconds = (performance.now() - started) / 1000;
      const arrivals = await collect(clients);
      const after = (await statusOf(clients))[kept]!;
      const lags: number[] = [];
      for (const [, id, times] of arrivals) {
        const at = publishedAt.get(id);
        if (at !== undefined) for (const time of times) lags.push(time - at);
      }
      const streams = after.open;
      const postgresSpent = postgresCpuSpent(cpuBefore.postgres, await postgresCpuMs(db));
      const step: SustainedStep = {
        rate,
        published,
        publishedPerSecond: published / publishSeconds,
        deliveredPerStreamPerSecond: (after.received - before.received) / Math.max(1, streams) / deliveredSeconds,
        streams,
        lag: stats(lags),
        lastArrivalMs: (deliveredSeconds - publishSeconds) * 1000,
        dropped: after.dropped - before.dropped + (after.closedByServer - before.closedByServer),
        serverCpu: (cpuMs(server.pid) - cpuBefore.server) / 1000 / publishSeconds,
        clientCpu: (clients.reduce((sum, client) => sum + cpuMs(client.pid), 0) - cpuBefore.clients) / 1000 / publishSeconds,
        postgresCpu: postgresSpent === null ? null : postgresSpent / 1000 / publishSeconds,
        reachedAll,
      };
      steps.push(step);
      console.error(
        `bench/events: ${rate}/s → published ${step.publishedPerSecond.toFixed(0)}/s, delivered ${step.deliveredPerStreamPerSecond.toFixed(0)}/s per stream to ${streams}, ` +
          `lag p50 ${step.lag.p50.toFixed(0)} ms p99 ${step.lag.p99.toFixed(0)} ms, dropped ${step.dropped}, server CPU ${(step.serverCpu * 100).toFixed(0)}%`,
      );
      if (step.dropped > 0 || !reachedAll || step.lag.p50 > MAX_SUSTAINED_LAG_MS) break;
      await sleep(2_000);
    }
    const loadAtEnd = os.loadavg();

    const ms = (value: number) => (Number.isNaN(value) ? '—' : value < 10 ? value.toFixed(1) : value.toFixed(0));
    const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)}%`);
    return [
      `### Live events (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); load average ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')} at the start, ` +
        `${loadAtEnd.map((n) => n.toFixed(1)).join(' / ')} at the end. One API process on the PostgreSQL server${serverRoot ? ` (from ${serverRoot})` : ''}; ${options.clientProcesses} client processes; ` +
        `${openedCount} streams over ${options.tenants} tenants × ${options.usersPerTenant} research users (${perUser} each, EVENTS_MAX_CONNECTIONS_PER_USER=${perUser}); ${limits}.`,
      '',
      '| Measure | Value |',
      '|---|---:|',
      `| Streams opened | ${openedCount} in ${openSeconds.toFixed(1)} s (${(openedCount / openSeconds).toFixed(0)}/s; API CPU ${(openCpu / openedCount).toFixed(2)} ms per stream) |`,
      `| API RSS before → with every stream open | ${rssBefore.toFixed(0)} → ${rssOpen.toFixed(0)} MiB |`,
      `| Memory per stream (RSS delta / streams) | ${perStreamKiB.toFixed(1)} KiB |`,
      `| Fan-out, publish → arrival, every stream (${options.rounds} rounds × ${openedCount}) | p50 ${ms(fanout.p50)} ms, p99 ${ms(fanout.p99)} ms, max ${ms(fanout.max)} ms |`,
      `| Fan-out, until the last stream of a round had it | p50 ${ms(lastOfRound.p50)} ms, p99 ${ms(lastOfRound.p99)} ms |`,
      `| API CPU per round (one event to each of ${openedCount} streams) | ${(fanoutCpu / options.rounds).toFixed(0)} ms |`,
      `| Streams dropped or closed by the server while measuring latency | ${droppedDuringLatency} |`,
      '',
      `Sustained delivery to the ${steps[0]?.streams ?? perTenant} streams of one tenant, ${options.stepSeconds} s per step, a transaction every ${PUBLISH_TICK_MS} ms:`,
      '',
      '| Target events/s | Published/s | Delivered/s per stream | Deliveries/s (all streams) | Lag p50 | p99 | max | All had the last event after | Dropped | API CPU | Clients CPU | PostgreSQL CPU |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...steps.map(
        (step) =>
          `| ${step.rate} | ${step.publishedPerSecond.toFixed(0)} | ${step.deliveredPerStreamPerSecond.toFixed(0)} | ${(step.deliveredPerStreamPerSecond * step.streams).toFixed(0)} | ` +
          `${ms(step.lag.p50)} ms | ${ms(step.lag.p99)} ms | ${ms(step.lag.max)} ms | ${step.reachedAll ? `${ms(step.lastArrivalMs)} ms` : 'not within 60 s'} | ${step.dropped} | ` +
          `${percent(step.serverCpu)} | ${percent(step.clientCpu)} | ${percent(step.postgresCpu)} |`,
      ),
      '',
    ].join('\n');
  } finally {
    await Promise.all(
      clients.map(async (client) => {
        await client.ask<'done'>({ type: 'exit' }).catch(() => {});
        await client.exited;
      }),
    );
    await server?.stop();
    await db.close();
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runEventsBench(env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres', readEventsOptions(), process.argv[2])
    .then((markdown) => console.log(markdown))
    .catch((error: unknown) => {
      console.error('bench/events:', error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    });
}

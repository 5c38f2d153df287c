/**
 * The load test of issue 30 item 4: the product scaled out on one machine — three API processes
 * and two workers on one PostgreSQL server with a streaming replica — under a steady mix of
 * traffic for BENCH_MINUTES (30, or `--minutes N`), reported per minute.
 *
 *   node --import tsx bench/cluster-load.ts [--minutes N]
 *
 * The database: a primary and a streaming replica made by `pg_basebackup -X stream -R`, exactly
 * as the read replica tests make them (server/src/test/replica-cluster.ts), of the machine's
 * PostgreSQL (BENCH_PG_MAJOR, 15; the embedded 17 is used through the low-level backup when no
 * pg_basebackup of that version is installed). One database `intelnotes` on the primary.
 *
 * The product: three supervisors as `npm start` runs them (`node --import tsx server/src/main.ts`,
 * bench/product.ts) with DATABASE_URL naming the primary (so none starts a database),
 * DATABASE_REPLICA_URLS the replica and one shared DATA_DIR (the uploaded files: every API
 * stores where every worker reads, as an object store would in production). The first runs
 * `WORKERS=2` beside its API, the other two `WORKERS=0` (docs/processes.md): 3 APIs, 2 workers.
 * The first starts alone (migrations and the seed), the others after it serves.
 *
 * The traffic: open loop at BENCH_RATE (10) requests a second (sent on schedule whether or not
 * earlier ones answered), each to the next API process in turn (round robin in this client, as
 * a load balancer would), drawn from a weighted mix (OPERATIONS below) of reads by every audience
 * — a visitor (no token), a paywall reader (signed in, no flags), a research user and an admin —
 * across lists, list search, details, quick search and the intelbook reader; creates and edits
 * by the admin; and every BENCH_UPLOAD_SECONDS (10) one upload (text, HTML, e-mail, CSV, DOCX or
 * PDF in turn, bench/documents.ts) followed by `POST raw-data/process/`, whose jobs the workers
 * run. Setup first creates BENCH_RECORDS (200) organizations and people of mixed visibility and
 * a small intelbook.
 *
 * Per minute: requests, errors (any unexpected status, listed with route and status at the end),
 * p50/p99 of all requests, RSS of each API and worker process (and the PostgreSQL postmasters),
 * the replica's lag (the primary's pg_stat_replication, sampled each second: replay_lag and the
 * bytes not yet replayed) and the jobs' enqueue-to-done times (jobs.created_at → finished_at,
 * read from the primary at the end, by the minute they were queued), with the machine's load
 * average. Plus each API's own view of the replica (GET tools/database-replicas/: health, its
 * reads sent to the replica and to the primary). The report goes to stdout and
 * bench/results/cluster-load-<time>.md (+ .json, and each supervisor's log .api-N.log).
 *
 * BENCH_RATE (10), BENCH_MINUTES (30), BENCH_UPLOAD_SECONDS (10), BENCH_RECORDS (200),
 * BENCH_PG_MAJOR (15), BENCH_REQUEST_TIMEOUT_MS (30000: no answer by then is an error).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startReplicaCluster, type ReplicaCluster } from '../server/src/test/replica-cluster.ts';
import { csv, deals, docx, email, html, organization, pdf, person, plainText, story, uploadFiles, type UploadFile } from './documents.ts';
import { HttpClient } from './load.ts';
import { freePort, kib, positiveEnv, procStatus, RESULTS, startProduct, uptime, type Product } from './product.ts';
import { call } from './server.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const num = positiveEnv;
const minutesArg = process.argv.indexOf('--minutes');
const MINUTES = minutesArg >= 0 ? Number(process.argv[minutesArg + 1]) : num('BENCH_MINUTES', 30);
if (!Number.isFinite(MINUTES) || MINUTES <= 0) throw new Error('--minutes must be a positive number');
const RATE = num('BENCH_RATE', 10);
const UPLOAD_SECONDS = num('BENCH_UPLOAD_SECONDS', 10);
const RECORDS = Math.round(num('BENCH_RECORDS', 200));
const PG_MAJOR = Math.round(num('BENCH_PG_MAJOR', 15));
const REQUEST_TIMEOUT_MS = num('BENCH_REQUEST_TIMEOUT_MS', 30_000);
const API_PROCESSES = 3;
const WORKERS = 2;
const ADMIN = { email: 'admin@intelnotes.local', password: 'intelnotes-admin' };
const PASSWORD = 'load-test-password';

// ---------------------------------------------------------------------------
// The mix

type Audience = 'visitor' | 'paywall' | 'research' | 'admin';
interface Fixtures {
  /** Organization and person ids by the visibility they were made with. */
  orgs: Record<'public' | 'paywalled' | 'hidden', string[]>;
  people: Record<'public' | 'paywalled' | 'hidden', string[]>;
  /** Organizations the admin created during the run (edited later). */
  created: string[];
}
interface Request {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  /** The status a correct answer has. */
  expect: number;
}
interface Operation {
  /** The route as reported (method and path pattern). */
  name: string;
  audience: Audience;
  weight: number;
  make: (n: number, fixtures: Fixtures) => Request | null;
}

const ORGS = '/api/v1/assets/organizations/';
const PEOPLE = '/api/v1/assets/people/';
const QUICK_TERMS = ['maria', 'garcia', 'northwind', 'holdings', 'lithium', 'qwertyuiop'];
const LIST_TERMS = ['capital', 'group', 'north', 'energy', 'zzz'];
const pick = <T>(values: T[], n: number): T | undefined => values[n % Math.max(1, values.length)];
const get = (path: string): Request => ({ method: 'GET', path, expect: 200 });

/** Reads every audience makes, the details restricted to what it may see. */
function readsOf(audience: Audience, weight: number): Operation[] {
  const visible: Array<'public' | 'paywalled' | 'hidden'> = audience === 'visitor' ? ['public'] : audience === 'admin' ? ['public', 'paywalled', 'hidden'] : ['public', 'paywalled'];
  const detail = (kind: 'orgs' | 'people', base: string) => (n: number, fixtures: Fixtures) => {
    const ids = visible.flatMap((visibility) => fixtures[kind][visibility]);
    const id = pick(ids, n * 7919);
    return id ? get(`${base}${id}/`) : null;
  };
  return [
    { name: 'GET assets/organizations/?limit=25', audience, weight: 5 * weight, make: () => get(`${ORGS}?limit=25`) },
    { name: 'GET assets/organizations/?offset=25', audience, weight: weight, make: () => get(`${ORGS}?limit=25&offset=25`) },
    { name: 'GET assets/people/?limit=25', audience, weight: 2 * weight, make: () => get(`${PEOPLE}?limit=25`) },
    { name: 'GET assets/organizations/?search=', audience, weight: 2 * weight, make: (n) => get(`${ORGS}?limit=25&search=${encodeURIComponent(pick(LIST_TERMS, n)!)}`) },
    { name: 'GET assets/organizations/{id}/', audience, weight: 3 * weight, make: detail('orgs', ORGS) },
    { name: 'GET assets/people/{id}/', audience, weight: weight, make: detail('people', PEOPLE) },
    { name: 'GET search/?q=', audience, weight: 2 * weight, make: (n) => get(`/api/v1/search/?q=${encodeURIComponent(pick(QUICK_TERMS, n)!)}`) },
    { name: 'GET facts/view/', audience, weight: 2 * weight, make: () => get('/api/v1/facts/view/') },
  ];
}

const OPERATIONS: Operation[] = [
  ...readsOf('visitor', 4),
  ...readsOf('paywall', 2),
  ...readsOf('research', 1),
  ...readsOf('admin', 1),
  { name: 'GET raw-data/?limit=25', audience: 'admin', weight: 1, make: () => get('/api/v1/raw-data/?limit=25') },
  {
    name: 'POST assets/organizations/', audience: 'admin', weight: 2,
    make: (n) => ({ method: 'POST', path: ORGS, body: { name_inc: `Load Test ${process.pid}-${n} ${organization(n)}`, visibility: (['public', 'paywalled', 'hidden'] as const)[n % 3], hq_city: 'Berlin' }, expect: 201 }),
  },
  {
    name: 'PATCH assets/organizations/{id}/', audience: 'admin', weight: 2,
    make: (n, fixtures) => {
      const id = pick(fixtures.created.length > 0 ? fixtures.created : fixtures.orgs.public, n);
      return id ? { method: 'PATCH', path: `${ORGS}${id}/`, body: { notes: `edited by the load test, request ${n}` }, expect: 200 } : null;
    },
  },
  {
    name: 'POST assets/people/', audience: 'admin', weight: 1,
    make: (n) => ({ method: 'POST', path: PEOPLE, body: { name_given: `Load${n}`, name_family: person(n).split(' ').slice(1).join(' ') || 'Tester', visibility: 'public' }, expect: 201 }),
  },
];
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, operation) => sum + operation.weight, 0);

/** The operation of the n-th send: a fixed pseudo-random sequence over the weights. */
function operationOf(n: number): Operation {
  let x = ((n * 2654435761) >>> 0) % TOTAL_WEIGHT;
  for (const operation of OPERATIONS) {
    if (x < operation.weight) return operation;
    x -= operation.weight;
  }
  return OPERATIONS[0]!;
}

// ---------------------------------------------------------------------------
// Samples

interface Sample {
  route: string;
  audience: Audience | 'uploader';
  api: number;
  /** ms since the load's start, when sent */
  at: number;
  ms: number;
  status: number;
  error?: string;
}
interface ProcessSample {
  at: number;
  rss: Record<string, number>;
  load: number;
}
interface LagSample {
  at: number;
  /** seconds (pg_stat_replication.replay_lag; null when idle and caught up) */
  replayLag: number | null;
  bytes: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!);
const fmt = (ms: number) => (Number.isFinite(ms) ? (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)) : '—');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const UPLOAD_KINDS: Array<[string, string, (n: number) => Buffer]> = [
  ['txt', 'text/plain', (n) => Buffer.from(plainText(story(n, RECORDS)))],
  ['html', 'text/html', (n) => Buffer.from(html(story(n, RECORDS), true))],
  ['eml', 'message/rfc822', (n) => Buffer.from(email(story(n, RECORDS), n))],
  ['csv', 'text/csv', (n) => Buffer.from(csv(deals(n, 50, RECORDS)))],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', (n) => docx(story(n, RECORDS))],
  ['pdf', 'application/pdf', (n) => pdf(story(n, RECORDS))],
];

async function main(): Promise<void> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  mkdirSync(RESULTS, { recursive: true });
  const base = path.join(RESULTS, `cluster-load-${stamp}`);
  const uptimeBefore = uptime();
  console.error(`uptime before: ${uptimeBefore}`);

  const cluster: ReplicaCluster = await startReplicaCluster({ major: PG_MAJOR });
  console.error(`primary :${cluster.primary.port}, replica :${cluster.replica.port} (PostgreSQL ${cluster.major}, ${cluster.backup})`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-bench-cluster-load-'));
  const products: Product[] = [];
  const admin = new pg.Client({ connectionString: cluster.primary.urlOf() });
  // The product's database, read as the superuser (no row-level security): the jobs' times.
  const db = new pg.Client({ connectionString: cluster.primary.urlOf('intelnotes') });
  // A server going away mid-run (its connection ended by a shutdown) is reported, not a crash
  // that would leave the product running: the bench's own reads then fail and are noted.
  const monitorErrors: string[] = [];
  for (const client of [admin, db]) client.on('error', (error) => monitorErrors.push(`${new Date().toISOString().slice(11, 19)} UTC: ${error.message}`));
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE intelnotes');
    const databaseUrl = cluster.primary.urlOf('intelnotes');
    await db.connect();
    const env = { DATABASE_URL: databaseUrl, DATABASE_REPLICA_URLS: cluster.replicaUrlOf(databaseUrl), NODE_ENV: 'production', WEB_DIST: '/nonexistent' };
    const t0 = performance.now();
    // The first alone (it migrates and seeds), then the others together.
    const startOne = async (index: number) => {
      const port = await freePort();
      const started = performance.now();
      const product = await startProduct(dataDir, port, `${base}.api-${index + 1}.log`, [], t0, { ...env, WORKERS: String(index === 0 ? WORKERS : 0) });
      products[index] = product;
      console.error(`supervisor ${index + 1} serving on :${port} after ${((performance.now() - started) / 1000).toFixed(1)} s: ${[...product.children].map(([name, pid]) => `${name} ${pid}`).join(', ')}`);
    };
    await startOne(0);
    await Promise.all(Array.from({ length: API_PROCESSES - 1 }, (_, index) => startOne(index + 1)));
    const ports = products.map((product) => product.port);
    const host = (port: number) => `demo.localhost:${port}`;

    // Setup through the first API: users of each audience, records of each visibility, an intelbook.
    const port = ports[0]!;
    const login = async (email: string, password: string, onHost = host(port)) => {
      const response = await call(port, onHost, 'POST', '/api/v1/auth/login/', { email, password });
      if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(response.json)}`);
      return response.json.token as string;
    };
    const adminToken = await login(ADMIN.email, ADMIN.password);
    const must = async (method: string, url: string, body: unknown, expect = 201) => {
      const response = await call(port, host(port), method, url, body, adminToken);
      if (response.status !== expect) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.json).slice(0, 300)}`);
      return response.json;
    };
    await must('POST', '/api/v1/users/', { email: 'paywall@load.test', password: PASSWORD, alias: 'Paywall reader' });
    await must('POST', '/api/v1/users/', { email: 'research@load.test', password: PASSWORD, alias: 'Researcher', is_research: true });
    const tokens: Record<Audience, string | null> = {
      visitor: null,
      paywall: await login('paywall@load.test', PASSWORD),
      research: await login('research@load.test', PASSWORD),
      admin: adminToken,
    };
    const fixtures: Fixtures = { orgs: { public: [], paywalled: [], hidden: [] }, people: { public: [], paywalled: [], hidden: [] }, created: [] };
    const started = performance.now();
    for (let n = 0; n < RECORDS; n += 1) {
      const visibility = (['public', 'public', 'paywalled', 'hidden'] as const)[n % 4]!;
      const org = await must('POST', ORGS, { name_inc: organization(n), visibility, hq_city: ['Berlin', 'Paris', 'Zürich', 'Kraków'][n % 4] });
      fixtures.orgs[visibility].push(org.id);
      const [given, ...family] = person(n).split(' ');
      const someone = await must('POST', PEOPLE, { name_given: given, name_family: family.join(' '), visibility });
      fixtures.people[visibility].push(someone.id);
    }
    const section = await must('POST', '/api/v1/facts/sections/', { name: 'Lithium' });
    for (let n = 0; n < 30; n += 1) {
      const root = await must('POST', '/api/v1/facts/', { text: `Root fact ${n} about lithium supply`, section: section.id, visibility: 'public' });
      await must('POST', '/api/v1/facts/', { text: `Child fact ${n} on prices`, parent: root.id, visibility: n % 3 === 0 ? 'paywalled' : 'public' });
    }
    const setupSeconds = (performance.now() - started) / 1000;
    console.error(`setup: ${RECORDS} organizations and ${RECORDS} people, 60 facts, 2 users in ${setupSeconds.toFixed(1)} s`);
    // The default tenant's admin sees each API's replica metrics (an installation operator's route).
    const operatorTokens = await Promise.all(ports.map(async (apiPort) => {
      const response = await call(apiPort, `localhost:${apiPort}`, 'POST', '/api/v1/auth/login/', ADMIN);
      return response.status === 200 ? (response.json.token as string) : null;
    }));

    // The load
    const clients = ports.map((apiPort) => new HttpClient(apiPort, 256));
    const samples: Sample[] = [];
    const inFlight = new Set<Promise<void>>();
    const loadStart = performance.now();
    const endAt = loadStart + MINUTES * 60_000;
    let sent = 0;
    const send = (audience: Sample['audience'], route: string, request: Request, apiIndex: number) => {
      const token = audience === 'uploader' ? tokens.admin : tokens[audience];
      const headers: Record<string, string> = { host: host(ports[apiIndex]!), ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const sample: Sample = { route, audience, api: apiIndex, at: performance.now() - loadStart, ms: 0, status: 0 };
      const t = performance.now();
      const promise = Promise.race([
        clients[apiIndex]!.request(request.method, request.path, headers, request.body),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS).unref()),
      ]).then((response) => {
        sample.ms = performance.now() - t;
        sample.status = response.status;
        if (response.status !== request.expect) sample.error = `${response.status}: ${response.body.toString('utf8').slice(0, 200)}`;
        else if (request.method === 'POST' && request.path === ORGS) fixtures.created.push(JSON.parse(response.body.toString('utf8')).id);
      }, (error: unknown) => {
        sample.ms = performance.now() - t;
        sample.error = error instanceof Error ? error.message : String(error);
      }).finally(() => {
        samples.push(sample);
        inFlight.delete(promise);
      });
      inFlight.add(promise);
    };
    // Every second: RSS of each process and the replica's lag as the primary sees it.
    const processes = (): Array<[string, number]> => [
      ...products.flatMap((product, index) => [...product.children].map(([name, pid]): [string, number] => [name === 'api' ? `api-${index + 1}` : name, pid])),
    ];
    const processSamples: ProcessSample[] = [];
    const lagSamples: LagSample[] = [];
    const sampler = setInterval(() => {
      const at = performance.now() - loadStart;
      processSamples.push({
        at,
        rss: Object.fromEntries([
          ...processes().map(([name, pid]): [string, number] => [name, kib(procStatus(pid), 'VmRSS') / 1024]),
          ...postmasters(cluster).map(([name, pid]): [string, number] => [name, serverAnonMiB(pid)]),
        ]),
        load: os.loadavg()[0]!,
      });
      admin.query<{ lag: number | null; bytes: string }>(
        "SELECT EXTRACT(EPOCH FROM replay_lag)::float8 AS lag, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS bytes FROM pg_stat_replication",
      ).then(({ rows }) => {
        if (rows[0]) lagSamples.push({ at, replayLag: rows[0].lag, bytes: Number(rows[0].bytes) });
      }, () => {});
    }, 1000);
    // Each minute: every API's own view of the replica (health, lag, reads sent where).
    const replicaViews: Array<{ minute: number; api: number; status: unknown }> = [];
    const viewReplicas = async (minute: number) => {
      await Promise.all(ports.map(async (apiPort, api) => {
        const token = operatorTokens[api];
        if (!token) return;
        const response = await call(apiPort, `localhost:${apiPort}`, 'GET', '/api/v1/tools/database-replicas/', undefined, token).catch(() => null);
        replicaViews.push({ minute, api, status: response?.status === 200 ? response.json : `HTTP ${response?.status ?? 'failed'}` });
      }));
    };
    let minuteDone = 0;
    const minuteTimer = setInterval(() => {
      minuteDone += 1;
      const inMinute = samples.filter((sample) => sample.at >= (minuteDone - 1) * 60_000 && sample.at < minuteDone * 60_000);
      const sorted = inMinute.map((sample) => sample.ms).sort((a, b) => a - b);
      console.error(`minute ${minuteDone}: ${inMinute.length} requests, ${inMinute.filter((sample) => sample.error).length} errors, p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms, load ${os.loadavg()[0]!.toFixed(1)}`);
      void viewReplicas(minuteDone);
    }, 60_000);

    // The uploads: one file every UPLOAD_SECONDS through the next API, then processed.
    const uploads: Array<{ at: number; kind: string; ids: string[]; jobs: string[] }> = [];
    const uploader = (async () => {
      let n = 0;
      while (performance.now() < endAt) {
        const next = loadStart + (n + 1) * UPLOAD_SECONDS * 1000;
        const [kind, contentType, body] = UPLOAD_KINDS[n % UPLOAD_KINDS.length]!;
        const file: UploadFile = { name: `load-${n}.${kind}`, contentType, body: body(200_000 + n) };
        const apiIndex = n % ports.length;
        const apiPort = ports[apiIndex]!;
        const at = performance.now() - loadStart;
        let t = performance.now();
        const record = (route: string, status: number, error?: string) => samples.push({ route, audience: 'uploader', api: apiIndex, at, ms: performance.now() - t, status, ...(error ? { error } : {}) });
        try {
          const ids = await uploadFiles(apiPort, host(apiPort), tokens.admin!, [file]);
          record('POST raw-data/upload/', 201);
          t = performance.now();
          const queued = await call(apiPort, host(apiPort), 'POST', '/api/v1/raw-data/process/', { ids }, tokens.admin!);
          if (queued.status === 202) {
            record('POST raw-data/process/', 202);
            uploads.push({ at, kind, ids, jobs: (queued.json.results as Array<{ job_id: string }>).map((result) => result.job_id) });
          } else record('POST raw-data/process/', queued.status, `${queued.status}: ${JSON.stringify(queued.json).slice(0, 200)}`);
        } catch (error) {
          record('POST raw-data/upload/', 0, error instanceof Error ? error.message : String(error));
        }
        n += 1;
        await sleep(Math.max(0, next - performance.now()));
      }
    })();

    // Steady sends: skip ahead rather than burst when this process was starved.
    const sendLag: number[] = [];
    await new Promise<void>((resolve) => {
      const interval = 1000 / RATE;
      let due = performance.now();
      const tick = () => {
        if (performance.now() >= endAt) return resolve();
        sendLag.push(performance.now() - due);
        const n = sent++;
        const operation = operationOf(n);
        const request = operation.make(n, fixtures);
        if (request) send(operation.audience, operation.name, request, n % ports.length);
        due += interval;
        if (performance.now() - due > interval) due = performance.now();
        setTimeout(tick, Math.max(0, due - performance.now()));
      };
      tick();
    });
    await uploader;
    await Promise.all(inFlight);
    clearInterval(minuteTimer);
    if (minuteDone < Math.ceil(MINUTES)) await viewReplicas(Math.ceil(MINUTES));
    // The last uploads' jobs: give the workers up to 5 minutes to finish them.
    const jobIds = uploads.flatMap((upload) => upload.jobs);
    const drainStart = performance.now();
    let jobs: JobRow[] = [];
    for (;;) {
      jobs = (await db.query<JobRow>(
        `SELECT name, status, extract(epoch FROM created_at)::float8 * 1000 AS created, extract(epoch FROM started_at)::float8 * 1000 AS started,
                extract(epoch FROM finished_at)::float8 * 1000 AS finished, attempts, error
         FROM jobs WHERE id = ANY($1::uuid[])`, [jobIds],
      )).rows;
      if (jobs.every((job) => job.status === 'succeeded' || job.status === 'failed') || performance.now() - drainStart > 300_000) break;
      await sleep(2000);
    }
    const drainSeconds = (performance.now() - drainStart) / 1000;
    clearInterval(sampler);
    clients.forEach((client) => client.close());
    const wallStart = Date.now() - (performance.now() - loadStart);

    const stopped = [];
    for (const product of [...products].reverse()) stopped.push(await product.stop());
    products.length = 0;
    // What the processes logged: the replica's transitions (skipped, back in use) and errors.
    const logNotes = [...logNotesOf(base), ...monitorErrors.map((error) => `the bench's own connection to the primary: ${error}`)];
    const report = renderReport({
      logNotes,
      stamp, uptimeBefore, uptimeAfter: uptime(), cluster, samples, processSamples, lagSamples, replicaViews, uploads, jobs, wallStart, drainSeconds,
      sendLagP99: percentile([...sendLag].sort((a, b) => a - b), 99), stopped, setupSeconds,
    });
    console.log(report);
    writeFileSync(`${base}.md`, report);
    writeFileSync(`${base}.json`, JSON.stringify({ samples, processSamples, lagSamples, replicaViews, uploads, jobs }));
    console.error(`written: ${path.relative(REPO_ROOT, base)}.md, .json, .api-N.log`);
  } finally {
    await admin.end().catch(() => {});
    await db.end().catch(() => {});
    for (const product of products.filter(Boolean).reverse()) await product.stop().catch(() => {});
    await cluster.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// ---------------------------------------------------------------------------
// Helpers and the report

interface JobRow {
  name: string;
  status: string;
  created: number;
  started: number | null;
  finished: number | null;
  attempts: number;
  error: string | null;
}

/** The PostgreSQL servers' postmasters (found by their port on the command line). */
function postmasterPids(cluster: ReplicaCluster): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!args[0]?.endsWith('/postgres')) continue;
    const port = Number(args[args.indexOf('-p') + 1]);
    if (port === cluster.primary.port) found.push(['postgres primary', Number(entry)]);
    if (port === cluster.replica.port) found.push(['postgres replica', Number(entry)]);
  }
  return found;
}
function readdirSafe(dir: string): string[] {
  try {
    return existsSync(dir) ? readdirSync(dir) : [];
  } catch {
    return [];
  }
}
let knownPostmasters: Array<[string, number]> | null = null;
function postmasters(cluster: ReplicaCluster): Array<[string, number]> {
  return (knownPostmasters ??= postmasterPids(cluster));
}
/**
 * A PostgreSQL server's private memory: RssAnon of the postmaster and every backend, WAL sender
 * and receiver (the shared buffers, RssShmem, are the same pages in each and are left out).
 */
function serverAnonMiB(postmaster: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return NaN;
  }
  return [postmaster, ...children].reduce((sum, pid) => sum + (kib(procStatus(pid), 'RssAnon') || 0), 0) / 1024;
}

/** The replica's health transitions and the lines at level error or above, from each supervisor's log. */
function logNotesOf(base: string): string[] {
  const notes: string[] = [];
  for (let index = 0; index < API_PROCESSES; index += 1) {
    const file = `${base}.api-${index + 1}.log`;
    if (!existsSync(file)) continue;
    let errors = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: { level?: number; time?: number; msg?: string; from?: string; to?: string; reason?: string | null };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if ((entry.level ?? 0) >= 50) errors += 1;
      if ((entry.msg === 'read replica skipped' || entry.msg === 'read replica in use') && entry.from !== 'starting') {
        notes.push(`api-${index + 1} ${new Date(entry.time ?? 0).toISOString().slice(11, 19)} UTC: ${entry.msg} (${entry.from} → ${entry.to}${entry.reason ? `: ${entry.reason}` : ''})`);
      }
    }
    notes.push(`api-${index + 1}'s supervisor log: ${errors} lines at level error or above`);
  }
  return notes;
}

interface ReportInput {
  logNotes: string[];
  stamp: string;
  uptimeBefore: string;
  uptimeAfter: string;
  cluster: ReplicaCluster;
  samples: Sample[];
  processSamples: ProcessSample[];
  lagSamples: LagSample[];
  replicaViews: Array<{ minute: number; api: number; status: unknown }>;
  uploads: Array<{ at: number; kind: string; ids: string[]; jobs: string[] }>;
  jobs: JobRow[];
  wallStart: number;
  drainSeconds: number;
  sendLagP99: number;
  stopped: Array<{ code: number | null; signal: NodeJS.Signals | null; seconds: number }>;
  setupSeconds: number;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const valid = points.filter(([, y]) => Number.isFinite(y));
  if (valid.length < 2) return NaN;
  const mx = valid.reduce((sum, [x]) => sum + x, 0) / valid.length;
  const my = valid.reduce((sum, [, y]) => sum + y, 0) / valid.length;
  const num = valid.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const den = valid.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
}

function renderReport(input: ReportInput): string {
  const { samples, processSamples, lagSamples, jobs } = input;
  const minutes = Math.ceil(MINUTES);
  const minuteOf = (at: number) => Math.min(minutes - 1, Math.floor(at / 60_000));
  const rank = (name: string) => (name.startsWith('api') ? 0 : name.startsWith('worker') ? 1 : 2);
  const names = Object.keys(processSamples.at(-1)?.rss ?? {}).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const lines: string[] = [];
  const sortedMs = (list: Sample[]) => list.map((sample) => sample.ms).sort((a, b) => a - b);
  const errors = samples.filter((sample) => sample.error);
  lines.push(`# Load test: 3 API processes, 2 workers, a primary and a streaming replica — ${input.stamp} UTC`, '');
  lines.push(`- Product: three supervisors as \`npm start\` runs them (\`node --import tsx server/src/main.ts\`, NODE_ENV=production) on DATABASE_URL (the primary) with DATABASE_REPLICA_URLS (the replica) and one shared DATA_DIR; WORKERS=2 beside the first API, 0 beside the others.`);
  lines.push(`- Database: PostgreSQL ${input.cluster.major}, a primary and a streaming replica made by ${input.cluster.backup} (server/src/test/replica-cluster.ts: fsync and synchronous_commit off, as the tests run).`);
  lines.push(`- Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; shared with other engineers' work.`);
  lines.push(`- uptime before: \`${input.uptimeBefore}\`; after: \`${input.uptimeAfter}\``);
  lines.push(`- Traffic: ${RATE} requests/s open loop, round robin over the 3 APIs, ${MINUTES} min; one upload every ${UPLOAD_SECONDS} s (then processed); setup (${RECORDS} organizations, ${RECORDS} people, 60 facts, 2 users) ${input.setupSeconds.toFixed(0)} s. Load generator send lag p99 ${fmt(input.sendLagP99)} ms.`);
  lines.push(`- Totals: ${samples.length} requests, **${errors.length} errors**; p50 ${fmt(percentile(sortedMs(samples), 50))} ms, p99 ${fmt(percentile(sortedMs(samples), 99))} ms; ${input.uploads.length} uploads, ${jobs.length} jobs (${jobs.filter((job) => job.status === 'succeeded').length} succeeded, ${jobs.filter((job) => job.status === 'failed').length} failed, ${jobs.filter((job) => job.status !== 'succeeded' && job.status !== 'failed').length} unfinished ${input.drainSeconds.toFixed(0)} s after the load).`);
  lines.push('');

  // Per minute
  lines.push(`| Minute | Requests | Errors | p50 ms | p99 ms | ${names.map((name) => `${name} RSS MiB`).join(' | ')} | replica lag max s (bytes) | jobs queued | enqueue→done p50 / p99 s | load avg |`);
  lines.push(`|---:|---:|---:|---:|---:|${names.map(() => '---:').join('|')}|---:|---:|---:|---:|`);
  for (let minute = 0; minute < minutes; minute += 1) {
    const inMinute = samples.filter((sample) => minuteOf(sample.at) === minute);
    const sorted = sortedMs(inMinute);
    const procs = processSamples.filter((sample) => minuteOf(sample.at) === minute);
    const last = procs.at(-1);
    const lags = lagSamples.filter((sample) => minuteOf(sample.at) === minute);
    const lagMax = Math.max(0, ...lags.map((sample) => sample.replayLag ?? 0));
    const bytesMax = Math.max(0, ...lags.map((sample) => sample.bytes));
    const queued = jobs.filter((job) => minuteOf(job.created - input.wallStart) === minute);
    const done = queued.filter((job) => job.finished !== null).map((job) => (job.finished! - job.created) / 1000).sort((a, b) => a - b);
    lines.push(`| ${minute + 1} | ${inMinute.length} | ${inMinute.filter((sample) => sample.error).length} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 99))} | ${names.map((name) => (last ? last.rss[name]!.toFixed(0) : '—')).join(' | ')} | ${lags.length ? `${lagMax.toFixed(2)} (${bytesMax})` : '—'} | ${queued.length} | ${done.length ? `${percentile(done, 50).toFixed(1)} / ${percentile(done, 99).toFixed(1)}` : '—'} | ${procs.length ? Math.max(...procs.map((sample) => sample.load)).toFixed(1) : '—'} |`);
  }
  lines.push('');
  lines.push('RSS: VmRSS at the end of each minute for the Node processes; for each PostgreSQL server the private memory (RssAnon) of the postmaster and all its backends (shared buffers left out). Replica lag: `pg_stat_replication.replay_lag` on the primary, sampled each second (the bytes: `pg_current_wal_lsn() - replay_lsn`). Jobs: by the minute they were queued; enqueue→done is `finished_at - created_at`.');
  lines.push('');
  // Memory trend: from the second minute on (the first holds the warm-up).
  lines.push('| Process | RSS first minute | RSS last minute | peak | trend after minute 1 (MiB/min) |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const name of names) {
    const points = processSamples.filter((sample) => sample.at >= 60_000).map((sample): [number, number] => [sample.at / 60_000, sample.rss[name]!]);
    const firstMinute = processSamples.filter((sample) => sample.at < 60_000).at(-1)?.rss[name] ?? NaN;
    lines.push(`| ${name} | ${firstMinute.toFixed(0)} | ${(processSamples.at(-1)?.rss[name] ?? NaN).toFixed(0)} | ${Math.max(...processSamples.map((sample) => sample.rss[name] ?? 0)).toFixed(0)} | ${slope(points).toFixed(2)} |`);
  }
  lines.push('');

  // Per route and audience
  lines.push('| Route | Audience | Requests | Errors | p50 ms | p99 ms | max ms |');
  lines.push('|---|---|---:|---:|---:|---:|---:|');
  const groups = new Map<string, Sample[]>();
  for (const sample of samples) {
    const key = `${sample.route}\u0000${sample.audience}`;
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const [route, audience] = key.split('\u0000');
    const sorted = sortedMs(group);
    lines.push(`| ${route} | ${audience} | ${group.length} | ${group.filter((sample) => sample.error).length} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 99))} | ${fmt(sorted.at(-1) ?? NaN)} |`);
  }
  lines.push('');
  lines.push(`Per API process: ${[0, 1, 2].map((api) => {
    const mine = samples.filter((sample) => sample.api === api);
    return `api-${api + 1} ${mine.length} requests, p99 ${fmt(percentile(sortedMs(mine), 99))} ms`;
  }).join('; ')}.`);
  lines.push('');

  // Jobs
  const byName = new Map<string, JobRow[]>();
  for (const job of jobs) byName.set(job.name, [...(byName.get(job.name) ?? []), job]);
  lines.push('| Job | Count | Succeeded | Failed | queue wait p50 / p99 s | enqueue→done p50 / p99 / max s |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const [name, group] of byName) {
    const waits = group.filter((job) => job.started !== null).map((job) => (job.started! - job.created) / 1000).sort((a, b) => a - b);
    const done = group.filter((job) => job.finished !== null).map((job) => (job.finished! - job.created) / 1000).sort((a, b) => a - b);
    lines.push(`| ${name} | ${group.length} | ${group.filter((job) => job.status === 'succeeded').length} | ${group.filter((job) => job.status === 'failed').length} | ${percentile(waits, 50).toFixed(1)} / ${percentile(waits, 99).toFixed(1)} | ${percentile(done, 50).toFixed(1)} / ${percentile(done, 99).toFixed(1)} / ${(done.at(-1) ?? NaN).toFixed(1)} |`);
  }
  const failedJobs = jobs.filter((job) => job.status === 'failed');
  if (failedJobs.length > 0) lines.push('', ...failedJobs.slice(0, 10).map((job) => `- failed job ${job.name} after ${job.attempts} attempts: ${String(job.error).slice(0, 200)}`));
  lines.push('');

  // The replica as each API saw it, at the last look
  const lastViews = input.replicaViews.filter((view) => view.minute === Math.max(...input.replicaViews.map((other) => other.minute)));
  for (const view of lastViews.sort((a, b) => a.api - b.api)) {
    const status = view.status as { primary_reads?: number; replicas?: Array<{ health: string; lag_seconds: number | null; reads: number; failovers: number }> } | string;
    if (typeof status === 'string') lines.push(`- api-${view.api + 1} tools/database-replicas/: ${status}`);
    else lines.push(`- api-${view.api + 1} at the end: replica ${status.replicas?.map((replica) => `${replica.health}, lag ${replica.lag_seconds ?? '—'} s, ${replica.reads} reads, ${replica.failovers} handed to the primary`).join('; ')}; ${status.primary_reads} reads on the primary.`);
  }
  const unhealthy = input.replicaViews.filter((view) => typeof view.status === 'object' && (view.status as { replicas?: Array<{ health: string }> }).replicas?.some((replica) => replica.health !== 'healthy'));
  lines.push(`- Replica seen not healthy by an API at a minute's look: ${unhealthy.length === 0 ? 'never' : unhealthy.map((view) => `minute ${view.minute} api-${view.api + 1}`).join(', ')}.`);

  lines.push(...input.logNotes.map((note) => `- ${note}`));

  // Errors
  if (errors.length > 0) {
    const kinds = new Map<string, number>();
    for (const sample of errors) {
      const key = `${sample.route} (${sample.audience}, api-${sample.api + 1}) → ${(sample.error ?? '').slice(0, 160)}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    lines.push('', 'Errors:', '', ...[...kinds].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([key, count]) => `- ${count} × ${key}`));
  }
  lines.push('', `- Stopped with SIGTERM: ${input.stopped.map((stop, index) => `supervisor ${input.stopped.length - index} exit ${stop.code ?? stop.signal} after ${stop.seconds.toFixed(1)} s`).join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

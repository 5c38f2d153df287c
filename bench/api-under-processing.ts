/**
 * API latency while processing (issue 25 point 2): the product started exactly as `npm start`
 * starts it — the supervisor (server/src/main.ts) with the embedded PostgreSQL server in a fresh
 * temporary DATA_DIR, the API process and the default number of worker processes — and, while it
 * processes first one 3.2 MB plain text and then a 100-file mixed batch, a steady load of
 * `GET auth/me/` and a list page (each BENCH_RATE requests a second, open loop: a request is sent
 * on time whether or not the one before has answered, over keep-alive sockets), every latency
 * recorded. Target: p99 ≤ 250 ms for both routes in both phases.
 *
 *   node --import tsx bench/api-under-processing.ts
 *
 * Steps: start the product (wait for "serving on"; the children's pids from the supervisor's JSON
 * log lines), sign in as the seeded admin on the `demo` tenant, create BENCH_RECORDS organizations
 * and as many people (names the documents mention, and a list page with 25 rows), then the
 * phases, the load running throughout:
 *   idle   BENCH_IDLE_SECONDS (30) of the load alone, the baseline (after 5 s of warm-up, not counted);
 *   text   upload one BENCH_TEXT_MB (3.2) MB text (POST raw-data/upload/), POST raw-data/process/,
 *          wait until its item is completed or in error;
 *   batch  upload BENCH_BATCH_FILES (100) files — text, HTML, e-mail, CSV, XLSX, DOCX, PDF
 *          (bench/documents.ts) — in one request, process them all, wait for every item.
 * Then every job is checked through GET jobs/{id}/ and the product is stopped with SIGTERM (it must
 * exit 0). Per phase: requests, p50/p90/p99/max and errors for each route, upload and processing
 * seconds, peak RSS of the API and of each worker (VmHWM, reset at each phase's start through
 * /proc/<pid>/clear_refs), their CPU time, the machine's CPU use and load average. The report goes
 * to stdout and bench/results/api-under-processing-<time>.md, the samples to a .json beside it, the
 * product's own output to a .log.
 *
 * The product's environment is this process's, without DATABASE_URL (the default setup is the
 * embedded server) and with DATA_DIR and PORT set, so WORKERS, WORKER_CONCURRENCY or LOG_LEVEL
 * given here reach it (the report names them). BENCH_CPU_PROF=1 runs the supervisor with
 * `--cpu-prof`; it forks its children with its own node flags, so the API and every worker write
 * a profile when they stop, into bench/results/cpu-<time>/ (named by pid; the report says whose).
 * BENCH_RATE (10 per route), BENCH_IDLE_SECONDS (30), BENCH_TEXT_MB (3.2), BENCH_BATCH_FILES (100),
 * BENCH_RECORDS (300), BENCH_LIST_PATH (/api/v1/assets/organizations/?limit=25),
 * BENCH_PHASE_TIMEOUT_SECONDS (1800), BENCH_TARGET_P99_MS (250).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { csv, deals, docx, email, html, longText, organization, pdf, person, plainText, spreadsheet, story, uploadFiles, type UploadFile } from './documents.ts';
import { HttpClient } from './load.ts';
import { call, cpuMs } from './server.ts';
import { freePort, kib, positiveEnv, procStatus, resetPeak, RESULTS, startProduct, uptime, type Product } from './product.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const num = positiveEnv;
const RATE = num('BENCH_RATE', 10);
const IDLE_SECONDS = num('BENCH_IDLE_SECONDS', 30);
const WARMUP_SECONDS = 5;
const TEXT_MB = num('BENCH_TEXT_MB', 3.2);
const BATCH_FILES = Math.round(num('BENCH_BATCH_FILES', 100));
const RECORDS = Math.round(num('BENCH_RECORDS', 300));
const PHASE_TIMEOUT_SECONDS = num('BENCH_PHASE_TIMEOUT_SECONDS', 1800);
const TARGET_P99_MS = num('BENCH_TARGET_P99_MS', 250);
const LIST_PATH = process.env['BENCH_LIST_PATH'] ?? '/api/v1/assets/organizations/?limit=25';
const CPU_PROF = process.env['BENCH_CPU_PROF'] === '1';
/** A request not answered in this long counts as an error (and its latency as this long). */
const REQUEST_TIMEOUT_MS = 60_000;
const ADMIN = { email: 'admin@intelnotes.local', password: 'intelnotes-admin' };

const ROUTES = [
  { name: 'GET auth/me/', path: '/api/v1/auth/me/' },
  { name: `GET ${LIST_PATH.replace(/^\/api\/v1\//, '')}`, path: LIST_PATH },
] as const;

type Phase = 'start' | 'idle' | 'text' | 'batch' | 'after';
const PHASES: Array<Exclude<Phase, 'start' | 'after'>> = ['idle', 'text', 'batch'];

// ---------------------------------------------------------------------------
// /proc (the product itself: product.ts)

const safeCpuMs = (pid: number) => {
  try {
    return cpuMs(pid);
  } catch {
    return NaN;
  }
};
/** The machine's busy and total CPU time so far (jiffies, all CPUs), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = fields[3]! + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
/** CPU of the embedded PostgreSQL server: the postmaster, its live backends and those gone, in ms. */
function postgresCpuMs(dataDir: string): number {
  try {
    const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return cpuMs(postmaster, true) + children.reduce((sum, pid) => sum + (safeCpuMs(pid) || 0), 0);
  } catch {
    return NaN;
  }
}

// ---------------------------------------------------------------------------
// The load

interface Sample {
  route: number;
  phase: Phase;
  /** ms since the benchmark's start, when sent. */
  at: number;
  ms: number;
  status: number;
  error?: string;
}

class SteadyLoad {
  readonly samples: Sample[] = [];
  phase: Phase = 'start';
  private timer: NodeJS.Timeout | null = null;
  private inFlight = new Set<Promise<void>>();
  private readonly client: HttpClient;
  /** How late the sends were against their schedule (the load generator's own lag), ms. */
  readonly sendLag: number[] = [];

  constructor(
    private readonly port: number,
    private readonly headers: Record<string, string>,
    private readonly t0: number,
  ) {
    // Open loop: enough sockets that a slow answer never holds back the next send.
    this.client = new HttpClient(port, 256);
  }

  start(): void {
    const interval = 1000 / RATE;
    let due = performance.now();
    const tick = () => {
      const now = performance.now();
      this.sendLag.push(now - due);
      for (const [index] of ROUTES.entries()) this.send(index);
      due += interval;
      // Behind by more than one interval (the generator was starved): skip ahead, do not burst.
      if (performance.now() - due > interval) due = performance.now();
      this.timer = setTimeout(tick, Math.max(0, due - performance.now()));
    };
    tick();
  }

  private send(route: number): void {
    const sample: Sample = { route, phase: this.phase, at: performance.now() - this.t0, ms: 0, status: 0 };
    const started = performance.now();
    const request = Promise.race([
      this.client.request('GET', ROUTES[route]!.path, this.headers),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS).unref()),
    ]).then(
      (response) => {
        sample.ms = performance.now() - started;
        sample.status = response.status;
        if (response.status !== 200) sample.error = `${response.status}: ${response.body.toString('utf8').slice(0, 200)}`;
      },
      (error: unknown) => {
        sample.ms = performance.now() - started;
        sample.error = error instanceof Error ? error.message : String(error);
      },
    ).finally(() => {
      this.samples.push(sample);
      this.inFlight.delete(request);
    });
    this.inFlight.add(request);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await Promise.all(this.inFlight);
    this.client.close();
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface Tick {
  /** ms since the start */
  at: number;
  seconds: number;
  /** CPU ms each process used in this tick */
  cpu: Record<string, number>;
  machineBusy: number;
}

interface RouteStats {
  requests: number;
  errors: number;
  firstError: string | null;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  over250: number;
}

function routeStats(samples: Sample[]): RouteStats {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const errors = samples.filter((sample) => sample.error);
  return {
    requests: samples.length,
    errors: errors.length,
    firstError: errors[0]?.error ?? null,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    over250: sorted.filter((ms) => ms > TARGET_P99_MS).length,
  };
}

// ---------------------------------------------------------------------------
// The documents

const MIME = {
  txt: 'text/plain',
  html: 'text/html',
  eml: 'message/rfc822',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
} as const;
type Extension = keyof typeof MIME;
/** Shares of the batch by kind, in this order (the last takes the rest). */
const BATCH_MIX: Array<[Extension, number]> = [['txt', 0.2], ['html', 0.15], ['eml', 0.15], ['csv', 0.1], ['xlsx', 0.1], ['docx', 0.15], ['pdf', 0.15]];
/** Story numbers of the batch start here, apart from the long text's. */
const BATCH_FIRST_STORY = 100_000;

async function batchFiles(): Promise<UploadFile[]> {
  const files: UploadFile[] = [];
  let n = 0;
  for (const [kind, share] of BATCH_MIX) {
    const count = kind === BATCH_MIX.at(-1)![0] ? BATCH_FILES - n : Math.round(BATCH_FILES * share);
    for (let i = 0; i < count; i += 1, n += 1) {
      const number = BATCH_FIRST_STORY + n;
      const s = story(number, RECORDS);
      const name = `batch-${String(n).padStart(3, '0')}.${kind}`;
      const body = {
        txt: () => Buffer.from(plainText(s)),
        html: () => Buffer.from(html(s, true)),
        eml: () => Buffer.from(email(s, number)),
        csv: () => Buffer.from(csv(deals(number, 100, RECORDS))),
        xlsx: () => spreadsheet(deals(number, 100, RECORDS)),
        docx: () => docx(s),
        pdf: () => pdf(s),
      }[kind];
      files.push({ name, contentType: MIME[kind], body: await body() });
    }
  }
  return files;
}

// ---------------------------------------------------------------------------

interface PhaseResult {
  phase: Phase;
  seconds: number;
  files: string;
  bytes: number;
  uploadSeconds: number;
  processingSeconds: number;
  completed: number;
  failed: number;
  itemErrors: string[];
  routes: RouteStats[];
  peakRss: Record<string, number>;
  peakRssReset: boolean;
  /** CPU seconds of each child, of the PostgreSQL server (all its processes) and of this load generator. */
  cpuSeconds: Record<string, number>;
  /** ms since the start: the phase's first and last moment. */
  window: [number, number];
  /** The same in epoch ms (the product's log times). */
  wallWindow: [number, number];
  /** The API's own time for each route's requests that arrived in the phase, from its log (`responseTime`). */
  serverSide?: RouteStats[];
  machineBusy: number;
  loadStart: number[];
  loadEnd: number[];
  deaths: number;
}

const fmt = (ms: number) => (Number.isFinite(ms) ? (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)) : '—');

async function main(): Promise<void> {
  const t0 = performance.now();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  mkdirSync(RESULTS, { recursive: true });
  const base = path.join(RESULTS, `api-under-processing-${stamp}`);
  const profileDir = path.join(RESULTS, `cpu-${stamp}`);
  const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const uptimeBefore = uptime();
  console.error(`uptime before: ${uptimeBefore}`);

  const text = Buffer.from(longText(Math.round(TEXT_MB * 1_000_000), 0, RECORDS));
  const batch = await batchFiles();

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-bench-api-processing-'));
  const port = await freePort();
  console.error(`starting the product: DATA_DIR=${dataDir} PORT=${port}${CPU_PROF ? ` (CPU profiles into ${profileDir})` : ''}`);
  const startedAt = performance.now();
  const product = await startProduct(dataDir, port, `${base}.log`, nodeArgs, t0);
  const startSeconds = (performance.now() - startedAt) / 1000;
  let stopped: Awaited<ReturnType<Product['stop']>> | null = null;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  try {
    const names = () => [...product.children.keys()].sort((a, b) => (a === 'api' ? -1 : b === 'api' ? 1 : a.localeCompare(b, 'en', { numeric: true })));
    console.error(`serving after ${startSeconds.toFixed(1)} s; children: ${names().map((name) => `${name} ${product.children.get(name)}`).join(', ')}`);
    if (!product.children.has('api')) throw new Error('no "process started" line for the api child in the supervisor\'s log (LOG_LEVEL above info?)');

    const host = `demo.localhost:${port}`;
    const login = await call(port, host, 'POST', '/api/v1/auth/login/', ADMIN);
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${JSON.stringify(login.json)}`);
    const token = login.json.token as string;
    const headers = { host, authorization: `Bearer ${token}` };
    const get = async (url: string) => {
      const response = await call(port, host, 'GET', url, undefined, token);
      if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(response.json).slice(0, 300)}`);
      return response.json;
    };

    let started = performance.now();
    for (let n = 0; n < RECORDS; n += 1) {
      for (const [kind, body] of [['organizations', { name_inc: organization(n) }], ['people', { name_given: person(n).split(' ')[0], name_family: person(n).split(' ').slice(1).join(' ') }]] as const) {
        const created = await call(port, host, 'POST', `/api/v1/assets/${kind}/`, body, token);
        if (created.status !== 201 && created.status !== 409) throw new Error(`${kind}: ${created.status} ${JSON.stringify(created.json)}`);
      }
    }
    console.error(`${RECORDS} organizations and ${RECORDS} people made in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const load = new SteadyLoad(port, headers, t0);
    load.start();
    // Warm-up: the first requests compile the routes' code; not counted in any phase.
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
    const results: PhaseResult[] = [];
    const allJobs: string[] = [];
    const sampledRss = new Map<string, number>();
    const rssTimer = setInterval(() => {
      for (const [name, pid] of product.children) sampledRss.set(name, Math.max(sampledRss.get(name) ?? 0, kib(procStatus(pid), 'VmRSS') / 1024 || 0));
    }, 250);
    // Cumulative CPU ms of each child, the database server and this load generator.
    const cpuNow = (): Record<string, number> => ({
      ...Object.fromEntries([...product.children].map(([name, pid]) => [name, safeCpuMs(pid)])),
      postgres: postgresCpuMs(dataDir),
      'load generator': (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    });
    // Each second: the CPU each process used in it and how busy the machine was.
    const ticks: Tick[] = [];
    let previous = { at: performance.now() - t0, cpu: cpuNow(), machine: machineCpu() };
    const tickTimer = setInterval(() => {
      const current = { at: performance.now() - t0, cpu: cpuNow(), machine: machineCpu() };
      ticks.push({
        at: previous.at,
        seconds: (current.at - previous.at) / 1000,
        cpu: Object.fromEntries(Object.entries(current.cpu).map(([name, ms]) => [name, ms - (previous.cpu[name] ?? NaN)])),
        machineBusy: (current.machine.busy - previous.machine.busy) / Math.max(1, current.machine.total - previous.machine.total),
      });
      previous = current;
    }, 1000);

    const finished = async () => (await get('/api/v1/raw-data/?processing_status=completed&limit=1')).count + (await get('/api/v1/raw-data/?processing_status=error&limit=1')).count;

    for (const phase of PHASES) {
      const before = { at: performance.now(), atMs: performance.now() - t0, wall: Date.now(), cpu: cpuNow(), machine: machineCpu(), load: os.loadavg(), deaths: product.deaths.length };
      const peakRssReset = [...product.children.values()].map(resetPeak).every(Boolean);
      sampledRss.clear();
      load.phase = phase;
      let files: UploadFile[] = [];
      let uploadSeconds = 0;
      let processingSeconds = 0;
      let ids: string[] = [];
      const itemErrors: string[] = [];
      let completed = 0;
      let failed = 0;
      if (phase === 'idle') {
        await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      } else {
        files = phase === 'text' ? [{ name: 'digest.txt', contentType: MIME.txt, body: text }] : batch;
        const finishedBefore = await finished();
        started = performance.now();
        ids = await uploadFiles(port, host, token, files);
        uploadSeconds = (performance.now() - started) / 1000;
        const requestedAt = Date.now();
        started = performance.now();
        const queued = await call(port, host, 'POST', '/api/v1/raw-data/process/', { ids }, token);
        if (queued.status !== 202) throw new Error(`process answered ${queued.status}: ${JSON.stringify(queued.json)}`);
        allJobs.push(...(queued.json.results as Array<{ job_id: string }>).map((result) => result.job_id));
        let lastReport = 0;
        for (;;) {
          const done = (await finished()) - finishedBefore;
          const elapsed = (performance.now() - started) / 1000;
          if (elapsed - lastReport >= 15) {
            lastReport = elapsed;
            console.error(`  ${phase}: ${elapsed.toFixed(0)} s, ${done} of ${ids.length} items processed`);
          }
          if (done >= ids.length) break;
          if (elapsed > PHASE_TIMEOUT_SECONDS) throw new Error(`${phase}: ${done} of ${ids.length} items processed after ${PHASE_TIMEOUT_SECONDS} s`);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        const polled = (performance.now() - started) / 1000;
        // The phase ends when its last item is done; reading the items back is not part of it.
        load.phase = 'after';
        const items = await Promise.all(ids.map((id) => get(`/api/v1/raw-data/${id}/`)));
        for (const item of items) {
          if (item.processing_status === 'completed') completed += 1;
          else {
            failed += 1;
            itemErrors.push(`${item.display_name ?? item.id}: ${item.processing_status} ${String(item.processing_error ?? '').slice(0, 160)}`);
          }
        }
        const last = Math.max(...items.map((item) => Date.parse(item.processed_at)));
        processingSeconds = Number.isFinite(last) ? (last - requestedAt) / 1000 : polled;
      }
      load.phase = 'after';
      const seconds = (performance.now() - before.at) / 1000;
      const machine = machineCpu();
      const samples = load.samples.filter((sample) => sample.phase === phase);
      const result: PhaseResult = {
        phase,
        seconds,
        files: phase === 'idle' ? '—' : describeFiles(files),
        bytes: files.reduce((sum, file) => sum + file.body.length, 0),
        uploadSeconds,
        processingSeconds,
        completed,
        failed,
        itemErrors,
        routes: ROUTES.map((_, index) => routeStats(samples.filter((sample) => sample.route === index))),
        peakRss: Object.fromEntries(names().map((name) => {
          const hwm = kib(procStatus(product.children.get(name)!), 'VmHWM') / 1024;
          return [name, peakRssReset ? hwm : Math.max(hwm, sampledRss.get(name) ?? 0)];
        })),
        peakRssReset,
        cpuSeconds: Object.fromEntries(Object.entries(cpuNow()).map(([name, ms]) => [name, (ms - (before.cpu[name] ?? NaN)) / 1000])),
        window: [before.atMs, performance.now() - t0],
        wallWindow: [before.wall, Date.now()],
        machineBusy: (machine.busy - before.machine.busy) / Math.max(1, machine.total - before.machine.total),
        loadStart: before.load,
        loadEnd: os.loadavg(),
        deaths: product.deaths.length - before.deaths,
      };
      results.push(result);
      console.error(`${phase}: ${seconds.toFixed(1)} s; ${result.routes.map((stats, index) => `${ROUTES[index]!.name} p99 ${fmt(stats.p99)} ms (${stats.requests})`).join(', ')}`);
    }
    await load.stop();
    clearInterval(rssTimer);
    clearInterval(tickTimer);
    loopDelay.disable();

    // Every job the phases queued is done (succeeded or failed for good).
    const jobs = await Promise.all(allJobs.map((id) => get(`/api/v1/jobs/${id}/`)));
    const jobStatuses = new Map<string, number>();
    for (const job of jobs) jobStatuses.set(job.status, (jobStatuses.get(job.status) ?? 0) + 1);
    const childList = names().map((name) => `${name} ${product.children.get(name)}`).join(', ');

    stopped = await product.stop();
    serverSideTimes(`${base}.log`, results);
    const uptimeAfter = uptime();
    const profiles = CPU_PROF && existsSync(profileDir) ? readdirSync(profileDir) : [];

    const report = renderReport({
      stamp, uptimeBefore, uptimeAfter, startSeconds, childList, results, jobStatuses, stopped, product, profiles, profileDir, ticks, samples: load.samples,
      sendLagP99: percentile([...load.sendLag].sort((a, b) => a - b), 99), loopDelayP99: loopDelay.percentile(99) / 1e6,
    });
    console.log(report);
    writeFileSync(`${base}.md`, report);
    writeFileSync(`${base}.json`, JSON.stringify({ routes: ROUTES, results, ticks, samples: load.samples }, null, 0));
    console.error(`\nwritten: ${path.relative(REPO_ROOT, base)}.md, .json (samples), .log (the product's output)`);
    if (stopped.code !== 0) process.exitCode = 1;
  } finally {
    if (!stopped) await product.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The API's own time per request from its log (LOG_LEVEL info: "incoming request" with the URL,
 * "request completed" with `responseTime`, joined by reqId): from the request read to the response
 * written, without the wait before the API's event loop reads it or the client's own delays.
 */
function serverSideTimes(logFile: string, results: PhaseResult[]): void {
  const urls = new Map<string, string>();
  const times: Array<{ route: number; start: number; ms: number }> = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"reqId"')) continue;
    let entry: { reqId?: string; time?: number; req?: { url?: string }; responseTime?: number; msg?: string };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!entry.reqId) continue;
    if (entry.msg === 'incoming request' && entry.req?.url) urls.set(entry.reqId, entry.req.url);
    else if (entry.msg === 'request completed' && typeof entry.responseTime === 'number' && typeof entry.time === 'number') {
      const route = ROUTES.findIndex((candidate) => candidate.path === urls.get(entry.reqId!));
      if (route >= 0) times.push({ route, start: entry.time - entry.responseTime, ms: entry.responseTime });
    }
  }
  if (times.length === 0) return;
  for (const result of results) {
    const inPhase = times.filter((time) => time.start >= result.wallWindow[0] && time.start < result.wallWindow[1]);
    result.serverSide = ROUTES.map((_, index) => routeStats(inPhase.filter((time) => time.route === index).map((time) => ({ route: index, phase: result.phase, at: 0, ms: time.ms, status: 200 }))));
  }
}

function describeFiles(files: UploadFile[]): string {
  const counts = new Map<string, number>();
  for (const file of files) {
    const extension = path.extname(file.name).slice(1);
    counts.set(extension, (counts.get(extension) ?? 0) + 1);
  }
  return [...counts].map(([extension, count]) => `${count} ${extension}`).join(', ');
}

interface ReportInput {
  stamp: string;
  uptimeBefore: string;
  uptimeAfter: string;
  startSeconds: number;
  childList: string;
  results: PhaseResult[];
  jobStatuses: Map<string, number>;
  stopped: { code: number | null; signal: NodeJS.Signals | null; seconds: number };
  product: Product;
  profiles: string[];
  profileDir: string;
  sendLagP99: number;
  loopDelayP99: number;
  ticks: Tick[];
  samples: Sample[];
}

/** The seconds of a phase whose requests (by when they were sent) were slowest, with who used the CPU then. */
function slowestSeconds(result: PhaseResult, ticks: Tick[], samples: Sample[], count: number): string[] {
  const inPhase = ticks.filter((tick) => tick.at >= result.window[0] - 1000 && tick.at < result.window[1]);
  const rows = inPhase.map((tick) => {
    const sent = samples.filter((sample) => sample.phase === result.phase && sample.at >= tick.at && sample.at < tick.at + tick.seconds * 1000);
    return { tick, sent: sent.length, max: Math.max(...sent.map((sample) => sample.ms)) };
  }).filter((row) => row.sent > 0).sort((a, b) => b.max - a.max).slice(0, count);
  if (rows.length === 0) return [];
  const names = Object.keys(rows[0]!.tick.cpu);
  const lines = [
    `| ${result.phase}: second (from the phase's start) | requests sent | slowest (ms) | ${names.map((name) => `${name} CPU`).join(' | ')} | machine busy |`,
    `|---:|---:|---:|${names.map(() => '---:').join('|')}|---:|`,
  ];
  for (const { tick, sent, max } of rows) {
    lines.push(`| ${((tick.at - result.window[0]) / 1000).toFixed(0)} | ${sent} | ${fmt(max)} | ${names.map((name) => `${((tick.cpu[name] ?? NaN) / tick.seconds / 10).toFixed(0)}%`).join(' | ')} | ${(tick.machineBusy * 100).toFixed(0)}% |`);
  }
  return lines;
}

function renderReport(input: ReportInput): string {
  const { results } = input;
  const measured = results.filter((result) => result.phase !== 'idle');
  const met = measured.every((result) => result.routes.every((stats) => stats.p99 <= TARGET_P99_MS && stats.errors === 0));
  const settings = ['WORKERS', 'WORKER_CONCURRENCY', 'LOG_LEVEL', 'NODE_ENV'].map((name) => `${name}=${process.env[name] ?? '(default)'}`).join(' ');
  const lines: string[] = [];
  lines.push(`# API latency while processing — ${input.stamp} UTC`, '');
  lines.push(`- Product: \`node --import tsx server/src/main.ts\` (as \`npm start\`), embedded PostgreSQL in a fresh DATA_DIR; ${settings}; ready (initdb, migrations, seed) in ${input.startSeconds.toFixed(1)} s; processes: supervisor ${input.product.pid}, ${input.childList}.`);
  lines.push(`- Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), node ${process.version}.`);
  lines.push(`- uptime before: \`${input.uptimeBefore}\``);
  lines.push(`- uptime after: \`${input.uptimeAfter}\``);
  lines.push(`- Load: ${ROUTES.map((route) => `\`${route.name}\``).join(' and ')}, ${RATE} req/s each, open loop, keep-alive; ${RECORDS} organizations and ${RECORDS} people in the tenant. Load generator: send lag p99 ${fmt(input.sendLagP99)} ms, its event-loop delay p99 ${fmt(input.loopDelayP99)} ms.`);
  lines.push('');
  lines.push(`| Phase | Files | Upload | Processing (request → last item done) | Route | Requests | p50 | p90 | p99 | max | > ${TARGET_P99_MS} ms | Errors |`);
  lines.push('|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const result of results) {
    result.routes.forEach((stats, index) => {
      const first = index === 0;
      lines.push(
        `| ${first ? result.phase : ''} | ${first ? `${result.files}${result.bytes ? ` (${(result.bytes / 1e6).toFixed(2)} MB)` : ''}` : ''} | ${first && result.phase !== 'idle' ? `${result.uploadSeconds.toFixed(1)} s` : ''} | ${first && result.phase !== 'idle' ? `**${result.processingSeconds.toFixed(1)} s** (${result.completed} completed, ${result.failed} error)` : first ? `${result.seconds.toFixed(0)} s of load alone` : ''} | ${ROUTES[index]!.name} | ${stats.requests} | ${fmt(stats.p50)} | ${fmt(stats.p90)} | **${fmt(stats.p99)}** | ${fmt(stats.max)} | ${stats.over250} | ${stats.errors} |`,
      );
    });
  }
  lines.push('');
  if (results.some((result) => result.serverSide)) {
    lines.push('The same requests as the API saw them (its log\'s `responseTime`: from reading the request to writing the response):', '');
    lines.push('| Phase | Route | Requests | p50 | p90 | p99 | max |');
    lines.push('|---|---|---:|---:|---:|---:|---:|');
    for (const result of results) {
      result.serverSide?.forEach((stats, index) => lines.push(`| ${index === 0 ? result.phase : ''} | ${ROUTES[index]!.name} | ${stats.requests} | ${fmt(stats.p50)} | ${fmt(stats.p90)} | ${fmt(stats.p99)} | ${fmt(stats.max)} |`));
    }
    lines.push('');
  }
  const names = Object.keys(results[0]?.peakRss ?? {});
  lines.push(`| Phase | Length | ${names.map((name) => `${name} peak RSS`).join(' | ')} | ${names.map((name) => `${name} CPU`).join(' | ')} | machine CPU busy | load average start → end | restarts |`);
  lines.push(`|---|---:|${names.map(() => '---:').join('|')}|${names.map(() => '---:').join('|')}|---:|---|---:|`);
  for (const result of results) {
    lines.push(
      `| ${result.phase} | ${result.seconds.toFixed(1)} s | ${names.map((name) => `${result.peakRss[name]?.toFixed(0) ?? '—'} MiB`).join(' | ')} | ${names.map((name) => `${result.cpuSeconds[name]?.toFixed(1) ?? '—'} s`).join(' | ')} | ${(result.machineBusy * 100).toFixed(0)}% | ${result.loadStart.map((value) => value.toFixed(1)).join(' ')} → ${result.loadEnd.map((value) => value.toFixed(1)).join(' ')} | ${result.deaths} |`,
    );
  }
  lines.push('');
  const cpuNames = Object.keys(results[0]?.cpuSeconds ?? {}).filter((name) => !names.includes(name));
  if (cpuNames.length > 0) lines.push(`Also CPU (user + system) per phase: ${results.map((result) => `${result.phase}: ${cpuNames.map((name) => `${name} ${result.cpuSeconds[name]?.toFixed(1)} s`).join(', ')}`).join('; ')}.`, '');
  lines.push(`Peak RSS: VmHWM${results.every((result) => result.peakRssReset) ? ', reset at each phase\'s start (clear_refs)' : ' since the process started (clear_refs refused), or the highest 250 ms sample'}. CPU: user + system seconds of the process during the phase.`);
  lines.push('');
  lines.push(`**Target p99 ≤ ${TARGET_P99_MS} ms for both routes in the text and batch phases, no errors: ${met ? 'met' : 'NOT met'}** (${measured.flatMap((result) => result.routes.map((stats, index) => `${result.phase} ${ROUTES[index]!.name.split(' ')[1]!.split('?')[0]} ${fmt(stats.p99)} ms`)).join('; ')}).`);
  lines.push('');
  lines.push(`- Jobs queued: ${[...input.jobStatuses].map(([status, count]) => `${count} ${status}`).join(', ')}.`);
  for (const result of measured) for (const error of result.itemErrors) lines.push(`- ${result.phase} item not completed: ${error}`);
  for (const result of results) {
    result.routes.forEach((stats, index) => {
      if (stats.firstError) lines.push(`- ${result.phase} ${ROUTES[index]!.name}: ${stats.errors} errors, the first: ${stats.firstError}`);
    });
  }
  if (input.product.deaths.length > 0) lines.push(`- Child restarts: ${input.product.deaths.map((death) => death.line).join('; ')}`);
  if (input.product.errorLines.length > 0) lines.push(`- ${input.product.errorLines.length} log lines at level error or above; the first: \`${input.product.errorLines[0]!.slice(0, 400)}\``);
  for (const result of measured) {
    const table = slowestSeconds(result, input.ticks, input.samples, 5);
    if (table.length > 0) lines.push('', `The five slowest seconds of the ${result.phase} phase (CPU in % of one core, sampled each second):`, '', ...table, '');
  }
  lines.push(`- Stopped with SIGTERM: exit ${input.stopped.code ?? input.stopped.signal} after ${input.stopped.seconds.toFixed(1)} s${input.stopped.code === 0 ? '' : ' — **not 0**'}.`);
  if (input.profiles.length > 0) lines.push(`- CPU profiles (${path.relative(REPO_ROOT, input.profileDir)}): ${input.profiles.join(', ')}; pids as above.`);
  return `${lines.join('\n')}\n`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

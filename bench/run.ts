/**
 * Load benchmark of the list, search and count endpoints on the database made
 * by bench/seed.ts, each next to the same SQL run directly on PostgreSQL (the
 * floor), plus the API's memory during a large xlsx export.
 *
 *   node --import tsx bench/run.ts [database]
 *
 * Prints a Markdown report and writes it to bench/results/<timestamp>.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import pg from 'pg';
import { hashToken } from '../server/src/auth/tokens.ts';
import { organizations } from '../server/src/modules/organizations/organizations.resource.ts';
import { people } from '../server/src/modules/people/people.resource.ts';
import { RESOURCES } from '../server/src/modules/registry.ts';
import { quickSearched } from '../server/src/modules/search/quick-search.ts';
import type { Resource } from '../server/src/resources/resource.ts';
import { readSettings, tenantCode, type BenchSettings } from './config.ts';
import { HttpClient, runBatch, runLoad, summarize, type Batch, type LatencyStats, type LoadOptions, type LoadResult } from './load.ts';
import { runJobsBench } from './jobs.ts';
import * as floor from './queries.ts';
import { RssSampler, rssMiB, startServer, withCpuOf, type RunningServer } from './server.ts';

const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
/** What a quick search without `type` searches (the server's own list). */
const SEARCHED: Resource[] = quickSearched(RESOURCES).filter((resource) => !resource.quickSearch!.explicitOnly);

type Env = Record<string, string | undefined>;

interface RunOptions extends LoadOptions {
  /** API and floor alternate in this many batches, so background load hits both alike. */
  rounds: number;
  warmup: number;
  warmupSeconds: number;
  smallTenant: string;
  exportQuery: string;
  only: Set<string> | null;
}

function readRunOptions(settings: BenchSettings, env: Env = process.env): RunOptions {
  const int = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
    return value;
  };
  return {
    requests: int('BENCH_REQUESTS', 2000),
    concurrency: Math.max(1, int('BENCH_CONCURRENCY', 4)),
    maxSeconds: int('BENCH_MAX_SECONDS', 120),
    rounds: Math.max(1, int('BENCH_ROUNDS', 5)),
    // Enough for V8 to finish optimizing the API's request path: with 100, the first
    // scenario measured a process still compiling (list on bench01: 3.6 ms of API CPU per
    // request instead of 2.4, p95 31 ms instead of 21).
    warmup: int('BENCH_WARMUP', 1000),
    warmupSeconds: int('BENCH_WARMUP_SECONDS', 30),
    smallTenant: env.BENCH_SMALL_TENANT ?? tenantCode(settings.tenants),
    exportQuery: env.BENCH_EXPORT_QUERY ?? 'ownership_type=Public,State-owned',
    only: env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',').map((name) => name.trim())) : null,
  };
}

// ---------------------------------------------------------------- scenarios

interface Tenant {
  code: string;
  id: string;
  token: string;
  organizations: number;
  people: number;
}

/** One kind of request; `note` reads what came back (a count, a number of hits). */
interface Variant {
  label: string;
  path: string;
  note(body: unknown): string;
  floor(client: pg.ClientBase): Promise<string>;
}

interface Scenario {
  id: 'list' | 'search' | 'quick' | 'counts';
  name: string;
  targetP95: number;
  variants: Variant[];
}

/**
 * BENCH_ANONYMOUS=1: the load runs without a token (public rows only, no token lookup in the
 * API or the floor), as a visitor's searches do; by default as the tenant's admin.
 */
const ANONYMOUS = process.env.BENCH_ANONYMOUS === '1';
const VISIBLE: floor.Visibility[] = ANONYMOUS ? ['public'] : floor.ADMIN_VISIBLE;

/** BENCH_SEARCH_TERMS: comma-separated organization searches instead of the list below. */
const SEARCH_TERMS = process.env.BENCH_SEARCH_TERMS?.split(',').map((term) => term.trim()).filter(Boolean);

const DEFAULT_LIST_SEARCHES: Array<{ resource: Resource; term: string; why: string }> = [
  { resource: organizations, term: 'capital', why: 'common word' },
  { resource: people, term: 'garcia', why: 'common surname, accent folded' },
  { resource: organizations, term: 'zürich', why: 'city with an accent' },
  { resource: people, term: 'maria lopez', why: 'two words' },
  { resource: organizations, term: 'northwind logistics', why: 'two words' },
  { resource: people, term: 'qwertyuiop', why: 'no match' },
  { resource: organizations, term: 'xylophonique', why: 'no match' },
];

const LIST_SEARCHES = SEARCH_TERMS?.map((term) => ({ resource: organizations, term, why: 'BENCH_SEARCH_TERMS' })) ?? DEFAULT_LIST_SEARCHES;

/** BENCH_QUICK_TERMS: comma-separated quick searches instead of these. */
const QUICK_SEARCHES = process.env.BENCH_QUICK_TERMS?.split(',').map((term) => term.trim()).filter(Boolean)
  ?? ['maria', 'garcia', 'northwind', 'kowalsky', 'müller schmidt', 'qwertyuiop'];

interface ListBody {
  count: number;
  count_is_estimate?: boolean;
  results: unknown[];
}

function listNote(body: unknown): string {
  const page = body as ListBody;
  if (typeof page.count !== 'number' || !Array.isArray(page.results)) throw new Error('list response without count/results');
  return `count ${page.count.toLocaleString('en-US')}${page.count_is_estimate ? ' (estimate)' : ''}`;
}

function scenarios(tenant: Tenant): Scenario[] {
  const tokenHash = hashToken(tenant.token);
  /** The floor of one request: the token lookup, then the data transaction — the statements the API sends. */
  const floorRequest = async <T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> => {
    if (!ANONYMOUS) await floor.authenticate(client, tenant.id, tokenHash);
    return floor.inTenant(client, tenant.id, fn);
  };
  const listPath = (resource: Resource, search: string | null) =>
    `/api/v1${resource.path}/?limit=25${search ? `&search=${encodeURIComponent(search)}` : ''}`;
  const listVariant = (resource: Resource, search: string | null, label: string): Variant => ({
    label,
    path: listPath(resource, search),
    note: listNote,
    floor: async (client) => {
      const count = await floorRequest(client, () => floor.list(client, resource, VISIBLE, { search, limit: 25, offset: 0 }));
      return `count ${count.toLocaleString('en-US')}`;
    },
  });
  return [
    {
      id: 'list',
      name: 'list, default ordering',
      targetP95: 25,
      variants: [organizations, people].map((resource) => listVariant(resource, null, resource.kind)),
    },
    {
      id: 'search',
      name: 'list with a search term',
      targetP95: 60,
      variants: LIST_SEARCHES.map(({ resource, term, why }) => listVariant(resource, term, `${resource.kind} "${term}" (${why})`)),
    },
    {
      id: 'quick',
      name: 'quick search',
      targetP95: 60,
      variants: QUICK_SEARCHES.map((q) => ({
        label: `"${q}"`,
        path: `/api/v1/search/?q=${encodeURIComponent(q)}`,
        note: (body) => {
          const { results } = body as { results: unknown[] };
          if (!Array.isArray(results)) throw new Error('search response without results');
          return `${results.length} results`;
        },
        // Quick search is one read-only message after the token lookup (client.ts readOnce), not a transaction.
        floor: async (client) => {
          if (!ANONYMOUS) await floor.authenticate(client, tenant.id, tokenHash);
          return `${await floor.quickSearch(client, tenant.id, SEARCHED, VISIBLE, q)} results`;
        },
      })),
    },
    {
      id: 'counts',
      name: 'entity counts',
      targetP95: 25,
      variants: [
        {
          label: 'tools/entities-count',
          path: '/api/v1/tools/entities-count/',
          note: (body) => {
            const counts = body as Record<string, { public_count: number; paywall_count: number; hidden_count?: number }>;
            const orgs = counts['organizations'];
            if (!orgs) throw new Error('entity counts without organizations');
            return `organizations ${(orgs.public_count + orgs.paywall_count + (orgs.hidden_count ?? 0)).toLocaleString('en-US')}`;
          },
          floor: async (client) =>
            `organizations ${(await floorRequest(client, () => floor.entityCounts(client))).toLocaleString('en-US')}`,
        },
      ],
    },
  ];
}

// ---------------------------------------------------------------- measuring

interface Measured {
  scenario: Scenario;
  tenant: Tenant;
  api: LoadResult | null;
  sql: LoadResult;
  /** Variant label → what the API and the floor returned for it. */
  notes: Map<string, { api: string; sql: string }>;
  /** Why the API side could not be measured. */
  missing?: string;
  /** 1-minute load average before and after: other work on the machine skews the numbers. */
  load: [number, number];
  /** CPU time the API process spent per measured request. */
  apiCpuMs: number | null;
  /** CPU time this process (the load generator) spent per measured request, on each side. */
  generatorCpuMs: { api: number | null; sql: number };
}

const headersFor = (tenant: Tenant): Record<string, string> =>
  ANONYMOUS ? { host: `${tenant.code}.localhost` } : { host: `${tenant.code}.localhost`, authorization: `Bearer ${tenant.token}` };

async function measure(
  scenario: Scenario,
  tenant: Tenant,
  server: RunningServer,
  http: HttpClient,
  pool: pg.Pool,
  options: RunOptions,
): Promise<Measured> {
  const { variants } = scenario;
  const keyOf = (index: number) => variants[index % variants.length]!.label;
  const notes = new Map<string, { api: string; sql: string }>();
  const headers = headersFor(tenant);

  let missing: string | undefined;
  for (const variant of variants) {
    const response = await http.request('GET', variant.path, headers);
    let api: string;
    if (response.status === 200) {
      api = variant.note(JSON.parse(response.body.toString('utf8')));
    } else {
      api = `HTTP ${response.status}`;
      missing ??= `GET ${variant.path} answered ${response.status}`;
    }
    const client = await pool.connect();
    try {
      notes.set(variant.label, { api, sql: await variant.floor(client) });
    } finally {
      client.release();
    }
  }

  const apiTask = (index: number) => http.get(variants[index % variants.length]!.path, headers).then(() => undefined);
  const sqlTask = async (index: number) => {
    const client = await pool.connect();
    try {
      await variants[index % variants.length]!.floor(client);
    } finally {
      client.release();
    }
  };
  const warm = { ...options, requests: options.warmup, maxSeconds: options.warmupSeconds };
  const log = (side: string, result: LoadResult) =>
    console.error(
      `  ${side.padEnd(4)} ${tenant.code} ${scenario.name}: p50 ${ms(result.p50)} p95 ${ms(result.p95)} p99 ${ms(result.p99)} ` +
        `${result.rps.toFixed(0)} req/s (${result.samples} ok, ${result.errors} errors${result.firstError ? `: ${result.firstError}` : ''})`,
    );

  const loadBefore = os.loadavg()[0]!;
  if (!missing) await runLoad(warm, apiTask);
  await runLoad(warm, sqlTask);
  const apiBatches: Batch[] = [];
  const sqlBatches: Batch[] = [];
  const perRound = Math.ceil(options.requests / options.rounds);
  // CPU spent during the batches: the API process's, and this process's (the load generator) per side.
  const cpu = { api: 0, generatorOnApi: 0, generatorOnSql: 0 };
  for (let round = 0; round < options.rounds; round += 1) {
    const batch = { ...options, requests: perRound, maxSeconds: options.maxSeconds / options.rounds, firstIndex: round * perRound, keyOf };
    if (!missing) {
      const { result, spent: [api, generator] } = await withCpuOf([server.pid, process.pid], () => runBatch(batch, apiTask));
      apiBatches.push(result);
      cpu.api += api!;
      cpu.generatorOnApi += generator!;
    }
    const { result, spent: [generator] } = await withCpuOf([process.pid], () => runBatch(batch, sqlTask));
    sqlBatches.push(result);
    cpu.generatorOnSql += generator!;
  }
  const api = missing ? null : summarize(apiBatches);
  const sql = summarize(sqlBatches);
  if (api) log('api', api);
  log('sql', sql);
  return {
    scenario,
    tenant,
    api,
    sql,
    notes,
    load: [loadBefore, os.loadavg()[0]!],
    apiCpuMs: api && api.samples > 0 ? cpu.api / api.samples : null,
    generatorCpuMs: { api: api && api.samples > 0 ? cpu.generatorOnApi / api.samples : null, sql: cpu.generatorOnSql / sql.samples },
    ...(missing ? { missing } : {}),
  };
}

interface ExportResult {
  path: string;
  status: number;
  expectedRows: number;
  rows: number | null;
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  /** Peak RSS per tenth of the export's duration. */
  rssTimeline: number[];
}

/** Streams one export and watches the server's RSS while it runs. */
async function measureExport(server: RunningServer, http: HttpClient, tenant: Tenant, query: string, expectedRows: number): Promise<ExportResult> {
  const exportPath = `/api/v1${organizations.path}/?format=xlsx&${query}`;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssBefore = rssMiB(server.pid);
  const sampler = new RssSampler(server.pid).start(100);
  const chunks: Buffer[] = [];
  let bytes = 0;
  const t0 = performance.now();
  const response = await http.request('GET', exportPath, headersFor(tenant), undefined, (chunk) => {
    bytes += chunk.length;
    chunks.push(chunk);
  });
  const seconds = (performance.now() - t0) / 1000;
  const rssPeak = sampler.stop();
  const rssTimeline = sampler.timeline(Math.max(100, (seconds * 1000) / 10));
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssAfter = rssMiB(server.pid);

  let rows: number | null = null;
  if (response.status === 200) {
    // The body is kept by the load generator only to count the rows written;
    // the server never sees it again.
    const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    const sheet = Object.entries(files).find(([name]) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name));
    if (sheet) rows = (Buffer.from(sheet[1]).toString('utf8').match(/<row[ >]/g)?.length ?? 1) - 1;
  }
  return { path: exportPath, status: response.status, expectedRows, rows, bytes, seconds, rssBefore, rssPeak, rssAfter, rssTimeline };
}

// ---------------------------------------------------------------- report

const ms = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms` : '—');
const num = (value: number) => value.toLocaleString('en-US');
const cell = (value: number | undefined, format: (value: number) => string = ms) => (value === undefined ? '—' : format(value));

function verdict(result: Measured): string {
  if (!result.api) return 'not measured';
  const reasons: string[] = [];
  if (result.api.errors > 0) reasons.push(`${result.api.errors} errors`);
  if (result.api.p95 > result.scenario.targetP95) reasons.push(`p95 > ${result.scenario.targetP95} ms`);
  if (result.api.p95 > 2 * result.sql.p95) reasons.push('p95 > 2× floor');
  return reasons.length === 0 ? 'met' : `**missed** (${reasons.join(', ')})`;
}

interface Environment {
  loadAtStart: number;
  postgres: string;
  settings: Record<string, string>;
  tenants: Tenant[];
  totals: { organizations: number; people: number; tenants: number };
}

function report(
  settings: BenchSettings,
  options: RunOptions,
  environment: Environment,
  results: Measured[],
  auth: LoadResult | null,
  exported: ExportResult | null,
  serverPeak: number,
  plans: string[],
  started: Date,
): string {
  const cpus = os.cpus();
  const lines: string[] = [
    `# intelnotes benchmark — ${started.toISOString()}`,
    '',
    `- Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}; Node ${process.version}`,
    `- PostgreSQL: ${environment.postgres} on loopback (${Object.entries(environment.settings).map(([name, value]) => `${name}=${value}`).join(', ')})`,
    `- Data: database \`${settings.database}\`, ${num(environment.totals.organizations)} organizations and ${num(environment.totals.people)} people over ${environment.totals.tenants} tenants; ` +
      environment.tenants.map((tenant) => `${tenant.code} ${num(tenant.organizations)} / ${num(tenant.people)}`).join(', '),
    `- Load: ${num(options.requests)} requests per scenario and side (capped at ${options.maxSeconds} s) after ${num(options.warmup)} warm-up (capped at ${options.warmupSeconds} s), API and floor alternating in ${options.rounds} rounds, ${options.concurrency} concurrent keep-alive connections, ${ANONYMOUS ? 'anonymous (public rows only, no token)' : "signed in as the tenant's admin (sees all three visibilities)"}; the load generator, the API and PostgreSQL share the machine`,
    `- Load average (1 min) of the machine: ${environment.loadAtStart.toFixed(1)} at the start; the last column of the table shows it around each scenario; the benchmark itself accounts for up to about ${options.concurrency + 1}, more means other processes shared the ${os.cpus().length} cores`,
    '- Floor: the same SQL statements the API runs for the request, through `pg` on a pool of the same size: the token lookup (one statement, `app_live_session`), then the data transaction opened like the API opens it (`BEGIN` and `set_config` of the app role and tenant in one message; quick search sends its whole read-only transaction as one message, as the API does), so row-level security applies exactly as for the API (bench/queries.ts)',
    '',
    '## Latency',
    '',
    '| Scenario | Tenant | API p50 | API p95 | API p99 | API req/s | SQL p50 | SQL p95 | SQL p99 | SQL req/s | API p95 ÷ SQL p95 | Target | Result | API CPU/req | Generator CPU/req (API / SQL) | Load avg |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---|',
  ];
  for (const result of results) {
    const { api, sql } = result;
    lines.push(
      `| ${result.scenario.name} | ${result.tenant.code} | ${cell(api?.p50)} | ${cell(api?.p95)} | ${cell(api?.p99)} | ${cell(api?.rps, (v) => v.toFixed(0))} | ` +
        `${ms(sql.p50)} | ${ms(sql.p95)} | ${ms(sql.p99)} | ${sql.rps.toFixed(0)} | ${api ? `${(api.p95 / sql.p95).toFixed(2)}×` : '—'} | ` +
        `p95 ≤ ${result.scenario.targetP95} ms, ≤ 2× floor | ${verdict(result)} | ${cell(result.apiCpuMs ?? undefined)} | ` +
        `${cell(result.generatorCpuMs.api ?? undefined)} / ${ms(result.generatorCpuMs.sql)} | ` +
        `${result.load[0].toFixed(1)} → ${result.load[1].toFixed(1)} |`,
    );
  }
  if (auth) {
    lines.push(
      '',
      `Token lookup alone (one statement per request, included in every floor above): p50 ${ms(auth.p50)}, p95 ${ms(auth.p95)}, ${auth.rps.toFixed(0)} req/s.`,
    );
  }
  const missing = results.filter((result) => result.missing);
  if (missing.length > 0) {
    lines.push('', 'Not measured on the API: ' + missing.map((result) => `${result.scenario.name} (${result.missing})`).join('; ') + '.');
  }

  lines.push(
    '',
    '## By request',
    '',
    'Each scenario cycles through these requests; what the first one returned is shown (API / floor).',
    '',
    '| Scenario | Tenant | Request | API p50 | API p95 | SQL p50 | SQL p95 | Returned (API / SQL) |',
    '|---|---|---|---:|---:|---:|---:|---|',
  );
  for (const result of results) {
    for (const variant of result.scenario.variants) {
      const api: LatencyStats | undefined = result.api?.byKey.get(variant.label);
      const sql = result.sql.byKey.get(variant.label);
      const note = result.notes.get(variant.label);
      lines.push(
        `| ${result.scenario.name} | ${result.tenant.code} | ${variant.label} | ${cell(api?.p50)} | ${cell(api?.p95)} | ${cell(sql?.p50)} | ${cell(sql?.p95)} | ${note ? `${note.api} / ${note.sql}` : ''} |`,
      );
    }
  }

  lines.push('', '## Memory', '', `API process peak RSS during the latency scenarios: ${serverPeak.toFixed(0)} MiB.`, '');
  if (exported) {
    lines.push(
      `xlsx export \`GET ${exported.path}\` on ${environment.tenants[0]!.code} (RSS of the API process sampled every 100 ms):`,
      '',
      '| HTTP | Rows (expected) | Size | Time | RSS before | RSS peak | RSS after |',
      '|---|---:|---:|---:|---:|---:|---:|',
      `| ${exported.status} | ${exported.rows === null ? '—' : num(exported.rows)} (${num(exported.expectedRows)}) | ${(exported.bytes / 2 ** 20).toFixed(1)} MiB | ${exported.seconds.toFixed(1)} s | ` +
        `${exported.rssBefore.toFixed(0)} MiB | ${exported.rssPeak.toFixed(0)} MiB | ${exported.rssAfter.toFixed(0)} MiB |`,
      '',
      `RSS through the export, peak of each tenth of its duration: ${exported.rssTimeline.map((mib) => mib.toFixed(0)).join(' → ')} MiB.`,
    );
  } else {
    lines.push('xlsx export: not measured.');
  }

  if (plans.length > 0) lines.push('', `## Query plans (${environment.tenants[0]!.code}, as the app role)`, '', ...plans);
  lines.push('', `Reproduce: \`node --import tsx bench/seed.ts ${settings.database} && node --import tsx bench/run.ts ${settings.database}\``, '');
  return lines.join('\n');
}

async function explainPlans(pool: pg.Pool, tenant: Tenant): Promise<string[]> {
  const statements: Array<{ title: string; statement: floor.Statement }> = [
    { title: 'organizations page, default ordering', statement: floor.pageStatement(organizations, floor.ADMIN_VISIBLE, { search: null, limit: 25, offset: 0 }) },
    { title: 'organizations page, search "capital"', statement: floor.pageStatement(organizations, floor.ADMIN_VISIBLE, { search: 'capital', limit: 25, offset: 0 }) },
    { title: 'organizations capped count, search "capital"', statement: floor.cappedCountStatement(organizations, floor.ADMIN_VISIBLE, 'capital') },
    { title: 'people page, search "qwertyuiop" (no match)', statement: floor.pageStatement(people, floor.ADMIN_VISIBLE, { search: 'qwertyuiop', limit: 25, offset: 0 }) },
    { title: 'quick search "garcia" on people', statement: floor.quickSearchStatement([people], floor.ADMIN_VISIBLE, 'garcia', 10) },
    { title: 'quick search "northwind" on organizations', statement: floor.quickSearchStatement([organizations], floor.ADMIN_VISIBLE, 'northwind', 10) },
  ];
  const out: string[] = [];
  const client = await pool.connect();
  try {
    for (const { title, statement } of statements) {
      const rows = await floor.inTenant(client, tenant.id, async () =>
        (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`, statement.values)).rows,
      );
      out.push(`### ${title}`, '', '```', ...rows.map((row) => row['QUERY PLAN']), '```', '');
    }
  } finally {
    client.release();
  }
  return out;
}

// ---------------------------------------------------------------- main

async function login(http: HttpClient, code: string, settings: BenchSettings): Promise<string> {
  const response = await http.request('POST', '/api/v1/auth/login/', { host: `${code}.localhost` }, {
    email: settings.adminEmail,
    password: settings.adminPassword,
  });
  if (response.status !== 200) throw new Error(`login on ${code} → ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`);
  return (JSON.parse(response.body.toString('utf8')) as { token: string }).token;
}

async function describeEnvironment(pool: pg.Pool, tenants: Tenant[]): Promise<Environment> {
  const { rows: [version] } = await pool.query<{ v: string }>("SELECT split_part(version(), ' on ', 1) AS v");
  const { rows: settingRows } = await pool.query<{ name: string; setting: string }>(
    `SELECT name, current_setting(name) AS setting FROM pg_settings
     WHERE name IN ('shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost', 'jit', 'max_parallel_workers_per_gather')
     ORDER BY name`,
  );
  const { rows: [totals] } = await pool.query<{ organizations: string; people: string; tenants: string }>(
    `SELECT (SELECT count(*) FROM organizations) AS organizations, (SELECT count(*) FROM people) AS people,
            (SELECT count(*) FROM tenants WHERE code LIKE 'bench%') AS tenants`,
  );
  return {
    loadAtStart: os.loadavg()[0]!,
    postgres: version!.v,
    settings: Object.fromEntries(settingRows.map((row) => [row.name, row.setting])),
    tenants,
    totals: { organizations: Number(totals!.organizations), people: Number(totals!.people), tenants: Number(totals!.tenants) },
  };
}

async function main(): Promise<void> {
  const started = new Date();
  const settings = readSettings();
  const options = readRunOptions(settings);
  const wanted = (id: string) => !options.only || options.only.has(id);
  // The job queue uses its own database (bench/jobs.ts): BENCH_ONLY=jobs needs no seeded one.
  if (options.only?.size === 1 && wanted('jobs')) {
    console.log(await runJobsBench(settings.serverUrl));
    return;
  }

  // The owner (superuser) connection, as the API uses: it only reaches tenant
  // rows after SET LOCAL ROLE, exactly like the API's transactions.
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: options.concurrency, application_name: 'intelnotes-bench-floor' });
  try {
    await pool.query('SELECT 1 FROM organizations LIMIT 1');
  } catch (error) {
    throw new Error(`cannot read ${settings.database} (${(error as Error).message}); run bench/seed.ts first`);
  }

  console.error(`starting the API on ${settings.database} …`);
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  // BENCH_SERVER_ROOT: the API of another checkout (e.g. an older commit's worktree) against the same floor.
  const server = await startServer(settings.databaseUrl, { nodeArgs, ...(process.env.BENCH_SERVER_ROOT ? { root: process.env.BENCH_SERVER_ROOT } : {}) });
  const http = new HttpClient(server.port, options.concurrency);
  try {
    const tenants: Tenant[] = [];
    for (const code of [tenantCode(1), options.smallTenant]) {
      const { rows: [row] } = await pool.query<{ id: string; organizations: string; people: string }>(
        `SELECT t.id, (SELECT count(*) FROM organizations o WHERE o.tenant_id = t.id) AS organizations,
                (SELECT count(*) FROM people p WHERE p.tenant_id = t.id) AS people
         FROM tenants t WHERE t.code = $1`,
        [code],
      );
      if (!row) throw new Error(`tenant ${code} not found in ${settings.database}`);
      const token = await login(http, code, settings);
      tenants.push({ code, id: row.id, token, organizations: Number(row.organizations), people: Number(row.people) });
    }
    const environment = await describeEnvironment(pool, tenants);

    const serverSampler = new RssSampler(server.pid).start(250);
    const results: Measured[] = [];
    for (const tenant of tenants) {
      for (const scenario of scenarios(tenant).filter((candidate) => wanted(candidate.id))) {
        results.push(await measure(scenario, tenant, server, http, pool, options));
      }
    }

    let auth: LoadResult | null = null;
    if (wanted('auth')) {
      const [largest] = tenants;
      const tokenHash = hashToken(largest!.token);
      auth = await runLoad(options, async () => {
        const client = await pool.connect();
        try {
          await floor.authenticate(client, largest!.id, tokenHash);
        } finally {
          client.release();
        }
      });
    }
    const serverPeak = serverSampler.stop();

    let exported: ExportResult | null = null;
    if (wanted('export')) {
      const largest = tenants[0]!;
      const filters = [...new URLSearchParams(options.exportQuery)].map(([name, values]) => ({ name, values: values.split(',') }));
      const statement = floor.exactCountStatement(organizations, floor.ADMIN_VISIBLE, filters);
      const client = await pool.connect();
      let expected: number;
      try {
        expected = await floor.inTenant(client, largest.id, async () => (await client.query(statement.text, statement.values)).rows[0].n);
      } finally {
        client.release();
      }
      console.error(`export: ${options.exportQuery} (${num(expected)} rows expected) …`);
      exported = await measureExport(server, http, largest, options.exportQuery, expected);
    }

    const plans = wanted('plans') ? await explainPlans(pool, tenants[0]!) : [];
    const jobs = wanted('jobs') ? await runJobsBench(settings.serverUrl) : '';
    const markdown = report(settings, options, environment, results, auth, exported, serverPeak, plans, started) + (jobs ? `\n${jobs}` : '');
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, `${started.toISOString().replace(/[:.]/g, '-')}.md`);
    writeFileSync(file, markdown);
    console.log(markdown);
    console.error(`written to ${path.relative(process.cwd(), file)}`);
  } finally {
    http.close();
    await server.stop();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error('bench/run:', error instanceof Error ? error.message : error);
  process.exit(1);
});

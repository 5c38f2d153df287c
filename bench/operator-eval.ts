/**
 * The Operator on questions written without reading its parser (issue 27 item 3):
 * bench/operator-fresh/dev.jsonl by default, holdout.jsonl with --holdout.
 *
 *   nice -n 19 node --import tsx bench/operator-eval.ts [--holdout | --file <questions.jsonl>] [--errors] [--check]
 *
 * Starts the product as `npm start` does (server/src/main.ts, the embedded PostgreSQL server in a
 * fresh temporary DATA_DIR, no workers), seeds the default tenant through the HTTP API
 * (operator-fresh/seed.ts), then asks each question at POST /api/v1/ai-assistant/queries/nlp-to-query/
 * as its audience (admin, the paywall reader, or a visitor without a token), runs the list call
 * the answer gives (`list.path` with `list.params`; every page — its `limit` is a page size —
 * except where the question asks for a number of rows) as
 * the same audience, and compares it with the expected meaning run the same way:
 *
 * - an expectation `{resource, params, within?, empty?}` is a list query (names written as
 *   `@org:`, `@person:`, `@entry:`, `@lib:`, `@kw:`, `@geo:`, `@list:` placeholders resolved to the
 *   seed's ids); `within` keeps the rows whose id is among the ids a related query gives
 *   (`{resource, params, field, within?}`: the ids in `field` of that query's rows) or among the
 *   items of a list (`{list}`); `empty: true` means no row answers it (e.g. "created in 2019" over a
 *   seed written today). `limit` in params: only the first `limit` rows count, in order.
 *   Order is compared by the ordering field's values (ties may come in any order).
 * - `{not_understood: [words]}`: the answer must name one of these words as not understood.
 * - `{refuse: "write"}`: the answer must refuse (a 4xx answer whose detail or code says it refuses
 *   a change, a field naming a refusal, or an explanation saying nothing is changed).
 *
 * Categories: exact (same rows, and order where asked, nothing flagged), refused (write requests
 * refused), flagged ok (the expected words reported as not understood), right but hedged (the
 * right rows with words reported as not understood), partial said (a superset, with words
 * reported as not understood), broadened silently (a strict superset of a non-empty answer — or any answer to a question
 * with words it cannot answer — with nothing reported: the worst kind), wrong (anything else,
 * errors included).
 *
 * --check runs only the expected queries (never the Operator) and prints each one's row count:
 * to validate a question file against the seed.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call } from './server.ts';
import { seed, type SeedRefs } from './operator-fresh/seed.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const HOLDOUT = args.includes('--holdout');
const SHOW_ERRORS = args.includes('--errors');
const CHECK_ONLY = args.includes('--check');
// --file <path>: another question file in the same format (e.g. a developer's own variants of the dev set's classes).
const FILE_ARG = args.includes('--file') ? args[args.indexOf('--file') + 1] : undefined;
const FILE = FILE_ARG ? path.resolve(FILE_ARG) : path.join(REPO_ROOT, 'bench', 'operator-fresh', HOLDOUT ? 'holdout.jsonl' : 'dev.jsonl');
const OPERATOR_PATH = '/api/v1/ai-assistant/queries/nlp-to-query/';

const RESOURCE_PATHS: Record<string, string> = {
  organizations: '/api/v1/assets/organizations/',
  people: '/api/v1/assets/people/',
  ledger_entries: '/api/v1/assets/ledger/',
  library: '/api/v1/library/',
  lists: '/api/v1/lists/',
  investments: '/api/v1/assets/investments/',
};

type Params = Record<string, string | string[]>;
interface Within { resource?: string; params?: Params; field?: string; within?: Within; list?: string }
interface ListExpect { resource: string; params: Params; within?: Within; empty?: boolean }
type Expect = ListExpect | { not_understood: string[] } | { refuse: 'write' };
interface Question { kind: string; q: string; as: 'admin' | 'reader' | 'visitor'; expect: Expect }
type Row = Record<string, unknown> & { id: string };

const questions: Question[] = readFileSync(FILE, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));

// ---------------------------------------------------------------------------
// The product

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `node --import tsx server/src/main.ts` as `npm start` runs it, on a fresh DATA_DIR; output to a log file (as bench/api-under-processing.ts). */
async function startProduct(dataDir: string, port: number, logFile: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), WORKERS: '0', WEB_DIST: '/nonexistent', LOG_LEVEL: 'warn' };
  delete env['DATABASE_URL'];
  delete env['OPERATOR_LLM_URL'];
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited before serving:\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    if (readFileSync(logFile, 'utf8').includes('serving on http://localhost:')) break;
    if (performance.now() - started > 600_000) throw new Error('the product did not serve within 600 s');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------
// Reading lists

let port = 0;
const host = () => `localhost:${port}`;

function query(params: Record<string, string>): string {
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : '';
}

/** Rows of a list call: the first `cap` rows (from `offset`), or every row when there is no cap. */
async function readRows(listPath: string, params: Record<string, string>, token: string | undefined, cap: number | null): Promise<{ status: number; rows: Row[]; error?: string }> {
  const rows: Row[] = [];
  const { limit: _limit, offset: givenOffset, ...rest } = params;
  let offset = Number(givenOffset ?? 0) || 0;
  for (;;) {
    const size = cap === null ? 100 : Math.min(100, cap - rows.length);
    const response = await call(port, host(), 'GET', `${listPath}${query({ ...rest, limit: String(size), offset: String(offset) })}`, undefined, token);
    if (response.status !== 200) return { status: response.status, rows, error: JSON.stringify(response.json).slice(0, 400) };
    const page = response.json.results as Row[];
    rows.push(...page);
    offset += page.length;
    if (page.length === 0 || !response.json.next || (cap !== null && rows.length >= cap)) break;
  }
  return { status: 200, rows };
}

function resolveValue(value: string, refs: SeedRefs): string {
  const match = /^@(org|person|entry|lib|kw|geo|list):(.+)$/.exec(value);
  if (!match) return value;
  const map = { org: refs.organizations, person: refs.people, entry: refs.ledger_entries, lib: refs.library, kw: refs.keywords, geo: refs.geos, list: refs.lists }[match[1] as 'org'];
  const id = map.get(match[2]!);
  if (!id) throw new Error(`no seeded record for ${value}`);
  return id;
}

function resolveParams(params: Params | undefined, refs: SeedRefs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) out[key] = (Array.isArray(value) ? value : [value]).map((v) => resolveValue(String(v), refs)).join(',');
  return out;
}

function idsOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(idsOf);
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && 'id' in (value as object)) return [String((value as { id: unknown }).id)];
  return [];
}

async function withinIds(within: Within, refs: SeedRefs, token: string | undefined): Promise<Set<string>> {
  if (within.list) {
    const id = resolveValue(`@list:${within.list}`, refs);
    const items = await readRows(`/api/v1/lists/${id}/items/`, {}, token, null);
    if (items.status === 404) return new Set();
    if (items.status !== 200) throw new Error(`list items ${within.list}: ${items.status} ${items.error}`);
    return new Set(items.rows.map((row) => row.id));
  }
  const rows = await expectedRows({ resource: within.resource!, params: within.params ?? {}, within: within.within }, refs, token);
  return new Set(rows.flatMap((row) => idsOf(row[within.field!])));
}

async function expectedRows(expect: ListExpect, refs: SeedRefs, token: string | undefined): Promise<Row[]> {
  if (expect.empty) return [];
  const listPath = RESOURCE_PATHS[expect.resource];
  if (!listPath) throw new Error(`unknown resource ${expect.resource}`);
  const params = resolveParams(expect.params, refs);
  const result = await readRows(listPath, params, token, null);
  if (result.status !== 200) throw new Error(`expected query ${expect.resource} ${JSON.stringify(params)}: ${result.status} ${result.error}`);
  if (!expect.within) return result.rows;
  const keep = await withinIds(expect.within, refs, token);
  return result.rows.filter((row) => keep.has(row.id));
}

// ---------------------------------------------------------------------------
// Scoring

type Category = 'exact' | 'refused' | 'flagged_ok' | 'hedged' | 'partial_said' | 'broadened' | 'wrong';
const CATEGORIES: Category[] = ['exact', 'refused', 'flagged_ok', 'hedged', 'partial_said', 'broadened', 'wrong'];
const HEADINGS: Record<Category, string> = {
  exact: 'exact', refused: 'refused ok', flagged_ok: 'not-understood ok', hedged: 'right but hedged',
  partial_said: 'partial (said)', broadened: 'broadened silently', wrong: 'wrong',
};

/** An ordering value as it ranks: incomplete dates as their first day. */
function rankKey(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^\d{4}$/.test(text)) return `${text}-01-01`;
  if (/^\d{4}-\d{2}$/.test(text)) return `${text}-01`;
  if (/^-?\d+(\.\d+)?$/.test(text)) return String(Number(text));
  return text;
}

function sameOrder(got: Row[], want: Row[], field: string, k: number): boolean {
  if (got.length < Math.min(k, want.length)) return false;
  for (let i = 0; i < Math.min(k, want.length); i += 1) if (rankKey(got[i]![field]) !== rankKey(want[i]![field])) return false;
  return true;
}

const REFUSAL = /read[- ]only|only (reads|answers|finds|searches)|cannot (change|delete|modify|write|create|update|remove|edit)|can't (change|delete|modify|write|create|update|remove|edit)|refus|not (allowed|permitted)|does not (change|modify|write)|never (changes|writes)/i;

interface Outcome { category: Category; detail: string }

async function score(question: Question, refs: SeedRefs): Promise<Outcome> {
  const token = question.as === 'admin' ? refs.adminToken : question.as === 'reader' ? refs.readerToken : undefined;
  const answer = await call(port, host(), 'POST', OPERATOR_PATH, { query: question.q }, token);
  const body = answer.json ?? {};
  const notUnderstood: string[] = Array.isArray(body.not_understood) ? body.not_understood.map(String) : [];
  const said = notUnderstood.length > 0;
  const summary = `${answer.status} ${body.list ? `${body.list.path}${query(body.list.params ?? {})}` : JSON.stringify(body).slice(0, 200)}${said ? ` not_understood=${JSON.stringify(notUnderstood)}` : ''}`;
  const expect = question.expect;

  if ('refuse' in expect) {
    // A 4xx counts only when it says it is refusing a change (a generic "could not parse" is no refusal).
    const refusedByStatus = answer.status >= 400 && answer.status < 500 && ![401, 404, 429].includes(answer.status)
      && (REFUSAL.test(String(body.detail ?? '')) || /write|read_only|refus|forbidden/i.test(String(body.code ?? '')));
    const refusedByField = Object.entries(body).some(([key, value]) => /refus/i.test(key) && Boolean(value));
    const refusedByWords = typeof body.explanation === 'string' && REFUSAL.test(body.explanation);
    if (refusedByStatus || refusedByField || refusedByWords) return { category: 'refused', detail: summary };
    return { category: 'wrong', detail: `answered a write request: ${summary}` };
  }

  if ('not_understood' in expect) {
    const words = expect.not_understood.map((w) => w.toLowerCase());
    const reported = answer.status >= 400 ? JSON.stringify(body).toLowerCase() : notUnderstood.join(' | ').toLowerCase();
    if (words.some((word) => reported.includes(word) || notUnderstood.some((n) => n && word.includes(n.toLowerCase()) && n.length >= 3))) {
      return { category: 'flagged_ok', detail: summary };
    }
    if (answer.status === 200 && !said) return { category: 'broadened', detail: `answered without saying what it did not understand: ${summary}` };
    return { category: 'wrong', detail: `did not name ${JSON.stringify(expect.not_understood)}: ${summary}` };
  }

  if (answer.status !== 200 || !body.list?.path) return { category: 'wrong', detail: `no list: ${summary}` };
  const want = await expectedRows(expect, refs, token);
  const limit = expect.params['limit'] ? Number(expect.params['limit']) : null;
  const ordering = typeof expect.params['ordering'] === 'string' ? (expect.params['ordering'] as string) : null;
  const listPath = String(body.list.path).startsWith('/api/') ? String(body.list.path) : `/api/v1/${String(body.list.path).replace(/^\/+/, '')}`;
  const params = Object.fromEntries(Object.entries(body.list.params ?? {}).map(([k, v]) => [k, String(v)]));
  // The answer's `limit` is the page size of its list call: the rows it answers are every page,
  // except where the question asks for a number of rows (then the first `limit` count, in order).
  const cap = limit !== null && params['limit'] ? Number(params['limit']) : null;
  const got = await readRows(listPath.endsWith('/') ? listPath : `${listPath}/`, params, token, cap);
  if (got.status !== 200) return { category: 'wrong', detail: `its list call failed (${got.status} ${got.error}): ${summary}` };

  let right: boolean;
  let superset = false;
  if (limit !== null && ordering) {
    const field = ordering.replace(/^-/, '').split(',')[0]!;
    const wantTop = want.slice(0, limit);
    const gotTop = got.rows.slice(0, limit);
    const tiedAtEdge = want.length > limit && rankKey(want[limit - 1]![field]) === rankKey(want[limit]![field]);
    right = sameOrder(gotTop, wantTop, field, limit) && (tiedAtEdge || new Set(gotTop.map((r) => r.id)).size === wantTop.length && wantTop.every((r) => gotTop.some((g) => g.id === r.id)));
  } else {
    const wantIds = new Set(want.map((row) => row.id));
    const gotIds = new Set(got.rows.map((row) => row.id));
    right = wantIds.size === gotIds.size && [...wantIds].every((id) => gotIds.has(id));
    // A superset of nothing is only a partial answer when the answer says what it left out.
    superset = !right && [...wantIds].every((id) => gotIds.has(id)) && gotIds.size > wantIds.size && (wantIds.size > 0 || said);
    if (right && ordering) right = sameOrder(got.rows, want, ordering.replace(/^-/, '').split(',')[0]!, 10);
  }
  const counts = `got ${got.rows.length}, expected ${want.length}`;
  if (right) return said ? { category: 'hedged', detail: `${counts}: ${summary}` } : { category: 'exact', detail: `${counts}: ${summary}` };
  if (superset) return said ? { category: 'partial_said', detail: `${counts}: ${summary}` } : { category: 'broadened', detail: `${counts}: ${summary}` };
  return { category: 'wrong', detail: `${counts}: ${summary}` };
}

// ---------------------------------------------------------------------------

function table(results: Array<{ question: Question; outcome: Outcome }>): string {
  const kinds = [...new Set(results.map((r) => r.question.kind))];
  const header = ['kind', 'n', ...CATEGORIES.map((c) => HEADINGS[c]), 'right'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  const row = (label: string, items: typeof results) => {
    const count = (c: Category) => items.filter((r) => r.outcome.category === c).length;
    const right = count('exact') + count('refused') + count('flagged_ok');
    lines.push(`| ${label} | ${items.length} | ${CATEGORIES.map(count).join(' | ')} | ${right} (${Math.round((100 * right) / Math.max(1, items.length))}%) |`);
  };
  for (const kind of kinds) row(kind, results.filter((r) => r.question.kind === kind));
  row('**all**', results);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-operator-eval-'));
  port = await freePort();
  const logFile = path.join(dataDir, 'product.log');
  console.error(`starting the product: DATA_DIR=${dataDir} PORT=${port}`);
  const product = await startProduct(dataDir, port, logFile);
  try {
    const started = performance.now();
    const refs = await seed(port, host(), (line) => console.error(`  ${line}`));
    console.error(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s; ${questions.length} questions from ${path.relative(REPO_ROOT, FILE)}`);
    if (CHECK_ONLY) {
      for (const question of questions) {
        const token = question.as === 'admin' ? refs.adminToken : question.as === 'reader' ? refs.readerToken : undefined;
        if (!('resource' in question.expect)) continue;
        const rows = await expectedRows(question.expect, refs, token);
        console.log(`${String(rows.length).padStart(4)}  [${question.as}] ${question.q}`);
      }
      return;
    }
    const results: Array<{ question: Question; outcome: Outcome }> = [];
    for (const question of questions) {
      let outcome: Outcome;
      try {
        outcome = await score(question, refs);
      } catch (error) {
        outcome = { category: 'wrong', detail: `error: ${(error as Error).message}` };
      }
      results.push({ question, outcome });
    }
    console.log(`Operator on ${path.relative(REPO_ROOT, FILE)} (${questions.length} questions)\n`);
    console.log(table(results));
    if (SHOW_ERRORS) {
      console.log('');
      for (const { question, outcome } of results) {
        if (outcome.category === 'exact') continue;
        console.log(`- [${question.kind}/${question.as}] ${outcome.category}: "${question.q}" — ${outcome.detail}`);
      }
    }
  } finally {
    await product.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

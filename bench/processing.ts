/**
 * Processing speed and memory (issue 16 item 7: "1,000 mixed documents (PDF, DOCX, HTML, e-mail,
 * text) processed in under 5 minutes on 2 cores with bounded memory"): BENCH_DOCUMENTS (1,000)
 * generated documents — plain text, HTML articles with menus, e-mails (some with an attachment),
 * DOCX and PDF made from HTML by LibreOffice in one batch per format — uploaded into a tenant that
 * holds organizations and people (so the gazetteer and linking have records to find), then
 * processed by the real job (POST raw-data/process: reading, extracting, linking, suggesting) in
 * the API's own in-process worker. Prints the time from the request to the last item completed,
 * items per second, errors by reason, and the API's RSS: before, peak while processing (sampled),
 * peak of the whole run (VmHWM) and after.
 *
 *   node --import tsx bench/processing.ts                      # embedded PGlite, in a temp DATA_DIR
 *   node --import tsx bench/processing.ts postgres://postgres@127.0.0.1:5432/postgres
 *
 * With a URL (or DATABASE_URL) the API runs on that PostgreSQL server, on its own database
 * (intelnotes_bench_processing, recreated, dropped at the end). BENCH_DOCUMENTS (1000),
 * BENCH_WORKER_CONCURRENCY (the API's WORKER_CONCURRENCY, default 2), BENCH_RECORDS (300
 * organizations and as many people). The documents are generated once into
 * $TMPDIR/intelnotes-bench-processing-<n>-v1 and reused (delete it to regenerate). Needs
 * `soffice` (apt-get install libreoffice-writer).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { email, html, organization, person, plainText, story, uploadFiles } from './documents.ts';
import { onServer } from './jobs.ts';
import { RssSampler, call, rssMiB, startServer } from './server.ts';

const int = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const DOCUMENTS = int('BENCH_DOCUMENTS', 1000);
const CONCURRENCY = int('BENCH_WORKER_CONCURRENCY', 2);
const RECORDS = int('BENCH_RECORDS', 300);
const PASSWORD = 'bench-processing-password';
const DATABASE = 'intelnotes_bench_processing';
/** Files per POST raw-data/upload/ (RAW_DATA_MAX_FILES is 200). */
const UPLOAD_BATCH = 100;

/** Shares of the documents by kind, in this order. */
const MIX: Array<[Kind, number]> = [['text', 0.25], ['html', 0.2], ['email', 0.2], ['docx', 0.15], ['pdf', 0.2]];
type Kind = 'text' | 'html' | 'email' | 'docx' | 'pdf';
const EXTENSION: Record<Kind, string> = { text: 'txt', html: 'html', email: 'eml', docx: 'docx', pdf: 'pdf' };
const MIME: Record<Kind, string> = {
  text: 'text/plain',
  html: 'text/html',
  email: 'message/rfc822',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
};

// ---------------------------------------------------------------------------
// Documents

interface Document {
  name: string;
  kind: Kind;
  file: string;
}

/** The documents, generated once into a folder of the OS temp dir and reused. */
function documents(): Document[] {
  const folder = path.join(os.tmpdir(), `intelnotes-bench-processing-${DOCUMENTS}-v1`);
  const plan: Array<{ n: number; kind: Kind; name: string }> = [];
  let n = 0;
  for (const [kind, share] of MIX) {
    const count = kind === 'pdf' ? DOCUMENTS - n : Math.round(DOCUMENTS * share);
    for (let i = 0; i < count; i += 1, n += 1) plan.push({ n, kind, name: `doc-${String(n).padStart(5, '0')}.${EXTENSION[kind]}` });
  }
  const list = plan.map(({ kind, name }) => ({ name, kind, file: path.join(folder, name) }));
  if (list.every((document) => existsSync(document.file))) return list;

  const started = performance.now();
  rmSync(folder, { recursive: true, force: true });
  const work = `${folder}.work`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'sources', 'pdf'), { recursive: true });
  mkdirSync(path.join(work, 'sources', 'docx'), { recursive: true });
  mkdirSync(path.join(work, 'out'), { recursive: true });
  for (const { n, kind, name } of plan) {
    const s = story(n, RECORDS);
    const target = path.join(work, 'out', name);
    if (kind === 'text') writeFileSync(target, plainText(s));
    else if (kind === 'html') writeFileSync(target, html(s, true));
    else if (kind === 'email') writeFileSync(target, email(s, n));
    else writeFileSync(path.join(work, 'sources', kind, name.replace(/\.\w+$/, '.html')), html(s, false));
  }
  // One LibreOffice run per format converts all its sources.
  for (const [kind, filter] of [['pdf', 'pdf:writer_pdf_Export'], ['docx', 'docx:MS Word 2007 XML']] as const) {
    const sources = readdirSync(path.join(work, 'sources', kind)).map((file) => path.join(work, 'sources', kind, file));
    if (sources.length === 0) continue;
    try {
      execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${work}/profile`, '--infilter=HTML (StarWriter)', '--convert-to', filter, '--outdir', path.join(work, 'out'), ...sources], {
        stdio: 'ignore',
        timeout: 1_800_000,
      });
    } catch (error) {
      throw new Error(`soffice could not make the ${kind} files (apt-get install libreoffice-writer): ${(error as Error).message}`);
    }
  }
  const missing = list.filter((document) => !existsSync(path.join(work, 'out', document.name)));
  if (missing.length > 0) throw new Error(`${missing.length} documents were not made, e.g. ${missing[0]!.name}`);
  renameSync(path.join(work, 'out'), folder);
  rmSync(work, { recursive: true, force: true });
  console.log(`Generated ${list.length} documents in ${((performance.now() - started) / 1000).toFixed(0)} s into ${folder}`);
  return list;
}

// ---------------------------------------------------------------------------
// The API

/** POST raw-data/upload/ with these files; the new items' ids. */
const upload = (port: number, host: string, token: string, files: Document[]): Promise<string[]> =>
  uploadFiles(port, host, token, files.map((file) => ({ name: file.name, contentType: MIME[file.kind], body: readFileSync(file.file) })));

/** VmHWM: the process's peak RSS since it started, in MiB. */
function peakRssMiB(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const serverUrl = process.argv[2] ?? process.env['DATABASE_URL'] ?? '';
  const docs = documents();
  const byKind = Object.fromEntries(MIX.map(([kind]) => [kind, docs.filter((document) => document.kind === kind).length]));
  const bytes = docs.reduce((sum, document) => sum + readFileSync(document.file).length, 0);

  let databaseUrl = '';
  if (serverUrl) {
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await onServer(serverUrl, `CREATE DATABASE ${DATABASE}`);
    const url = new URL(serverUrl);
    url.pathname = `/${DATABASE}`;
    databaseUrl = url.toString();
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-bench-processing-data-'));
  const server = await startServer(databaseUrl, {
    env: { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, WORKER_CONCURRENCY: String(CONCURRENCY), DATABASE_URL: databaseUrl },
  });
  try {
    const host = `demo.localhost:${server.port}`;
    const login = await call(server.port, host, 'POST', '/api/v1/auth/login/', { email: 'admin@intelnotes.local', password: PASSWORD });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
    const token = login.json.token as string;

    let started = performance.now();
    for (let n = 0; n < RECORDS; n += 1) {
      for (const [kind, body] of [['organizations', { name_inc: organization(n) }], ['people', { name_given: person(n).split(' ')[0], name_family: person(n).split(' ').slice(1).join(' ') }]] as const) {
        const created = await call(server.port, host, 'POST', `/api/v1/assets/${kind}/`, body, token);
        if (created.status !== 201 && created.status !== 409) throw new Error(`${kind}: ${created.status} ${JSON.stringify(created.json)}`);
      }
    }
    const seeding = (performance.now() - started) / 1000;

    started = performance.now();
    const ids: string[] = [];
    for (let index = 0; index < docs.length; index += UPLOAD_BATCH) ids.push(...(await upload(server.port, host, token, docs.slice(index, index + UPLOAD_BATCH))));
    const uploading = (performance.now() - started) / 1000;

    const rssBefore = rssMiB(server.pid);
    const sampler = new RssSampler(server.pid).start(250);
    const load = os.loadavg();
    started = performance.now();
    const requestedAt = Date.now();
    const queued = await call(server.port, host, 'POST', '/api/v1/raw-data/process/', { ids }, token);
    if (queued.status !== 202) throw new Error(`process answered ${queued.status}: ${JSON.stringify(queued.json)}`);
    const count = async (status: string) => (await call(server.port, host, 'GET', `/api/v1/raw-data/?processing_status=${status}&limit=1`, undefined, token)).json.count as number;
    let done = 0;
    let lastReport = 0;
    for (;;) {
      done = (await count('completed')) + (await count('error'));
      const elapsed = (performance.now() - started) / 1000;
      if (elapsed - lastReport >= 30) {
        lastReport = elapsed;
        console.error(`  ${elapsed.toFixed(0)} s: ${done} of ${ids.length} processed, RSS ${rssMiB(server.pid).toFixed(0)} MiB`);
      }
      if (done >= ids.length) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const polled = (performance.now() - started) / 1000;
    const rssPeak = sampler.stop();

    // The last completion, from the items themselves (not the polling interval).
    const items: Array<{ content_kind: string; processing_status: string; processing_error: string | null; processed_at: string }> = [];
    for (let offset = 0; offset < ids.length; offset += 100) {
      items.push(...(await call(server.port, host, 'GET', `/api/v1/raw-data/?limit=100&offset=${offset}&ordering=file_name`, undefined, token)).json.results);
    }
    // The last completion from the items' processed_at when the list shows it, else when polling saw it (±0.5 s).
    const last = Math.max(...items.map((item) => Date.parse(item.processed_at)));
    const seconds = Number.isFinite(last) ? (last - requestedAt) / 1000 : polled;
    const errors = new Map<string, number>();
    for (const item of items.filter((row) => row.processing_status === 'error')) {
      const reason = `${item.content_kind}: ${(item.processing_error ?? '').slice(0, 120)}`;
      errors.set(reason, (errors.get(reason) ?? 0) + 1);
    }
    const entities = await call(server.port, host, 'GET', `/api/v1/suggested-entities/organizations/?limit=1`, undefined, token);

    console.log(`\n${ids.length} documents (${Object.entries(byKind).map(([kind, n]) => `${n} ${kind}`).join(', ')}; ${(bytes / 1048576).toFixed(1)} MiB), ` +
      `${serverUrl ? 'PostgreSQL server' : 'embedded PGlite'}, WORKER_CONCURRENCY ${CONCURRENCY}, ${os.cpus().length} CPUs, load average at the start ${load.map((value) => value.toFixed(1)).join(' ')}\n`);
    console.log('| Step | Result |');
    console.log('|---|---|');
    console.log(`| tenant records made first | ${RECORDS} organizations + ${RECORDS} people, ${seeding.toFixed(0)} s |`);
    console.log(`| upload (${UPLOAD_BATCH} files a request) | ${uploading.toFixed(1)} s |`);
    console.log(`| **processing: request → last item completed** | **${seconds.toFixed(1)} s** (${(ids.length / seconds).toFixed(1)} items/s) |`);
    console.log(`| completed / error | ${items.filter((item) => item.processing_status === 'completed').length} / ${items.filter((item) => item.processing_status === 'error').length} |`);
    console.log(`| suggested organizations waiting for review | ${entities.json?.count ?? '?'} |`);
    console.log(`| API RSS before processing | ${rssBefore.toFixed(0)} MiB |`);
    console.log(`| API RSS peak while processing (sampled every 250 ms) | ${rssPeak.toFixed(0)} MiB |`);
    console.log(`| API peak RSS of the whole run (VmHWM) | ${peakRssMiB(server.pid).toFixed(0)} MiB |`);
    console.log(`| API RSS after | ${rssMiB(server.pid).toFixed(0)} MiB |`);
    console.log(`| load average at the end | ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} |`);
    console.log(`\nRSS timeline (peak per 30 s, MiB): ${sampler.timeline(30_000).map((value) => value.toFixed(0)).join(', ')}`);
    for (const [reason, n] of errors) console.log(`error × ${n}: ${reason}`);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (serverUrl) await onServer(serverUrl, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

#!/usr/bin/env node
// The whole test suite: API and unit tests (server/src/**/*.test.ts), the web app's layer-rule
// test (web/boundaries.test.ts) and the browser tests (e2e/**/*.test.ts), with node:test.
//   npm test                      on an embedded PostgreSQL server started for the run
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test
//                                 on that server (a superuser URL; requests run as the app role)
//   npm test -- server/src/auth   only the test files under the given paths
//
// Two test workers (one per core) each load the code once and run their share of the files
// one after another in that process (scripts/test-shard.mjs); every file gets its own
// database, cloned from a migrated template. Files are shared out longest first, by the
// durations of the last run on this machine.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['server/src', 'web', 'e2e'];
const WORKERS = Number(process.env['TEST_WORKERS'] ?? Math.max(1, Math.min(2, os.availableParallelism())));
const durationsFile = path.join(os.tmpdir(), 'intelnotes-test-durations.json');

function* testFiles(entry) {
  const full = path.resolve(root, entry);
  if (!existsSync(full) || full.includes('node_modules')) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* testFiles(path.join(full, name));
  } else if (full.endsWith('.test.ts')) {
    yield path.relative(root, full);
  }
}

const files = [...new Set(roots.flatMap((entry) => [...testFiles(entry)]))];
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`);
  process.exit(1);
}

/** Longest first onto the least loaded worker; a file never timed counts as a browser file or a short one. */
function shares(list) {
  let known = {};
  try {
    known = JSON.parse(readFileSync(durationsFile, 'utf8'));
  } catch {
    // first run here
  }
  const guess = (file) => known[file] ?? (file.startsWith('e2e') ? 60_000 : /route-fuzz/.test(file) ? 60_000 : 8_000);
  const buckets = Array.from({ length: WORKERS }, () => ({ files: [], load: 0 }));
  for (const file of [...list].sort((a, b) => guess(b) - guess(a))) {
    const bucket = buckets.reduce((least, candidate) => (candidate.load < least.load ? candidate : least));
    bucket.files.push(file);
    bucket.load += guess(file);
  }
  return buckets.map((bucket) => bucket.files).filter((share) => share.length > 0);
}

if (files.some((file) => file.startsWith('e2e'))) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-web-if-stale.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Everything a run writes (the embedded server, screenshots, durations of this run) goes to
// one temporary folder, never into the work tree.
const runDir = mkdtempSync(path.join(os.tmpdir(), 'intelnotes-test-run-'));
const artifacts = path.join(runDir, 'artifacts');

let server = null;
let databaseUrl = process.env['TEST_DATABASE_URL'];
if (!databaseUrl) {
  // The embedded server, as `npm start` runs it, for this run only.
  const started = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/test-database.ts'), 'start', path.join(runDir, 'postgres')],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (started.status !== 0) process.exit(started.status ?? 1);
  server = JSON.parse(started.stdout.trim().split('\n').at(-1));
  databaseUrl = server.url;
}

/** Fast shutdown of the run's server, waiting (up to 30 s) until it is gone. */
const stopServer = () => {
  if (!server) return;
  const { pid } = server;
  server = null;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; alive() && waited < 30_000; waited += 50) Atomics.wait(pause, 0, 0, 50);
};

console.log(`intelnotes: ${files.length} test files on ${process.env['TEST_DATABASE_URL'] ? 'the PostgreSQL server at TEST_DATABASE_URL' : 'an embedded PostgreSQL server'}, ${WORKERS} workers`);
const started = Date.now();
const workers = shares(files).map((share, index) => {
  const durations = path.join(runDir, `durations-${index}.json`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      // Per test: a browser test on a loaded 2-core machine can take minutes; a hang still fails.
      '--test-timeout=900000',
      `--test-reporter=${path.join(root, 'scripts/test-files-reporter.mjs')}`,
      '--test-reporter-destination=stdout',
      path.join(root, 'scripts/test-shard.mjs'),
      ...share,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_ENV: 'test', TEST_DATABASE_URL: databaseUrl, TEST_ARTIFACTS_DIR: artifacts, TEST_DURATIONS_FILE: durations },
    },
  );
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), durations, share })));
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopServer();
    process.exit(1);
  });
}

const results = await Promise.all(workers);
stopServer();

const merged = (() => {
  try {
    return JSON.parse(readFileSync(durationsFile, 'utf8'));
  } catch {
    return {};
  }
})();
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const unfinished = [];
for (const { durations, share } of results) {
  let report = { durations: {}, totals, failures: [] };
  try {
    report = JSON.parse(readFileSync(durations, 'utf8'));
    Object.assign(merged, report.durations);
    for (const key of Object.keys(totals)) totals[key] += report.totals[key];
    failures.push(...report.failures);
  } catch {
    // that worker died before its first file ended
  }
  unfinished.push(...share.filter((file) => !(file in report.durations)));
}
writeFileSync(durationsFile, JSON.stringify(merged, null, 1));

if (failures.length > 0) console.log(`\n# ${failures.length} failed:\n${failures.join('\n')}\n`);
if (unfinished.length > 0) console.log(`\n# ${unfinished.length} test files never finished (their worker died):\n${unfinished.map((file) => `  ${file}`).join('\n')}\n`);
const incomplete = unfinished.length > 0;
const failed = incomplete || failures.length > 0 || results.some((result) => result.code !== 0);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const tests = totals.passed + totals.failed + totals.skipped;
console.log(
  `intelnotes: test run ${failed ? 'FAILED' : 'passed'} in ${minutes} min — ${tests} tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${incomplete ? ' (counts incomplete)' : ''}`,
);
if (existsSync(artifacts)) {
  console.log(`intelnotes: screenshots and other output are in ${artifacts}`);
  rmSync(path.join(runDir, 'postgres'), { recursive: true, force: true });
} else {
  rmSync(runDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

#!/usr/bin/env node
// The whole test suite: API and unit tests (server/src/**/*.test.ts), the web app's
// layer-rule test (web/boundaries.test.ts) and the browser tests (e2e/**/*.test.ts), with
// node:test. Builds the web app first when it is stale, because the browser tests drive the
// built app.
//   npm test                      PGlite in memory, one fresh database per test file
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test
//                                 a fresh database per test file on that server
//   npm test -- server/src/auth   only the test files under the given paths
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['server/src', 'web', 'e2e'];

function* testFiles(entry) {
  const full = path.resolve(root, entry);
  if (!existsSync(full) || full.includes('node_modules')) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* testFiles(path.join(full, name));
  } else if (full.endsWith('.test.ts')) {
    yield path.relative(root, full);
  }
}

// Longest first: two workers share a queue, so a long file started last leaves the other
// worker idle until it ends. The browser tests take the longest (a server and Chromium each),
// then the route fuzz shards; the rest take seconds.
const rank = (file) => (file.startsWith('e2e') ? 0 : /route-fuzz\.\d+\.test\.ts$/.test(file) ? 1 : 2);
const files = roots
  .flatMap((entry) => [...testFiles(entry)])
  .map((file, index) => ({ file, index }))
  .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
  .map(({ file }) => file);
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`);
  process.exit(1);
}

if (files.some((file) => file.startsWith('e2e'))) {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-web-if-stale.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

console.log(`intelnotes: ${files.length} test files on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'PGlite'}`);
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    // Per test and per file: a browser file of eight tests took over 300 s on a loaded 2-core
    // machine and failed on time alone; a test that hangs still fails, after 15 minutes.
    '--test-timeout=900000',
    // The usual output, then a summary of the failures last, where a CI log's tail shows it.
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(root, 'scripts/test-failures-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);

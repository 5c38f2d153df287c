#!/usr/bin/env node
// Builds web/dist when it is missing or older than its sources. "Older" is
// decided by a hash of the sources, not mtimes, so a fresh checkout of an
// unchanged tree does not rebuild and an edited file always does.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inputs = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/precompress.ts', 'web/tsconfig.json', 'web/package.json', 'server/src/contracts.ts', 'package-lock.json'];
const stampFile = path.join(root, 'web/dist/.source-hash');

function* files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

const hash = createHash('sha256');
for (const input of inputs) for (const file of files(input)) hash.update(file).update('\0').update(readFileSync(path.join(root, file)));
const digest = hash.digest('hex');

const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
if (current === digest && existsSync(path.join(root, 'web/dist/index.html'))) {
  process.exit(0);
}
console.log('intelnotes: building the web app (sources changed or no build yet)…');
const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) {
  console.error('intelnotes: the web app build failed');
  process.exit(result.status ?? 1);
}
writeFileSync(stampFile, `${digest}\n`);

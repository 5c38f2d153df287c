/**
 * dependency-loader.mjs, the module hook worker.ts registers: installed packages' ES modules
 * (node_modules/**.mjs) load as they are, everything else goes on to the next hook (tsx). And a
 * process with the hook before tsx's still reads a PDF with pdf.js (its worker module, loaded by
 * `import()` from pdf.js itself, included) and imports the TypeScript around it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
// @ts-expect-error -- a plain JavaScript hook module (it runs in the hooks thread, without tsx)
import { load } from './dependency-loader.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const hookUrl = pathToFileURL(path.join(here, 'dependency-loader.mjs')).href;
const pdfModule = pathToFileURL(path.resolve(here, '../../../node_modules/pdfjs-dist/legacy/build/pdf.mjs')).href;

type Loaded = { format: string; source: Uint8Array | string; shortCircuit?: boolean };
const loadHook = load as (url: string, context: object, next: (url: string, context: object) => Promise<Loaded>) => Promise<Loaded>;

describe('dependency-loader.mjs', () => {
  it("serves an installed package's .mjs file as it is, and hands everything else to the next hook", async () => {
    const passed: string[] = [];
    const next = async (url: string) => {
      passed.push(url);
      return { format: 'module', source: 'next' };
    };
    const served = await loadHook(pdfModule, {}, next);
    assert.equal(served.format, 'module');
    assert.equal(served.shortCircuit, true);
    assert.equal(Buffer.from(served.source as Uint8Array).toString('utf8'), readFileSync(fileURLToPath(pdfModule), 'utf8'));
    assert.deepEqual(passed, []);

    const ours = pathToFileURL(path.join(here, 'supervisor.ts')).href;
    const cjs = pathToFileURL(path.resolve(here, '../../../node_modules/mammoth/lib/index.js')).href;
    for (const url of [ours, cjs, 'node:fs', `${pdfModule.slice(0, -4)}.js`]) assert.equal((await loadHook(url, {}, next)).source, 'next');
    assert.deepEqual(passed, [ours, cjs, 'node:fs', `${pdfModule.slice(0, -4)}.js`]);
  });

  it('before tsx, a PDF is still read (pdf.js and its worker module untransformed, the readers in TypeScript)', () => {
    const extract = pathToFileURL(path.resolve(here, '../processing/text/index.ts')).href;
    const pdf = path.resolve(here, '../processing/text/fixtures/report.pdf');
    const script = `
      import { register } from 'node:module';
      import { readFileSync } from 'node:fs';
      register(${JSON.stringify(hookUrl)});
      const { extractText } = await import(${JSON.stringify(extract)});
      const read = await extractText({ bytes: new Uint8Array(readFileSync(${JSON.stringify(pdf)})), mime: 'application/pdf' });
      console.log(JSON.stringify({ method: read.method, chars: read.text.length }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(child.status, 0, child.stderr);
    const read = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { method: string; chars: number };
    assert.equal(read.method, 'pdf-text');
    assert.ok(read.chars > 100, `read ${read.chars} characters`);
  });
});

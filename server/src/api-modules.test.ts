/**
 * The API process queues processing and never runs it, so it never loads the libraries that
 * read files (pdf.js, Tesseract, mammoth, linkedom, …) or the extractor's name lists: they are
 * the worker's (rawdata.processing.ts loads them with the first job). A child process imports
 * what api.ts imports, with a module hook writing down every module resolved.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Modules only processing needs: file readers, OCR, and the extractor beyond its settings' types. */
const PROCESSING_ONLY = [
  /node_modules\/(pdfjs-dist|tesseract\.js|mammoth|linkedom|@mozilla\/readability|postal-mime)\//,
  // The readers of issue 26: Office 97 and Outlook files, SheetJS, RTF, TIFF pages, HEIC.
  /node_modules\/(cfb|word-extractor|@kenjiuno\/msgreader|@e965\/xlsx|rtf-stream-parser|iconv-lite|utif2|heic-decode|libheif-js)\//,
  /server\/src\/processing\/text\/(?!types\.ts)/,
  /server\/src\/processing\/entities\/(consistency|deals|extract|gazetteer|lexicon|model|names|tables|tagger|tokens)\.ts/,
  /server\/src\/modules\/rawdata\/(entity-finding|findings)\.ts/,
];

describe('the API process', () => {
  it('loads none of the modules that only processing uses', () => {
    const imports = [...readFileSync(path.join(here, 'api.ts'), 'utf8').matchAll(/^import .* from '(\.\/[^']+)';$/gm)].map((match) => match[1]!);
    assert.ok(imports.includes('./app.ts') && imports.includes('./engine.ts'), 'api.ts imports the app and the engine');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'intelnotes-api-modules-'));
    try {
      const log = path.join(dir, 'modules.txt');
      const hooks = `import { appendFileSync } from 'node:fs';
        export async function resolve(specifier, context, next) { const found = await next(specifier, context); appendFileSync(${JSON.stringify(log)}, found.url + '\\n'); return found; }`;
      const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
      const child = spawnSync(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--import', 'tsx', '--input-type=module', '-e',
          imports.map((specifier) => `await import(${JSON.stringify(new URL(specifier, `file://${here}/`).href)});`).join('\n')],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      assert.equal(child.status, 0, child.stderr);
      const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      assert.ok(loaded.some((url) => url.endsWith('/server/src/engine.ts')), 'the hook saw the engine load');
      assert.deepEqual(loaded.filter((url) => PROCESSING_ONLY.some((pattern) => pattern.test(url))), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

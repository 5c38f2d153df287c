/**
 * Serving the built web app: precompressed copies (web/precompress.ts, the build step) sent
 * with the right Content-Encoding and Vary, hashed assets cached for a year, index.html never
 * served from cache without revalidation, client-side routes answered with index.html.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { precompressDir } from '../../../web/precompress.ts';
import { WEB_CACHE_CONTROL } from '../app.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

describe('the built web app', () => {
  let dist: string;
  let context: TestContext;
  const script = `console.log(${JSON.stringify('intelnotes '.repeat(400))});\n`;
  const index = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<!-- shell -->'.repeat(100)}</body></html>`;

  before(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-web-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), index);
    await writeFile(path.join(dist, 'assets', 'index-AbC123.js'), script);
    await writeFile(path.join(dist, 'assets', 'tiny-XyZ789.js'), 'export {};\n');
    await writeFile(path.join(dist, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`);
    assert.equal(await precompressDir(dist), 6);
    context = await createTestApp({ WEB_DIST: dist });
  });
  after(async () => {
    await context?.close();
    await rm(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    context.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('the build step writes a brotli and a gzip copy of each compressible file, not of tiny ones', () => {
    for (const file of ['index.html', 'assets/index-AbC123.js', 'favicon.svg']) {
      assert.ok(existsSync(path.join(dist, `${file}.br`)), `${file}.br`);
      assert.ok(existsSync(path.join(dist, `${file}.gz`)), `${file}.gz`);
    }
    assert.equal(existsSync(path.join(dist, 'assets/tiny-XyZ789.js.br')), false);
  });

  it('sends the brotli copy to a browser that accepts it, gzip to one that accepts only gzip', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['content-type']), /javascript/);
    assert.match(String(br.headers['vary']), /accept-encoding/i);
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), script);

    const gz = await get('/assets/index-AbC123.js', 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.match(String(gz.headers['vary']), /accept-encoding/i);
    assert.equal(gunzipSync(gz.rawPayload).toString(), script);
  });

  it('sends the file itself, still varying on Accept-Encoding, to a client that accepts no compression', async () => {
    const plain = await get('/assets/index-AbC123.js', 'identity');
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(String(plain.headers['vary']), /accept-encoding/i);
    assert.equal(plain.body, script);
    assert.equal((await get('/assets/tiny-XyZ789.js', 'br')).body, 'export {};\n');
  });

  it('caches hashed assets for a year as immutable, whichever copy is sent', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      assert.equal((await get('/assets/index-AbC123.js', encoding)).headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    assert.equal((await get('/assets/tiny-XyZ789.js')).headers['cache-control'], WEB_CACHE_CONTROL.hashed);
  });

  it('has browsers revalidate index.html, for client-side routes too, compressed alike', async () => {
    for (const url of ['/', '/organizations/123', '/index.html']) {
      const response = await get(url, 'br');
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], 'no-cache', url);
      assert.equal(response.headers['content-encoding'], 'br', url);
      assert.match(String(response.headers['content-type']), /text\/html/, url);
      assert.equal(brotliDecompressSync(response.rawPayload).toString(), index, url);
    }
    assert.equal((await get('/organizations/123', 'identity')).body, index);
  });

  it('caches files whose names carry no hash for an hour only', async () => {
    const response = await get('/favicon.svg', 'gzip');
    assert.equal(response.headers['cache-control'], 'public, max-age=3600');
    assert.equal(response.headers['content-encoding'], 'gzip');
  });

  it('a missing asset is a 404, not index.html', async () => {
    const response = await get('/assets/gone-000000.js', 'br');
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'not_found');
  });
});

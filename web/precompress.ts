/**
 * A Vite plugin that writes a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible
 * file of the build, once, at the highest levels: the server sends them as they are
 * (@fastify/static `preCompressed`), so no request pays for compression. A copy is kept only
 * when it is smaller than the file.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this, the headers of a compressed response outweigh what it saves. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/** Compresses the compressible files under `dir`; returns how many copies were written. */
export async function precompressDir(dir: string): Promise<number> {
  const jobs: Array<Promise<number>> = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const content = await readFile(file);
        const [br, gz] = await Promise.all([
          brotli(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        let written = 0;
        for (const [suffix, copy] of [['.br', br], ['.gz', gz]] as const) {
          if (copy.length >= content.length) continue;
          await writeFile(`${file}${suffix}`, copy);
          written += 1;
        }
        return written;
      })(),
    );
  }
  return (await Promise.all(jobs)).reduce((sum, count) => sum + count, 0);
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'intelnotes-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const written = await precompressDir(outDir);
      this.info(`precompressed ${written} files (brotli and gzip) in ${path.relative(process.cwd(), outDir) || '.'}`);
    },
  };
}

/**
 * Raw data upload throughput and the API's memory (docs/rawdata.md, issue 15 item 7): N clients
 * each upload one file of M MB at once (POST raw-data/, multipart, chunked), and the same with
 * one client, rounds alternating; the API's RSS is sampled throughout. Uploads are streamed
 * (hashed, counted and sniffed on their way to the store), so memory must stay flat however
 * many bytes are in flight.
 *
 *   node --import tsx bench/uploads.ts
 *
 * Runs its own API on embedded PGlite in a temporary DATA_DIR (files in the local store there),
 * or on `DATABASE_URL` when given. BENCH_UPLOAD_CLIENTS (20), BENCH_UPLOAD_MB (50),
 * BENCH_UPLOAD_ROUNDS (2). Each file is distinct (no deduplication) pseudo-random bytes made
 * on the fly by the client, so the load generator holds no file either.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { RssSampler, call, rssMiB, startServer } from './server.ts';

const int = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const CLIENTS = int('BENCH_UPLOAD_CLIENTS', 20);
const MEGABYTES = int('BENCH_UPLOAD_MB', 50);
const ROUNDS = int('BENCH_UPLOAD_ROUNDS', 2);
const PASSWORD = 'bench-uploads-password';
const CHUNK = 64 * 1024;

/** `bytes` of cheap pseudo-random content: a random 64 KiB block with a counter stamped into each copy. */
function fileBody(bytes: number): Readable {
  const block = randomBytes(CHUNK);
  let sent = 0;
  let counter = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.push(null);
        return;
      }
      const chunk = Buffer.from(block.subarray(0, Math.min(CHUNK, bytes - sent)));
      chunk.writeUInt32LE(counter++ % 0xffffffff, 0);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** One multipart upload of `bytes`, streamed; resolves with the HTTP status. */
function upload(port: number, host: string, token: string, name: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const boundary = `bench-${randomBytes(8).toString('hex')}`;
    const request = http.request(
      {
        host: '127.0.0.1', port, method: 'POST', path: '/api/v1/raw-data/',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const body = fileBody(bytes);
    body.pipe(request, { end: false });
    body.on('end', () => request.end(`\r\n--${boundary}--\r\n`));
  });
}

interface Round {
  clients: number;
  seconds: number;
  mbPerSecond: number;
  rssBefore: number;
  rssPeak: number;
}

async function round(port: number, host: string, token: string, pid: number, clients: number, tag: string): Promise<Round> {
  const bytes = MEGABYTES * 1024 * 1024;
  const rssBefore = rssMiB(pid);
  const sampler = new RssSampler(pid).start(100);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: clients }, (_, index) => upload(port, host, token, `${tag}-${index}.bin`, bytes)));
  const seconds = (performance.now() - started) / 1000;
  const rssPeak = sampler.stop();
  if (statuses.some((status) => status !== 201)) throw new Error(`uploads answered ${statuses.join(', ')}`);
  return { clients, seconds, mbPerSecond: (clients * MEGABYTES) / seconds, rssBefore, rssPeak };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-bench-uploads-'));
  const server = await startServer(process.env['DATABASE_URL'] ?? '', {
    env: {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      FILE_UPLOAD_LIMIT_BYTES: String((MEGABYTES + 1) * 1024 * 1024),
      ...(process.env['DATABASE_URL'] ? {} : { DATABASE_URL: '' }),
    },
  });
  try {
    const host = `demo.localhost:${server.port}`;
    const login = await call(server.port, host, 'POST', '/api/v1/auth/login/', { email: 'admin@intelnotes.local', password: PASSWORD });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
    const token = login.json.token as string;
    // Warm-up: the first upload compiles the routes' code paths.
    await round(server.port, host, token, server.pid, 1, 'warmup');
    const results: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      results.push(await round(server.port, host, token, server.pid, CLIENTS, `many-${index}`));
      results.push(await round(server.port, host, token, server.pid, 1, `one-${index}`));
    }
    console.log(`\n${CLIENTS} clients × ${MEGABYTES} MB and 1 client × ${MEGABYTES} MB, ${ROUNDS} rounds alternating; load: ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);
    console.log('| Clients | Seconds | MB/s | API RSS before (MiB) | API RSS peak (MiB) |');
    console.log('|---|---|---|---|---|');
    for (const result of results) {
      console.log(`| ${result.clients} | ${result.seconds.toFixed(1)} | ${result.mbPerSecond.toFixed(1)} | ${result.rssBefore.toFixed(0)} | ${result.rssPeak.toFixed(0)} |`);
    }
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/** The real process: start-up, first-start seeding, bad settings, SIGTERM. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const children: ChildProcess[] = [];

/** node:http, because fetch does not let a caller set the Host header. */
function call(port: string, host: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: { host, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'info', WEB_DIST: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Waits for as long as it takes — a busy machine may need minutes to start — and fails at once
  // when the process exits first; the test runner's timeout bounds the whole test.
  const until = <T,>(found: () => T | null, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value !== null) {
          done();
          resolve(value);
        } else if (child.exitCode !== null) {
          done();
          reject(new Error(`process exited (${child.exitCode}) before ${what}; output:\n${output}`));
        }
      };
      const done = () => {
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('exit', check);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.on('exit', check);
      check();
    });
  const waitFor = (pattern: RegExp) => until(() => pattern.exec(output), `printing ${pattern}`);
  /** How many requests the server has logged the arrival of, and a wait until it has logged `count`. */
  const arrived = () => output.split('"msg":"incoming request"').length - 1;
  const arrivals = (count: number) => until(() => (arrived() >= count ? true : null), `${count} requests arrived`);
  return { child, exited, waitFor, arrivals, arrived, output: () => output };
}

describe('the server process', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('stops at once with a clear message on a bad setting', async () => {
    const server = start({ PORT: 'abc' });
    assert.equal(await server.exited, 78);
    assert.match(server.output(), /invalid configuration: PORT must be a whole number/);
  });

  it('migrates, seeds and prints the admin login on first start, serves, and drains on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-main-'));
    dirs.push(dataDir);
    // About the process, not the engine: always embedded PGlite in a fresh folder.
    // A generous drain timeout: on a busy machine the in-flight sign-in may take seconds.
    const env: Record<string, string> = { DATA_DIR: dataDir, PORT: '0', SHUTDOWN_TIMEOUT_MS: '120000' };
    const server = start(env);
    const [, port] = await server.waitFor(/serving on http:\/\/localhost:(\d+)/);
    await server.waitFor(/password:/);
    assert.match(server.output(), /first start/);
    assert.match(server.output(), /email: +admin@intelnotes\.local/);
    assert.match(server.output(), /password: +intelnotes-admin/);

    const demo = `demo.localhost:${port}`;
    const tenant = await call(port!, demo, 'GET', '/api/v1/tenant/');
    assert.equal(tenant.status, 200);
    assert.equal(tenant.json.code, 'demo');

    const credentials = { email: 'admin@intelnotes.local', password: 'intelnotes-admin' };
    const login = await call(port!, demo, 'POST', '/api/v1/auth/login/', credentials);
    assert.equal(login.status, 200);
    assert.equal(login.json.is_admin, true);

    // A request in flight when SIGTERM arrives still gets its answer: SIGTERM goes once the
    // server has logged the request's arrival (sign-in hashes with scrypt, so it is still running).
    const before = server.arrived();
    const inFlight = call(port!, demo, 'POST', '/api/v1/auth/login/', credentials);
    await server.arrivals(before + 1);
    server.child.kill('SIGTERM');
    assert.equal((await inFlight).status, 200);
    assert.equal(await server.exited, 0);
    assert.match(server.output(), /shutting down/);

    // Second start: no seeding message, same data.
    const again = start(env);
    await again.waitFor(/serving on/);
    assert.doesNotMatch(again.output(), /first start/);
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });
});

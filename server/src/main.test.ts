/** The real process: start-up, first-start seeding, bad settings, SIGTERM. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { call, killAll, start } from './test/processes.ts';

describe('the server process', () => {
  const dirs: string[] = [];
  after(async () => {
    killAll();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('stops at once with a clear message on a bad setting', async () => {
    const server = start({ PORT: 'abc' });
    assert.equal(await server.exited, 78);
    assert.match(server.output(), /invalid configuration: PORT must be a whole number/);
  });

  it('stops with a clear message when the file store does not answer', async () => {
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
    const server = start({ STORAGE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'intelnotes-files', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    assert.equal(await server.exited, 78);
    assert.match(server.output(), /file storage unavailable: The S3 bucket "intelnotes-files" at http:\/\/127\.0\.0\.1:9 could not be reached/);
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

/**
 * The real product as `npm start` runs it: the supervisor with the embedded PostgreSQL server,
 * the API and a worker process — start-up, first-start seeding, bad settings, a child killed,
 * SIGTERM, and a supervisor killed outright (its database left running, its lock stale).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { call, killAll, start } from './test/processes.ts';

const SUPERVISOR = 'src/main.ts';

/** The pids of the children the supervisor says it started, by name, latest first. */
function childPids(output: string): Record<string, number> {
  const pids: Record<string, number> = {};
  for (const line of output.split('\n')) {
    const match = /"child":"([\w-]+)","pid":(\d+),"msg":"process started"/.exec(line);
    if (match) pids[match[1]!] = Number(match[2]);
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function postmasterPid(dataDir: string): Promise<number | null> {
  try {
    return Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return null;
  }
}

describe('the product under its supervisor', () => {
  const dirs: string[] = [];
  after(async () => {
    killAll();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  /** DATA_DIR of the full run below, once its cluster is initialised, migrated and stopped cleanly. */
  let initialised: string | undefined;
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-main-'));
    dirs.push(dir);
    return dir;
  };

  it('stops at once with a clear message on a bad setting', async () => {
    const server = start({ PORT: 'abc' }, SUPERVISOR);
    assert.equal(await server.exited, 78);
    assert.match(server.output(), /invalid configuration: PORT must be a whole number/);
  });

  it('initialises the database, seeds, serves; restarts a killed worker and a killed database; drains on SIGTERM; survives being killed outright; recycles a worker past its memory mark', async () => {
    const dir = await dataDir();
    // A generous drain timeout: on a busy machine the in-flight sign-in may take seconds.
    const env: Record<string, string> = { DATA_DIR: dir, PORT: '0', WORKERS: '1', SHUTDOWN_TIMEOUT_MS: '120000' };
    const server = start(env, SUPERVISOR);
    const [, port] = await server.waitFor(/serving on http:\/\/localhost:(\d+)/);
    await server.waitFor(/password:/);
    assert.match(server.output(), /initialising the embedded PostgreSQL server/);
    assert.match(server.output(), /first start/);
    assert.match(server.output(), /email: +admin@intelnotes\.local/);
    assert.match(server.output(), /password: +intelnotes-admin/);
    assert.ok(existsSync(path.join(dir, 'postgres', 'PG_VERSION')), 'the cluster lives in DATA_DIR/postgres');

    const demo = `demo.localhost:${port}`;
    const tenant = await call(port!, demo, 'GET', '/api/v1/tenant/');
    assert.equal(tenant.status, 200);
    assert.equal(tenant.json.code, 'demo');
    const credentials = { email: 'admin@intelnotes.local', password: 'intelnotes-admin' };
    const login = await call(port!, demo, 'POST', '/api/v1/auth/login/', credentials);
    assert.equal(login.status, 200);
    assert.equal(login.json.is_admin, true);

    // A worker killed outright is logged with its reason and started again.
    await server.waitFor(/worker running up to/);
    const worker = childPids(server.output())['worker-1']!;
    process.kill(worker, 'SIGKILL');
    await server.waitFor(/"child":"worker-1".*"signal":"SIGKILL".*process died; starting it again/);
    await server.waitFor(new RegExp(`"child":"worker-1","pid":(?!${worker}\\b)\\d+,"msg":"process started"`));

    // The database server killed outright: the supervisor starts it again, the API reconnects.
    const killed = (await postmasterPid(dir))!;
    process.kill(killed, 'SIGKILL');
    await server.waitFor(/embedded PostgreSQL server stopped unexpectedly/);
    await server.waitFor(/embedded PostgreSQL server running again/);
    for (;;) {
      const answer = await call(port!, demo, 'POST', '/api/v1/auth/login/', credentials).catch(() => null);
      if (answer?.status === 200) break;
      assert.ok(!answer || answer.status === 503, `while the database restarts: ${answer?.status} ${JSON.stringify(answer?.json)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // A request in flight when SIGTERM arrives still gets its answer: SIGTERM goes once the
    // API has logged the request's arrival (sign-in hashes with scrypt, so it is still running).
    const database = (await postmasterPid(dir))!;
    const before = server.arrived();
    const inFlight = call(port!, demo, 'POST', '/api/v1/auth/login/', credentials);
    await server.arrivals(before + 1);
    server.child.kill('SIGTERM');
    assert.equal((await inFlight).status, 200);
    assert.equal(await server.exited, 0);
    assert.match(server.output(), /shutting down/);
    assert.match(server.output(), /embedded PostgreSQL server stopped/);
    assert.equal(alive(database), false, 'the database stopped with the product');
    for (const pid of Object.values(childPids(server.output()))) assert.equal(alive(pid), false);

    // Second start: no initdb, no seeding, same data. Then the supervisor is killed outright:
    // its children notice and stop; its database is left running, holding the folder's lock.
    const again = start(env, SUPERVISOR);
    const [, secondPort] = await again.waitFor(/serving on http:\/\/localhost:(\d+)/);
    assert.doesNotMatch(again.output(), /first start|initialising/);
    assert.equal((await call(secondPort!, demo.replace(port!, secondPort!), 'POST', '/api/v1/auth/login/', credentials)).status, 200);
    const orphan = (await postmasterPid(dir))!;
    again.child.kill('SIGKILL');
    await again.exited;
    const children = Object.values(childPids(again.output()));
    while (children.some(alive)) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(alive(orphan), true, 'the database outlives a supervisor killed with SIGKILL');

    // The next start stops that server and starts its own on the same data. Its worker has a
    // memory mark of 1 MiB: past it after every job, it drains, exits and is started afresh.
    const third = start({ ...env, WORKER_RECYCLE_MB: '1' }, SUPERVISOR);
    const [, thirdPort] = await third.waitFor(/serving on http:\/\/localhost:(\d+)/);
    assert.match(third.output(), /a previous run left behind/);
    assert.equal(alive(orphan), false);
    const thirdHost = `demo.localhost:${thirdPort}`;
    const signedIn = await call(thirdPort!, thirdHost, 'POST', '/api/v1/auth/login/', credentials);
    assert.equal(signedIn.status, 200);
    await third.waitFor(/worker running up to/);
    const firstWorker = childPids(third.output())['worker-1']!;
    const token = signedIn.json.token as string;
    const ids: string[] = [];
    for (const text of ['Acme Holdings GmbH hired Jane Doe.', 'Globex Corporation opened an office in Lisbon.']) {
      const created = await call(thirdPort!, thirdHost, 'POST', '/api/v1/raw-data/', { text }, token);
      assert.equal(created.status, 201, JSON.stringify(created.json));
      ids.push(created.json.id as string);
      // One at a time: each job is its worker's last.
      assert.equal((await call(thirdPort!, thirdHost, 'POST', '/api/v1/raw-data/process/', { ids: [created.json.id] }, token)).status, 202);
      for (;;) {
        const item = await call(thirdPort!, thirdHost, 'GET', `/api/v1/raw-data/${created.json.id}/`, undefined, token);
        if (item.json.processing_status === 'completed') break;
        assert.notEqual(item.json.processing_status, 'error', JSON.stringify(item.json));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      while ((third.output().match(/"child":"worker-1".*process recycled to give its memory back/g) ?? []).length < ids.length) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(third.output(), /memory above the mark; finishing the running jobs/);
    assert.doesNotMatch(third.output(), /process died|exited with status 0/, 'a recycled worker is no fault');
    assert.notEqual(childPids(third.output())['worker-1'], firstWorker, 'a fresh worker process');
    third.child.kill('SIGINT');
    assert.equal(await third.exited, 0);
    initialised = dir;
  });

  it('stops everything with a clear message when the file store does not answer', async () => {
    // The cluster the test above initialised and stopped, when it did: an initdb and the
    // migrations less (docs/BENCHMARKS.md "Where CI stands"); what is tested is the same either way.
    const dir = initialised ?? (await dataDir());
    // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
    const server = start({ DATA_DIR: dir, WORKERS: '1', STORAGE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'intelnotes-files', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }, SUPERVISOR);
    assert.equal(await server.exited, 78);
    assert.match(server.output(), /file storage unavailable: The S3 bucket "intelnotes-files" at http:\/\/127\.0\.0\.1:9 could not be reached/);
    assert.equal(await postmasterPid(dir), null, 'the embedded server stopped too');
  });
});

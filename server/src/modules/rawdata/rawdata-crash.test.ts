/**
 * A server killed in the middle of a raw data upload (kill -9): one file of the request stored
 * (held, its item not yet written), the next one half received. The next start removes both
 * before it serves, once the dead process's holds are older than the grace period (docs/rawdata.md,
 * "Nothing lost, nothing orphaned"): an API process on a fresh test database, the local store in
 * a fresh folder.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { call, killAll, start } from '../../test/processes.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';

/** Every file under `dir` (relative paths), the staging folder included. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('a crash mid-upload', () => {
  const dirs: string[] = [];
  let database: TestDatabase | null = null;
  after(async () => {
    killAll();
    await database?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('leaves nothing once the server starts again', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-crash-'));
    dirs.push(dataDir);
    database = await createTestDatabase();
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, PORT: '0' };
    const server = start(env);
    const [, port] = await server.waitFor(/serving on http:\/\/localhost:(\d+)/);
    const host = `demo.localhost:${port}`;
    const login = await call(port!, host, 'POST', '/api/v1/auth/login/', { email: 'admin@intelnotes.local', password: 'intelnotes-admin' });
    assert.equal(login.status, 200);
    const filesDir = path.join(dataDir, 'files');
    const before = await filesUnder(filesDir);

    // One whole file, then the start of a second that never ends.
    const boundary = 'crash-boundary';
    const request = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/api/v1/raw-data/upload/',
      headers: { host, authorization: `Bearer ${login.json.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    request.on('error', () => undefined);
    const part = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
    request.write(`${part('first.txt')}${randomBytes(20_000).toString('hex')}\r\n`);
    request.write(`${part('second.txt')}${randomBytes(20_000).toString('hex')}`);
    // The first file is in the store (held), the second staged: now the process dies.
    await until(async () => (await filesUnder(filesDir)).filter((file) => !before.includes(file)).length >= 2);
    server.child.kill('SIGKILL');
    await server.exited;
    request.destroy();
    const left = (await filesUnder(filesDir)).filter((file) => !before.includes(file));
    assert.ok(left.some((file) => !file.startsWith('.staging')), `a stored file was left: ${left.join(', ')}`);
    assert.ok(left.some((file) => file.startsWith('.staging')), `a staged file was left: ${left.join(', ')}`);

    // Another process could be uploading: the dead one's leftovers go once past the grace
    // period (an hour), so the test makes them older than that — the holds by the database's
    // clock, the staged files to a fixed date long past.
    await database.db.owner.execute(sql`UPDATE stored_file_holds SET created_at = now() - interval '2 hours'`);
    const longAgo = new Date('2000-01-01T00:00:00Z');
    for (const file of left) await utimes(path.join(filesDir, file), longAgo, longAgo);
    const again = start(env);
    await again.waitFor(/serving on/);
    assert.match(again.output(), /removed files an interrupted upload left/);
    assert.deepEqual((await filesUnder(filesDir)).filter((file) => !before.includes(file)), []);
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });
});

/**
 * In production every response serializer's validators are compiled at start (app.ts,
 * serializerOpts.compileValidators): a schema that cannot be compiled would stop the process
 * at start, never seen by the other tests, which build the app without it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createEngine } from './engine.ts';
import { LocalDriver } from './storage/local.ts';
import { createTestDatabase } from './test/test-db.ts';

describe('the app in production', () => {
  it('builds with every response serializer compiled, and answers', async () => {
    const testDb = await createTestDatabase();
    const filesDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-production-files-'));
    try {
      const config = loadConfig({ NODE_ENV: 'production', WEB_DIST: '/nonexistent' });
      const app = await buildApp({ engine: createEngine(config, { db: testDb.db, storage: new LocalDriver(filesDir) }), logger: false });
      try {
        await app.ready();
        const response = await app.inject({ method: 'GET', url: '/api/v1/tenant/', headers: { host: 'nowhere.localhost' } });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().exists, false);
      } finally {
        await app.close();
      }
    } finally {
      await testDb.close();
      await rm(filesDir, { recursive: true, force: true });
    }
  });
});

/**
 * Builds the real engine and app on a fresh test database, with helpers to create
 * tenants and users and to sign in. Every test file gets its own database (and engine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { insertUser, type UserRow } from '../auth/users.repository.ts';
import { loadConfig, type Config } from '../config.ts';
import type { AccessLevel } from '../contracts.ts';
import { openPostgres, type Database } from '../db/client.ts';
import { createEngine, type Engine } from '../engine.ts';
import type { JobRegistry } from '../jobs/registry.ts';
import { closeOcrWorker } from '../processing/text/index.ts';
import { Worker } from '../jobs/worker.ts';
import type { FileStore } from '../storage/files.ts';
import { LocalDriver } from '../storage/local.ts';
import type { StorageDriver } from '../storage/storage.ts';
import { insertTenant, type TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestDatabase } from './test-db.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  /** The composition root the app runs on (engine.ts): its catalog, services, job registry, caches and file store. */
  engine: Engine;
  /** The test database's URL, for a second pool or process (see TestDatabase). */
  databaseUrl: string;
  config: Config;
  /** The app's file store: a local driver in a temporary folder, removed by close(). */
  files: FileStore;
  /**
   * Starts a job worker on the test database (the engine's registry unless given one),
   * polling every 100 ms; close() stops it.
   */
  startWorker(options?: { registry?: JobRegistry }): Promise<Worker>;
  close(): Promise<void>;
  createTenant(code: string, options?: { isDefault?: boolean; name?: string }): Promise<TenantRow>;
  createUser(
    tenant: TenantRow,
    email: string,
    roles?: { is_admin?: boolean; is_research?: boolean; disabled?: boolean },
  ): Promise<UserRow>;
  /** Signs in on the tenant's host and returns the bearer token. */
  login(tenant: TenantRow, email: string, password?: string): Promise<string>;
  /**
   * Creates and signs in one user per audience — admin@, research@ and reader@{code}.test —
   * and returns their tokens by access level (public has none).
   */
  signInAudiences(tenant: TenantRow): Promise<Record<AccessLevel, string | undefined>>;
  /**
   * The fixture most API tests start from: tenant `acme` with one signed-in user per audience
   * (signInAudiences), and tenant `beta` with its own admin, whose token is `tokens.beta`, for
   * cross-tenant checks.
   */
  signInTwoTenants(): Promise<{ acme: TenantRow; beta: TenantRow; tokens: Record<string, string | undefined> }>;
  /** app.inject on the tenant's host, with an optional bearer token. */
  request(tenant: TenantRow | string, options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
}

export const hostOf = (tenant: TenantRow | string) => {
  const code = typeof tenant === 'string' ? tenant : tenant.is_default ? null : tenant.code;
  return code ? `${code}.localhost:3000` : 'localhost:3000';
};

export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void | Promise<void>,
  /** The store's driver (e.g. S3 against s3rver, test/storage-drivers.ts); a local folder by default. */
  driver?: StorageDriver,
  /**
   * The app's other dependencies (e.g. a mail transport that keeps what it is given, a logger
   * writing to a test's stream), and `databaseUrl`: on a server, the URL the app opens its own
   * database handle on, from the test database's (e.g. through test/pg-proxy.ts); the
   * context's `db` and helpers keep the direct one. `serverUrl`: the server the test database
   * is made on (a superuser URL), when not the test server; `replicaUrls`: the
   * DATABASE_REPLICA_URLS of the app, from the test database's URL.
   */
  deps: Pick<AppDeps, 'mail' | 'logger'> & { databaseUrl?: (url: string) => string; serverUrl?: string; replicaUrls?: (url: string) => string[] } = {},
): Promise<TestContext> {
  const { databaseUrl, serverUrl, replicaUrls, ...appDeps } = deps;
  const testDb = await createTestDatabase(serverUrl);
  const replicas = replicaUrls ? { DATABASE_REPLICA_URLS: replicaUrls(testDb.url).join(',') } : {};
  const config = loadConfig({ NODE_ENV: 'test', WEB_DIST: '/nonexistent', ...env, ...replicas });
  const filesDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-test-files-'));
  const appDb = databaseUrl ? await openPostgres(databaseUrl(testDb.url), 5) : testDb.db;
  const engine = createEngine(config, { db: appDb, storage: driver ?? new LocalDriver(filesDir) });
  const { files } = engine;
  const app = await buildApp({ engine, logger: false, ...appDeps });
  const workers: Worker[] = [];
  await beforeReady?.(app);
  await app.ready();

  const passwordHash = await hashPassword(TEST_PASSWORD);
  const context: TestContext = {
    app,
    db: testDb.db,
    engine,
    databaseUrl: testDb.url,
    config,
    files,
    startWorker: async ({ registry = engine.jobs } = {}) => {
      const silent = { info: () => {}, warn: () => {}, error: () => {} };
      const worker = new Worker({ db: testDb.db, files, registry, concurrency: 1, pollMs: 100, leaseMs: 30_000, log: silent });
      workers.push(worker);
      await worker.start();
      return worker;
    },
    close: async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
      await closeOcrWorker();
      await app.close();
      if (appDb !== testDb.db) await appDb.close();
      await testDb.close();
      await rm(filesDir, { recursive: true, force: true });
    },
    createTenant: (code, options = {}) =>
      testDb.db.withTenant({ tenantId: null, manageTenants: true }, (tx) =>
        insertTenant(tx, { code, name: options.name ?? code.toUpperCase(), is_default: options.isDefault ?? false }),
      ),
    createUser: (tenant, email, roles = {}) =>
      testDb.db.withTenant({ tenantId: tenant.id }, (tx) =>
        insertUser(tx, { tenant_id: tenant.id, email, password_hash: passwordHash, alias: email.split('@')[0], ...roles }),
      ),
    login: async (tenant, email, password = TEST_PASSWORD) => {
      const response = await context.request(tenant, {
        method: 'POST',
        url: '/api/v1/auth/login/',
        payload: { email, password },
      });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      return response.json().token as string;
    },
    signInAudiences: async (tenant) => {
      const roles = { admin: { is_admin: true }, research: { is_research: true }, reader: {} };
      for (const [name, flags] of Object.entries(roles)) await context.createUser(tenant, `${name}@${tenant.code}.test`, flags);
      return {
        public: undefined,
        paywall: await context.login(tenant, `reader@${tenant.code}.test`),
        research: await context.login(tenant, `research@${tenant.code}.test`),
        admin: await context.login(tenant, `admin@${tenant.code}.test`),
      };
    },
    signInTwoTenants: async () => {
      const acme = await context.createTenant('acme');
      const beta = await context.createTenant('beta');
      await context.createUser(beta, 'admin@beta.test', { is_admin: true });
      const tokens = { ...(await context.signInAudiences(acme)), beta: await context.login(beta, 'admin@beta.test') };
      return { acme, beta, tokens };
    },
    request: (tenant, { token, headers, ...options }) =>
      app.inject({
        ...options,
        headers: { host: hostOf(tenant), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      }),
  };
  return context;
}

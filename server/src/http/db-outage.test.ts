/**
 * While the database is away every request that needs it answers 503 with Retry-After in the
 * API's error shape — never a 500 — and writes nothing; once it is back the same app answers
 * again by itself (docs/faults.md). The app's database handle goes through a loopback proxy
 * (test/pg-proxy.ts) that cuts its connections and answers new ones as a server that is down,
 * resetting or starting up would.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { APP_ROLE, query } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { testServerUrl } from '../test/test-db.ts';
import { startPgProxy, type DownMode, type PgProxy } from '../test/pg-proxy.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from './errors.ts';

const ORGS = '/api/v1/assets/organizations';

function assertUnavailable(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.statusCode, 503, `${what}: ${response.body}`);
  assert.equal(response.headers['retry-after'], String(DATABASE_RETRY_AFTER_SECONDS), what);
  const body = response.json();
  assert.equal(body.code, 'database_unavailable', what);
  assert.equal(typeof body.detail, 'string', what);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'detail'], what);
}

describe('requests while the database is away', () => {
  let proxy: PgProxy;
  let t: TestContext;
  let acme: TenantRow;
  let admin: string;
  let publicId: string;

  const requests = {
    anonymousList: () => t.request(acme, { method: 'GET', url: `${ORGS}/` }),
    signedInList: () => t.request(acme, { method: 'GET', url: `${ORGS}/`, token: admin }),
    detail: () => t.request(acme, { method: 'GET', url: `${ORGS}/${publicId}/`, token: admin }),
    me: () => t.request(acme, { method: 'GET', url: '/api/v1/auth/me/', token: admin }),
    // One read-only statement in one message (Database.readOnce), not a transaction.
    quickSearch: () => t.request(acme, { method: 'GET', url: '/api/v1/search/?q=open', token: admin }),
    // Served from a cache that is off while its LISTEN connection is lost.
    counts: () => t.request(acme, { method: 'GET', url: '/api/v1/tools/free-ahead-entities-count/' }),
    write: (name: string) => t.request(acme, { method: 'POST', url: `${ORGS}/`, token: admin, payload: { name_inc: name, visibility: 'public' } }),
  };
  /** Names of the tenant's organizations, read on the direct connection (not through the proxy). */
  const namesInDatabase = async () =>
    (await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ name_inc: string | null }>(tx, sql`SELECT name_inc FROM organizations`)))
      .map((row) => row.name_inc)
      .sort();

  before(async () => {
    proxy = await startPgProxy(await testServerUrl());
    t = await createTestApp(
      {},
      (app) => {
        // A write whose connection is lost between two statements of its transaction (the
        // connection is checked out and idle when it goes): the request fails, the process
        // does not, and the first statement is never committed.
        app.post('/api/v1/outage-probe/', async (request, reply) => {
          await request.tx(async (tx) => {
            await query(tx, sql`INSERT INTO outage_writes (tenant_id, note) VALUES (${request.tenant!.id}, 'before the cut')`);
            await proxy.down('reset');
            await query(tx, sql`SELECT 1`);
          });
          return reply.status(201).send({});
        });
      },
      undefined,
      { databaseUrl: (url) => proxy.urlFor(url) },
    );
    for (const statement of [
      `CREATE TABLE outage_writes (tenant_id uuid NOT NULL, id uuid NOT NULL DEFAULT gen_random_uuid(), note text NOT NULL, PRIMARY KEY (tenant_id, id))`,
      `SELECT enable_tenant_isolation('outage_writes')`,
      `GRANT SELECT, INSERT ON outage_writes TO ${APP_ROLE}`,
    ]) {
      await t.db.owner.execute(sql.raw(statement));
    }
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    admin = await t.login(acme, 'admin@acme.test');
    const created = await requests.write('Open Data Inc');
    assert.equal(created.statusCode, 201, created.body);
    publicId = created.json().id;
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
  });

  for (const mode of ['refuse', 'reset', 'starting'] satisfies DownMode[]) {
    it(`answers 503 with Retry-After while connections are ${mode === 'refuse' ? 'refused' : mode === 'reset' ? 'reset' : 'told the server is starting up'}, then serves again`, async () => {
      const before = await namesInDatabase();
      assert.equal((await requests.signedInList()).statusCode, 200);

      await proxy.down(mode);
      assertUnavailable(await requests.anonymousList(), 'anonymous list');
      assertUnavailable(await requests.signedInList(), 'signed-in list');
      assertUnavailable(await requests.detail(), 'detail');
      assertUnavailable(await requests.me(), 'auth/me');
      assertUnavailable(await requests.quickSearch(), 'quick search');
      assertUnavailable(await requests.write(`Written during ${mode}`), 'write');
      assert.deepEqual(await namesInDatabase(), before, 'the write wrote nothing');

      const forwarded = proxy.forwarded;
      await proxy.up();
      const list = await requests.anonymousList();
      assert.equal(list.statusCode, 200, list.body);
      assert.ok(list.json().results.some((row: { id: string }) => row.id === publicId));
      assert.equal((await requests.signedInList()).statusCode, 200);
      assert.equal((await requests.detail()).statusCode, 200);
      assert.equal((await requests.me()).statusCode, 200);
      assert.equal((await requests.quickSearch()).statusCode, 200);
      assert.equal((await requests.counts()).statusCode, 200);
      const written = await requests.write(`Written after ${mode}`);
      assert.equal(written.statusCode, 201, written.body);
      assert.deepEqual(await namesInDatabase(), [...before, `Written after ${mode}`].sort());
      assert.ok(proxy.forwarded > forwarded, 'the pool opened new connections');
    });
  }

  it('fails a transaction whose connection is lost mid-way with 503, commits none of it, and keeps serving', async () => {
    const response = await t.request(acme, { method: 'POST', url: '/api/v1/outage-probe/', token: admin });
    assertUnavailable(response, 'write cut mid-transaction');
    await proxy.up();
    const rows = await t.db.withTenant({ tenantId: acme.id }, (tx) => query(tx, sql`SELECT note FROM outage_writes`));
    assert.deepEqual(rows, [], 'the statement before the cut was rolled back');
    assert.equal((await requests.signedInList()).statusCode, 200);
  });
});

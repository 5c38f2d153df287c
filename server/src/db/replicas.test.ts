/**
 * Read replicas end to end (docs/scaling.md, "Read replicas"), on a real primary and a real
 * streaming replica made from it by a base backup on this machine (test/replica-cluster.ts):
 * reads served by the replica under the same role and tenant settings (row-level security
 * alike), read-your-writes, a replica that falls behind skipped and taken back, and the
 * replica stopped under a stream of reads — no request fails, reads go on on the primary,
 * and the replica is used again once it is back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { readSheet } from 'read-excel-file/node';
import { query } from './client.ts';
import { formatLsn, parseLsn, replicaName } from './replicas.ts';
import { READ_AFTER_COOKIE } from '../http/read-routing.plugin.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { startReplicaCluster, type ReplicaCluster } from '../test/replica-cluster.ts';

const ORGS = '/api/v1/assets/organizations';
const PROBE = '/api/v1/replica-probe/';
const METRICS = '/api/v1/tools/database-replicas/';

interface Probe {
  replica: boolean;
  role: string;
  tenant: string;
}

/** Polls until `check` holds (a state the product reaches by itself); fails with `what` after a while. */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('WAL positions and replica names', () => {
  it('reads and writes WAL positions as PostgreSQL prints them, and refuses anything else', () => {
    assert.equal(parseLsn('0/0'), 0n);
    assert.equal(parseLsn('16/B374D848'), (0x16n << 32n) + 0xb374d848n);
    assert.equal(formatLsn(parseLsn('16/B374D848')!), '16/B374D848');
    for (const bad of [null, undefined, '', '16', '16/', '/1', 'G/1', '1/2/3', '123456789/0']) assert.equal(parseLsn(bad), null, String(bad));
  });

  it('names a replica by host, port and database, never its credentials', () => {
    assert.equal(replicaName('postgres://app:s3cret@replica-1.internal:6432/intelnotes'), 'replica-1.internal:6432/intelnotes');
    assert.equal(replicaName('postgresql://app@replica-2/intelnotes'), 'replica-2:5432/intelnotes');
  });
});

describe('read replicas', () => {
  let cluster: ReplicaCluster;
  /** REPLICA_MAX_LAG_SECONDS=60: a paused replica stays in use (read-your-writes); `lagging` has 1 s. */
  let t: TestContext;
  let lagging: TestContext;
  const logs: string[] = [];
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  let laggingAdmin: string;
  const created: Record<string, string> = {};

  const addProbe = (app: TestContext['app']) => {
    // What a read's transaction runs on and as: the server (a replica is in recovery), the role and the tenant setting.
    app.get(PROBE, async (request) => {
      const [row] = await request.tx((tx) =>
        query<Probe>(tx, sql`SELECT pg_is_in_recovery() AS replica, current_user AS role, current_setting('app.tenant_id') AS tenant`),
      );
      return row;
    });
  };

  /** The operator (admin of the default tenant) of each app, who may read the metrics. */
  const operators = new Map<TestContext, string>();
  const homes = new Map<TestContext, TenantRow>();
  const acmes = new Map<TestContext, TenantRow>();
  const acmeOf = (context: TestContext) => acmes.get(context)!;

  const metrics = async (context: TestContext) => {
    const response = await context.request(homes.get(context)!, { method: 'GET', url: METRICS, token: operators.get(context) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  const probe = async (context: TestContext, headers: Record<string, string> = {}, token?: string): Promise<Probe> => {
    const response = await context.request(acmeOf(context), { method: 'GET', url: PROBE, headers, token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  /** Until the app's last replica check saw the replica replay everything the primary has written so far. */
  const caughtUp = async (context: TestContext) => {
    const [row] = await query<{ lsn: string }>(context.db.owner, sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
    const target = parseLsn(row!.lsn)!;
    await waitFor('the replica to catch up', async () => {
      const [replica] = (await metrics(context)).replicas;
      return replica.health === 'healthy' && (parseLsn(replica.replay_lsn) ?? 0n) >= target;
    });
  };

  before(async () => {
    cluster = await startReplicaCluster();
    const options = (lines?: string[]) => ({
      serverUrl: cluster.primary.urlOf(),
      replicaUrls: (url: string) => [cluster.replicaUrlOf(url)],
      ...(lines ? { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } } : {}),
    });
    // The read cache off: a visitor's read that fills it goes to the primary (docs/scaling.md,
    // "Caches"), and these tests count where each audience's reads go.
    const env = { REPLICA_CHECK_INTERVAL_MS: '100', READ_CACHE_MAX_BYTES: '0' };
    t = await createTestApp({ ...env, REPLICA_MAX_LAG_SECONDS: '60' }, addProbe, undefined, options());
    // This one keeps the read cache on (its default size): its visitors' reads fill it.
    lagging = await createTestApp({ ...env, REPLICA_MAX_LAG_SECONDS: '1', READ_CACHE_MAX_BYTES: '67108864' }, addProbe, undefined, options(logs));
    for (const context of [t, lagging]) {
      const home = await context.createTenant('default', { isDefault: true });
      homes.set(context, home);
      await context.createUser(home, 'operator@default.test', { is_admin: true });
      operators.set(context, await context.login(home, 'operator@default.test'));
    }
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    acmes.set(t, acme);
    acmes.set(lagging, await lagging.createTenant('acme'));
    await lagging.createUser(acmeOf(lagging), 'admin@acme.test', { is_admin: true });
    laggingAdmin = await lagging.login(acmeOf(lagging), 'admin@acme.test');
    for (const visibility of ['public', 'paywalled', 'hidden']) {
      const response = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens.admin, payload: { name_inc: `Replicated ${visibility}`, visibility } });
      assert.equal(response.statusCode, 201, response.body);
      created[visibility] = response.json().id;
    }
  });

  after(async () => {
    await t?.close();
    await lagging?.close();
    await cluster?.close();
  });

  it('made the replica with a base backup, and it streams', async (context) => {
    context.diagnostic(`PostgreSQL ${cluster.major}, replica made by ${cluster.backup}`);
    assert.match(cluster.backup, /pg_basebackup|low-level/);
    await caughtUp(t);
    const body = await metrics(t);
    assert.equal(body.enabled, true);
    assert.equal(body.max_lag_seconds, 60);
    assert.equal(body.replicas.length, 1);
    assert.equal(body.replicas[0].health, 'healthy');
    assert.equal(body.replicas[0].name, `127.0.0.1:${cluster.replica.port}${new URL(t.databaseUrl).pathname}`);
  });

  it('serves reads on the replica, with the same role and tenant settings, so each audience and tenant sees what it sees on the primary', async () => {
    await caughtUp(t);
    const before = await metrics(t);
    assert.deepEqual(await probe(t), { replica: true, role: 'intelnotes_app', tenant: acme.id });

    const names = async (tenant: TenantRow, token?: string) => {
      const response = await t.request(tenant, { method: 'GET', url: `${ORGS}/?ordering=name_inc`, token });
      assert.equal(response.statusCode, 200, response.body);
      return (response.json().results as Array<{ name_inc: string }>).map((row) => row.name_inc);
    };
    assert.deepEqual(await names(acme), ['Replicated public']);
    assert.deepEqual(await names(acme, tokens.paywall), ['Replicated paywalled', 'Replicated public']);
    assert.deepEqual(await names(acme, tokens.research), ['Replicated hidden', 'Replicated paywalled', 'Replicated public']);
    assert.deepEqual(await names(acme, tokens.admin), ['Replicated hidden', 'Replicated paywalled', 'Replicated public']);
    assert.deepEqual(await names(beta, tokens.beta), [], "another tenant's admin reads none of acme's rows on the replica");

    const detail = await t.request(acme, { method: 'GET', url: `${ORGS}/${created.hidden}/` });
    assert.equal(detail.statusCode, 404, 'a hidden record is not found by the public on the replica either');
    const search = await t.request(acme, { method: 'GET', url: '/api/v1/search/?q=Replicated', token: tokens.admin });
    assert.equal(search.statusCode, 200, search.body);
    assert.ok(JSON.stringify(search.json()).includes('Replicated hidden'), 'quick search (one statement, readOnce) on the replica');
    const exported = await t.request(acme, { method: 'GET', url: `${ORGS}/?format=xlsx` });
    assert.equal(exported.statusCode, 200, exported.body);
    const sheet = JSON.stringify(await readSheet(exported.rawPayload));
    assert.match(sheet, /Replicated public/);
    assert.doesNotMatch(sheet, /Replicated hidden/);

    const after = await metrics(t);
    // The probe, 5 lists, a detail, a search and an export: all on the replica, none on the primary.
    assert.equal(after.replicas[0].reads - before.replicas[0].reads, 9);
    assert.equal(after.replicas[0].failovers, before.replicas[0].failovers);
    assert.equal(after.primary_reads, before.primary_reads);
  });

  it("reads the caller's own write at once: from the primary until the replica has replayed it", async () => {
    await caughtUp(t);
    await cluster.pauseReplay();
    try {
      const write = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens.admin, payload: { name_inc: 'Just written', visibility: 'public' } });
      assert.equal(write.statusCode, 201, write.body);
      const setCookie = String(write.headers['set-cookie']);
      const match = new RegExp(`${READ_AFTER_COOKIE}=([^;]+)`).exec(setCookie);
      assert.ok(match, `the write answers a ${READ_AFTER_COOKIE} cookie: ${setCookie}`);
      assert.match(setCookie, /HttpOnly/i);
      const cookie = `${READ_AFTER_COOKIE}=${match[1]}`;
      const id = write.json().id as string;

      // The replica has not replayed the write (replay is paused): a reader without the mark reads it there.
      assert.equal((await metrics(t)).replicas[0].health, 'healthy', 'a paused replica stays in use within 60 s');
      assert.equal((await probe(t)).replica, true);
      assert.equal((await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/` })).statusCode, 404, 'the replica does not have the row yet');

      // The writer, by cookie (any API process) or by session (this process), reads from the primary.
      assert.equal((await probe(t, { cookie })).replica, false);
      const byCookie = await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/`, headers: { cookie } });
      assert.equal(byCookie.statusCode, 200, byCookie.body);
      const bySession = await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/`, token: tokens.admin });
      assert.equal(bySession.statusCode, 200, bySession.body);
      assert.equal((await probe(t, {}, tokens.admin)).replica, false);
    } finally {
      await cluster.resumeReplay();
    }
    // Once replayed, the writer's reads go back to the replica.
    await caughtUp(t);
    assert.equal((await probe(t, {}, tokens.admin)).replica, true);
  });

  it('skips a replica further behind than REPLICA_MAX_LAG_SECONDS, logs it, and uses it again once it has caught up', async () => {
    const home = acmeOf(lagging);
    await caughtUp(lagging);
    assert.equal((await probe(lagging)).replica, true);
    await cluster.pauseReplay();
    try {
      // A write by someone else (the anonymous reader below carries no mark of it) the replica cannot replay.
      const write = await lagging.request(home, { method: 'POST', url: `${ORGS}/`, token: laggingAdmin, payload: { name_inc: 'Written while behind', visibility: 'public' } });
      assert.equal(write.statusCode, 201, write.body);
      await waitFor('the replica to be skipped as lagging', async () => (await metrics(lagging)).replicas[0].health === 'lagging');
      const body = await metrics(lagging);
      assert.ok(body.replicas[0].lag_seconds > 1, `lag ${body.replicas[0].lag_seconds}`);
      assert.ok(body.replicas[0].lag_bytes > 0);
      assert.equal((await probe(lagging)).replica, false, 'reads go to the primary');
      const list = await lagging.request(home, { method: 'GET', url: `${ORGS}/` });
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(list.json().results.map((row: { name_inc: string }) => row.name_inc), ['Written while behind']);
    } finally {
      await cluster.resumeReplay();
    }
    await waitFor('the replica to be used again', async () => (await metrics(lagging)).replicas[0].health === 'healthy');
    assert.equal((await probe(lagging)).replica, true);
    const transitions = logs.map((line) => JSON.parse(line)).filter((line) => /read replica/.test(line.msg));
    assert.ok(transitions.some((line) => line.msg === 'read replica skipped' && line.to === 'lagging' && line.level === 40), JSON.stringify(transitions));
    assert.ok(transitions.some((line) => line.msg === 'read replica in use' && line.from === 'lagging' && line.to === 'healthy'), JSON.stringify(transitions));
  });

  it("fills the read cache from the primary: a visitor never keeps a page from before a change the replica has not replayed", async () => {
    const home = acmeOf(lagging);
    await caughtUp(lagging);
    const visitorNames = async () => {
      const response = await lagging.request(home, { method: 'GET', url: `${ORGS}/?ordering=name_inc` });
      assert.equal(response.statusCode, 200, response.body);
      return (response.json().results as Array<{ name_inc: string }>).map((row) => row.name_inc);
    };
    assert.ok(!(await visitorNames()).includes('Public while the replica waits'), 'the cache holds the page from before');
    const replicaReads = (await metrics(lagging)).replicas[0].reads;
    await cluster.pauseReplay();
    try {
      // Within the lag bound for a moment yet: without the rule, the visitor's refill could read
      // the replica, which has not replayed this, and keep that page until the next change.
      const write = await lagging.request(home, { method: 'POST', url: `${ORGS}/`, token: laggingAdmin, payload: { name_inc: 'Public while the replica waits', visibility: 'public' } });
      assert.equal(write.statusCode, 201, write.body);
      assert.ok((await visitorNames()).includes('Public while the replica waits'), 'refilled from the primary');
      assert.ok((await visitorNames()).includes('Public while the replica waits'), 'and kept as such');
      assert.equal((await metrics(lagging)).replicas[0].reads, replicaReads, "no visitor's read reached the replica");
    } finally {
      await cluster.resumeReplay();
    }
    await caughtUp(lagging);
    const before = (await metrics(lagging)).replicas[0].reads;
    const research = await lagging.request(home, { method: 'GET', url: `${ORGS}/`, token: laggingAdmin });
    assert.equal(research.statusCode, 200, research.body);
    assert.equal((await metrics(lagging)).replicas[0].reads - before, 1, "an admin's list (never cached) reads the replica");
  });

  it('answers every read while the replica stops under them (on the primary), and uses the replica again when it is back', async () => {
    await caughtUp(t);
    const responses: LightMyRequestResponse[] = [];
    let stopping = true;
    const reads = () => [
      t.request(acme, { method: 'GET', url: `${ORGS}/` }),
      t.request(acme, { method: 'GET', url: `${ORGS}/${created.paywalled}/`, token: tokens.paywall }),
      t.request(acme, { method: 'GET', url: '/api/v1/search/?q=Replicated', token: tokens.research }),
      t.request(acme, { method: 'GET', url: `${ORGS}/?search=Replicated`, token: tokens.admin }),
    ];
    const reading = (async () => {
      // Rounds of concurrent reads until the replica is down, then a few more.
      for (let after = 0; stopping || after < 5; after += stopping ? 0 : 1) responses.push(...(await Promise.all(reads())));
    })();
    await cluster.replica.stop();
    stopping = false;
    await reading;
    const failed = responses.filter((response) => response.statusCode !== 200).map((response) => `${response.statusCode} ${response.body}`);
    assert.deepEqual(failed, [], 'no read failed while the replica went away');
    const down = await metrics(t);
    assert.equal(down.replicas[0].health, 'unreachable');
    assert.equal((await probe(t)).replica, false);

    await cluster.replica.start();
    await waitFor('the replica to be back in use', async () => (await metrics(t)).replicas[0].health === 'healthy');
    assert.equal((await probe(t)).replica, true);
    const back = await t.request(acme, { method: 'GET', url: `${ORGS}/`, token: tokens.admin });
    assert.equal(back.statusCode, 200, back.body);
  });

  it('shows replica metrics to the operators (admins of the default tenant) only', async () => {
    assert.equal((await t.request(homes.get(t)!, { method: 'GET', url: METRICS })).statusCode, 401);
    assert.equal((await t.request(acme, { method: 'GET', url: METRICS, token: tokens.admin })).statusCode, 403, "a tenant's own admin");
    const body = await metrics(t);
    assert.deepEqual(Object.keys(body.replicas[0]).sort(), ['checked_at', 'failovers', 'health', 'lag_bytes', 'lag_seconds', 'last_error', 'name', 'reads', 'replay_lsn']);
    assert.doesNotMatch(JSON.stringify(body), /postgres@/, 'no credentials');
  });
});

/**
 * Live events across processes on one PostgreSQL server: two API processes and one worker process. An event the worker
 * publishes (a probe.event job) reaches the streams of its tenant on both API processes, and
 * never a stream of another tenant, on either. The per-user stream limit counts a user's
 * streams on every process, closes the oldest wherever it is, and forgets the streams of a
 * process that died once their lease has passed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { call, killAll, start } from '../test/processes.ts';
import { openEventStream, type EventStreamClient } from '../test/sse-client.ts';
import { createTestApp, hostOf, TEST_PASSWORD, type TestContext } from '../test/test-app.ts';


describe('live events across processes on a PostgreSQL server', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  const apis: { port: string; tokens: Record<string, string> }[] = [];
  const streams: EventStreamClient[] = [];
  /** The per-user limit, and the streams' lease, of every API process here. */
  const limit = 2;
  const leaseMs = 4_500;
  let env: Record<string, string>;
  let researchToken: string;

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(beta, 'admin@beta.test', { is_admin: true });
    await t.createUser(acme, 'research@acme.test', { is_research: true });
    env = {
      DATABASE_URL: t.databaseUrl,
      JOBS_PROBE: 'on',
      LOG_LEVEL: 'warn',
      EVENTS_MAX_CONNECTIONS_PER_USER: String(limit),
      EVENTS_STREAM_LEASE_MS: String(leaseMs),
    };
    const servers = [start({ ...env, PORT: '0' }), start({ ...env, PORT: '0' })];
    const worker = start({ ...env, JOB_POLL_INTERVAL_MS: '500' }, 'src/worker.ts');
    for (const server of servers) {
      const [, port] = await server.waitFor(/serving on http:\/\/localhost:(\d+)/);
      const tokens: Record<string, string> = {};
      for (const tenant of [acme, beta]) {
        const login = await call(port!, `${tenant.code}.localhost:${port}`, 'POST', '/api/v1/auth/login/', { email: `admin@${tenant.code}.test`, password: TEST_PASSWORD });
        assert.equal(login.status, 200);
        tokens[tenant.code] = login.json.token;
      }
      apis.push({ port: port!, tokens });
    }
    // Tokens are the database's: one works on every process.
    const login = await call(apis[0]!.port, `acme.localhost:${apis[0]!.port}`, 'POST', '/api/v1/auth/login/', { email: 'research@acme.test', password: TEST_PASSWORD });
    assert.equal(login.status, 200);
    researchToken = login.json.token;
    await worker.waitFor(/worker running up to/);
  });
  after(async () => {
    for (const stream of streams) stream.close();
    killAll();
    await t?.close();
  });

  const queueEvent = async (api: (typeof apis)[number], tenant: TenantRow, payload: object) => {
    const response = await call(api.port, `${tenant.code}.localhost:${api.port}`, 'POST', '/api/v1/jobs/probe/event/', payload, api.tokens[tenant.code]);
    assert.equal(response.status, 202, JSON.stringify(response.json));
  };

  it('delivers an event published by the worker to its tenant’s streams on either API process, and to no other tenant’s', async () => {
    const open = (api: (typeof apis)[number], tenant: TenantRow) =>
      openEventStream(Number(api.port), hostOf(tenant), { token: api.tokens[tenant.code], channels: 'all,research,admin' });
    const acmeStreams = [await open(apis[0]!, acme), await open(apis[1]!, acme)];
    const betaStreams = [await open(apis[0]!, beta), await open(apis[1]!, beta)];
    streams.push(...acmeStreams, ...betaStreams);
    for (const stream of streams) assert.equal(stream.status, 200);

    const forAcme = { task_id: randomUUID() };
    await queueEvent(apis[0]!, acme, { event: 'generate_raw_data_report_complete', payload: forAcme });
    const forBeta = { task_id: randomUUID() };
    await queueEvent(apis[1]!, beta, { event: 'generate_raw_data_report_complete', payload: forBeta });

    // The streams were open before the jobs were queued: each gets its tenant's event live
    // (ids count per tenant, from 1), and the next thing on a beta stream is beta's own.
    for (const stream of acmeStreams) assert.deepEqual(await stream.next(), { id: '1', event: 'generate_raw_data_report_complete', data: forAcme });
    for (const stream of betaStreams) assert.deepEqual(await stream.next(), { id: '1', event: 'generate_raw_data_report_complete', data: forBeta });

    // And a later event of acme, through the other API, still reaches only acme's streams.
    const second = { task_id: randomUUID(), reason: 'The report could not be generated.' };
    await queueEvent(apis[1]!, acme, { event: 'generate_raw_data_report_error', payload: second });
    for (const stream of acmeStreams) assert.deepEqual(await stream.next(), { id: '2', event: 'generate_raw_data_report_error', data: second });
    const forBetaAgain = { task_id: randomUUID() };
    await queueEvent(apis[0]!, beta, { event: 'generate_raw_data_report_start', payload: forBetaAgain });
    for (const stream of betaStreams) assert.deepEqual(await stream.next(), { id: '2', event: 'generate_raw_data_report_start', data: forBetaAgain });
  });
  it('limits a user’s streams over all API processes: the oldest is closed wherever it is, and a dead process’s streams stop counting', async () => {
    const openResearch = async (port: string) => {
      const stream = await openEventStream(Number(port), hostOf(acme), { token: researchToken });
      assert.equal(stream.status, 200, JSON.stringify(stream.error));
      streams.push(stream);
      return stream;
    };
    const closedForLimit = { id: null, event: 'stream_closed', data: { reason: 'connection_limit' } };
    /** Each stream's next event is the one queued now (so none of them was closed before it). */
    const allGet = async (...clients: EventStreamClient[]) => {
      const payload = { task_id: randomUUID() };
      await queueEvent(apis[0]!, acme, { event: 'generate_raw_data_report_start', payload });
      for (const client of clients) {
        const next = await client.next();
        assert.equal(next.event, 'generate_raw_data_report_start', JSON.stringify(next));
        assert.deepEqual(next.data, payload);
      }
    };

    // limit + 1 streams of one user, split over the two processes: the oldest, on the other
    // process than the one that opened the newest, is closed.
    const first = await openResearch(apis[0]!.port);
    const second = await openResearch(apis[1]!.port);
    const third = await openResearch(apis[1]!.port);
    assert.deepEqual(await first.next(), closedForLimit);
    await first.ended;
    const fourth = await openResearch(apis[0]!.port);
    assert.deepEqual(await second.next(), closedForLimit);
    await second.ended;
    await allGet(third, fourth);
    third.close();
    fourth.close();
    await Promise.all([third.ended, fourth.ended]);

    // A third API process holds one of the user's streams, and dies without closing it.
    const doomed = start({ ...env, PORT: '0' });
    const [, doomedPort] = await doomed.waitFor(/serving on http:\/\/localhost:(\d+)/);
    const kept = await openResearch(apis[0]!.port);
    await openResearch(doomedPort!);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    // Its stream is still registered, and newer than `kept`: counted, one more stream would
    // close `kept`. Once its lease has passed unrenewed, it no longer counts.
    await new Promise((resolve) => setTimeout(resolve, leaseMs + 1_500));
    const fresh = await openResearch(apis[1]!.port);
    await allGet(kept, fresh);
  });
});

/**
 * Live events across processes on one PostgreSQL server (skipped on PGlite, which is one
 * process): two API processes (WORKERS=0) and one worker process. An event the worker
 * publishes (a probe.event job) reaches the streams of its tenant on both API processes, and
 * never a stream of another tenant, on either.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { call, killAll, start } from '../test/processes.ts';
import { openEventStream, type EventStreamClient } from '../test/sse-client.ts';
import { createTestApp, hostOf, TEST_PASSWORD, type TestContext } from '../test/test-app.ts';

const onServer = Boolean(process.env['TEST_DATABASE_URL']);

describe('live events across processes on a PostgreSQL server', { skip: onServer ? false : 'needs TEST_DATABASE_URL (PGlite is one process)' }, () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  const apis: { port: string; tokens: Record<string, string> }[] = [];
  const streams: EventStreamClient[] = [];

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(beta, 'admin@beta.test', { is_admin: true });
    const env = { DATABASE_URL: t.databaseUrl!, JOBS_PROBE: 'on', LOG_LEVEL: 'warn' };
    const servers = [start({ ...env, WORKERS: '0', PORT: '0' }), start({ ...env, WORKERS: '0', PORT: '0' })];
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
});

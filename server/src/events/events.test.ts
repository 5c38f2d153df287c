/**
 * The live event stream over real HTTP, on either backend: who may have which channel, tenant
 * isolation, nothing for a rolled-back change, replay after a dropped connection, reset when
 * the missed events are gone, heartbeats, the per-user limit, sign-out and shutdown.
 *
 * Negative checks ("never receives") end with a fence rather than a wait: the stream is
 * closed by the server after the event would have been written (a third stream of the same
 * user closes the oldest: the limit is 2 here), and what came before the close is inspected.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { inTenant, systemActor } from '../resources/context.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { openEventStream, type EventStreamClient } from '../test/sse-client.ts';
import { createTestApp, hostOf, type TestContext } from '../test/test-app.ts';
import { publish } from './bus.ts';
import type { EventName, EventPayload } from './event-map.ts';

async function until(probe: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await probe())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const rawDataChange = () => ({ id: randomUUID(), processing_status: 'processing', updated_at: new Date().toISOString() });
const events = (client: EventStreamClient) => client.received.filter((item) => item.event !== ':');

function streamsFor(t: () => TestContext, port: () => number) {
  return {
    open: (tenant: TenantRow, options: Parameters<typeof openEventStream>[2] = {}) => openEventStream(port(), hostOf(tenant), options),
    publishTo: <N extends EventName>(tenant: TenantRow, name: N, payload: EventPayload<N>) =>
      inTenant(t().db, systemActor(tenant.id), (ctx) => publish(ctx, name, payload)),
    /** Until `count` of the tenant's streams have caught up and follow the tenant's feed. */
    live: (tenant: TenantRow, count: number) => until(() => t().app.eventHub.count(tenant.id).live >= count),
    /** Closes the clients and waits until the server has let go of them. */
    closeAll: async (tenant: TenantRow, ...clients: EventStreamClient[]) => {
      for (const client of clients) client.close();
      await Promise.all(clients.map((client) => client.ended));
      await until(() => t().app.eventHub.count(tenant.id).open === 0);
    },
  };
}

async function listen(t: TestContext): Promise<number> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return (t.app.server.address() as AddressInfo).port;
}

describe('live events: GET /api/v1/events/', () => {
  let t: TestContext;
  let port: number;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const { open, publishTo, live, closeAll } = streamsFor(() => t, () => port);

  before(async () => {
    // Sign-outs are seen as they commit (a notification), not by the periodic check.
    t = await createTestApp({ EVENTS_HEARTBEAT_MS: '200', EVENTS_MAX_CONNECTIONS_PER_USER: '2', EVENTS_ACCESS_CHECK_MS: '3600000' });
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    port = await listen(t);
  });
  after(() => t?.close());

  it('refuses before the stream opens: 401 signed out, 403 for a channel the audience may not have, 400 naming a bad channel or Last-Event-ID', async () => {
    const get = (token: string | undefined, query = '', headers: Record<string, string> = {}) =>
      t.request(acme, { method: 'GET', url: `/api/v1/events/${query}`, token, headers });

    assert.equal((await get(undefined, '?channels=all')).statusCode, 401);
    assert.equal((await get(tokens['beta'], '?channels=all')).statusCode, 401, "another tenant's token");
    for (const [audience, channels] of [['paywall', 'research'], ['paywall', 'all,admin'], ['research', 'admin'], ['research', 'all,research,admin']]) {
      const response = await get(tokens[audience!], `?channels=${channels}`);
      assert.equal(response.statusCode, 403, `${audience} asking for ${channels}`);
      assert.match(response.json().detail, channels!.includes('admin') ? /admin/ : /research/);
    }
    const unknown = await get(tokens['admin'], '?channels=all,everything');
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().errors.channels[0], /Unknown channel "everything"/);
    const stray = await get(tokens['admin'], '?channels=all&channel=admin');
    assert.equal(stray.statusCode, 400);
    assert.deepEqual(stray.json().errors, { channel: ['Unknown parameter.'] });
    const badId = await get(tokens['admin'], '?channels=all', { 'last-event-id': 'yesterday' });
    assert.equal(badId.statusCode, 400);
    assert.ok(badId.json().errors['Last-Event-ID']);

    // What each audience may have opens a stream.
    const allowed = await Promise.all([
      open(acme, { token: tokens['paywall'], channels: 'all' }),
      open(acme, { token: tokens['research'], channels: 'all,research' }),
      open(acme, { token: tokens['admin'], channels: 'all,research,admin' }),
      open(acme, { token: tokens['admin'] }),
    ]);
    for (const client of allowed) {
      assert.equal(client.status, 200, JSON.stringify(client.error));
      assert.match(client.headers['content-type'] ?? '', /^text\/event-stream/);
      assert.equal(client.headers['cache-control'], 'no-cache, no-transform');
    }
    await closeAll(acme, ...allowed);
  });

  it('delivers an event to the audiences of its channel only, with its per-tenant id, name and payload', async () => {
    const admin = await open(acme, { token: tokens['admin'], channels: 'all,research,admin' });
    const research = await open(acme, { token: tokens['research'], channels: 'all,research' });
    const adminOnly = await open(acme, { token: tokens['admin'], channels: 'admin' });
    const reader = await open(acme, { token: tokens['paywall'], channels: 'all' });
    await live(acme, 4);

    const payload = rawDataChange();
    const id = await publishTo(acme, 'raw_data_update', payload);
    for (const client of [admin, research]) assert.deepEqual(await client.next(), { id: String(id), event: 'raw_data_update', data: payload });

    // The fence: a third stream of a user closes their oldest; before that close, nothing.
    const readerMore = [await open(acme, { token: tokens['paywall'], channels: 'all' }), await open(acme, { token: tokens['paywall'], channels: 'all' })];
    assert.deepEqual(await reader.next(), { id: null, event: 'stream_closed', data: { reason: 'connection_limit' } });
    await reader.ended;
    assert.equal(events(reader).length, 1, 'the research event never reached the paywall reader');
    const adminMore = [await open(acme, { token: tokens['admin'], channels: 'all' }), await open(acme, { token: tokens['admin'], channels: 'all' })];
    assert.deepEqual(await admin.next(), { id: null, event: 'stream_closed', data: { reason: 'connection_limit' } });
    assert.deepEqual(await adminOnly.next(), { id: null, event: 'stream_closed', data: { reason: 'connection_limit' } });
    assert.equal(events(adminOnly).length, 1, 'nothing on the admin channel alone');
    await closeAll(acme, research, ...readerMore, ...adminMore, admin, adminOnly, reader);
  });

  it('closes the oldest of a user’s streams beyond the limit, and only that one', async () => {
    const oldest = await open(acme, { token: tokens['research'] });
    const second = await open(acme, { token: tokens['research'] });
    await live(acme, 2);
    const third = await open(acme, { token: tokens['research'] });
    assert.deepEqual(await oldest.next(), { id: null, event: 'stream_closed', data: { reason: 'connection_limit' } });
    await oldest.ended;
    await live(acme, 2);
    const payload = rawDataChange();
    const id = await publishTo(acme, 'raw_data_process_complete', payload);
    for (const client of [second, third]) assert.deepEqual(await client.next(), { id: String(id), event: 'raw_data_process_complete', data: payload });
    await closeAll(acme, oldest, second, third);
  });

  it('keeps tenants apart: a stream of beta never gets an event of acme, and each tenant counts its own ids', async () => {
    const acmeStream = await open(acme, { token: tokens['admin'] });
    const betaStream = await open(beta, { token: tokens['beta'] });
    await Promise.all([live(acme, 1), live(beta, 1)]);
    const betaBefore = await t.db.withTenant({ tenantId: beta.id }, (tx) => query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM events`));

    const forAcme = { task_id: randomUUID() };
    const acmeId = await publishTo(acme, 'generate_raw_data_report_start', forAcme);
    const forBeta = { task_id: randomUUID() };
    const betaId = await publishTo(beta, 'generate_raw_data_report_start', forBeta);
    assert.equal(betaId, betaBefore[0]!.n + 1, "beta's ids are its own");
    assert.deepEqual(await acmeStream.next(), { id: String(acmeId), event: 'generate_raw_data_report_start', data: forAcme });
    assert.deepEqual(await betaStream.next(), { id: String(betaId), event: 'generate_raw_data_report_start', data: forBeta });

    // Fence: close beta's stream through the limit, then nothing but its own event before it.
    const betaMore = [await open(beta, { token: tokens['beta'] }), await open(beta, { token: tokens['beta'] })];
    assert.equal((await betaStream.next()).event, 'stream_closed');
    assert.deepEqual(events(betaStream).map((event) => event.data), [forBeta, { reason: 'connection_limit' }]);
    await closeAll(beta, betaStream, ...betaMore);
    await closeAll(acme, acmeStream);
  });

  it('publishes nothing for a transaction that rolls back, and gives its id back', async () => {
    const stream = await open(acme, { token: tokens['admin'] });
    await live(acme, 1);
    const first = await publishTo(acme, 'raw_data_update', rawDataChange());
    assert.equal((await stream.next()).id, String(first));

    await assert.rejects(
      inTenant(t.db, systemActor(acme.id), async (ctx) => {
        await publish(ctx, 'raw_data_error', { id: randomUUID(), reason: 'never happened', updated_at: new Date().toISOString() });
        throw new Error('the change fails after its event was written');
      }),
      /the change fails/,
    );
    const payload = rawDataChange();
    const next = await publishTo(acme, 'raw_data_update', payload);
    assert.equal(next, first + 1);
    assert.deepEqual(await stream.next(), { id: String(next), event: 'raw_data_update', data: payload });
    assert.ok(!stream.received.some((item) => item.event === 'raw_data_error'));
    await closeAll(acme, stream);
  });

  it('refuses a payload that does not match its declaration, writing nothing', async () => {
    const before = await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM events`));
    await assert.rejects(
      publishTo(acme, 'raw_data_update', { id: 'not-a-uuid', processing_status: 'x', updated_at: 'now', extra: 1 } as never),
      /payload of event "raw_data_update" is invalid/,
    );
    const afterwards = await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM events`));
    assert.deepEqual(afterwards, before);
  });

  it('replays what a dropped stream missed from Last-Event-ID, in order, then goes on live', async () => {
    const first = await open(acme, { token: tokens['research'] });
    await live(acme, 1);
    const seen = await publishTo(acme, 'raw_data_update', rawDataChange());
    assert.equal((await first.next()).id, String(seen));
    await closeAll(acme, first);

    const missed = [
      { name: 'raw_data_process_complete' as const, payload: rawDataChange() },
      { name: 'domain_info_enrich_complete' as const, payload: { id: randomUUID(), updated_at: new Date().toISOString() } },
      {
        name: 'new_suggested_organizations' as const,
        payload: { raw_data_id: randomUUID(), count: 2, items: [{ id: randomUUID(), name: 'Acme Widgets' }, { id: randomUUID(), name: 'Beta Gears' }] },
      },
    ];
    const ids: number[] = [];
    for (const { name, payload } of missed) ids.push(await publishTo(acme, name, payload as never));

    const again = await open(acme, { token: tokens['research'], lastEventId: String(seen) });
    for (const [index, { name, payload }] of missed.entries()) {
      assert.deepEqual(await again.next(), { id: String(ids[index]), event: name, data: payload });
    }
    assert.deepEqual(ids, [seen + 1, seen + 2, seen + 3]);
    await live(acme, 1);
    const later = await publishTo(acme, 'new_suggested_person', { id: randomUUID(), raw_data_id: null, updated_at: new Date().toISOString() });
    assert.equal((await again.next()).id, String(later));
    await closeAll(acme, again);
  });

  it('says reset when the events a client missed are no longer kept, and when its id is not one of this tenant', async () => {
    const gone = await publishTo(acme, 'raw_data_update', rawDataChange());
    await publishTo(acme, 'raw_data_update', rawDataChange());
    // Older than the window: removed as the next event is published.
    await t.db.owner.execute(sql`UPDATE events SET created_at = now() - interval '11 minutes' WHERE tenant_id = ${acme.id}`);
    const kept = await publishTo(acme, 'raw_data_update', rawDataChange());
    const left = await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ id: string }>(tx, sql`SELECT id::text AS id FROM events`));
    assert.deepEqual(left, [{ id: String(kept) }]);

    const stale = await open(acme, { token: tokens['admin'], lastEventId: String(gone) });
    assert.deepEqual(await stale.next(), { id: String(kept - 1), event: 'reset', data: { last_event_id: kept - 1 } });
    assert.equal((await stale.next()).id, String(kept));

    const foreign = await open(acme, { token: tokens['admin'], lastEventId: '999999999' });
    assert.deepEqual(await foreign.next(), { id: String(kept), event: 'reset', data: { last_event_id: kept } });
    await live(acme, 2);
    const next = await publishTo(acme, 'raw_data_update', rawDataChange());
    assert.equal((await foreign.next()).id, String(next));
    assert.equal((await stale.next()).id, String(next));
    await closeAll(acme, stale, foreign);
  });

  it('sends heartbeat comments on a quiet stream', async () => {
    const stream = await open(acme, { token: tokens['paywall'] });
    await stream.heartbeats(2);
    assert.equal(events(stream).length, 0);
    await closeAll(acme, stream);
  });

  it('closes a stream when its token is revoked (sign-out), its user disabled or no longer allowed its channels', async () => {
    await t.createUser(acme, 'leaving@acme.test', { is_research: true });
    await t.createUser(acme, 'disabled@acme.test', { is_research: true });
    await t.createUser(acme, 'demoted@acme.test', { is_research: true });
    const [leaving, disabled, demoted] = await Promise.all(['leaving', 'disabled', 'demoted'].map((name) => t.login(acme, `${name}@acme.test`)));
    const streams = {
      leaving: await open(acme, { token: leaving }),
      disabled: await open(acme, { token: disabled }),
      demoted: await open(acme, { token: demoted, channels: 'research' }),
      demotedAll: await open(acme, { token: demoted, channels: 'all' }),
    };
    await live(acme, 4);

    const logout = await t.request(acme, { method: 'POST', url: '/api/v1/auth/logout/', token: leaving });
    assert.equal(logout.statusCode, 204);
    assert.deepEqual(await streams.leaving.next(), { id: null, event: 'stream_closed', data: { reason: 'signed_out' } });
    await streams.leaving.ended;
    assert.equal((await open(acme, { token: leaving })).status, 401, 'reconnecting with the revoked token');

    await t.db.withTenant({ tenantId: acme.id }, (tx) => tx.execute(sql`UPDATE users SET disabled = true WHERE email = 'disabled@acme.test'`));
    assert.deepEqual(await streams.disabled.next(), { id: null, event: 'stream_closed', data: { reason: 'signed_out' } });

    await t.db.withTenant({ tenantId: acme.id }, (tx) => tx.execute(sql`UPDATE users SET is_research = false WHERE email = 'demoted@acme.test'`));
    assert.deepEqual(await streams.demoted.next(), { id: null, event: 'stream_closed', data: { reason: 'access_changed' } });
    // A paywall reader may still have `all`.
    await until(() => t.app.eventHub.count(acme.id).open === 1);
    assert.equal(streams.demotedAll.received.filter((item) => item.event === 'stream_closed').length, 0);
    await closeAll(acme, ...Object.values(streams));
  });
});

describe('live events: shutdown', () => {
  let t: TestContext;

  before(async () => {
    t = await createTestApp({ EVENTS_HEARTBEAT_MS: '60000' });
  });
  after(() => t?.close());

  it('ends every stream, saying so, and closing the app does not wait for clients', async () => {
    const { acme, tokens } = await t.signInTwoTenants();
    const port = await listen(t);
    const streams = await Promise.all([
      openEventStream(port, hostOf(acme), { token: tokens['admin'] }),
      openEventStream(port, hostOf(acme), { token: tokens['paywall'] }),
    ]);
    await until(() => t.app.eventHub.count(acme.id).live === 2);
    await t.app.close();
    for (const stream of streams) {
      await stream.ended;
      assert.deepEqual(events(stream), [{ id: null, event: 'stream_closed', data: { reason: 'shutdown' } }]);
    }
    assert.equal(t.app.eventHub.count().open, 0);
  });
});

describe('live events: stream registrations (the per-user limit across processes)', () => {
  let t: TestContext;
  let port: number;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const { open, live, closeAll } = streamsFor(() => t, () => port);
  const registered = (tenant: TenantRow) =>
    t.db.withTenant({ tenantId: tenant.id }, (tx) => query<{ id: string; evicted: boolean }>(tx, sql`SELECT id::text AS id, evicted FROM event_streams`));

  before(async () => {
    // Renewed every second: what another process decided is seen within that.
    t = await createTestApp({ EVENTS_STREAM_LEASE_MS: '3000', EVENTS_MAX_CONNECTIONS_PER_USER: '2' });
    ({ acme, tokens } = await t.signInTwoTenants());
    port = await listen(t);
  });
  after(() => t?.close());

  it('registers each open stream and removes its registration when it closes', async () => {
    const streams = [await open(acme, { token: tokens['admin'] }), await open(acme, { token: tokens['research'] })];
    await live(acme, 2);
    assert.equal((await registered(acme)).length, 2);
    await closeAll(acme, ...streams);
    await until(async () => (await registered(acme)).length === 0);
  });

  it('closes a stream evicted by another process whose notification it missed, at the next renewal', async () => {
    const stream = await open(acme, { token: tokens['research'] });
    await live(acme, 1);
    // What a registration in another process does to this user's oldest stream, without the notification.
    await t.db.withTenant({ tenantId: acme.id }, (tx) => tx.execute(sql`UPDATE event_streams SET evicted = true`));
    assert.deepEqual(await stream.next(), { id: null, event: 'stream_closed', data: { reason: 'connection_limit' } });
    await closeAll(acme, stream);
  });

  it('cuts a stream whose registration expired (its process was cut off from the database longer than the lease), so its client registers again', async () => {
    const stream = await open(acme, { token: tokens['research'] });
    await live(acme, 1);
    await t.db.withTenant({ tenantId: acme.id }, (tx) => tx.execute(sql`DELETE FROM event_streams`));
    await stream.ended;
    assert.equal(events(stream).length, 0, 'cut, not closed for a reason the client would act on');
    await until(() => t.app.eventHub.count(acme.id).open === 0);
  });

  it('does not count the registrations of a process that died, once their lease has passed', async () => {
    const first = await open(acme, { token: tokens['research'] });
    await live(acme, 1);
    // Then two more streams of the user in a process that has died since: registered after
    // `first`, never renewed. Were they counted, the next stream would close `first`.
    const userId = (await t.db.withTenant({ tenantId: acme.id }, (tx) => query<{ id: string }>(tx, sql`SELECT id::text AS id FROM users WHERE email = 'research@acme.test'`)))[0]!.id;
    await t.db.withTenant({ tenantId: acme.id }, (tx) =>
      tx.execute(sql`INSERT INTO event_streams (tenant_id, id, user_id, renewed_at)
                     SELECT app_tenant_id(), gen_random_uuid(), ${userId}::uuid, now() - interval '4 seconds' FROM generate_series(1, 2)`),
    );
    const second = await open(acme, { token: tokens['research'] });
    assert.deepEqual((await registered(acme)).map((row) => row.evicted), [false, false], 'the dead process’s rows are gone');
    assert.equal(t.app.eventHub.count(acme.id).open, 2);
    assert.equal(events(first).length, 0);
    await closeAll(acme, first, second);
  });
});

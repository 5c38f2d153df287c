// The live event stream's reconnect policy (SPEC §4, §8, §9), on fake timers: 3,000 ms between
// attempts, at most 5 retries in a row, the count reset when a stream opens, then a stop with
// "Max SSE retries reached"; Last-Event-ID on reconnect; 401 and connection_limit stop at once.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { LiveStatus } from './live.slice';
import { channelsFor, MAX_RETRIES, MAX_RETRIES_MESSAGE, openEventStream, RECONNECT_MS, type EventStream, type StreamMessage } from './stream';
import { fakeFetch, FakeStream, settle, useBrowserGlobals, type FakeFetch } from './stream.testing';

useBrowserGlobals();

describe('live event stream', () => {
  let server: FakeFetch;
  let stream: EventStream | null;
  let statuses: LiveStatus[];
  let messages: StreamMessage[];
  let unauthorized: number;
  let accessChanged: number;
  let consoleError: ReturnType<typeof mock.method>;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    consoleError = mock.method(console, 'error', () => undefined);
    server = fakeFetch();
    stream = null;
    statuses = [];
    messages = [];
    unauthorized = 0;
    accessChanged = 0;
  });

  afterEach(() => {
    stream?.close();
    mock.timers.reset();
    mock.restoreAll();
  });

  function open(channels = channelsFor('research')) {
    stream = openEventStream({
      token: 'token-1',
      channels,
      fetch: server.fetch,
      onMessage: (message) => void messages.push(message),
      onStatus: (status) => void statuses.push(status),
      onUnauthorized: () => void (unauthorized += 1),
      onAccessChanged: () => void (accessChanged += 1),
    });
  }

  /** Waits out one reconnect delay: nothing is sent a millisecond before it ends. */
  async function waitReconnect() {
    const before = server.requests.length;
    mock.timers.tick(RECONNECT_MS - 1);
    await settle();
    assert.equal(server.requests.length, before, 'no request before the reconnect delay has passed');
    mock.timers.tick(1);
    await settle();
  }

  it('asks for its channels with the bearer header on the events route', async () => {
    server.answer(new FakeStream());
    open();
    await settle();
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.url, '/api/v1/events/?channels=all%2Cresearch');
    assert.equal(server.requests[0]!.headers['Authorization'], 'Bearer token-1');
    assert.equal(server.requests[0]!.headers['last-event-id'], undefined);
    assert.deepEqual(statuses, ['connecting', 'connected']);
  });

  it('retries every 3 s, at most 5 times in a row, then stops and logs "Max SSE retries reached"', async () => {
    open();
    await settle();
    assert.equal(server.requests.length, 1);
    for (let retry = 1; retry <= MAX_RETRIES; retry += 1) {
      assert.equal(consoleError.mock.callCount(), 0);
      await waitReconnect();
      assert.equal(server.requests.length, 1 + retry);
    }
    assert.equal(consoleError.mock.callCount(), 1);
    assert.deepEqual(consoleError.mock.calls[0]!.arguments, [MAX_RETRIES_MESSAGE]);
    assert.equal(statuses.at(-1), 'offline');
    assert.deepEqual(statuses.slice(0, -1), ['connecting', ...Array<LiveStatus>(MAX_RETRIES).fill('reconnecting')]);

    mock.timers.tick(10 * RECONNECT_MS);
    await settle();
    assert.equal(server.requests.length, 1 + MAX_RETRIES, 'no request after the retries ran out');
  });

  it('counts refused answers (5xx, 403) as failures like network errors', async () => {
    server.answer(503, 502);
    open();
    await settle();
    await waitReconnect();
    await waitReconnect();
    assert.equal(server.requests.length, 3);
    assert.equal(statuses.at(-1), 'reconnecting');
  });

  it('starts counting again once a stream opens', async () => {
    const opened = new FakeStream();
    server.answer('network-error', 'network-error', 'network-error', opened);
    open();
    await settle();
    for (let retry = 1; retry <= 3; retry += 1) await waitReconnect();
    assert.equal(server.requests.length, 4);
    assert.equal(statuses.at(-1), 'connected');

    // The server ends the stream: five more retries are allowed, not two.
    opened.end();
    await settle();
    for (let retry = 1; retry <= MAX_RETRIES; retry += 1) {
      assert.equal(consoleError.mock.callCount(), 0, `stopped early, at retry ${retry}`);
      await waitReconnect();
    }
    assert.equal(server.requests.length, 4 + MAX_RETRIES);
    assert.equal(consoleError.mock.callCount(), 1);
    assert.equal(statuses.at(-1), 'offline');
  });

  it('delivers named events and resumes after the last one with Last-Event-ID', async () => {
    const first = new FakeStream();
    const second = new FakeStream();
    server.answer(first, second);
    open();
    await settle();
    first.write('retry: 3000\n\n');
    first.event(41, 'new_suggested_person', { id: 'p', raw_data_id: null, updated_at: '2026-11-25T00:00:00Z' });
    first.write(': heartbeat\n\n');
    first.event(42, 'reset', { last_event_id: 42 });
    await settle();
    assert.deepEqual(
      messages.map(({ id, event }) => [id, event]),
      [['41', 'new_suggested_person'], ['42', 'reset']],
    );
    assert.deepEqual(JSON.parse(messages[0]!.data), { id: 'p', raw_data_id: null, updated_at: '2026-11-25T00:00:00Z' });
    assert.equal(stream!.lastEventId(), '42');

    first.drop();
    await settle();
    assert.equal(statuses.at(-1), 'reconnecting');
    await waitReconnect();
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1]!.headers['last-event-id'], '42');
    assert.equal(server.requests[1]!.headers['Authorization'], 'Bearer token-1');
    assert.equal(statuses.at(-1), 'connected');
  });

  it('starts from a given event when reopened', async () => {
    server.answer(new FakeStream());
    stream = openEventStream({
      token: 'token-1',
      channels: channelsFor('admin'),
      lastEventId: '7',
      fetch: server.fetch,
      onMessage: () => undefined,
      onStatus: () => undefined,
      onUnauthorized: () => undefined,
      onAccessChanged: () => undefined,
    });
    await settle();
    assert.equal(server.requests[0]!.url, '/api/v1/events/?channels=all%2Cresearch%2Cadmin');
    assert.equal(server.requests[0]!.headers['last-event-id'], '7');
  });

  it('stops at once on a 401 and reports it', async () => {
    server.answer(401);
    open();
    await settle();
    assert.equal(unauthorized, 1);
    assert.equal(statuses.at(-1), 'offline');
    mock.timers.tick(10 * RECONNECT_MS);
    await settle();
    assert.equal(server.requests.length, 1);
    assert.equal(consoleError.mock.callCount(), 0);
  });

  it('asks for fresh roles on a 403 or when the server says access changed, and retries', async () => {
    const opened = new FakeStream();
    server.answer(403, opened);
    open();
    await settle();
    assert.equal(accessChanged, 1);
    await waitReconnect();
    opened.write('event: stream_closed\ndata: {"reason":"access_changed"}\n\n');
    opened.end();
    await settle();
    assert.equal(accessChanged, 2);
    assert.equal(statuses.at(-1), 'reconnecting');
  });

  it('does not come back after the server closed it for the per-user limit', async () => {
    const opened = new FakeStream();
    server.answer(opened);
    open();
    await settle();
    opened.write('event: stream_closed\ndata: {"reason":"connection_limit"}\n\n');
    opened.end();
    await settle();
    assert.equal(statuses.at(-1), 'offline');
    mock.timers.tick(10 * RECONNECT_MS);
    await settle();
    assert.equal(server.requests.length, 1);
  });

  it('closes the request and retries no more when closed', async () => {
    server.answer(new FakeStream());
    open();
    await settle();
    stream!.close();
    assert.equal(server.requests[0]!.signal.aborted, true);
    mock.timers.tick(10 * RECONNECT_MS);
    await settle();
    assert.equal(server.requests.length, 1);
  });
});

describe('channels per access level (SPEC §6)', () => {
  it('gives everyone all, research also research, admins admin and research', () => {
    assert.deepEqual(channelsFor('public'), []);
    assert.deepEqual(channelsFor('paywall'), ['all']);
    assert.deepEqual(channelsFor('research'), ['all', 'research']);
    assert.deepEqual(channelsFor('admin'), ['all', 'research', 'admin']);
  });
});

// The session's live event stream (app/events/live-events.ts) against a store with the app's
// session, live and API state: opened on sign-in with the channels the user's access allows,
// none for visitors, closed on sign-out, a 401 signs out, reset refetches the cache.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { configureStore, type Middleware, type UnknownAction } from '@reduxjs/toolkit';
import { api } from '../../api/api';
import { logout, selectToken, setSession, type SessionUser } from '../../lib/session';
import { sessionSlice } from '../session.slice';
import { liveSlice, selectLiveStatus } from './live.slice';
import { startLiveEvents } from './live-events';
import { fakeFetch, FakeStream, settle, useBrowserGlobals, type FakeFetch } from './stream.testing';

useBrowserGlobals();

const user = (roles: Partial<SessionUser> = {}): SessionUser & { token: string } => ({
  token: 'token-1',
  id: 'u1',
  email: 'reader@acme.test',
  alias: 'reader',
  is_admin: false,
  is_research: false,
  asset_id: null,
  tenant_id: 't1',
  can_manage_tenants: false,
  ...roles,
});

describe('live events of the session', () => {
  let server: FakeFetch;
  let actions: UnknownAction[];
  let stop: () => void;
  let store: ReturnType<typeof makeStore>;

  /** Records every action the store sees. */
  const record: Middleware = () => (next) => (action) => {
    actions.push(action as UnknownAction);
    return next(action);
  };

  function makeStore() {
    return configureStore({
      reducer: { api: api.reducer, session: sessionSlice.reducer, live: liveSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware, record),
    });
  }

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    mock.method(console, 'error', () => undefined);
    server = fakeFetch();
    actions = [];
    store = makeStore();
    stop = startLiveEvents(store, { fetch: server.fetch, navigate: () => undefined, stickyToast: () => undefined });
  });

  afterEach(() => {
    stop();
    mock.timers.reset();
    mock.restoreAll();
  });

  it('opens no stream for a visitor', async () => {
    await settle();
    assert.equal(server.requests.length, 0);
    assert.equal(selectLiveStatus(store.getState()), 'offline');
  });

  for (const [level, roles, channels] of [
    ['paywall', {}, 'all'],
    ['research', { is_research: true }, 'all,research'],
    ['admin', { is_admin: true }, 'all,research,admin'],
  ] as const) {
    it(`opens one stream for a ${level} user with channels ${channels}`, async () => {
      server.answer(new FakeStream());
      store.dispatch(setSession(user(roles)));
      await settle();
      assert.equal(server.requests.length, 1);
      assert.equal(new URL(server.requests[0]!.url, 'http://acme.localhost').searchParams.get('channels'), channels);
      assert.equal(server.requests[0]!.headers['Authorization'], 'Bearer token-1');
      assert.equal(selectLiveStatus(store.getState()), 'connected');
    });
  }

  it('closes the stream on sign-out', async () => {
    server.answer(new FakeStream());
    store.dispatch(setSession(user()));
    await settle();
    store.dispatch(logout('user'));
    assert.equal(server.requests[0]!.signal.aborted, true);
    assert.equal(selectLiveStatus(store.getState()), 'offline');
    mock.timers.tick(60_000);
    await settle();
    assert.equal(server.requests.length, 1);
  });

  it('signs the user out on a 401', async () => {
    server.answer(401);
    store.dispatch(setSession(user()));
    await settle();
    assert.equal(selectToken(store.getState()), null);
    const ended = actions.filter(logout.match);
    assert.deepEqual(ended.map((action) => action.payload.reason), ['expired']);
    assert.equal(selectLiveStatus(store.getState()), 'offline');
  });

  it('reopens with the new channels when the roles change, resuming after the last event', async () => {
    const first = new FakeStream();
    server.answer(first, new FakeStream());
    store.dispatch(setSession(user()));
    await settle();
    first.event(5, 'raw_data_update', {});
    await settle();
    store.dispatch(sessionSlice.actions.userRefreshed({ ...user({ is_research: true }) }));
    await settle();
    assert.equal(server.requests[0]!.signal.aborted, true);
    assert.equal(server.requests.length, 2);
    assert.equal(new URL(server.requests[1]!.url, 'http://acme.localhost').searchParams.get('channels'), 'all,research');
    assert.equal(server.requests[1]!.headers['last-event-id'], '5');
  });

  it('refetches cached data when the stream says events were missed', async () => {
    const opened = new FakeStream();
    server.answer(opened);
    store.dispatch(setSession(user({ is_research: true })));
    await settle();
    opened.event(120, 'reset', { last_event_id: 120 });
    await settle();
    const invalidated = actions.filter(api.util.invalidateTags.match);
    assert.equal(invalidated.length, 1);
    assert.deepEqual(invalidated[0]!.payload, ['Resource', 'ResourceFilters', 'Counts']);
  });
});

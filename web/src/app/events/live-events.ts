import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { api } from '../../api/api';
import { resourceTags } from '../../api/resources';
import { logout, selectAccessLevel, selectToken, type StateWithSession } from '../../lib/session';
import { dispatchLiveEvent, type EventContext } from './dispatch';
import { liveStatusChanged } from './live.slice';
import { channelsFor, openEventStream, type EventStream } from './stream';

/**
 * The session's one live event stream: opened when a user signs in (or a stored session is
 * restored) with the channels their access allows, reopened when those change, closed on
 * sign-out. Events go to app/events/dispatch.ts; the stream's state to the header's indicator.
 */

type LiveStore = {
  getState(): StateWithSession;
  dispatch: ThunkDispatch<StateWithSession, unknown, UnknownAction>;
  subscribe(listener: () => void): () => void;
};

export interface LiveEventsOptions extends Pick<EventContext, 'navigate' | 'stickyToast'> {
  /** For tests: the fetch the stream uses. */
  fetch?: typeof fetch;
}

/**
 * Tags of cached data that live events announce changes to: resource records and lists, their
 * filter values, counts. A `reset` (events missed) refetches them; settings, users and tenants
 * change by other means.
 */
const LIVE_TAGS = ['Resource', 'ResourceFilters', 'Counts'] as const;

/** Starts following the store's session; returns the function that stops (and closes the stream). */
export function startLiveEvents(store: LiveStore, options: LiveEventsOptions): () => void {
  let stream: EventStream | null = null;
  // Counts the streams opened: a stream's callbacks act only while it is the current one.
  let generation = 0;
  let openedFor: { token: string; channels: string } | null = null;

  const context: EventContext = {
    refetchCached: () => store.dispatch(api.util.invalidateTags([...LIVE_TAGS])),
    refetchRecord: (path, id) =>
      store.dispatch(api.util.invalidateTags([resourceTags.list(path), resourceTags.record(path, id), resourceTags.filters(path), 'Counts'])),
    refetchList: (path) => store.dispatch(api.util.invalidateTags([resourceTags.list(path), 'Counts'])),
    stickyToast: options.stickyToast,
    navigate: options.navigate,
  };

  const follow = () => {
    const token = selectToken(store.getState());
    const channels = channelsFor(selectAccessLevel(store.getState()));
    const key = token === null ? null : { token, channels: channels.join(',') };
    if (key?.token === openedFor?.token && key?.channels === openedFor?.channels) return;

    // The same session with other channels resumes where its stream was.
    const resumeFrom = key !== null && key.token === openedFor?.token ? stream?.lastEventId() : null;
    stream?.close();
    stream = null;
    openedFor = key;
    const current = ++generation;
    const isCurrent = () => current === generation;
    if (token === null) {
      store.dispatch(liveStatusChanged('offline'));
      return;
    }
    stream = openEventStream({
      token,
      channels,
      lastEventId: resumeFrom ?? null,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onMessage: (message) => dispatchLiveEvent(message, context),
      onStatus: (status) => {
        if (isCurrent()) store.dispatch(liveStatusChanged(status));
      },
      onUnauthorized: () => {
        // SPEC §4: a 401 logs out — unless this stream's session has already ended.
        if (isCurrent()) store.dispatch(logout('expired'));
      },
      onAccessChanged: () => {
        // The stored roles are out of date: GET auth/me refreshes them, and new roles reopen
        // the stream with the channels they allow.
        if (isCurrent()) void store.dispatch(api.endpoints.me.initiate(undefined, { subscribe: false, forceRefetch: true }));
      },
    });
  };

  follow();
  const unsubscribe = store.subscribe(follow);
  return () => {
    unsubscribe();
    generation += 1;
    stream?.close();
    stream = null;
  };
}

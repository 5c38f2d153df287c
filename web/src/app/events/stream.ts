import { fetchEventSource } from '@microsoft/fetch-event-source';
import type { AccessLevel, CloseReason, EventChannel, StreamClosedPayload } from '@intelnotes/server/contracts';
import type { LiveStatus } from './live.slice';

/**
 * One live event stream (docs/events.md): `GET /api/v1/events/?channels=…` on the tenant's host
 * (the page's own origin), read with @microsoft/fetch-event-source because the browser's
 * EventSource cannot send the bearer header. This file holds the reconnect policy of SPEC §4 and
 * §9; what the events do is app/events/dispatch.ts's business.
 */

export const EVENTS_URL = '/api/v1/events/';
/** SPEC §9: the stream reconnects 3,000 ms after an error… */
export const RECONNECT_MS = 3_000;
/** …at most 5 times in a row (the count starts again once a stream opens). */
export const MAX_RETRIES = 5;
/** SPEC §8: logged once the retries have run out. */
export const MAX_RETRIES_MESSAGE = 'Max SSE retries reached';

/**
 * SPEC §6: everyone signed in gets `all`; research users also `research`; admins `admin` and
 * `research`. The server holds the same rule (CHANNELS_OF_ACCESS) and refuses a channel the
 * caller may not have with a 403; the type keeps the names to the server's.
 */
export const CHANNELS_OF_ACCESS = {
  public: [],
  paywall: ['all'],
  research: ['all', 'research'],
  admin: ['all', 'research', 'admin'],
} as const satisfies Record<AccessLevel, readonly EventChannel[]>;

export function channelsFor(access: AccessLevel): readonly EventChannel[] {
  return CHANNELS_OF_ACCESS[access];
}

/** One event as read off the stream: its id, name and JSON payload, not yet parsed. */
export interface StreamMessage {
  id: string;
  event: string;
  data: string;
}

export interface StreamOptions {
  channels: readonly EventChannel[];
  token: string;
  /** Resume after this event (a stream reopened for new channels in the same session). */
  lastEventId?: string | null;
  onMessage(message: StreamMessage): void;
  onStatus(status: LiveStatus): void;
  /** The server answered 401: the token is no longer good (SPEC §4: log out). */
  onUnauthorized(): void;
  /** The caller's channels are no longer theirs (403, or the server closed with access_changed). */
  onAccessChanged(): void;
  /** For tests: the fetch the reader uses (the page's by default). */
  fetch?: typeof fetch;
}

/** Why the stream stops for good (the reader does not retry after these). */
class StreamStopped extends Error {}
/** Why the stream is retried (a refused or ended stream, as well as a network error). */
class StreamInterrupted extends Error {}

export interface EventStream {
  /** The id of the last event received, to resume from. */
  lastEventId(): string | null;
  close(): void;
}

/**
 * Opens the stream and keeps it open: after an error or an ended stream it reconnects in
 * RECONNECT_MS, sending `Last-Event-ID` (the library keeps the last id it read and sends it on
 * each retry), at most MAX_RETRIES times in a row, then stops and logs MAX_RETRIES_MESSAGE.
 * A 401 stops at once and reports it; so does a server that closed this stream because the
 * user opened too many (`connection_limit`: reconnecting would close another of theirs).
 */
export function openEventStream(options: StreamOptions): EventStream {
  const controller = new AbortController();
  let lastEventId = options.lastEventId ?? null;
  let retries = 0;
  let closeReason: CloseReason | null = null;
  const url = `${EVENTS_URL}?${new URLSearchParams({ channels: options.channels.join(',') })}`;

  options.onStatus('connecting');
  void fetchEventSource(url, {
    signal: controller.signal,
    headers: {
      Authorization: `Bearer ${options.token}`,
      // Spelled as the library spells the header it sets on each retry, so there is one.
      ...(lastEventId !== null ? { 'last-event-id': lastEventId } : {}),
    },
    // One stream for the whole session, as SPEC §4 says, also while the tab is hidden: the
    // library's default closes it on every visibility change and opens a new one.
    openWhenHidden: true,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    async onopen(response) {
      if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) {
        retries = 0;
        closeReason = null;
        options.onStatus('connected');
        return;
      }
      if (response.status === 401) throw new StreamStopped('401');
      if (response.status === 403) options.onAccessChanged();
      throw new StreamInterrupted(String(response.status));
    },
    onmessage(message) {
      if (message.id !== '') lastEventId = message.id;
      // The first `retry:` block and heartbeat comments come as messages without a name.
      if (message.event === '') return;
      if (message.event === 'stream_closed') {
        closeReason = parseCloseReason(message.data);
        if (closeReason === 'access_changed') options.onAccessChanged();
        return;
      }
      options.onMessage({ id: message.id, event: message.event, data: message.data });
    },
    onclose() {
      // The server ended the stream: retried, unless it said not to come back.
      if (closeReason === 'connection_limit') throw new StreamStopped(closeReason);
      throw new StreamInterrupted('closed');
    },
    onerror(error) {
      if (error instanceof StreamStopped) {
        options.onStatus('offline');
        if (error.message === '401') options.onUnauthorized();
        throw error;
      }
      if (retries >= MAX_RETRIES) {
        console.error(MAX_RETRIES_MESSAGE);
        options.onStatus('offline');
        throw error;
      }
      retries += 1;
      options.onStatus('reconnecting');
      return RECONNECT_MS;
    },
  }).catch(() => {
    // Rejected once the reader stops retrying: onerror has reported why.
  });

  return {
    lastEventId: () => lastEventId,
    close: () => controller.abort(),
  };
}

function parseCloseReason(data: string): CloseReason | null {
  try {
    return (JSON.parse(data) as StreamClosedPayload).reason;
  } catch {
    return null;
  }
}

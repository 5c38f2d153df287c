/**
 * The event streams of one API process, grouped by tenant. A tenant with open streams has a
 * feed: its cursor (the last event id read), moved on whenever the database says the tenant
 * has new events (bus.ts NOTIFY, through `Database.listen`: a dedicated connection on a
 * server, reconnecting by itself; in process on PGlite). The feed reads the new rows once and
 * hands them to each of its live streams, which keep what their channels allow.
 *
 * A new stream first replays from the database, page by page at the client's pace, from its
 * Last-Event-ID (or from the tenant's last id); it joins the feed only once it has caught up
 * with the feed's cursor, checked in the same tick as the feed moves, so no event falls
 * between the two and none is sent twice.
 *
 * Also here: a heartbeat for every stream; at most N streams per user over all processes
 * (registered in event_streams, migration 0101: opening one marks the user's oldest beyond N
 * evicted, and the process holding it, told by a notification, closes it); sessions and users
 * checked again on an interval and whenever they change (migration 0100); and closing every
 * stream on shutdown.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { accessLevelOf } from '../auth/access.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { CHANNELS_OF_ACCESS, type EventChannel } from './event-map.ts';
import { ACCESS_NOTIFICATION_PREFIX, EVENTS_NOTIFY_CHANNEL, EVICT_NOTIFICATION_PREFIX } from './bus.ts';
import { eventsAfter, forgetStreams, lastEventId, liveSessions, registerStream, renewStreams } from './events.repository.ts';
import { EventStream, eventFrame, retryFrame, RETRY_MS, type OutgoingEvent, type StreamIdentity } from './sse.ts';

/** Events read per query, by a feed or a replaying stream. */
const PAGE_SIZE = 500;
/** After a failed read, a feed tries again this much later. */
const RETRY_READ_MS = 1_000;
/** On shutdown, how long ended streams may take to flush before they are cut. */
const CLOSE_GRACE_MS = 1_000;

interface Log {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Runs `step` one call at a time: calls made while it runs make it run once more afterwards
 * (once, however many came), as does a step that returns true (more to do).
 */
function oneAtATime(step: () => Promise<boolean>): () => Promise<void> {
  let running = false;
  let requested = false;
  return async () => {
    if (running) {
      requested = true;
      return;
    }
    running = true;
    try {
      do {
        requested = false;
        if (await step()) requested = true;
      } while (requested);
    } finally {
      running = false;
    }
  };
}

class TenantFeed {
  cursor = 0;
  readonly streams = new Set<EventStream>();
  readonly ready: Promise<void>;
  closed = false;

  constructor(
    readonly tenantId: string,
    private readonly hub: EventHub,
  ) {
    this.ready = hub.db.withTenant({ tenantId }, lastEventId).then((id) => {
      this.cursor = id;
    });
  }

  /** Reads what the tenant published since the cursor and hands it to the live streams. */
  readonly read = oneAtATime(async () => {
    if (this.closed) return false;
    try {
      await this.ready;
      const rows = await this.hub.db.withTenant({ tenantId: this.tenantId }, (tx) => eventsAfter(tx, this.cursor, PAGE_SIZE));
      if (this.closed || rows.length === 0) return false;
      const events = rows.map(outgoing);
      this.cursor = events.at(-1)!.id;
      for (const stream of this.streams) {
        if (stream.live) stream.deliverAll(events);
      }
      return rows.length === PAGE_SIZE;
    } catch (error) {
      this.hub.log.error({ err: error, tenantId: this.tenantId }, 'reading new events failed; trying again');
      setTimeout(() => void this.read(), RETRY_READ_MS).unref();
      return false;
    }
  });

  /**
   * Renews the registrations of this process's streams of the tenant. One evicted meanwhile
   * (its eviction notification was missed) is closed now; one whose registration is gone
   * (this process could not reach the database for longer than the lease, and it expired) is
   * cut — its client reconnects with Last-Event-ID and registers again.
   */
  readonly renew = oneAtATime(async () => {
    const renewed = [...this.streams].filter((stream) => !stream.closed);
    if (this.closed || renewed.length === 0) return false;
    try {
      const rows = await this.hub.db.withTenant({ tenantId: this.tenantId }, (tx) =>
        renewStreams(tx, renewed.map((stream) => stream.id), this.hub.settings.streamLeaseMs),
      );
      const evicted = new Map(rows.map((row) => [row.id, row.evicted]));
      for (const stream of renewed) {
        const isEvicted = evicted.get(stream.id);
        if (isEvicted === undefined) stream.drop();
        else if (isEvicted) stream.end('connection_limit');
      }
    } catch (error) {
      this.hub.log.error({ err: error, tenantId: this.tenantId }, 'renewing event streams’ registrations failed; trying at the next renewal');
    }
    return false;
  });

  /** Ends the streams whose session is no longer live, or whose user may no longer have their channels. */
  readonly checkAccess = oneAtATime(async () => {
    if (this.closed) return false;
    try {
      const checked = [...this.streams];
      const sessionIds = [...new Set(checked.map((stream) => stream.identity.sessionId))];
      const live = await this.hub.db.withTenant({ tenantId: this.tenantId }, (tx) => liveSessions(tx, sessionIds));
      const access = new Map(live.map((row) => [row.session_id, CHANNELS_OF_ACCESS[accessLevelOf(row)]]));
      for (const stream of checked) {
        const allowed = access.get(stream.identity.sessionId);
        if (!allowed) stream.end('signed_out');
        else if ([...stream.identity.channels].some((channel) => !allowed.includes(channel))) stream.end('access_changed');
      }
    } catch (error) {
      this.hub.log.error({ err: error, tenantId: this.tenantId }, 'checking event streams’ sessions failed; trying at the next check');
    }
    return false;
  });
}

const outgoing = (row: { id: number; name: string; channel: EventChannel; payload: string; recipient: string | null }): OutgoingEvent => ({
  id: row.id,
  channel: row.channel,
  recipient: row.recipient,
  frame: eventFrame(row.id, row.name, row.payload),
});

/**
 * A registered stream, not yet attached: where it starts (after `after`, with a `reset` first
 * when the client's place is gone) and the user's streams its registration pushed over the limit.
 */
export interface StreamStart {
  streamId: string;
  after: number;
  reset: boolean;
  evicted: string[];
}

export type EventStreamSettings = Config['events'];

export class EventHub {
  private readonly feeds = new Map<string, TenantFeed>();
  /** This process's open streams by id, for evictions named by any process. */
  private readonly streams = new Map<string, EventStream>();
  /** Streams registered here but not attached yet, and those of them evicted meanwhile. */
  private readonly registering = new Set<string>();
  private readonly evictedBeforeAttach = new Set<string>();
  /** Closed streams whose registrations are still to be removed, per tenant (removed in batches). */
  private readonly closedRegistrations = new Map<string, string[]>();
  private readonly forgetClosed = oneAtATime(async () => {
    const batches = [...this.closedRegistrations];
    this.closedRegistrations.clear();
    for (const [tenantId, ids] of batches) {
      try {
        await this.db.withTenant({ tenantId }, (tx) => forgetStreams(tx, ids));
      } catch (error) {
        // They stop counting anyway once their lease passes unrenewed.
        this.log.error({ err: error, tenantId }, 'removing closed event streams’ registrations failed; they expire with their lease');
      }
    }
    return this.closedRegistrations.size > 0;
  });
  private listening = false;
  private closing = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopListening: (() => Promise<void>) | null = null;

  private constructor(
    readonly db: Database,
    readonly settings: EventStreamSettings,
    readonly log: Log,
  ) {}

  static async start(db: Database, settings: EventStreamSettings, log: Log): Promise<EventHub> {
    const hub = new EventHub(db, settings, log);
    hub.stopListening = await db.listen(EVENTS_NOTIFY_CHANNEL, {
      notify: (payload) => hub.notified(payload),
      state: (listening) => hub.listeningChanged(listening),
    });
    hub.timers.push(
      setInterval(() => hub.beat(), settings.heartbeatMs),
      setInterval(() => {
        for (const feed of hub.feeds.values()) void feed.checkAccess();
      }, settings.accessCheckMs),
      setInterval(() => {
        for (const feed of hub.feeds.values()) void feed.renew();
      }, settings.streamLeaseMs / 3),
    );
    for (const timer of hub.timers) timer.unref();
    return hub;
  }

  /** Open streams of the tenant (or of all) in this process, and how many of them have caught up and follow their feed. */
  count(tenantId?: string): { open: number; live: number } {
    const feeds = tenantId === undefined ? [...this.feeds.values()] : [this.feeds.get(tenantId)].filter((feed) => feed !== undefined);
    const streams = feeds.flatMap((feed) => [...feed.streams].filter((stream) => !stream.closed));
    return { open: streams.length, live: streams.filter((stream) => stream.live).length };
  }

  /**
   * Registers a stream of the user (counted against their limit in every process) and says
   * where it starts, from the client's Last-Event-ID: after it when the tenant has had that
   * event, otherwise (a future or foreign id) a reset to the last one. Called before the
   * stream answers, so a failure is an ordinary error response; `attach` must follow.
   */
  async register(identity: Pick<StreamIdentity, 'tenantId' | 'userId'>, lastEventIdHeader: number | null): Promise<StreamStart> {
    const streamId = randomUUID();
    this.registering.add(streamId);
    try {
      const { last, evicted } = await this.db.withTenant({ tenantId: identity.tenantId }, async (tx) => ({
        last: await lastEventId(tx),
        evicted: await registerStream(tx, { id: streamId, userId: identity.userId }, {
          perUser: this.settings.maxConnectionsPerUser,
          leaseMs: this.settings.streamLeaseMs,
          notifyChannel: EVENTS_NOTIFY_CHANNEL,
        }),
      }));
      if (lastEventIdHeader === null) return { streamId, after: last, reset: false, evicted };
      if (lastEventIdHeader > last) return { streamId, after: last, reset: true, evicted };
      return { streamId, after: lastEventIdHeader, reset: false, evicted };
    } catch (error) {
      this.registering.delete(streamId);
      throw error;
    }
  }

  /**
   * Streams events to `response`, whose headers the caller has not sent yet. The stream
   * replays from `start`, then follows its tenant's feed until either side ends it.
   */
  attach(identity: StreamIdentity, response: ServerResponse, start: StreamStart): EventStream {
    const stream = new EventStream(start.streamId, identity, response, this.settings.maxBufferedBytes, start.after);
    this.registering.delete(stream.id);
    const evictedAlready = this.evictedBeforeAttach.delete(stream.id);
    response.write(retryFrame(RETRY_MS));
    if (this.closing) {
      stream.end('shutdown');
      this.forget(identity.tenantId, stream.id);
      return stream;
    }
    if (start.reset) stream.reset(start.after);

    let feed = this.feeds.get(identity.tenantId);
    if (!feed) {
      feed = new TenantFeed(identity.tenantId, this);
      this.feeds.set(identity.tenantId, feed);
    }
    feed.streams.add(stream);
    this.streams.set(stream.id, stream);
    const owner = feed;
    void stream.gone.then(() => this.detach(owner, stream));

    // The user's oldest streams beyond the limit: those in this process are closed here, the
    // others by their processes (notified at commit; this process hears its own, too late).
    for (const id of start.evicted) this.streams.get(id)?.end('connection_limit');
    if (evictedAlready) stream.end('connection_limit');
    void this.catchUp(feed, stream);
    return stream;
  }

  private detach(feed: TenantFeed, stream: EventStream): void {
    feed.streams.delete(stream);
    if (feed.streams.size === 0 && this.feeds.get(feed.tenantId) === feed) {
      feed.closed = true;
      this.feeds.delete(feed.tenantId);
    }
    this.streams.delete(stream.id);
    // On shutdown, close() removes all the registrations at once.
    if (!this.closing) this.forget(feed.tenantId, stream.id);
  }

  /** On shutdown: removes the registrations of the streams, one statement per tenant. */
  private async forgetAll(streams: EventStream[]): Promise<void> {
    const byTenant = new Map<string, string[]>();
    for (const stream of streams) {
      const ids = byTenant.get(stream.identity.tenantId) ?? [];
      ids.push(stream.id);
      byTenant.set(stream.identity.tenantId, ids);
    }
    await Promise.all(
      [...byTenant].map(([tenantId, ids]) =>
        this.db.withTenant({ tenantId }, (tx) => forgetStreams(tx, ids)).catch((error: unknown) => {
          this.log.error({ err: error, tenantId }, 'removing event streams’ registrations on shutdown failed; they expire with their lease');
        }),
      ),
    );
  }

  /** Removes a closed stream's registration, batched with others closed in the same moment. */
  private forget(tenantId: string, streamId: string): void {
    const ids = this.closedRegistrations.get(tenantId) ?? [];
    ids.push(streamId);
    this.closedRegistrations.set(tenantId, ids);
    if (ids.length === 1) setImmediate(() => void this.forgetClosed());
  }

  /** Replays from the database until the stream has caught up with its feed, then makes it live. */
  private async catchUp(feed: TenantFeed, stream: EventStream): Promise<void> {
    try {
      await feed.ready;
      for (;;) {
        if (stream.closed) return;
        const cursorBefore = feed.cursor;
        const rows = await this.db.withTenant({ tenantId: feed.tenantId }, (tx) => eventsAfter(tx, stream.lastSent, PAGE_SIZE));
        for (const row of rows) {
          stream.deliver(outgoing(row));
          await stream.drained();
        }
        if (rows.length === PAGE_SIZE) continue;
        // The feed had read past this stream before the query began, yet the query found
        // nothing more: those events are no longer kept.
        if (rows.length === 0 && cursorBefore > stream.lastSent) stream.reset(cursorBefore);
        // Checked in the same tick as the feed hands out events: from here on it gives this
        // stream everything after its cursor, and the stream has everything up to it.
        if (stream.lastSent >= feed.cursor) {
          stream.live = true;
          return;
        }
      }
    } catch (error) {
      this.log.error({ err: error, tenantId: feed.tenantId }, 'replaying events failed; ending the stream');
      stream.drop();
    }
  }

  private notified(payload: string): void {
    if (payload.startsWith(ACCESS_NOTIFICATION_PREFIX)) {
      void this.feeds.get(payload.slice(ACCESS_NOTIFICATION_PREFIX.length))?.checkAccess();
    } else if (payload.startsWith(EVICT_NOTIFICATION_PREFIX)) {
      const id = payload.slice(EVICT_NOTIFICATION_PREFIX.length);
      if (this.registering.has(id)) this.evictedBeforeAttach.add(id);
      else this.streams.get(id)?.end('connection_limit');
    } else {
      void this.feeds.get(payload)?.read();
    }
  }

  private listeningChanged(listening: boolean): void {
    this.listening = listening;
    // Notifications sent while the listening connection was lost are gone: catch up.
    if (listening) {
      for (const feed of this.feeds.values()) {
        void feed.read();
        void feed.checkAccess();
        void feed.renew();
      }
    }
  }

  private beat(): void {
    for (const feed of this.feeds.values()) {
      for (const stream of feed.streams) stream.heartbeat();
      // Without notifications (the listening connection is being re-established), poll.
      if (!this.listening) void feed.read();
    }
  }

  /** Ends every stream (saying so), waits briefly for them to flush, cuts the rest, stops listening. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const timer of this.timers) clearInterval(timer);
    const streams = [...this.feeds.values()].flatMap((feed) => [...feed.streams]);
    for (const stream of streams) stream.end('shutdown');
    const forgotten = this.forgetAll(streams);
    const flushed = Promise.all(streams.map((stream) => stream.gone));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([flushed, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    for (const stream of streams) if (!stream.finished) stream.drop();
    for (const feed of this.feeds.values()) feed.closed = true;
    this.feeds.clear();
    this.streams.clear();
    await forgotten;
    await this.stopListening?.();
  }
}

/**
 * One open event stream: the server-sent events wire format written on a Node response, with
 * the client's place in the tenant's event sequence and a bound on what may wait for it.
 *
 * Written by hand rather than with an SSE plugin (docs/events.md says more): the format is a
 * few lines, each event is serialized once for all of its streams rather than once per
 * stream, and a client that stops reading is dropped at a byte bound taken from the socket's
 * own buffer — where a plugin's `send` waits for `drain`, and a stream that waits for one
 * client cannot fan out to the others.
 */
import type { ServerResponse } from 'node:http';
import { STREAM_EVENTS, type CloseReason, type EventChannel, type ResetPayload, type StreamClosedPayload } from './event-map.ts';

/** One event on the wire. JSON text has no raw line breaks, so the payload is one `data:` line. */
export const eventFrame = (id: number | null, name: string, data: string): string =>
  `${id === null ? '' : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`;

/** A comment line: clients ignore it; proxies and load balancers see a stream that is alive. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** The client's reconnection delay (SPEC §9: 3000 ms), said once at the start of a stream. */
export const RETRY_MS = 3_000;
export const retryFrame = (ms: number): string => `retry: ${ms}\n\n`;

/** An event read once for all the streams of its tenant. */
export interface OutgoingEvent {
  id: number;
  channel: EventChannel;
  /** A personal event's one user (e.g. the teammate a note mentions); null: the whole channel. */
  recipient: string | null;
  frame: string;
}

export interface StreamIdentity {
  tenantId: string;
  userId: string;
  sessionId: string;
  channels: ReadonlySet<EventChannel>;
}

export class EventStream {
  /** The last event id this client has been given (sent, or skipped as not for its channels). */
  lastSent: number;
  /** False while the stream replays from the database; the tenant's feed then leaves it alone. */
  live = false;
  /** Ended or being ended: nothing more is written. */
  closed = false;
  /** Resolves once the connection is gone (either side closed it). */
  readonly gone: Promise<void>;
  private disconnected = false;
  /** The last write was not taken by the socket at once: wait for 'drain' before more replay. */
  private waiting = false;

  constructor(
    /** The stream's registration (event_streams, migration 0101): how other processes name it. */
    readonly id: string,
    readonly identity: StreamIdentity,
    private readonly response: ServerResponse,
    private readonly maxBufferedBytes: number,
    startAfter: number,
  ) {
    this.lastSent = startAfter;
    this.gone = new Promise((resolve) => {
      const gone = () => {
        this.closed = true;
        this.disconnected = true;
        resolve();
      };
      // The client may have left while the stream was being registered.
      if (response.destroyed) gone();
      else response.once('close', gone);
    });
    // A write racing the client's disconnect fails; 'close' follows and ends the stream.
    response.on('error', () => {});
  }

  /**
   * Gives the client `event` if it is the next one. A hole before it (events removed from the
   * window before this client got them) is said with a `reset` first.
   */
  deliver(event: OutgoingEvent): void {
    this.deliverAll([event]);
  }

  /**
   * Gives the client those of `events` (in id order) it has not had, in one write: a feed
   * hands out what one read found, often several events, and each write to a socket is a
   * system call per stream.
   */
  deliverAll(events: readonly OutgoingEvent[]): void {
    if (this.closed) return;
    let chunk = '';
    for (const event of events) {
      if (event.id <= this.lastSent) continue;
      if (event.id !== this.lastSent + 1) chunk += this.resetFrame(event.id - 1);
      this.lastSent = event.id;
      if (this.identity.channels.has(event.channel) && (event.recipient === null || event.recipient === this.identity.userId)) chunk += event.frame;
    }
    if (chunk !== '') this.write(chunk);
  }

  /** Tells the client that events up to `lastId` are lost to it; the stream goes on after it. */
  reset(lastId: number): void {
    this.write(this.resetFrame(lastId));
  }

  private resetFrame(lastId: number): string {
    const payload: ResetPayload = { last_event_id: lastId };
    this.lastSent = lastId;
    return eventFrame(lastId, STREAM_EVENTS.reset, JSON.stringify(payload));
  }

  heartbeat(): void {
    this.write(HEARTBEAT_FRAME);
  }

  /**
   * Writes a chunk. A live stream whose unsent bytes pass the bound is dropped: the client
   * reconnects with Last-Event-ID and is replayed what it missed, at its own pace.
   */
  write(chunk: string): void {
    if (this.closed) return;
    if (!this.response.write(chunk)) this.waiting = true;
    if (this.live && this.response.writableLength > this.maxBufferedBytes) this.drop();
  }

  /** While replaying: resolves once the socket has taken what was written (or the stream closed). */
  async drained(): Promise<void> {
    if (this.closed || !this.waiting) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.response.off('drain', done);
        resolve();
      };
      this.response.on('drain', done);
      void this.gone.then(done);
    });
    this.waiting = false;
  }

  /** Says why and ends the stream. */
  end(reason: CloseReason): void {
    if (this.closed) return;
    const payload: StreamClosedPayload = { reason };
    this.response.write(eventFrame(null, STREAM_EVENTS.closed, JSON.stringify(payload)));
    this.closed = true;
    this.response.end();
  }

  /** Ends the stream at once, whatever is still unsent. */
  drop(): void {
    this.closed = true;
    this.response.destroy();
  }

  /** Whether the connection is gone. */
  get finished(): boolean {
    return this.disconnected;
  }
}

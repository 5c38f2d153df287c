/**
 * The stream writer on its own, over a writable that nobody reads: a live stream drops a
 * client that lets too much pile up (never an unbounded buffer); a replaying one waits for
 * the client instead; channels filter; a hole in the ids is said with a reset.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { EventChannel } from './event-map.ts';
import { EventStream, eventFrame, type OutgoingEvent } from './sse.ts';

const identity = (channels: EventChannel[]) => ({ tenantId: 't', userId: 'u', sessionId: 's', channels: new Set(channels) });
const event = (id: number, channel: EventChannel = 'research', recipient: string | null = null): OutgoingEvent => ({
  id,
  channel,
  recipient,
  frame: eventFrame(id, 'raw_data_update', JSON.stringify({ n: id, filler: 'x'.repeat(200) })),
});
/** A socket-like writable that holds at most 1 KiB before asking the writer to wait; nobody reads it. */
const unread = () => new PassThrough({ highWaterMark: 1024 });
const text = (socket: PassThrough) => (socket.read() as Buffer | null)?.toString('utf8') ?? '';

describe('event stream writer', () => {
  it('drops a live client that does not read once more than the bound is waiting', () => {
    const socket = unread();
    const stream = new EventStream('stream', identity(['research']), socket as unknown as ServerResponse, 4096, 0);
    stream.live = true;
    let id = 0;
    while (!stream.closed && id < 1000) stream.deliver(event(++id));
    assert.ok(stream.closed, 'dropped');
    assert.ok(socket.destroyed);
    assert.ok(id < 40, `dropped after ${id} events of ~250 bytes with a 4 KiB bound`);
    stream.deliver(event(++id));
    assert.ok(socket.writableLength <= 4096 + 300, 'nothing more is buffered');
  });

  it('while replaying, waits for the client rather than dropping it', async () => {
    const socket = unread();
    const stream = new EventStream('stream', identity(['research']), socket as unknown as ServerResponse, 1024, 0);
    for (let id = 1; id <= 10; id++) stream.deliver(event(id));
    assert.ok(!stream.closed);
    let drained = false;
    const waiting = stream.drained().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(drained, false, 'waits while the client reads nothing');
    socket.resume();
    await waiting;
    assert.ok(!stream.closed);
  });

  it('sends only its channels, moves on past the others, and says reset over a hole', () => {
    const socket = unread();
    const stream = new EventStream('stream', identity(['all']), socket as unknown as ServerResponse, 1 << 20, 4);
    stream.live = true;
    stream.deliver(event(3));
    stream.deliver(event(5, 'research'));
    stream.deliver(event(6, 'all'));
    stream.deliver(event(9, 'all'));
    assert.equal(stream.lastSent, 9);
    const written = text(socket);
    assert.doesNotMatch(written, /id: 3\n/, 'an event it already had');
    assert.doesNotMatch(written, /id: 5\n/, 'not its channel');
    assert.match(written, /^id: 6\nevent: raw_data_update\n/);
    assert.match(written, /id: 8\nevent: reset\ndata: \{"last_event_id":8\}\n\nid: 9\n/);
  });

  it('writes what one read found in one write, with the same rules', () => {
    const socket = unread();
    const writes: string[] = [];
    const write = socket.write.bind(socket);
    socket.write = ((chunk: string) => (writes.push(chunk), write(chunk))) as typeof socket.write;
    const stream = new EventStream('stream', identity(['all']), socket as unknown as ServerResponse, 1 << 20, 4);
    stream.live = true;
    stream.deliverAll([event(3), event(5, 'research'), event(6, 'all'), event(9, 'all')]);
    assert.equal(writes.length, 1);
    assert.equal(stream.lastSent, 9);
    assert.match(writes[0]!, /^id: 6\nevent: raw_data_update\n.*\n\nid: 8\nevent: reset\ndata: \{"last_event_id":8\}\n\nid: 9\n/s);
    assert.doesNotMatch(writes[0]!, /id: [35]\n/);
  });

  it("gives a personal event to its recipient's streams only, moving the others' place on", () => {
    const mine = unread();
    const theirs = unread();
    const own = new EventStream('a', identity(['all', 'research']), mine as unknown as ServerResponse, 1 << 20, 0);
    const other = new EventStream('b', { ...identity(['all', 'research']), userId: 'v' }, theirs as unknown as ServerResponse, 1 << 20, 0);
    for (const stream of [own, other]) {
      stream.live = true;
      stream.deliverAll([event(1, 'research', 'u'), event(2, 'research')]);
      assert.equal(stream.lastSent, 2);
    }
    assert.match(text(mine), /^id: 1\n.*id: 2\n/s);
    const written = text(theirs);
    assert.doesNotMatch(written, /id: 1\n/, "another user's personal event");
    assert.doesNotMatch(written, /event: reset/, 'a skipped personal event is no hole');
    assert.match(written, /^id: 2\n/);
  });
});

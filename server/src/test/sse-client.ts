/**
 * A server-sent events client for tests, over node:http (fetch cannot set the Host header,
 * which names the tenant). It keeps every event and comment it reads, in order, and lets a
 * test wait for the next one.
 */
import http from 'node:http';

export interface ReceivedEvent {
  id: string | null;
  event: string;
  data: any;
}

export interface EventStreamClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON body of a refused stream (status other than 200). */
  error: any;
  /** Everything read, in order: events, and `:` comments as { event: ':', data: text }. */
  readonly received: ReceivedEvent[];
  /** Resolves when the server ends the stream (or the connection is cut). */
  ended: Promise<void>;
  /** The next event (comments skipped) not yet taken by `next`. */
  next(): Promise<ReceivedEvent>;
  /** Waits until `count` heartbeat comments have been read in all. */
  heartbeats(count: number): Promise<void>;
  /** Cuts the connection from the client's side. */
  close(): void;
}

export function openEventStream(
  port: number,
  host: string,
  options: { token?: string; channels?: string; lastEventId?: string } = {},
): Promise<EventStreamClient> {
  const headers: Record<string, string> = { host, accept: 'text/event-stream' };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const path = `/api/v1/events/${options.channels === undefined ? '' : `?channels=${encodeURIComponent(options.channels)}`}`;

  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, headers }, (response) => {
      const received: ReceivedEvent[] = [];
      const waiters = new Set<() => void>();
      const changed = () => {
        for (const waiter of [...waiters]) waiter();
      };
      let taken = 0;
      let buffer = '';
      let body = '';
      let ended = false;
      const until = (ready: () => boolean) =>
        new Promise<void>((done, fail) => {
          const check = () => {
            if (ready()) {
              waiters.delete(check);
              done();
            } else if (ended) {
              waiters.delete(check);
              fail(new Error(`the stream ended first; read: ${JSON.stringify(received)}`));
            }
          };
          waiters.add(check);
          check();
        });
      const client: EventStreamClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        error: null,
        received,
        ended: new Promise((done) => response.on('close', done)),
        next: async () => {
          const events = () => received.filter((item) => item.event !== ':');
          await until(() => events().length > taken);
          return events()[taken++]!;
        },
        heartbeats: (count) => until(() => received.filter((item) => item.event === ':' && item.data === 'heartbeat').length >= count),
        close: () => request.destroy(),
      };
      // Cutting the stream (close()) makes the response emit an error: that is the point.
      response.on('error', () => {});
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (client.status !== 200) {
          body += chunk;
          return;
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: ReceivedEvent = { id: null, event: 'message', data: '' };
          let comment: string | null = null;
          let fields = 0;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comment = line.slice(1).trim();
            const match = /^(id|event|data): (.*)$/.exec(line);
            if (!match) continue;
            fields += 1;
            if (match[1] === 'id') event.id = match[2]!;
            else if (match[1] === 'event') event.event = match[2]!;
            else event.data = JSON.parse(match[2]!);
          }
          if (fields > 0) received.push(event);
          else if (comment !== null) received.push({ id: null, event: ':', data: comment });
        }
        changed();
      });
      response.on('close', () => {
        ended = true;
        changed();
      });
      if (client.status === 200) resolve(client);
      else {
        response.on('end', () => {
          client.error = body ? JSON.parse(body) : null;
          resolve(client);
        });
      }
    });
    request.on('error', reject);
    request.end();
  });
}

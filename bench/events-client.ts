/**
 * The client side of bench/events.ts, run as a child process (forked, IPC): holds thousands of
 * event streams over raw TCP sockets and notes when each event arrives. Kept as cheap as it
 * can be, so that the server, not the client, is what is measured: one hand-written request
 * per socket, and per chunk one regular expression looking for `id:` lines (events of a
 * stream have increasing ids, so a line split across chunks is found in the carried tail
 * without counting anything twice). No SSE parser, no JSON parsing.
 */
import net from 'node:net';

/** One stream to open: the tenant it belongs to (an index), its Host header and bearer token. */
export interface StreamTarget {
  tenant: number;
  host: string;
  token: string;
}

export type ClientRequest =
  | { type: 'open'; port: number; targets: StreamTarget[]; concurrency: number }
  /** Note the arrival time of events whose id is a multiple of `every` (1: all). */
  | { type: 'sample'; every: number }
  | { type: 'status' }
  /** Hand over (and forget) the arrival times noted so far. */
  | { type: 'collect' }
  /** Close every stream not of `tenant`. */
  | { type: 'keepOnly'; tenant: number }
  | { type: 'exit' };

export interface TenantStatus {
  open: number;
  /** The smallest and largest last event id among the tenant's open streams (0 when none). */
  minLastId: number;
  maxLastId: number;
  /** Events received in all by the tenant's streams, open or not. */
  received: number;
  /** Streams the server cut without a stream_closed (slow clients), and those it closed saying why. */
  dropped: number;
  closedByServer: number;
}

export type ClientReply =
  | { type: 'opened'; ok: number; failed: number; firstError: string | null; ms: number }
  | { type: 'status'; tenants: TenantStatus[] }
  /** [tenant, event id, arrival times (ms, wall clock)] */
  | { type: 'collected'; arrivals: Array<[number, number, number[]]> }
  | { type: 'done' };

interface Connection {
  socket: net.Socket;
  tenant: number;
  lastId: number;
  received: number;
  carry: string;
  headers: string | null;
  leaving: boolean;
  closedByServer: boolean;
}

const ID_LINE = /\nid: (\d+)\n/g;
/** Longer than any `id:` line, so one split across chunks is whole in the next scan. */
const CARRY = 32;

const connections: Connection[] = [];
const lost = new Map<number, { dropped: number; closedByServer: number; received: number }>();
let sampleEvery = 1;
/** tenant → event id → arrival times */
let arrivals = new Map<number, Map<number, number[]>>();

const now = () => performance.timeOrigin + performance.now();

function scan(connection: Connection, text: string): void {
  const at = now();
  ID_LINE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = ID_LINE.exec(text)) !== null) {
    const id = Number(match[1]);
    if (id <= connection.lastId) continue;
    connection.lastId = id;
    connection.received += 1;
    if (id % sampleEvery === 0) {
      let ofTenant = arrivals.get(connection.tenant);
      if (!ofTenant) arrivals.set(connection.tenant, (ofTenant = new Map()));
      const times = ofTenant.get(id);
      if (times) times.push(at);
      else ofTenant.set(id, [at]);
    }
  }
  if (text.includes('event: stream_closed')) connection.closedByServer = true;
  connection.carry = text.length > CARRY ? text.slice(-CARRY) : text;
}

function openOne(port: number, target: StreamTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const connection: Connection = { socket, tenant: target.tenant, lastId: 0, received: 0, carry: '', headers: '', leaving: false, closedByServer: false };
    socket.setEncoding('latin1');
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(
        `GET /api/v1/events/?channels=research HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${target.token}\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: string) => {
      if (connection.headers !== null) {
        connection.headers += chunk;
        const end = connection.headers.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = connection.headers.slice(0, end);
        const rest = connection.headers.slice(end + 2);
        connection.headers = null;
        if (!head.startsWith('HTTP/1.1 200')) {
          socket.destroy();
          reject(new Error(`${head.split('\r\n')[0]}: ${rest.slice(0, 300)}`));
          return;
        }
        connections.push(connection);
        resolve();
        scan(connection, rest);
        return;
      }
      scan(connection, connection.carry + chunk);
    });
    socket.on('error', (error) => {
      if (connection.headers !== null) reject(error);
    });
    socket.on('close', () => {
      if (connection.headers !== null) reject(new Error('closed before the response'));
      if (connection.leaving) return;
      const index = connections.indexOf(connection);
      if (index >= 0) connections.splice(index, 1);
      const entry = lost.get(connection.tenant) ?? { dropped: 0, closedByServer: 0, received: 0 };
      if (connection.closedByServer) entry.closedByServer += 1;
      else entry.dropped += 1;
      entry.received += connection.received;
      lost.set(connection.tenant, entry);
    });
  });
}

async function open(port: number, targets: StreamTarget[], concurrency: number): Promise<ClientReply> {
  const started = performance.now();
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | null = null;
  const lane = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      try {
        await openOne(port, target);
        ok += 1;
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { type: 'opened', ok, failed, firstError, ms: performance.now() - started };
}

function status(): ClientReply {
  const tenants: TenantStatus[] = [];
  const of = (tenant: number) =>
    (tenants[tenant] ??= { open: 0, minLastId: Number.POSITIVE_INFINITY, maxLastId: 0, received: 0, dropped: 0, closedByServer: 0 });
  for (const connection of connections) {
    const entry = of(connection.tenant);
    entry.open += 1;
    entry.minLastId = Math.min(entry.minLastId, connection.lastId);
    entry.maxLastId = Math.max(entry.maxLastId, connection.lastId);
    entry.received += connection.received;
  }
  for (const [tenant, gone] of lost) {
    const entry = of(tenant);
    entry.dropped += gone.dropped;
    entry.closedByServer += gone.closedByServer;
    entry.received += gone.received;
  }
  for (const entry of tenants) if (entry && entry.open === 0) entry.minLastId = 0;
  return { type: 'status', tenants: Array.from(tenants, (entry) => entry ?? { open: 0, minLastId: 0, maxLastId: 0, received: 0, dropped: 0, closedByServer: 0 }) };
}

function collect(): ClientReply {
  const out: Array<[number, number, number[]]> = [];
  for (const [tenant, ofTenant] of arrivals) for (const [id, times] of ofTenant) out.push([tenant, id, times]);
  arrivals = new Map();
  return { type: 'collected', arrivals: out };
}

function keepOnly(tenant: number): ClientReply {
  for (const connection of [...connections]) {
    if (connection.tenant === tenant) continue;
    connection.leaving = true;
    connection.socket.destroy();
    connections.splice(connections.indexOf(connection), 1);
  }
  return { type: 'done' };
}

process.on('message', (message: ClientRequest & { seq: number }) => {
  const reply = (body: ClientReply) => process.send!({ ...body, seq: message.seq });
  switch (message.type) {
    case 'open':
      void open(message.port, message.targets, message.concurrency).then(reply);
      break;
    case 'sample':
      sampleEvery = message.every;
      reply({ type: 'done' });
      break;
    case 'status':
      reply(status());
      break;
    case 'collect':
      reply(collect());
      break;
    case 'keepOnly':
      reply(keepOnly(message.tenant));
      break;
    case 'exit':
      for (const connection of connections) {
        connection.leaving = true;
        connection.socket.destroy();
      }
      reply({ type: 'done' });
      process.disconnect();
      break;
  }
});

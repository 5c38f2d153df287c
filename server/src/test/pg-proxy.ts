/**
 * A loopback TCP proxy in front of a PostgreSQL server, for tests of what the app does while
 * its database is gone: `down()` cuts every open connection and answers new ones as a server
 * that is away would — refused, reset, or "the database system is starting up" (SQLSTATE
 * 57P03, as PostgreSQL answers during a restart) — until `up()` lets them through again.
 * Nothing waits on a clock: each change is in force when its promise resolves.
 */
import net from 'node:net';

/**
 * How new connections are answered while the proxy is down:
 * - refuse: nothing listens on the port (ECONNREFUSED);
 * - reset: the connection is accepted and reset at once (ECONNRESET / connection terminated);
 * - starting: the server's own FATAL 57P03 ErrorResponse, then the connection closes;
 * - hang: the connection is accepted and never answered (a host that went away without a word).
 */
export type DownMode = 'refuse' | 'reset' | 'starting' | 'hang';

export interface PgProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** Connections accepted and forwarded so far (tests: the app did reconnect). */
  readonly forwarded: number;
  /** Cuts every open connection and answers new ones as `mode` says. */
  down(mode?: DownMode): Promise<void>;
  /** Forwards new connections again. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A FATAL ErrorResponse message of the PostgreSQL protocol (v3): 'E', length, fields, NUL. */
function fatalMessage(code: string, message: string): Buffer {
  const fields = Buffer.concat(
    [
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', code],
      ['M', message],
    ].map(([type, value]) => Buffer.from(`${type}${value}\0`, 'utf8')),
  );
  const body = Buffer.concat([fields, Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write('E', 0, 'ascii');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const STARTING_UP = fatalMessage('57P03', 'the database system is starting up');

/** Where a database URL's server listens: host and port, or a Unix socket (an embedded server's `postgres://user@%2Fdir:5432/db`). */
export function serverOf(url: string): net.NetConnectOpts {
  const parsed = new URL(url);
  const host = decodeURIComponent(parsed.hostname);
  const port = Number(parsed.port || 5432);
  return host.startsWith('/') ? { path: `${host}/.s.PGSQL.${port}` } : { host, port };
}

/** A proxy in front of the server of `url` (TEST_DATABASE_URL, a test database's URL). */
export async function startPgProxy(url: string): Promise<PgProxy> {
  const target = serverOf(url);
  const open = new Set<net.Socket>();
  let mode: DownMode | null = null;
  let forwarded = 0;
  let port = 0;

  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'hang') return;
    if (mode === 'starting') {
      // The client speaks first (its startup message); the server answers and hangs up.
      client.once('data', () => client.end(STARTING_UP));
      return;
    }
    forwarded += 1;
    const upstream = net.connect(target);
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port }, () => {
        server.off('error', reject);
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get forwarded() {
      return forwarded;
    },
    urlFor(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    async down(next = 'refuse') {
      const listening = mode !== 'refuse';
      mode = next;
      // server.close() only stops accepting; it resolves once the open connections are gone.
      const closed = next === 'refuse' && listening ? stopListening() : Promise.resolve();
      cutAll();
      await closed;
      if (next !== 'refuse' && !listening) await listen();
    },
    async up() {
      const listening = mode !== 'refuse';
      mode = null;
      if (!listening) await listen();
    },
    async close() {
      const listening = mode !== 'refuse';
      mode = 'refuse';
      const closed = listening ? stopListening() : Promise.resolve();
      cutAll();
      await closed;
    },
  };
}

/**
 * A loopback TCP proxy in front of the test database, to take the database away from a
 * process deterministically: `down()` cuts every open connection (a reset, as a restarting
 * server's clients see) and refuses new ones (the port stops listening: ECONNREFUSED) until
 * `up()`. Point a process or a pool at `url` (the database's URL with the proxy's port).
 */
import net from 'node:net';

export interface PgProxy {
  /** The database's URL through the proxy. */
  url: string;
  /** Connections open through the proxy now. */
  readonly open: number;
  /** Connections accepted since the proxy started. */
  readonly accepted: number;
  /** Cuts every open connection and refuses new ones until `up()`. */
  down(): Promise<void>;
  /** Accepts connections again, on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startPgProxy(databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl);
  const targetHost = target.hostname;
  const targetPort = Number(target.port || 5432);
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let accepted = 0;

  const cut = (socket: net.Socket) => {
    if (socket.destroyed) return;
    if (typeof socket.resetAndDestroy === 'function' && socket.readyState === 'open') socket.resetAndDestroy();
    else socket.destroy();
  };

  const server = net.createServer((client) => {
    accepted += 1;
    const upstream = net.connect(targetPort, targetHost);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      cut(client);
      cut(upstream);
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });

  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  let listening = true;

  const down = async () => {
    if (listening) {
      listening = false;
      // close() stops accepting at once; its callback waits for the open connections, cut below.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        cut(pair.client);
        cut(pair.upstream);
      }
      await closed;
    }
  };

  return {
    url: url.toString(),
    get open() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    down,
    up: async () => {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: down,
  };
}

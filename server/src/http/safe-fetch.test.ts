import assert from 'node:assert/strict';
import dns from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, mock } from 'node:test';
import { gzipSync } from 'node:zlib';
import { classifyAddress, isPublicAddress, safeFetchText, SafeFetchError, type SafeFetchOptions } from './safe-fetch.ts';

const LOCAL: SafeFetchOptions = { allowPrivate: true, timeoutMs: 2000, maxBytes: 10_000, maxRedirects: 3 };
const STRICT: SafeFetchOptions = { ...LOCAL, allowPrivate: false };

type Route = (req: IncomingMessage, res: ServerResponse) => void;

const html = (body: string, contentType = 'text/html; charset=utf-8'): Route => (_req, res) => {
  res.writeHead(200, { 'content-type': contentType });
  res.end(body);
};
const redirect = (location: string, status = 302): Route => (_req, res) => {
  res.writeHead(status, { location });
  res.end();
};

const ROUTES: Record<string, Route> = {
  '/page': html('<title>Hello</title>'),
  '/hop1': redirect('/hop2', 301),
  '/hop2': redirect('hop3', 307),
  '/hop3': redirect('/page#section', 308),
  '/loop': redirect('/loop'),
  '/ftp': redirect('ftp://example.com/file'),
  '/to-second': (req, res) => redirect(`http://second.test:${req.socket.localPort}/page`)(req, res),
  '/missing': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('not here');
  },
  '/image': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.alloc(64));
  },
  '/plain': html('just text', 'text/plain'),
  '/xhtml': html('<html xmlns="http://www.w3.org/1999/xhtml"/>', 'application/xhtml+xml'),
  '/no-type': (_req, res) => {
    res.removeHeader('content-type');
    res.writeHead(200);
    res.end('mystery');
  },
  '/big-declared': html('x'.repeat(20_000)),
  '/big-streamed': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = 'y'.repeat(4_000);
    let sent = 0;
    const push = () => {
      if (sent++ >= 10 || res.destroyed) return res.end();
      res.write(chunk, () => setTimeout(push, 1));
    };
    push();
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
    res.end(gzipSync('<p>compressed ünïcode</p>'));
  },
  '/gzip-bomb': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    res.end(gzipSync(Buffer.alloc(1_000_000, 0x20)));
  },
  '/zstd': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'zstd' });
    res.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
  },
  '/latin1': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset="ISO-8859-1"' });
    res.end(Buffer.from('<p>Caf\xe9</p>', 'latin1'));
  },
  '/meta-charset': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(Buffer.from('<meta charset="windows-1252"><p>Na\xefve</p>', 'latin1'));
  },
  '/bogus-charset': html('plain ascii', 'text/html; charset=no-such-charset'),
  '/never': () => {},
  '/stall-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<p>start');
  },
  '/echo-host': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${req.headers.host} ${req.headers['user-agent']}`);
  },
};

let server: Server;
let base: string;
let port: number;

before(async () => {
  server = createServer((req, res) => {
    const route = ROUTES[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) return route(req, res);
    res.writeHead(500);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

async function rejectsWith(promise: Promise<unknown>, reason: SafeFetchError['reason'], message?: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof SafeFetchError, `expected SafeFetchError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('safeFetchText', () => {
  it('fetches an HTML page', async () => {
    const result = await safeFetchText(`${base}/page`, LOCAL);
    assert.deepEqual(result, {
      finalUrl: `${base}/page`,
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: '<title>Hello</title>',
    });
  });

  it('accepts text/* and XHTML', async () => {
    assert.equal((await safeFetchText(`${base}/plain`, LOCAL)).body, 'just text');
    assert.equal((await safeFetchText(`${base}/xhtml`, LOCAL)).contentType, 'application/xhtml+xml');
  });

  it('follows a redirect chain within the limit and reports the final URL without the fragment', async () => {
    const result = await safeFetchText(`${base}/hop1`, LOCAL);
    assert.equal(result.finalUrl, `${base}/page`);
    assert.equal(result.body, '<title>Hello</title>');
  });

  it('fails when the chain is longer than maxRedirects', async () => {
    await rejectsWith(safeFetchText(`${base}/hop1`, { ...LOCAL, maxRedirects: 2 }), 'too_many_redirects', /more than 2 times/);
    await rejectsWith(safeFetchText(`${base}/loop`, LOCAL), 'too_many_redirects');
    await rejectsWith(safeFetchText(`${base}/hop3`, { ...LOCAL, maxRedirects: 0 }), 'too_many_redirects');
  });

  it('re-validates the scheme of every redirect', async () => {
    await rejectsWith(safeFetchText(`${base}/ftp`, LOCAL), 'invalid_url');
  });

  it('resolves and validates the host of every redirect', async () => {
    const seen: string[] = [];
    const lookup = mock.method(dns.promises, 'lookup', async (hostname: string) => {
      seen.push(hostname);
      return hostname === 'internal.test' ? [{ address: '10.0.0.7', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    });
    try {
      const result = await safeFetchText(`http://first.test:${port}/to-second`, LOCAL);
      assert.equal(result.finalUrl, `http://second.test:${port}/page`);
      assert.deepEqual(seen, ['first.test', 'second.test']);

      // Reaching the local server needs allowPrivate, so the refusal is shown at the classifier: a hop that
      // resolves to a private address is refused before any connection is attempted.
      await rejectsWith(safeFetchText(`http://internal.test:${port}/page`, STRICT), 'blocked_address');
    } finally {
      lookup.mock.restore();
    }
  });

  it('fails on a non-2xx status and keeps the status', async () => {
    await assert.rejects(safeFetchText(`${base}/missing`, LOCAL), (error: unknown) => {
      assert.ok(error instanceof SafeFetchError);
      assert.equal(error.reason, 'http_error');
      assert.equal(error.status, 404);
      assert.equal(error.message, 'The site answered with status 404.');
      return true;
    });
  });

  it('refuses content that is not text', async () => {
    await rejectsWith(safeFetchText(`${base}/image`, LOCAL), 'unsupported_content', /image\/png/);
    await rejectsWith(safeFetchText(`${base}/no-type`, LOCAL), 'unsupported_content');
  });

  it('fails when the declared or streamed body exceeds maxBytes', async () => {
    await rejectsWith(safeFetchText(`${base}/big-declared`, LOCAL), 'too_large', /larger than 10 kB/);
    await rejectsWith(safeFetchText(`${base}/big-streamed`, LOCAL), 'too_large');
  });

  it('decompresses gzip and applies the cap to the decompressed size', async () => {
    assert.equal((await safeFetchText(`${base}/gzip`, LOCAL)).body, '<p>compressed ünïcode</p>');
    await rejectsWith(safeFetchText(`${base}/gzip-bomb`, LOCAL), 'too_large');
    await rejectsWith(safeFetchText(`${base}/zstd`, LOCAL), 'unsupported_content', /encoding \(zstd\)/);
  });

  it('decodes with the declared charset, then a <meta charset>, then UTF-8', async () => {
    assert.equal((await safeFetchText(`${base}/latin1`, LOCAL)).body, '<p>Café</p>');
    assert.equal((await safeFetchText(`${base}/meta-charset`, LOCAL)).body, '<meta charset="windows-1252"><p>Naïve</p>');
    assert.equal((await safeFetchText(`${base}/bogus-charset`, LOCAL)).body, 'plain ascii');
  });

  it('times out when the server never answers', async () => {
    // /never never answers: only the timeout can end this call.
    await rejectsWith(safeFetchText(`${base}/never`, { ...LOCAL, timeoutMs: 200 }), 'timeout', /^The site did not answer within 0.2 seconds\.$/);
  });

  it('times out when the body stalls', async () => {
    await rejectsWith(safeFetchText(`${base}/stall-body`, { ...LOCAL, timeoutMs: 200 }), 'timeout');
  });

  it('words the timeout in whole seconds', async () => {
    await rejectsWith(safeFetchText(`${base}/never`, { ...LOCAL, timeoutMs: 1000 }), 'timeout', /within 1 second\.$/);
  });

  it('reports an unreachable port as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await rejectsWith(safeFetchText(`http://127.0.0.1:${closedPort}/`, LOCAL), 'network', /could not be reached/);
  });

  it('reports names that do not resolve', async () => {
    const lookup = mock.method(dns.promises, 'lookup', async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    try {
      await rejectsWith(safeFetchText('http://does-not-exist.invalid/', LOCAL), 'dns_failure', /could not be found/);
    } finally {
      lookup.mock.restore();
    }
  });

  it('rejects invalid URLs', async () => {
    await rejectsWith(safeFetchText('not a url', LOCAL), 'invalid_url', /^The URL is not valid\.$/);
    await rejectsWith(safeFetchText('ftp://example.com/file', LOCAL), 'invalid_url', /http and https/);
    await rejectsWith(safeFetchText('javascript:alert(1)', LOCAL), 'invalid_url');
    await rejectsWith(safeFetchText('file:///etc/passwd', LOCAL), 'invalid_url');
    await rejectsWith(safeFetchText('http://user:secret@example.com/', LOCAL), 'invalid_url', /user name or password/);
    await rejectsWith(safeFetchText('https://user@example.com/', LOCAL), 'invalid_url');
  });

  it('blocks private and local targets unless allowed', async () => {
    for (const url of [
      `${base}/page`,
      `http://localhost:${port}/page`,
      `http://[::1]:${port}/page`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://0.0.0.0/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]/',
      'http://2130706433/',
      'http://0x7f.1/',
    ]) {
      await rejectsWith(safeFetchText(url, STRICT), 'blocked_address', /^The URL points to a private or local address\.$/);
    }
  });

  it('blocks a name when any of its addresses is private', async () => {
    const lookup = mock.method(dns.promises, 'lookup', async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]);
    try {
      await rejectsWith(safeFetchText('https://mixed.example/', STRICT), 'blocked_address');
    } finally {
      lookup.mock.restore();
    }
  });

  it('connects to the validated address while keeping the original Host header', async () => {
    // System DNS knows nothing of this name, so a response proves the socket used the pinned answer.
    const lookup = mock.method(dns.promises, 'lookup', async () => [{ address: '127.0.0.1', family: 4 }]);
    try {
      const result = await safeFetchText(`http://pinned.test:${port}/echo-host`, { ...LOCAL, userAgent: 'TestAgent/1' });
      assert.equal(result.body, `pinned.test:${port} TestAgent/1`);
      assert.equal(lookup.mock.callCount(), 1);
    } finally {
      lookup.mock.restore();
    }
  });
});

describe('classifyAddress', () => {
  const CASES: Array<[string, ReturnType<typeof classifyAddress>]> = [
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['203.0.113.5', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:0808:0808::1', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456:789a::1', 'unique_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['example.com', 'invalid'],
    ['256.1.1.1', 'invalid'],
    ['1.2.3', 'invalid'],
    ['', 'invalid'],
  ];

  for (const [address, expected] of CASES) {
    it(`${address || '(empty)'} is ${expected}`, () => {
      assert.equal(classifyAddress(address), expected);
      assert.equal(isPublicAddress(address), expected === 'public');
    });
  }
});

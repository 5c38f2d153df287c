/**
 * Outbound HTTP for user-supplied URLs (DESIGN: "Outbound fetches refuse
 * private and loopback addresses unless allowed by configuration, with
 * time-outs and size caps").
 *
 * Every hop is validated before it is requested: scheme, credentials, and every
 * address the host resolves to. The connection is then pinned to the addresses
 * that were validated, so a second DNS answer (rebinding) cannot redirect the
 * socket to an internal host, while the Host header and TLS SNI still carry the
 * original hostname.
 */
import dns, { type LookupAddress } from 'node:dns';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, request } from 'undici';

export interface SafeFetchOptions {
  /** Allow loopback, private, link-local, unique-local, CGNAT, multicast, unspecified and reserved targets. */
  allowPrivate: boolean;
  /** Whole request, DNS and body included. */
  timeoutMs: number;
  /** Cap on the decoded body. */
  maxBytes: number;
  maxRedirects: number;
  userAgent?: string;
}

export type SafeFetchErrorReason =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns_failure'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'http_error'
  | 'unsupported_content'
  | 'network';

/** `message` is a sentence that can be shown to the user as is. */
export class SafeFetchError extends Error {
  constructor(
    readonly reason: SafeFetchErrorReason,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export interface SafeFetchResult {
  finalUrl: string;
  status: number;
  contentType: string;
  body: string;
}

const DEFAULT_USER_AGENT = 'IntelNotes/1.0 (+link preview)';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function safeFetchText(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const timedOut = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(timeoutError(options.timeoutMs)), { once: true });
  });
  // Only one of the racing promises settles the call; keep the loser quiet.
  timedOut.catch(() => {});

  const pinned = new Map<string, LookupAddress[]>();
  const agent = new Agent({
    connect: { lookup: pinnedLookup(pinned), timeout: options.timeoutMs },
  });

  try {
    return await Promise.race([fetchFollowingRedirects(url, options, agent, pinned, controller.signal), timedOut]);
  } catch (error) {
    if (controller.signal.aborted) throw timeoutError(options.timeoutMs);
    if (error instanceof SafeFetchError) throw error;
    throw new SafeFetchError('network', 'The site could not be reached.');
  } finally {
    clearTimeout(timer);
    // destroy() rather than close(): a body we refused to read must not be drained.
    agent.destroy().catch(() => {});
  }
}

async function fetchFollowingRedirects(
  startUrl: string,
  options: SafeFetchOptions,
  agent: Agent,
  pinned: Map<string, LookupAddress[]>,
  signal: AbortSignal,
): Promise<SafeFetchResult> {
  let url = parseTargetUrl(startUrl);
  for (let redirects = 0; ; redirects++) {
    await validateHost(url, options.allowPrivate, pinned);

    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      signal,
      maxRedirections: 0,
      headers: {
        'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
        accept: 'text/html,application/xhtml+xml;q=0.9,text/*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    const status = response.statusCode;
    const location = headerValue(response.headers['location']);

    if (REDIRECT_STATUSES.has(status) && location) {
      discard(response.body);
      if (redirects >= options.maxRedirects) {
        throw new SafeFetchError(
          'too_many_redirects',
          `The site redirected more than ${options.maxRedirects} ${options.maxRedirects === 1 ? 'time' : 'times'}.`,
        );
      }
      url = parseTargetUrl(location, url);
      continue;
    }

    if (status < 200 || status > 299) {
      discard(response.body);
      throw new SafeFetchError('http_error', `The site answered with status ${status}.`, status);
    }

    const contentType = headerValue(response.headers['content-type']) ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    if (!isTextMediaType(mediaType)) {
      discard(response.body);
      const what = mediaType ? ` (it returned ${mediaType})` : '';
      throw new SafeFetchError('unsupported_content', `The URL does not point to a web page${what}.`);
    }

    const encoding = (headerValue(response.headers['content-encoding']) ?? 'identity').trim().toLowerCase() || 'identity';
    const decoded = decodedStream(response.body, encoding);
    if (!decoded) {
      discard(response.body);
      throw new SafeFetchError('unsupported_content', `The site sent the page in an unsupported encoding (${encoding}).`);
    }
    const declaredLength = Number(headerValue(response.headers['content-length']));
    // A compressed length says nothing about the decoded size, so only trust it for identity bodies.
    if (encoding === 'identity' && Number.isFinite(declaredLength) && declaredLength > options.maxBytes) {
      discard(response.body);
      throw tooLargeError(options.maxBytes);
    }

    const bytes = await readCapped(decoded, options.maxBytes);
    return { finalUrl: url.href, status, contentType, body: decodeText(bytes, contentType, mediaType) };
  }
}

function parseTargetUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new SafeFetchError('invalid_url', base ? 'The site redirected to an invalid URL.' : 'The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('invalid_url', 'Only http and https URLs are supported.');
  }
  if (url.username || url.password) {
    throw new SafeFetchError('invalid_url', 'URLs with a user name or password are not supported.');
  }
  if (!url.hostname) throw new SafeFetchError('invalid_url', 'The URL is not valid.');
  url.hash = '';
  return url;
}

async function validateHost(url: URL, allowPrivate: boolean, pinned: Map<string, LookupAddress[]>): Promise<void> {
  const host = stripBrackets(url.hostname);
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      // Looked up through the module object so tests can substitute DNS answers.
      addresses = await dns.promises.lookup(host, { all: true });
    } catch {
      throw new SafeFetchError('dns_failure', "The site's address could not be found.");
    }
    if (addresses.length === 0) throw new SafeFetchError('dns_failure', "The site's address could not be found.");
  }
  if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new SafeFetchError('blocked_address', 'The URL points to a private or local address.');
  }
  pinned.set(host, addresses);
}

/** Answers the socket's DNS query with the addresses validated for that host, never with a fresh lookup. */
function pinnedLookup(pinned: Map<string, LookupAddress[]>): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
    const candidates = (pinned.get(hostname) ?? []).filter((entry) => !family || entry.family === family);
    const first = candidates[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`No validated address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (lookupOptions.all) callback(null, candidates);
    else callback(null, first.address, first.family);
  };
}

/** The body with its Content-Encoding undone, or null for an encoding we cannot undo. */
function decodedStream(body: Readable, encoding: string): Readable | null {
  if (encoding === 'identity') return body;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  return decoder && pipeline(body, decoder, () => {});
}

async function readCapped(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buffer.length;
      if (total > maxBytes) throw tooLargeError(maxBytes);
      chunks.push(buffer);
    }
  } finally {
    discard(stream);
  }
  return Buffer.concat(chunks, total);
}

function decodeText(bytes: Buffer, contentType: string, mediaType: string): string {
  const isHtml = mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
  const label = charsetParam(contentType) ?? (isHtml ? sniffMetaCharset(bytes) : null) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function charsetParam(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1] ?? null;
}

/** Many pages declare their encoding only in a <meta> tag, which browsers honour within the first 1024 bytes. */
function sniffMetaCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 1024).toString('latin1');
  const match = /<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1] ?? null;
}

function isTextMediaType(mediaType: string): boolean {
  return mediaType === 'application/xhtml+xml' || mediaType.startsWith('text/');
}

/** undici reports an unread body as an aborted request; nobody is waiting for that error. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function timeoutError(timeoutMs: number): SafeFetchError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new SafeFetchError('timeout', `The site did not answer within ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`);
}

function tooLargeError(maxBytes: number): SafeFetchError {
  return new SafeFetchError('too_large', `The page is larger than ${formatBytes(maxBytes)}.`);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${Math.round(bytes / 100_000) / 10} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 100) / 10} kB`;
  return `${bytes} bytes`;
}

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

// ---------------------------------------------------------------------------
// Address classification

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  | 'invalid';

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

/** Classifies an IPv4 or IPv6 literal (brackets and zone ids allowed) by the IANA special-purpose registries. */
export function classifyAddress(address: string): AddressClass {
  const literal = stripBrackets(address.trim());
  if (isIPv4(literal)) return classifyIPv4(parseIPv4(literal));
  const groups = parseIPv6(literal);
  return groups ? classifyIPv6(groups) : 'invalid';
}

type Ipv4Range = readonly [base: string, prefix: number, kind: AddressClass];

const IPV4_RANGES: readonly Ipv4Range[] = [
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV4_RULES = IPV4_RANGES.map(([base, prefix, kind]) => {
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return { network: (parseIPv4(base) & mask) >>> 0, mask, kind };
});

function classifyIPv4(value: number): AddressClass {
  for (const rule of IPV4_RULES) {
    if (((value & rule.mask) >>> 0) === rule.network) return rule.kind;
  }
  return 'public';
}

function parseIPv4(literal: string): number {
  return literal.split('.').reduce((acc, octet) => ((acc << 8) | Number(octet)) >>> 0, 0);
}

function classifyIPv6(g: number[]): AddressClass {
  const at = (index: number) => g[index] ?? 0;
  const zeroUpTo = (end: number) => g.slice(0, end).every((group) => group === 0);
  const embeddedV4 = (hi: number, lo: number) => classifyIPv4(((hi << 16) | lo) >>> 0);

  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && at(7) === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 host directly.
  if (zeroUpTo(5) && at(5) === 0xffff) return embeddedV4(at(6), at(7));
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) are translated to the embedded IPv4 address.
  if (at(0) === 0x64 && at(1) === 0xff9b && at(2) === 0 && at(3) === 0 && at(4) === 0 && at(5) === 0) {
    return embeddedV4(at(6), at(7));
  }
  if (at(0) === 0x2002) return embeddedV4(at(1), at(2));

  const first = at(0);
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if ((first & 0xffc0) === 0xfe80) return 'link_local';
  if ((first & 0xffc0) === 0xfec0) return 'private';
  if ((first & 0xfe00) === 0xfc00) return 'unique_local';
  // Only 2000::/3 is allocated for global unicast; inside it, IETF protocol space and documentation prefixes are not routable.
  if ((first & 0xe000) !== 0x2000) return 'reserved';
  if (first === 0x2001 && at(1) < 0x200) return 'reserved';
  if (first === 0x2001 && at(1) === 0x0db8) return 'reserved';
  if (first === 0x3fff && (at(1) & 0xf000) === 0) return 'reserved';
  return 'public';
}

function parseIPv6(input: string): number[] | null {
  const zone = input.indexOf('%');
  let text = zone === -1 ? input : input.slice(0, zone);
  if (!isIPv6(text)) return null;

  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }

  const [headText = '', restText] = text.split('::');
  const parseGroups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const head = parseGroups(headText);
  if (restText === undefined) return head.length === 8 ? head : null;
  const rest = parseGroups(restText);
  const zeros = 8 - head.length - rest.length;
  return zeros < 0 ? null : [...head, ...new Array<number>(zeros).fill(0), ...rest];
}

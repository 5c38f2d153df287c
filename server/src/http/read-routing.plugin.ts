/**
 * Which database a request's reads use (docs/scaling.md, "Read replicas"). With
 * DATABASE_REPLICA_URLS set, a GET or HEAD runs its transactions (`request.tx`,
 * `request.readOnce`: lists, details, totals, search, quick search, the reader, exports) on a
 * replica; everything else, and reads of routes marked `readsFromPrimary`, on the primary.
 * The choice is made here, where a request's connection is taken, never in a route's code.
 *
 * Read-your-writes: after a request that may have written (any other method), the caller is
 * given the primary's WAL position — in a cookie, which browsers send to every API process
 * behind a load balancer, and in this process's memory under their session, for clients that
 * keep no cookies. Their reads then go only to a replica that has replayed that position (the
 * last check's replay position, which only lags the truth), else to the primary. The mark
 * expires once any replica fit to read is sure to have replayed it.
 */
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ReplicaSettings } from '../config.ts';
import { formatLsn, parseLsn, type ReplicaSet } from '../db/replicas.ts';
import { READ_ONLY_METHODS } from './methods.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's reads run on the primary even as a GET: it fills a cache that the primary's
     * change notifications empty (a fill from a replica behind the notification would keep
     * stale data until the next change), or it writes.
     */
    readsFromPrimary?: boolean;
  }
}

/** The cookie carrying the caller's last write position. */
export const READ_AFTER_COOKIE = 'intelnotes_read_after';

const READ_METHODS = new Set(['GET', 'HEAD']);

/** Sessions remembered per process (the most recent writers); older ones rely on their cookie. */
const MAX_SESSIONS = 10_000;

export class ReadRouting {
  /** How long a write position is worth remembering (see `pinMs`). */
  readonly pinMs: number;
  private readonly sessions: LRUCache<string, bigint>;

  constructor(
    readonly replicas: ReplicaSet,
    settings: Pick<ReplicaSettings, 'maxLagSeconds' | 'checkIntervalMs'>,
  ) {
    // A replica read after this is within REPLICA_MAX_LAG_SECONDS of a primary sample taken
    // after the write (one interval to take it, one for the check that judged the replica,
    // one for the check's own duration), so it has replayed the write.
    this.pinMs = settings.maxLagSeconds * 1000 + 3 * settings.checkIntervalMs + 1000;
    this.sessions = new LRUCache({ max: MAX_SESSIONS, ttl: this.pinMs });
  }

  /** Whether the request's reads may be served by a replica. */
  readsFromReplica(request: FastifyRequest): boolean {
    return READ_METHODS.has(request.method) && !request.routeOptions.config.readsFromPrimary;
  }

  /** The caller's last write position: the later of their cookie's and their session's. */
  readAfter(request: FastifyRequest): bigint | null {
    const header = request.headers.cookie;
    const fromCookie = header ? parseLsn(parseCookies(header)[READ_AFTER_COOKIE]) : null;
    const sessionId = request.principal?.sessionId;
    const fromSession = sessionId ? (this.sessions.get(sessionId) ?? null) : null;
    if (fromCookie === null) return fromSession;
    if (fromSession === null) return fromCookie;
    return fromCookie > fromSession ? fromCookie : fromSession;
  }

  /** After a request that may have written: marks the caller with the primary's current position. */
  async remember(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let lsn: bigint | null;
    try {
      lsn = await this.replicas.primaryLsn();
    } catch {
      return; // the primary is away: the request wrote nothing
    }
    if (lsn === null) return;
    const sessionId = request.principal?.sessionId;
    if (sessionId) this.sessions.set(sessionId, lsn);
    const cookie = serializeCookie(READ_AFTER_COOKIE, formatLsn(lsn), {
      path: '/api/',
      maxAge: Math.ceil(this.pinMs / 1000),
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    });
    const existing = reply.getHeader('set-cookie');
    reply.header('set-cookie', existing === undefined ? cookie : [...(Array.isArray(existing) ? existing : [String(existing)]), cookie]);
  }
}

/** Marks every caller whose request may have written (see ReadRouting.remember). */
export function registerReadYourWrites(app: FastifyInstance, routing: ReadRouting): void {
  // onSend runs once the handler's transactions have committed, before the caller has the answer.
  app.addHook('onSend', async (request, reply) => {
    if (READ_ONLY_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    // A refused request wrote nothing (a 503 for a database away, docs/faults.md, is guaranteed to
    // have written nothing), and asking the primary then would only delay the answer.
    if (reply.statusCode >= 400) return;
    await routing.remember(request, reply);
  });
}

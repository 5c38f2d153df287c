/**
 * The read cache (docs/cache.md): answers every visitor of a tenant gets alike — a public list
 * page, the intelbook reader, quick search — kept in memory per tenant, audience and normalised
 * query, so the page every visitor asks for costs no database round trip.
 *
 * What keeps it from serving what it should not:
 * - **Audience.** Only the audiences whose answers depend on nothing but the tenant and the
 *   audience are cached: visitors (`public`) and paywall readers (`paywall`), each under its own
 *   key. Research users and admins always read the database (`cacheableAudience`).
 * - **Writes, in every process.** A transaction that wrote notifies `intelnotes_read_cache`
 *   with its tenant at commit (`noteWrites`, run last in `inTenant` and in a writing request's
 *   transaction); every API process LISTENs (`followWrites`) and moves the tenant's generation
 *   on. The process that answered a writing request also moves it on before its client has the
 *   answer (app.ts), so its next read never waits for the notification.
 * - **Generations.** An entry carries the clock reading from before its load; it is served
 *   only while no change of its tenant (or of every tenant) came after that reading. A load
 *   that was running when a change arrived is therefore never kept, and dropping a tenant is
 *   one map write, whatever the number of its entries (they age out of the LRU).
 * - **Missed notifications.** While the listening connection is down nothing is cached and what
 *   was is dropped; whatever else slips past is bounded by the entries' time to live.
 * - **Memory.** An LRU bounded by bytes (the answer's JSON length plus its key).
 */
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database, Tx } from '../db/client.ts';
import type { AccessLevel } from '../contracts.ts';

export const READ_CACHE_CHANNEL = 'intelnotes_read_cache';

/** The audiences whose answers are the same for every member: the only ones cached. */
export type CachedAudience = 'public' | 'paywall';

export function cacheableAudience(access: AccessLevel): CachedAudience | null {
  return access === 'public' || access === 'paywall' ? access : null;
}

export interface ReadCacheSettings {
  /** Bytes the entries may take (JSON length plus key); 0 turns the cache off. */
  maxBytes: number;
  /** How long an entry is served at most, whatever notifications say. */
  ttlMs: number;
}

interface Entry {
  value: unknown;
  /** The clock reading taken before the value was loaded. */
  loadedAt: number;
}

/** The clock reading of a value that was not kept. */
const NOT_KEPT = -1;

/** Per-entry bookkeeping the byte count adds to the JSON (object headers, the map slot). */
const ENTRY_OVERHEAD_BYTES = 200;

export class ReadCache {
  private readonly entries: LRUCache<string, Entry> | null;
  /** Loads under way, shared by the requests that ask for the same key meanwhile. */
  private readonly loading = new Map<string, { loadedAt: number; promise: Promise<unknown> }>();
  /** A logical clock: every change moves it on. */
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private allChangedAt = 0;
  private enabled = false;
  readonly counters = { hits: 0, misses: 0, shared: 0, bypassed: 0 };

  /** `time` is for tests: where the time to live reads the time (performance.now by default). */
  constructor(readonly settings: ReadCacheSettings, time?: { now(): number }) {
    this.entries = settings.maxBytes > 0
      ? new LRUCache<string, Entry>({
        maxSize: settings.maxBytes,
        // An answer larger than an eighth of the whole is not kept: it would push out many small ones.
        maxEntrySize: Math.max(1, Math.floor(settings.maxBytes / 8)),
        ttl: settings.ttlMs,
        // Checked on read only; expired entries wait for the LRU to push them out.
        ttlAutopurge: false,
        updateAgeOnGet: false,
        // Read the time on every check rather than caching it for a millisecond (a timer per read).
        ttlResolution: 0,
        ...(time ? { perf: time } : {}),
      })
      : null;
  }

  /** Whether answers are kept: configured on, and change notifications arrive. */
  get active(): boolean {
    return this.enabled && this.entries !== null;
  }

  /** Bytes the entries take now. */
  get bytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /**
   * The answer for `query` (already normalised: equal queries give equal strings) of the tenant
   * and audience: the cached one, one being loaded for another request, or `load()`'s.
   */
  async get<T>(tenantId: string, audience: CachedAudience, query: string, load: () => Promise<T>): Promise<T> {
    return (await this.entry(tenantId, audience, query, load)).value;
  }

  /** As `get`, with the clock reading the value was loaded at (`NOT_KEPT` when it was not kept). */
  async entry<T>(tenantId: string, audience: CachedAudience, query: string, load: () => Promise<T>): Promise<{ value: T; loadedAt: number }> {
    if (!this.active) {
      this.counters.bypassed += 1;
      return { value: await load(), loadedAt: NOT_KEPT };
    }
    const key = `${tenantId}\u0000${audience}\u0000${query}`;
    const hit = this.entries!.get(key);
    if (hit && this.fresh(tenantId, hit.loadedAt)) {
      this.counters.hits += 1;
      return { value: hit.value as T, loadedAt: hit.loadedAt };
    }
    const pending = this.loading.get(key);
    if (pending && this.fresh(tenantId, pending.loadedAt)) {
      this.counters.shared += 1;
      return { value: (await pending.promise) as T, loadedAt: pending.loadedAt };
    }
    this.counters.misses += 1;
    const loadedAt = this.clock;
    const promise = load();
    this.loading.set(key, { loadedAt, promise });
    try {
      const value = await promise;
      if (this.active && this.fresh(tenantId, loadedAt)) {
        this.keep(key, value, loadedAt, JSON.stringify(value).length);
        return { value, loadedAt };
      }
      return { value, loadedAt: NOT_KEPT };
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  /**
   * The answer's body as sent, serialized once per loaded value: `source` is what `entry`
   * returned, `variant` whatever else the body holds (a page's links). Kept under the value's
   * clock reading, so it goes stale with it.
   */
  body(tenantId: string, audience: CachedAudience, query: string, source: { loadedAt: number }, variant: string, serialize: () => string): string {
    if (!this.active || source.loadedAt === NOT_KEPT || !this.fresh(tenantId, source.loadedAt)) return serialize();
    const key = `${tenantId}\u0000${audience}\u0000${query}\u0000body\u0000${source.loadedAt}\u0000${variant}`;
    const hit = this.entries!.get(key);
    if (hit) return hit.value as string;
    const text = serialize();
    this.keep(key, text, source.loadedAt, text.length);
    return text;
  }

  private keep(key: string, value: unknown, loadedAt: number, length: number): void {
    const size = length + key.length + ENTRY_OVERHEAD_BYTES;
    if (size <= this.settings.maxBytes / 8) this.entries!.set(key, { value, loadedAt }, { size });
  }

  private fresh(tenantId: string, loadedAt: number): boolean {
    return loadedAt >= this.allChangedAt && loadedAt >= (this.changedAt.get(tenantId) ?? 0);
  }

  /** The tenant's data changed (or may have): its generation moves on, its entries are no longer served. */
  invalidate(tenantId: string): void {
    this.clock += 1;
    this.changedAt.set(tenantId, this.clock);
  }

  /** Any tenant's data may have changed. */
  invalidateAll(): void {
    this.clock += 1;
    this.allChangedAt = this.clock;
    this.changedAt.clear();
    this.entries?.clear();
  }

  /** Keeps answers only while change notifications arrive; anything cached before is dropped. */
  setActive(active: boolean): void {
    this.invalidateAll();
    this.enabled = active;
  }
}

/**
 * Tells every process's read cache that this transaction changed its tenant's data — when it
 * wrote anything at all (a transaction id is assigned at its first write), so a read-only
 * transaction sends nothing. The notification goes out at commit, never for a rollback, and
 * PostgreSQL folds a transaction's identical notifications into one. Run it last in the transaction.
 */
export async function noteWrites(tx: Tx, tenantId: string | null): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${READ_CACHE_CHANNEL}, ${tenantId ?? ''}) WHERE pg_current_xact_id_if_assigned() IS NOT NULL`);
}

/** A cache of per-tenant answers that change notifications keep current (this one, the counts cache). */
export interface TenantChanges {
  invalidate(tenantId: string): void;
  invalidateAll(): void;
  setActive(active: boolean): void;
}

/** Keeps the cache in step with every process's writes; the returned function stops listening. */
export function followWrites(db: Database, cache: ReadCache): Promise<() => Promise<void>> {
  return followTenantChanges(db, READ_CACHE_CHANNEL, cache);
}

/**
 * Follows a channel whose notifications name a tenant that changed ('' for every tenant), and
 * keeps the cache active only while they can arrive; the returned function stops listening.
 */
export async function followTenantChanges(db: Database, channel: string, cache: TenantChanges): Promise<() => Promise<void>> {
  const stop = await db.listen(channel, {
    notify: (tenantId) => (tenantId ? cache.invalidate(tenantId) : cache.invalidateAll()),
    state: (listening) => cache.setActive(listening),
  });
  return async () => {
    cache.setActive(false);
    await stop();
  };
}

/** A stable text for a flat query object: keys sorted, absent and empty values left out. */
export function normalisedQuery(parts: Record<string, string | number | boolean | null | undefined | readonly string[]>): string {
  const kept = Object.entries(parts)
    .filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(kept);
}

/**
 * Entity counts kept in memory per tenant and variant (with or without hidden counts), so the
 * home page of every visitor costs no database round trip. A cached value is dropped when:
 * - the database says the tenant's counts changed: a trigger on the counters (and users)
 *   notifies `intelnotes_entity_counts` at commit, whichever process wrote (migration 0070);
 * - a request that may write (not GET/HEAD/OPTIONS) is answered by this process, so its own
 *   client never reads the counts from before its write, even if the notification is still
 *   on its way (on a PostgreSQL server it arrives on another connection);
 * and nothing is cached while notifications cannot arrive (the listening connection is lost).
 *
 * A load that was running when a change arrived is not kept: it may have read the counts from
 * before the change.
 */
import type { Database } from '../../db/client.ts';
import { followTenantChanges } from '../../resources/read-cache.ts';

export const ENTITY_COUNTS_CHANNEL = 'intelnotes_entity_counts';

export class CountsCache<T> {
  private readonly entries = new Map<string, { value: T; loadedAt: number }>();
  /** A logical clock: every change moves it on. */
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private allChangedAt = 0;
  private enabled = false;

  /** Whether values are kept (false while change notifications cannot arrive). */
  get active(): boolean {
    return this.enabled;
  }

  /** The cached value for the tenant and variant, or `load()`'s, kept when no change came meanwhile. */
  async get(tenantId: string, variant: string, load: () => Promise<T>): Promise<T> {
    if (!this.enabled) return load();
    const key = `${tenantId}\u0000${variant}`;
    const hit = this.entries.get(key);
    if (hit && this.fresh(tenantId, hit.loadedAt)) return hit.value;
    const loadedAt = this.clock;
    const value = await load();
    if (this.enabled && this.fresh(tenantId, loadedAt)) this.entries.set(key, { value, loadedAt });
    return value;
  }

  private fresh(tenantId: string, loadedAt: number): boolean {
    return loadedAt >= this.allChangedAt && loadedAt >= (this.changedAt.get(tenantId) ?? 0);
  }

  /** The tenant's counts changed (or may have). */
  invalidate(tenantId: string): void {
    this.clock += 1;
    this.changedAt.set(tenantId, this.clock);
    for (const key of this.entries.keys()) if (key.startsWith(`${tenantId}\u0000`)) this.entries.delete(key);
  }

  /** Any tenant's counts may have changed. */
  invalidateAll(): void {
    this.clock += 1;
    this.allChangedAt = this.clock;
    this.changedAt.clear();
    this.entries.clear();
  }

  /** Keeps values only while change notifications arrive; anything cached before is dropped. */
  setActive(active: boolean): void {
    this.invalidateAll();
    this.enabled = active;
  }
}

/** Keeps the cache in step with the database's change notifications; the returned function stops listening. */
export function followCountChanges<T>(db: Database, cache: CountsCache<T>): Promise<() => Promise<void>> {
  return followTenantChanges(db, ENTITY_COUNTS_CHANNEL, cache);
}

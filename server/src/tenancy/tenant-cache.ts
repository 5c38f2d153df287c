/** Tenants by host, reused for a few seconds so that not every request reads the tenants table. */
import { LRUCache, type Perf } from 'lru-cache';
import type { Database } from '../db/client.ts';
import type { HostTenant } from './host.ts';
import { findDefaultTenant, findTenantByCode, type TenantRow } from './tenants.repository.ts';

/** How long a resolved tenant is reused before it is read again. */
export const CACHE_MS = 5_000;
/**
 * How long a host that names no tenant is remembered: long enough to absorb a burst of
 * requests to it, short enough that a tenant created in another process is soon found.
 */
export const MISS_MS = 1_000;
/**
 * At most this many hosts are remembered, the least recently used dropped first: any anonymous
 * request can send a host of its own, so an unbounded cache would grow with every one.
 */
export const CACHE_MAX_ENTRIES = 1_000;

export class TenantCache {
  // lru-cache holds no null values: the tenant (or its absence) is wrapped.
  private readonly entries: LRUCache<string, { tenant: TenantRow | null }>;

  constructor(
    private readonly db: Database,
    /** The clock entries expire by (tests move it). */
    clock: Perf = performance,
  ) {
    // ttlResolution 0: the clock is read on every lookup rather than once a millisecond.
    this.entries = new LRUCache({ max: CACHE_MAX_ENTRIES, ttl: CACHE_MS, ttlResolution: 0, perf: clock });
  }

  async resolve(host: HostTenant): Promise<TenantRow | null> {
    if (host.kind === 'invalid') return null;
    const key = host.kind === 'default' ? '' : host.code;
    // An expired entry is dropped as it is read.
    const hit = this.entries.get(key);
    if (hit) return hit.tenant;
    const tenant = await this.db.withTenant({ tenantId: null }, (tx) =>
      host.kind === 'default' ? findDefaultTenant(tx) : findTenantByCode(tx, host.code),
    );
    this.entries.set(key, { tenant }, { ttl: tenant ? CACHE_MS : MISS_MS });
    return tenant;
  }

  /** How many hosts are remembered (tests: the bound holds). */
  get size(): number {
    return this.entries.size;
  }

  /** Called after a tenant is created, renamed or deleted in this process. */
  clear(): void {
    this.entries.clear();
  }
}

/** Tenants by host, reused for a few seconds so that not every request reads the tenants table. */
import type { Database } from '../db/client.ts';
import type { HostTenant } from './host.ts';
import { findDefaultTenant, findTenantByCode, type TenantRow } from './tenants.repository.ts';

/** How long a resolved tenant is reused before it is read again. */
const CACHE_MS = 5_000;

export class TenantCache {
  private readonly entries = new Map<string, { tenant: TenantRow | null; at: number }>();
  constructor(private readonly db: Database) {}

  async resolve(host: HostTenant): Promise<TenantRow | null> {
    if (host.kind === 'invalid') return null;
    const key = host.kind === 'default' ? '' : host.code;
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.tenant;
    const tenant = await this.db.withTenant({ tenantId: null }, (tx) =>
      host.kind === 'default' ? findDefaultTenant(tx) : findTenantByCode(tx, host.code),
    );
    this.entries.set(key, { tenant, at: Date.now() });
    return tenant;
  }

  /** Called after a tenant is created, renamed or deleted in this process. */
  clear(): void {
    this.entries.clear();
  }
}

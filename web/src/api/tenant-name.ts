import type { ClientInfo } from '@intelnotes/server/contracts';

/** The name to show for a tenant; a tenant without a display name falls back to its code. */
export function tenantDisplayName(tenant: ClientInfo): string {
  return tenant.name ?? tenant.code ?? 'intelnotes';
}

/** Data access for the tenants table ("clients" in SPEC §7). */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { tenants } from '../db/schema.ts';

export type TenantRow = typeof tenants.$inferSelect;

export async function findTenantByCode(executor: Executor, code: string): Promise<TenantRow | null> {
  const [row] = await executor.select().from(tenants).where(eq(tenants.code, code)).limit(1);
  return row ?? null;
}

export async function findDefaultTenant(executor: Executor): Promise<TenantRow | null> {
  const [row] = await executor.select().from(tenants).where(eq(tenants.is_default, true)).limit(1);
  return row ?? null;
}

export async function insertTenant(
  executor: Executor,
  values: Pick<TenantRow, 'code' | 'name'> & Partial<Pick<TenantRow, 'is_default' | 'payment_access_link' | 'payment_access_message'>>,
): Promise<TenantRow> {
  const [row] = await executor.insert(tenants).values(values).returning();
  if (!row) throw new Error('insert into tenants returned no row');
  return row;
}

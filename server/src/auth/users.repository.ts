/** Data access for users; always called inside a tenant-scoped transaction. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
/** What a request knows about its signed-in user (never the password hash). */
export type SessionUser = Pick<UserRow, 'id' | 'tenant_id' | 'email' | 'alias' | 'is_admin' | 'is_research' | 'asset_id' | 'disabled'>;

export async function findUserByEmail(executor: Executor, email: string): Promise<UserRow | null> {
  const [row] = await executor
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

export async function insertUser(executor: Executor, values: NewUser): Promise<UserRow> {
  const [row] = await executor.insert(users).values(values).returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

export async function touchLastLogin(executor: Executor, tenantId: string, userId: string): Promise<void> {
  await executor
    .update(users)
    .set({ last_login_at: sql`now()` })
    .where(and(eq(users.tenant_id, tenantId), eq(users.id, userId)));
}

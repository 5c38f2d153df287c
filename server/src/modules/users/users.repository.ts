/**
 * Data access for managing a tenant's users; always called inside a
 * tenant-scoped transaction, so row-level security limits every statement to
 * the caller's tenant. Sign-in lookups live in auth/users.repository.ts.
 */
import { and, asc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import type { ListParams } from '../../http/list-params.ts';
import { likeLiteral } from '../../resources/repository.ts';
import type { UserRow } from '../../auth/users.repository.ts';

export const USER_ORDERING = ['email', 'alias', 'created_at', 'updated_at', 'last_login_at'] as const;
export const USER_FILTERS = ['is_admin', 'is_research', 'disabled'] as const;
export type UserListParams = ListParams<(typeof USER_ORDERING)[number], (typeof USER_FILTERS)[number]>;

export type UserChanges = Partial<Pick<UserRow, 'email' | 'alias' | 'is_admin' | 'is_research' | 'disabled'>>;

function whereOf(params: UserListParams): SQL | undefined {
  const conditions: SQL[] = [];
  if (params.search) {
    const pattern = `%${likeLiteral(params.search.toLowerCase())}%`;
    conditions.push(or(sql`lower(${users.email}) LIKE ${pattern}`, sql`lower(coalesce(${users.alias}, '')) LIKE ${pattern}`)!);
  }
  for (const name of USER_FILTERS) {
    const value = params.filters[name];
    if (value !== undefined) conditions.push(eq(users[name], value));
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

export async function listUsers(executor: Executor, params: UserListParams): Promise<{ rows: UserRow[]; count: number }> {
  const where = whereOf(params);
  // Missing aliases and never-signed-in users sort last either way.
  const order = params.ordering.map(({ field, descending }) =>
    descending ? sql`${users[field]} DESC NULLS LAST` : sql`${users[field]} ASC NULLS LAST`,
  );
  const rows = await executor
    .select()
    .from(users)
    .where(where)
    .orderBy(...order, asc(users.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await executor.select({ count: sql<number>`count(*)::int` }).from(users).where(where);
  return { rows, count: total?.count ?? 0 };
}

export async function findUserById(executor: Executor, userId: string): Promise<UserRow | null> {
  const [row] = await executor.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** Another user of the tenant with this email (any case), or null. */
export async function findOtherUserByEmail(executor: Executor, email: string, exceptUserId: string | null): Promise<UserRow | null> {
  const sameEmail = sql`lower(${users.email}) = lower(${email})`;
  const [row] = await executor
    .select()
    .from(users)
    .where(exceptUserId ? and(sameEmail, ne(users.id, exceptUserId)) : sameEmail)
    .limit(1);
  return row ?? null;
}

export async function updateUser(executor: Executor, userId: string, changes: UserChanges): Promise<UserRow> {
  const [row] = await executor
    .update(users)
    .set({ ...changes, updated_at: sql`now()` })
    .where(eq(users.id, userId))
    .returning();
  if (!row) throw new Error('update of users returned no row');
  return row;
}

export async function setPasswordHash(executor: Executor, userId: string, passwordHash: string): Promise<void> {
  await executor.update(users).set({ password_hash: passwordHash, updated_at: sql`now()` }).where(eq(users.id, userId));
}

/** Revokes every live session of a user, except `keepSessionId` when given; returns how many. */
export async function revokeUserSessions(executor: Executor, userId: string, keepSessionId: string | null = null): Promise<number> {
  const live = and(eq(sessions.user_id, userId), isNull(sessions.revoked_at));
  const rows = await executor
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(keepSessionId ? and(live, ne(sessions.id, keepSessionId)) : live)
    .returning({ id: sessions.id });
  return rows.length;
}

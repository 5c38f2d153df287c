/**
 * Data access for managing tenants ("clients" in SPEC §7) and their settings.
 * Reading tenants is open to every transaction; writing them needs the
 * tenant-manager context (or, for a tenant's own settings, its own context):
 * row-level security on the tenants table enforces both.
 */
import { asc, eq, or, sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { tenants } from '../../db/schema.ts';
import type { ListParams } from '../../http/list-params.ts';
import { likeLiteral } from '../../resources/repository.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';

export const CLIENT_ORDERING = ['code', 'name', 'created_at', 'updated_at'] as const;
export type ClientListParams = ListParams<(typeof CLIENT_ORDERING)[number], never>;

export type TenantChanges = Partial<
  Pick<
    TenantRow,
    | 'name'
    | 'payment_access_link'
    | 'payment_access_message'
    | 'open_data_link'
    | 'header_show_tenant_name'
    | 'header_show_access_level'
    | 'footer_text'
    | 'footer_show_open_data_link'
    | 'footer_show_setup_invite'
    | 'suggestion_min_confidence'
  >
>;

export async function listTenants(executor: Executor, params: ClientListParams): Promise<{ rows: TenantRow[]; count: number }> {
  let where: SQL | undefined;
  if (params.search) {
    const pattern = `%${likeLiteral(params.search.toLowerCase())}%`;
    where = or(sql`${tenants.code} LIKE ${pattern}`, sql`lower(${tenants.name}) LIKE ${pattern}`);
  }
  const order = params.ordering.map(({ field, descending }) =>
    field === 'name'
      ? sql`lower(${tenants.name}) ${descending ? sql`DESC` : sql`ASC`}`
      : sql`${tenants[field]} ${descending ? sql`DESC` : sql`ASC`}`,
  );
  const rows = await executor
    .select()
    .from(tenants)
    .where(where)
    .orderBy(...order, asc(tenants.id))
    .limit(params.limit)
    .offset(params.offset);
  const [total] = await executor.select({ count: sql<number>`count(*)::int` }).from(tenants).where(where);
  return { rows, count: total?.count ?? 0 };
}

export async function insertTenantWithId(
  executor: Executor,
  values: Pick<TenantRow, 'id' | 'code' | 'name' | 'payment_access_link' | 'payment_access_message'>,
): Promise<TenantRow> {
  const [row] = await executor.insert(tenants).values(values).returning();
  if (!row) throw new Error('insert into tenants returned no row');
  return row;
}

export async function findTenantById(executor: Executor, tenantId: string): Promise<TenantRow | null> {
  const [row] = await executor.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row ?? null;
}

/** Updates a tenant; null when row-level security (or a missing row) left nothing to update. */
export async function updateTenant(executor: Executor, tenantId: string, changes: TenantChanges): Promise<TenantRow | null> {
  const [row] = await executor
    .update(tenants)
    .set({ ...changes, updated_at: sql`now()` })
    .where(eq(tenants.id, tenantId))
    .returning();
  return row ?? null;
}

/**
 * Every table holding tenant data — each table with a `tenant_id` column, so
 * tables added later are covered without a change here — ordered so that a
 * table comes before the tables its foreign keys reference (children first).
 */
export async function tenantScopedTables(executor: Executor): Promise<string[]> {
  const tables = (
    await query<{ table_name: string }>(
      executor,
      sql`SELECT c.table_name
          FROM information_schema.columns c
          JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id'
            AND t.table_type = 'BASE TABLE' AND c.table_name <> 'tenants'
          ORDER BY c.table_name`,
    )
  ).map((row) => row.table_name);
  const references = await query<{ child: string; parent: string }>(
    executor,
    sql`SELECT child.relname AS child, parent.relname AS parent
        FROM pg_constraint fk
        JOIN pg_class child ON child.oid = fk.conrelid
        JOIN pg_class parent ON parent.oid = fk.confrelid
        JOIN pg_namespace n ON n.oid = child.relnamespace AND n.nspname = current_schema()
        WHERE fk.contype = 'f' AND fk.conrelid <> fk.confrelid`,
  );
  return childrenFirst(tables, references);
}

/** Kahn's algorithm over "child references parent"; tables in a cycle keep name order at the end. */
export function childrenFirst(tables: string[], references: Array<{ child: string; parent: string }>): string[] {
  const remaining = new Set(tables);
  const ordered: string[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter(
      (table) => !references.some((edge) => edge.parent === table && edge.child !== table && remaining.has(edge.child)),
    );
    if (ready.length === 0) {
      ordered.push(...remaining);
      break;
    }
    for (const table of ready) {
      ordered.push(table);
      remaining.delete(table);
    }
  }
  return ordered;
}

/** Deletes the rows of one table that belong to the tenant; returns how many. */
export async function deleteTenantRows(executor: Executor, table: string, tenantId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    executor,
    sql`WITH removed AS (DELETE FROM ${sql.identifier(table)} WHERE tenant_id = ${tenantId} RETURNING 1)
        SELECT count(*)::int AS n FROM removed`,
  );
  return row?.n ?? 0;
}

export async function deleteTenantRow(executor: Executor, tenantId: string): Promise<boolean> {
  const rows = await executor.delete(tenants).where(eq(tenants.id, tenantId)).returning({ id: tenants.id });
  return rows.length === 1;
}

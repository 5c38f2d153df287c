/**
 * The SQL of saved views' defaults (migration 0230). saved_view_defaults holds the reader's own
 * rows only (its restrictive policy on app_user_id()), and saved_views what the reader may read
 * (their own views and the team's shared ones), so these statements name no user.
 */
import { sql } from 'drizzle-orm';
import { query, tenantPin, type Tx } from '../../db/client.ts';
import { uuidArray } from '../../resources/repository.ts';

/** Which of these views are the reader's default of their table. */
export async function defaultViewIds(tx: Tx, viewIds: string[]): Promise<Set<string>> {
  if (viewIds.length === 0) return new Set();
  const rows = await query<{ view_id: string }>(
    tx,
    sql`SELECT view_id FROM saved_view_defaults WHERE ${tenantPin(tx)} AND view_id = ANY(${uuidArray(viewIds)})`,
  );
  return new Set(rows.map((row) => row.view_id));
}

/** Makes the view the reader's default of its table (replacing the one before). */
export async function setDefaultView(tx: Tx, tenantId: string, userId: string, resource: string, viewId: string): Promise<void> {
  await query(
    tx,
    sql`INSERT INTO saved_view_defaults (tenant_id, user_id, resource, view_id) VALUES (${tenantId}, ${userId}, ${resource}, ${viewId})
        ON CONFLICT (tenant_id, user_id, resource) DO UPDATE SET view_id = excluded.view_id`,
  );
}

/** The reader's table has no default view any more, if this view was it; whether it was. */
export async function clearDefaultView(tx: Tx, viewId: string): Promise<boolean> {
  const rows = await query<{ view_id: string }>(tx, sql`DELETE FROM saved_view_defaults WHERE ${tenantPin(tx)} AND view_id = ${viewId} RETURNING view_id`);
  return rows.length > 0;
}

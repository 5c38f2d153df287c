/**
 * The SQL of lists beyond the engine's: slugs (current and earlier ones) and
 * the ordered items. Every statement runs in the request's tenant
 * transaction, so row-level security keeps it inside the tenant.
 */
import { sql, type SQL } from 'drizzle-orm';
import { query, tenantPin, type Tx } from '../../db/client.ts';
import type { Visibility } from '../../resources/fields.ts';
import { selectColumns, whereClause, type Row } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';

const id = (name: string) => sql.identifier(name);
const list = (values: unknown[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);

/** The lists a row is an item of, as a reader sees them (ordered by name). */
export type ItemLists = Array<{ id: string; name: string; slug: string; kind: string }>;

/** A list page's column of each row's visible lists (a correlated subquery over `page.__tenant` and `page.id`). */
export function itemListsColumn(resource: Resource, visible: Visibility[]): SQL {
  return sql`(SELECT coalesce(json_agg(json_build_object('id', l.id, 'name', l.name, 'slug', l.slug, 'kind', l.kind) ORDER BY l.name), '[]')
              FROM list_items li JOIN lists l ON l.tenant_id = li.tenant_id AND l.id = li.list_id
              WHERE li.tenant_id = page.__tenant AND li.${id(resource.listItem!.column)} = page.id AND l.visibility IN (${list(visible)}))`;
}

/** Serializes slug allocation per tenant and kind until the transaction ends. */
export async function lockSlugs(tx: Tx, tenantId: string, kind: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`list-slugs:${tenantId}:${kind}`}, 0))`);
}

/**
 * The first of base, base-2, base-3, … that no other list of the kind uses,
 * now or as an earlier slug (old links keep pointing at their list).
 */
export async function allocateSlug(tx: Tx, kind: string, base: string, listId: string | null): Promise<string> {
  const pattern = `${base.replace(/[\\%_]/g, (char) => `\\${char}`)}-%`;
  const other = listId === null ? sql`true` : sql`list_id <> ${listId}`;
  const rows = await query<{ slug: string }>(
    tx,
    sql`SELECT slug FROM (
          SELECT slug, id AS list_id FROM lists WHERE ${tenantPin(tx)} AND kind = ${kind}
          UNION ALL
          SELECT slug, list_id FROM list_slugs WHERE ${tenantPin(tx)} AND kind = ${kind}
        ) taken
        WHERE ${other} AND (slug = ${base} OR slug LIKE ${pattern})`,
  );
  const taken = new Set(rows.map((row) => row.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** After a rename: the old slug redirects to the list; the new one is no longer an old one. */
export async function keepOldSlug(tx: Tx, tenantId: string, kind: string, oldSlug: string, newSlug: string, listId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM list_slugs WHERE list_id = ${listId} AND slug = ${newSlug}`);
  await tx.execute(
    sql`INSERT INTO list_slugs (tenant_id, kind, slug, list_id) VALUES (${tenantId}, ${kind}, ${oldSlug}, ${listId})
        ON CONFLICT (tenant_id, kind, slug) DO UPDATE SET list_id = EXCLUDED.list_id, created_at = now()`,
  );
}

/** The list a slug of a kind names: by its current slug, else by an earlier one (moved). */
export async function findSlug(tx: Tx, kind: string, slug: string): Promise<{ id: string; moved: boolean } | null> {
  const [current] = await query<{ id: string }>(tx, sql`SELECT id FROM lists WHERE kind = ${kind} AND slug = ${slug}`);
  if (current) return { id: current.id, moved: false };
  const [old] = await query<{ id: string }>(tx, sql`SELECT list_id AS id FROM list_slugs WHERE kind = ${kind} AND slug = ${slug}`);
  return old ? { id: old.id, moved: true } : null;
}

/** The list's kind when `listId` is a list (used to tell a wrong-kind id from an unknown one). */
export async function kindOfList(tx: Tx, listId: string): Promise<string | null> {
  const [row] = await query<{ kind: string }>(tx, sql`SELECT kind FROM lists WHERE id = ${listId}`);
  return row?.kind ?? null;
}

/** Items joined to their records, as `resource` rows the caller may see. */
function itemsJoin(resource: Resource, listId: string, visible: Visibility[]) {
  const column = id(resource.listItem!.column);
  return sql`FROM ${id(resource.table)}
             JOIN (SELECT tenant_id AS list_item_tenant, ${column} AS list_item_id, position AS list_item_position, created_at AS list_item_added
                   FROM list_items WHERE list_id = ${listId} AND ${column} IS NOT NULL) li ON li.list_item_tenant = tenant_id AND li.list_item_id = id
             WHERE ${whereClause(resource, visible)}`;
}

/** One page of a list's items the caller may see, in the list's order. */
export async function selectItems(tx: Tx, resource: Resource, listId: string, visible: Visibility[], limit: number, offset: number): Promise<Row[]> {
  return query<Row>(
    tx,
    sql`SELECT ${selectColumns(resource)} ${itemsJoin(resource, listId, visible)}
        ORDER BY li.list_item_position, li.list_item_added, id
        LIMIT ${limit} OFFSET ${offset}`,
  );
}

export async function countItems(tx: Tx, resource: Resource, listId: string, visible: Visibility[]): Promise<number> {
  const [row] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n ${itemsJoin(resource, listId, visible)}`);
  return row?.n ?? 0;
}

/** Items the caller may see per list, for lists whose items are `resource` rows (a page of lists in one statement). */
export async function countItemsOfLists(tx: Tx, resource: Resource, listIds: string[], visible: Visibility[]): Promise<Map<string, number>> {
  const column = id(resource.listItem!.column);
  const rows = await query<{ list_id: string; n: number }>(
    tx,
    sql`SELECT li.list_id, count(*)::int AS n FROM ${id(resource.table)}
        JOIN (SELECT tenant_id AS list_item_tenant, list_id, ${column} AS list_item_id FROM list_items
              WHERE list_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(listIds)}::jsonb))::uuid[]) AND ${column} IS NOT NULL) li
          ON li.list_item_tenant = tenant_id AND li.list_item_id = id
        WHERE ${whereClause(resource, visible)}
        GROUP BY li.list_id`,
  );
  return new Map(rows.map((row) => [row.list_id, row.n]));
}

/** Which of `itemIds` are items of the list, in the list's order. */
export async function itemsInOrder(tx: Tx, listId: string, itemIds: string[]): Promise<string[]> {
  if (itemIds.length === 0) return [];
  const rows = await query<{ item_id: string }>(
    tx,
    sql`SELECT item_id FROM list_items
        WHERE list_id = ${listId} AND item_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(itemIds)}::jsonb))::uuid[])
        ORDER BY position, created_at, item_id`,
  );
  return rows.map((row) => row.item_id);
}

/** Which of `ids` are records of `resource` the caller may see. */
export async function visibleIds(tx: Tx, resource: Resource, visible: Visibility[], ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await query<{ id: string }>(
    tx,
    sql`SELECT id FROM ${id(resource.table)}
        WHERE id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid[]) AND ${whereClause(resource, visible)}`,
  );
  return rows.map((row) => row.id);
}

export async function deleteItem(tx: Tx, listId: string, itemId: string): Promise<boolean> {
  const rows = await query<{ item_id: string }>(tx, sql`DELETE FROM list_items WHERE list_id = ${listId} AND item_id = ${itemId} RETURNING item_id`);
  return rows.length > 0;
}

/** Holds the list row until the transaction ends, so two reorders of one list do not interleave. */
export async function lockList(tx: Tx, listId: string): Promise<void> {
  await tx.execute(sql`SELECT id FROM lists WHERE ${tenantPin(tx)} AND id = ${listId} FOR UPDATE`);
}

/**
 * Puts `itemIds` (items of the list) in the given order, in the places they
 * held together; every other item keeps its place. Positions are first made
 * distinct (0, 1, 2, … in the current order).
 */
export async function reorderItems(tx: Tx, listId: string, itemIds: string[]): Promise<void> {
  await tx.execute(
    sql`UPDATE list_items SET position = ranked.rank
        FROM (SELECT item_id, (row_number() OVER (ORDER BY position, created_at, item_id) - 1)::int AS rank
              FROM list_items WHERE list_id = ${listId}) ranked
        WHERE list_items.list_id = ${listId} AND list_items.item_id = ranked.item_id AND list_items.position <> ranked.rank`,
  );
  await tx.execute(
    sql`UPDATE list_items SET position = moved.position
        FROM (
          SELECT wanted.item_id, places.position
          FROM (SELECT value::uuid AS item_id, ordinality AS n
                FROM jsonb_array_elements_text(${JSON.stringify(itemIds)}::jsonb) WITH ORDINALITY) wanted
          JOIN (SELECT position, row_number() OVER (ORDER BY position) AS n
                FROM list_items WHERE list_id = ${listId} AND item_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(itemIds)}::jsonb))::uuid[])) places
            ON places.n = wanted.n
        ) moved
        WHERE list_items.list_id = ${listId} AND list_items.item_id = moved.item_id`,
  );
}

/** Marks the list as changed now, by `userId`. */
export async function touchList(tx: Tx, listId: string, userId: string | null): Promise<void> {
  await tx.execute(sql`UPDATE lists SET updated_at = now(), updated_by = ${userId} WHERE id = ${listId}`);
}

/** The lists a record is an item of (whoever may see them), with its place in each. */
export async function membershipsOf(tx: Tx, resource: Resource, rowId: string): Promise<Array<{ list_id: string; position: number }>> {
  return query(tx, sql`SELECT list_id, position FROM list_items WHERE ${id(resource.listItem!.column)} = ${rowId}`);
}

/** Puts a record back in a list at its earlier place (undoing a merge). */
export async function restoreMembership(tx: Tx, resource: Resource, tenantId: string, listId: string, rowId: string, position: number): Promise<void> {
  await tx.execute(
    sql`INSERT INTO list_items (tenant_id, list_id, ${id(resource.listItem!.column)}, position) VALUES (${tenantId}, ${listId}, ${rowId}, ${position})
        ON CONFLICT DO NOTHING`,
  );
}

/** Lists (of the caller-visible kind) that rows are items of, keyed by row id. */
export async function listsOfItems(
  tx: Tx,
  resource: Resource,
  visible: Visibility[],
  rowIds: string[],
): Promise<Map<string, ItemLists>> {
  const byItem = new Map<string, ItemLists>();
  if (!resource.listItem || rowIds.length === 0) return byItem;
  const rows = await query<{ item_id: string; id: string; name: string; slug: string; kind: string }>(
    tx,
    sql`SELECT li.item_id, l.id, l.name, l.slug, l.kind
        FROM list_items li JOIN lists l ON l.tenant_id = li.tenant_id AND l.id = li.list_id
        WHERE li.${id(resource.listItem.column)} IN (${list(rowIds)}) AND l.visibility IN (${list(visible)})
        ORDER BY l.name`,
  );
  for (const row of rows) {
    const entries = byItem.get(row.item_id) ?? [];
    entries.push({ id: row.id, name: row.name, slug: row.slug, kind: row.kind });
    byItem.set(row.item_id, entries);
  }
  return byItem;
}

/** Replaces the lists a row is an item of; unknown, unseen or wrong-kind list ids are returned. */
export async function setListMemberships(
  tx: Tx,
  resource: Resource,
  tenantId: string,
  rowId: string,
  listIds: string[],
  visible: Visibility[],
): Promise<string[]> {
  const membership = resource.listItem!;
  // New memberships only in lists the writer may see (so a write never confirms a hidden list exists).
  const found = listIds.length
    ? await query<{ id: string }>(
        tx,
        sql`SELECT id FROM lists WHERE kind = ${membership.listKind} AND id IN (${list(listIds)})
            AND (visibility IN (${list(visible)}) OR EXISTS (SELECT 1 FROM list_items li WHERE li.tenant_id = lists.tenant_id AND li.list_id = lists.id AND li.${id(membership.column)} = ${rowId}))`,
      )
    : [];
  const missing = listIds.filter((listId) => !found.some((row) => row.id === listId));
  if (missing.length > 0) return missing;
  const before = await query<{ list_id: string }>(tx, sql`SELECT list_id FROM list_items WHERE ${id(membership.column)} = ${rowId}`);
  const kept = new Set(before.map((row) => row.list_id));
  const added = listIds.filter((listId) => !kept.has(listId));
  await tx.execute(
    listIds.length
      ? sql`DELETE FROM list_items WHERE ${id(membership.column)} = ${rowId} AND list_id NOT IN (${list(listIds)})`
      : sql`DELETE FROM list_items WHERE ${id(membership.column)} = ${rowId}`,
  );
  for (const listId of added) await addListItem(tx, resource, tenantId, listId, rowId);
  return [];
}

/**
 * Appends a record to a list (at the end; nothing happens when it is already
 * there). With the list's auto_tagging on, the record receives the list's
 * keywords. Returns whether it was added.
 */
export async function addListItem(tx: Tx, resource: Resource, tenantId: string, listId: string, rowId: string): Promise<boolean> {
  const column = id(resource.listItem!.column);
  const added = await query<{ list_id: string }>(
    tx,
    // INSERT … SELECT rather than a sub-select in VALUES, which Citus does not run (docs/scaling.md).
    sql`INSERT INTO list_items (tenant_id, list_id, ${column}, position)
        SELECT ${tenantId}::uuid, ${listId}::uuid, ${rowId}::uuid, coalesce(max(position) + 1, 0)
        FROM list_items WHERE ${tenantPin(tx)} AND list_id = ${listId}
        ON CONFLICT DO NOTHING RETURNING list_id`,
  );
  if (added.length > 0 && resource.fields['keywords']?.relation) {
    await tx.execute(
      sql`UPDATE ${id(resource.table)} AS t
          SET keywords = ARRAY(SELECT DISTINCT k FROM unnest(t.keywords || l.keywords) AS k)
          FROM lists l
          WHERE l.tenant_id = t.tenant_id AND t.id = ${rowId} AND l.id = ${listId} AND l.auto_tagging AND NOT t.keywords @> l.keywords`,
    );
  }
  return added.length > 0;
}

/** One page of the lists a reader sees that hold a record (by name), and how many there are. */
export async function listsHoldingPage(
  tx: Tx,
  item: Resource,
  lists: Resource,
  visible: Visibility[],
  rowId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: Row[]; count: number }> {
  const holding = sql`${whereClause(lists, visible)} AND EXISTS (SELECT 1 FROM list_items li WHERE li.tenant_id = ${id(lists.table)}.tenant_id AND li.list_id = ${id(lists.table)}.id AND li.${id(item.listItem!.column)} = ${rowId})`;
  const rows = await query<Row>(
    tx,
    sql`SELECT ${selectColumns(lists)} FROM ${id(lists.table)} WHERE ${holding} ORDER BY name, id LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  const [total] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${id(lists.table)} WHERE ${holding}`);
  return { rows, count: total?.n ?? 0 };
}

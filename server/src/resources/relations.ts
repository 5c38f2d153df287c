/**
 * Relations between records (uuid / uuid[] columns named after the field):
 * presenting them as references the caller may see, checking that written
 * ids exist, resolving names from spreadsheets, and keeping them consistent
 * when a target is deleted or merged — all in the caller's transaction.
 *
 * One rule for every relation (docs/engine.md, "Relations show only what the reader may read"):
 * a reader only ever meets references to records they may read — of a resource whose readAccess
 * admits them (visibility.ts mayReadField), among the rows their visibility and the status
 * let them see (readableTargets). Others are left out as if the reference were not there.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AccessLevel, RelatedRef } from '../contracts.ts';
import { query, type Tx } from '../db/client.ts';
import { conflict, type FieldErrors } from './errors.ts';
import { relationFields, type Catalog } from './catalog.ts';
import { visibleCondition } from './repository.ts';
import { reviewView, type Resource } from './resource.ts';
import { mayReadField, mayReadResource, visibleTo } from './visibility.ts';

const id = (name: string) => sql.identifier(name);
const uuidList = (values: string[]): SQL => sql`ARRAY[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::uuid[]`;


/**
 * The rows of a relation's target a reader at `access` may see: none of a resource they may not
 * read, else by visibility and status. A record names records only; a suggestion (`referrer` a
 * suggestions view) may also name the target's suggestions — a suggested deal's parties are the
 * organizations suggested from the same text, reviewed alongside it: accepted, the reference
 * holds (same id); merged, it moves to the record; deleted, it goes (docs/review.md).
 */
export function readableTargets(target: Resource, access: AccessLevel, referrer?: Resource): SQL {
  if (!mayReadResource(target, access)) return sql`false`;
  const records = visibleCondition(target, visibleTo(access));
  return referrer?.status === 'suggested' && target.review ? sql`(${records} OR ${visibleCondition(reviewView(target, 'suggested'), visibleTo(access))})` : records;
}

/** Ids a row's relation field holds. */
export function idsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/**
 * References (id, name, kind) of every related record in `rows` that a reader at `access` may
 * see, by id: of the relation fields they may read, the targets they may see.
 */
export async function relatedRefs(
  tx: Tx,
  catalog: Catalog,
  resource: Resource,
  access: AccessLevel,
  rows: Array<Record<string, unknown>>,
): Promise<Map<string, RelatedRef>> {
  const refs = new Map<string, RelatedRef>();
  const idsByTarget = new Map<string, Set<string>>();
  for (const [name, field] of relationFields(resource)) {
    if (!mayReadField(field, access)) continue;
    for (const target of field.relation!.targets) {
      const ids = idsByTarget.get(target) ?? new Set<string>();
      for (const row of rows) for (const value of idsOf(row[name])) ids.add(value);
      idsByTarget.set(target, ids);
    }
  }
  for (const [kind, ids] of idsByTarget) {
    if (ids.size === 0) continue;
    const target = catalog.get(kind);
    const found = await query<{ id: string; display_name: string | null }>(
      tx,
      sql`SELECT id, display_name FROM ${id(target.table)} WHERE id = ANY(${uuidList([...ids])}) AND ${readableTargets(target, access, resource)}`,
    );
    for (const row of found) refs.set(row.id, { id: row.id, display_name: row.display_name, kind });
  }
  return refs;
}

/**
 * Field errors for relation ids that name no record of the field's targets
 * that the writer may see (ids the record already holds are kept even when
 * the writer cannot see them), so a write never confirms that a hidden
 * record exists.
 */
export async function checkRelationIds(
  tx: Tx,
  catalog: Catalog,
  resource: Resource,
  values: Record<string, unknown>,
  access: AccessLevel,
  current: Record<string, unknown> | null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const [name, field] of relationFields(resource)) {
    const held = new Set(idsOf(current?.[name]));
    const ids = idsOf(values[name]).filter((value) => !held.has(value));
    if (ids.length === 0) continue;
    const found = new Set<string>();
    for (const kind of field.relation!.targets) {
      const target = catalog.get(kind);
      const rows = await query<{ id: string }>(
        tx,
        sql`SELECT id FROM ${id(target.table)} WHERE id = ANY(${uuidList(ids)}) AND ${readableTargets(target, access, resource)}`,
      );
      for (const row of rows) found.add(row.id);
    }
    const missing = ids.filter((value) => !found.has(value));
    if (missing.length > 0) {
      const labels = field.relation!.targets.map((kind) => catalog.get(kind).label.toLowerCase()).join(' or ');
      errors[name] = missing.map((value) => `Unknown ${labels} id ${value}.`);
    }
  }
  return errors;
}

/**
 * Names (as a spreadsheet gives them) → ids of the field's targets the
 * importer may see, matched by display name ignoring case and accents, or by
 * id. Unknown and ambiguous names are reported, never guessed.
 */
export async function resolveNames(
  tx: Tx,
  catalog: Catalog,
  targets: string[],
  names: string[],
  access: AccessLevel,
): Promise<{ ids: string[]; errors: string[] }> {
  const ids: string[] = [];
  const errors: string[] = [];
  for (const name of names) {
    const matches: string[] = [];
    for (const kind of targets) {
      const target = catalog.get(kind);
      const rows = await query<{ id: string }>(
        tx,
        sql`SELECT id FROM ${id(target.table)}
            WHERE (id::text = lower(${name}) OR search_text(display_name) = search_text(${name}))
            AND ${readableTargets(target, access)}
            LIMIT 2`,
      );
      matches.push(...rows.map((row) => row.id));
    }
    const label = targets.map((kind) => catalog.get(kind).label.toLowerCase()).join(' or ');
    if (matches.length === 0) errors.push(`No ${label} named "${name}".`);
    else if (matches.length > 1) errors.push(`Several records are named "${name}"; use the id instead.`);
    else if (!ids.includes(matches[0]!)) ids.push(matches[0]!);
  }
  return { ids, errors };
}

/** What a deleted record's referrers became: rows deleted with it (cascade), by kind. */
export interface RemovedReferences {
  cascaded: Array<{ kind: string; id: string; display_name: string | null }>;
}

/**
 * Removes every reference to a record that is being deleted: ids drop out of
 * uuid[] relations, single references become null, and rows that cannot
 * exist without it (onDelete: 'cascade') are deleted too (recursively); a record still
 * referenced through an onDelete: 'restrict' relation is not deleted (409: the caller's
 * transaction rolls back).
 */
export async function removeReferences(tx: Tx, catalog: Catalog, kind: string, recordId: string): Promise<RemovedReferences> {
  const cascaded: RemovedReferences['cascaded'] = [];
  for (const referrer of catalog.referrersOf(kind)) {
    const table = id(referrer.resource.table);
    const column = id(referrer.field);
    if (referrer.spec.onDelete === 'restrict') {
      const [held] = await query<{ n: number }>(
        tx,
        referrer.spec.many
          ? sql`SELECT count(*)::int AS n FROM ${table} WHERE ${column} @> ${uuidList([recordId])}`
          : sql`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = ${recordId}`,
      );
      if (held && held.n > 0) {
        const plural = referrer.resource.plural ?? `${referrer.resource.label}s`;
        throw conflict(`This record cannot be deleted: ${held.n} ${held.n === 1 ? referrer.resource.label.toLowerCase() : plural.toLowerCase()} still ${held.n === 1 ? 'refers' : 'refer'} to it (${referrer.field}); move or delete ${held.n === 1 ? 'it' : 'them'} first.`);
      }
    } else if (referrer.spec.onDelete === 'cascade') {
      const rows = await query<{ id: string; display_name: string | null }>(
        tx,
        referrer.spec.many
          ? sql`DELETE FROM ${table} WHERE ${column} @> ${uuidList([recordId])} RETURNING id, display_name`
          : sql`DELETE FROM ${table} WHERE ${column} = ${recordId} RETURNING id, display_name`,
      );
      for (const row of rows) {
        cascaded.push({ kind: referrer.resource.kind, id: row.id, display_name: row.display_name });
        cascaded.push(...(await removeReferences(tx, catalog, referrer.resource.kind, row.id)).cascaded);
      }
    } else if (referrer.spec.many) {
      await tx.execute(sql`UPDATE ${table} SET ${column} = array_remove(${column}, ${recordId}::uuid) WHERE ${column} @> ${uuidList([recordId])}`);
    } else {
      await tx.execute(sql`UPDATE ${table} SET ${column} = NULL WHERE ${column} = ${recordId}`);
    }
  }
  return { cascaded };
}

/** One reference a merge moved, enough to put it back. */
export interface MovedReference {
  kind: string;
  field: string;
  id: string;
  /** The row already referenced the survivor (so the other record's id was only removed). */
  hadSurvivor: boolean;
}

/** Points every reference to `from` at `to` instead (a merge), returning what moved. */
export async function moveReferences(tx: Tx, catalog: Catalog, kind: string, from: string, to: string): Promise<MovedReference[]> {
  const moved: MovedReference[] = [];
  for (const referrer of catalog.referrersOf(kind)) {
    const table = id(referrer.resource.table);
    const column = id(referrer.field);
    const holds = (value: string) => (referrer.spec.many ? sql`${column} @> ${uuidList([value])}` : sql`${column} = ${value}`);
    const rows = await query<{ id: string; had_survivor: boolean }>(
      tx,
      sql`SELECT id, ${referrer.spec.many ? holds(to) : sql`false`} AS had_survivor FROM ${table} WHERE ${holds(from)}`,
    );
    if (rows.length === 0) continue;
    await tx.execute(
      referrer.spec.many
        ? sql`UPDATE ${table} SET ${column} = CASE WHEN ${holds(to)}
                THEN array_remove(${column}, ${from}::uuid) ELSE array_replace(${column}, ${from}::uuid, ${to}::uuid) END
              WHERE ${holds(from)}`
        : sql`UPDATE ${table} SET ${column} = ${to} WHERE ${holds(from)}`,
    );
    moved.push(...rows.map((row) => ({ kind: referrer.resource.kind, field: referrer.field, id: row.id, hadSurvivor: row.had_survivor })));
  }
  return moved;
}

/** Counts of references to a record, by the kind of record holding them (for a merge preview). */
export async function countReferences(tx: Tx, catalog: Catalog, kind: string, recordId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const referrer of catalog.referrersOf(kind)) {
    const column = id(referrer.field);
    const [row] = await query<{ n: number }>(
      tx,
      referrer.spec.many
        ? sql`SELECT count(*)::int AS n FROM ${id(referrer.resource.table)} WHERE ${column} @> ${uuidList([recordId])}`
        : sql`SELECT count(*)::int AS n FROM ${id(referrer.resource.table)} WHERE ${column} = ${recordId}`,
    );
    if (row && row.n > 0) counts[referrer.resource.kind] = (counts[referrer.resource.kind] ?? 0) + row.n;
  }
  return counts;
}

/** Undoes moveReferences: references go back from `to` to `from`. */
export async function restoreReferences(tx: Tx, catalog: Catalog, moved: MovedReference[], from: string, to: string): Promise<void> {
  for (const reference of moved) {
    const resource = catalog.get(reference.kind);
    const field = resource.fields[reference.field];
    if (!field?.relation) continue;
    const table = id(resource.table);
    const column = id(reference.field);
    if (!field.relation.many) {
      await tx.execute(sql`UPDATE ${table} SET ${column} = ${from} WHERE id = ${reference.id} AND ${column} = ${to}`);
    } else if (reference.hadSurvivor) {
      await tx.execute(sql`UPDATE ${table} SET ${column} = array_append(${column}, ${from}::uuid) WHERE id = ${reference.id} AND NOT ${column} @> ${uuidList([from])}`);
    } else {
      await tx.execute(sql`UPDATE ${table} SET ${column} = array_replace(${column}, ${to}::uuid, ${from}::uuid) WHERE id = ${reference.id}`);
    }
  }
}

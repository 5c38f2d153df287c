/**
 * The SQL of intelbooks (docs/intelbooks.md): the tree lock every write of facts takes, the
 * walks up and down a tree, renumbering siblings, carrying a fact's visibility, section and
 * category down to its descendants, the reader's one recursive statement, and share codes.
 * Every statement runs in a tenant transaction (row-level security adds the tenant).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FactPeriod } from '../../contracts.ts';
import { query, tenantPin, type Tx } from '../../db/client.ts';
import type { Visibility } from '../../resources/fields.ts';
import { searchMatch, uuidArray, visibleCondition } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';

const visibilityList = (visible: Visibility[]) => sql.join(visible.map((one) => sql`${one}`), sql`, `);
/** hidden < paywalled < public, in SQL (1, 2, 3). */
const rankOf = (value: SQL) => sql`array_position(ARRAY['hidden', 'paywalled', 'public'], ${value})`;

/**
 * Every write of a tenant's facts (create, edit, move, reorder, delete) holds this lock until
 * its transaction ends, so the checks a write makes on the tree — not moving a fact into its
 * own subtree, a child never above its parent — hold against the tree as the write leaves it:
 * two concurrent moves (a under b, b under a) run one after the other, and the second sees the
 * first's result. Readers take no lock.
 */
export async function lockTree(tx: Tx, tenantId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('facts-tree'), hashtext(${tenantId}))`);
}

export interface FactNode {
  id: string;
  parent: string | null;
  section: string | null;
  category: string | null;
  visibility: Visibility;
  position: number;
}

export async function factNode(tx: Tx, factId: string): Promise<FactNode | null> {
  const [row] = await query<FactNode>(tx, sql`SELECT id, parent, section, category, visibility, position FROM facts WHERE id = ${factId}`);
  return row ?? null;
}

/** Whether `candidate` is `factId` or one of its descendants (walking up from the candidate). */
export async function isInSubtree(tx: Tx, factId: string, candidate: string): Promise<boolean> {
  const [row] = await query<{ found: boolean }>(
    tx,
    sql`WITH RECURSIVE up AS (
          SELECT id, parent FROM facts WHERE ${tenantPin(tx)} AND id = ${candidate}
          UNION
          SELECT f.id, f.parent FROM facts f JOIN up ON f.id = up.parent WHERE ${tenantPin(tx, 'f')}
        )
        SELECT EXISTS (SELECT 1 FROM up WHERE id = ${factId}) AS found`,
  );
  return row?.found ?? false;
}

/** The siblings' condition: the children of `parent`, or the roots of `section`. */
const siblingsOf = (parent: string | null, section: string | null): SQL =>
  parent ? sql`parent = ${parent}` : sql`parent IS NULL AND section IS NOT DISTINCT FROM ${section}`;

/** The siblings in order (position, then creation), optionally leaving one out. */
export async function siblingIds(tx: Tx, parent: string | null, section: string | null, except?: string): Promise<string[]> {
  const rows = await query<{ id: string }>(
    tx,
    sql`SELECT id FROM facts WHERE ${siblingsOf(parent, section)} ${except ? sql`AND id <> ${except}` : sql``}
        ORDER BY position, created_at, id`,
  );
  return rows.map((row) => row.id);
}

/** The place after the last sibling. */
export async function nextPosition(tx: Tx, parent: string | null, section: string | null, except?: string): Promise<number> {
  const [row] = await query<{ next: number }>(
    tx,
    sql`SELECT coalesce(max(position) + 1, 0)::int AS next FROM facts WHERE ${siblingsOf(parent, section)} ${except ? sql`AND id <> ${except}` : sql``}`,
  );
  return row?.next ?? 0;
}

export interface PositionChange {
  id: string;
  display_name: string | null;
  from: number;
  to: number;
}

/** Sets positions 0, 1, 2… in the order of `ids`; returns the facts whose position changed. */
export async function renumber(tx: Tx, ids: string[], userId: string | null): Promise<PositionChange[]> {
  if (ids.length === 0) return [];
  return query<PositionChange>(
    tx,
    sql`UPDATE facts f SET position = o.place, updated_at = now(), updated_by = ${userId}
        FROM (
          SELECT g.id, g.position AS before, (n.ordinality - 1)::int AS place
          FROM unnest(${uuidArray(ids)}) WITH ORDINALITY AS n(id, ordinality) JOIN facts g ON g.id = n.id
        ) o
        WHERE f.id = o.id AND f.position <> o.place
        RETURNING f.id, f.display_name, o.before AS "from", o.place AS "to"`,
  );
}

export interface Inherited {
  id: string;
  display_name: string | null;
  visibility_from: Visibility;
  visibility_to: Visibility;
  section_from: string | null;
  section_to: string | null;
  category_from: string | null;
  category_to: string | null;
}

/**
 * A fact's descendants follow it: none above its visibility (a higher one is lowered to it),
 * and the section and category of its root. One statement; returns what changed, per fact.
 */
export async function carryDown(
  tx: Tx,
  fact: { id: string; visibility: Visibility; section: string | null; category: string | null },
  userId: string | null,
): Promise<Inherited[]> {
  return query<Inherited>(
    tx,
    sql`WITH RECURSIVE below AS (
          SELECT id FROM facts WHERE ${tenantPin(tx)} AND parent = ${fact.id}
          UNION
          SELECT f.id FROM facts f JOIN below b ON f.parent = b.id WHERE ${tenantPin(tx, 'f')}
        ),
        changing AS (
          SELECT f.id, f.visibility, f.section, f.category FROM facts f JOIN below USING (id)
          WHERE ${rankOf(sql`f.visibility`)} > ${rankOf(sql`${fact.visibility}::text`)}
             OR f.section IS DISTINCT FROM ${fact.section}::uuid OR f.category IS DISTINCT FROM ${fact.category}::uuid
        )
        UPDATE facts f SET
          visibility = CASE WHEN ${rankOf(sql`f.visibility`)} > ${rankOf(sql`${fact.visibility}::text`)} THEN ${fact.visibility} ELSE f.visibility END,
          section = ${fact.section}::uuid, category = ${fact.category}::uuid, updated_at = now(), updated_by = ${userId}
        FROM changing c
        WHERE f.id = c.id
        RETURNING f.id, f.display_name, c.visibility AS visibility_from, f.visibility AS visibility_to,
                  c.section AS section_from, f.section AS section_to, c.category AS category_from, f.category AS category_to`,
  );
}

/** How many of the fact and its descendants a reader at `visible` sees. */
export async function subtreeCount(tx: Tx, factId: string, visible: Visibility[]): Promise<number> {
  const [row] = await query<{ n: number }>(
    tx,
    sql`WITH RECURSIVE below AS (
          SELECT id FROM facts WHERE ${tenantPin(tx)} AND id = ${factId} AND visibility IN (${visibilityList(visible)})
          UNION
          SELECT f.id FROM facts f JOIN below b ON f.parent = b.id WHERE ${tenantPin(tx, 'f')} AND f.visibility IN (${visibilityList(visible)})
        )
        SELECT count(*)::int AS n FROM below`,
  );
  return row?.n ?? 0;
}

/** The reader's scope and filters (facts.service.ts parses them). */
export interface TreeQuery {
  section?: string;
  category?: string;
  /** One subtree: the fact and its descendants (the reader's `root`, a share code's fact). */
  root?: string;
  keyword?: string;
  organization?: string;
  person?: string;
  ledgerEntry?: string;
  search?: string;
}

/** A fact as the reader reads it (dates as stored); `locked` rows carry their place only (id, parent, visibility). */
export interface TreeRow extends FactPeriod {
  id: string;
  parent: string | null;
  position: number;
  section: string | null;
  category: string | null;
  visibility: Visibility;
  locked: boolean;
  text: string | null;
  keywords: string[];
  organizations: string[];
  people: string[];
  ledger_entries: string[];
  sources_library: string[];
  sources_raw_data: string[];
  source_urls: string[];
}

/** The targets of a filter a reader may use: a record they cannot see matches nothing. */
export interface FilterTargets {
  keyword: Resource;
  organization: Resource;
  person: Resource;
  ledgerEntry: Resource;
}

/**
 * The reader, in one statement: the trees (every root of the scope, or one subtree) walked
 * down through the facts the reader may see — and, for `reach` beyond `visible` (paywalled
 * facts for a public visitor), through the facts they would see with the paywall, returned
 * as `locked` with their place only. A child is never more visible than its parent, so the
 * walk stops where a fact is not reached and nothing below it is. With filters, a fact is kept
 * when it or a descendant matches, with its ancestors (walked back up) for context.
 */
export async function readTree(tx: Tx, targets: FilterTargets, visible: Visibility[], reach: Visibility[], scope: TreeQuery): Promise<TreeRow[]> {
  // Every read of facts is pinned to the tenant: a recursive CTE runs on Citus only within one shard.
  const start: SQL[] = [tenantPin(tx, 'f'), scope.root ? sql`f.id = ${scope.root}` : sql`f.parent IS NULL`];
  if (scope.section) start.push(sql`f.section = ${scope.section}`);
  if (scope.category) start.push(sql`f.category = ${scope.category}`);
  const matches: SQL[] = [];
  const related = (column: string, target: Resource, value: string | undefined) => {
    if (!value) return;
    // Only through a target the reader may see (as the engine's relation filters).
    matches.push(sql`f.${sql.identifier(column)} && ARRAY(SELECT id FROM ${sql.identifier(target.table)} WHERE id = ${value} AND ${visibleCondition(target, visible)})`);
  };
  related('keywords', targets.keyword, scope.keyword);
  related('organizations', targets.organization, scope.organization);
  related('people', targets.person, scope.person);
  related('ledger_entries', targets.ledgerEntry, scope.ledgerEntry);
  // The query built once (an InitPlan), not once per fact.
  if (scope.search) matches.push(searchMatch(scope.search, { prepared: true }));
  const kept = matches.length === 0
    ? sql`kept AS (SELECT id FROM tree)`
    // Only facts the reader sees may match: a locked (paywalled) fact matching a search or a
    // filter would tell a public visitor what it says or links to.
    : sql`matched AS (SELECT f.id, f.parent FROM facts f JOIN tree USING (id) WHERE ${tenantPin(tx, 'f')} AND f.visibility IN (${visibilityList(visible)}) AND ${sql.join(matches, sql` AND `)}),
          kept AS (
            SELECT id, parent FROM matched
            UNION
            -- Up through the table (by its key), not the tree (a scan per step); an ancestor
            -- outside the scope (above a root) is left out by the join with the tree below.
            SELECT f.id, f.parent FROM facts f JOIN kept k ON f.id = k.parent WHERE ${tenantPin(tx, 'f')}
          )`;
  const shown = sql`f.visibility IN (${visibilityList(visible)})`;
  const ifShown = (column: string, fallback: SQL) => sql`CASE WHEN ${shown} THEN f.${sql.identifier(column)} ELSE ${fallback} END`;
  const none = sql`'{}'`;
  return query<TreeRow>(
    tx,
    sql`WITH RECURSIVE tree AS (
          SELECT f.id, f.parent FROM facts f WHERE ${sql.join(start, sql` AND `)} AND f.visibility IN (${visibilityList(reach)})
          UNION
          SELECT f.id, f.parent FROM facts f JOIN tree t ON f.parent = t.id WHERE ${tenantPin(tx, 'f')} AND f.visibility IN (${visibilityList(reach)})
        ),
        ${kept}
        SELECT f.id, f.parent, f.position, f.section, f.category, f.visibility, NOT (${shown}) AS locked,
               ${ifShown('text', sql`NULL`)} AS text,
               ${ifShown('valid_from', sql`NULL`)}::text AS valid_from, f.valid_from_incomplete_day, f.valid_from_incomplete_month, f.valid_from_incomplete_year,
               ${ifShown('valid_to', sql`NULL`)}::text AS valid_to, f.valid_to_incomplete_day, f.valid_to_incomplete_month, f.valid_to_incomplete_year,
               ${ifShown('keywords', none)} AS keywords, ${ifShown('organizations', none)} AS organizations,
               ${ifShown('people', none)} AS people, ${ifShown('ledger_entries', none)} AS ledger_entries,
               ${ifShown('sources_library', none)} AS sources_library, ${ifShown('sources_raw_data', none)} AS sources_raw_data,
               ${ifShown('source_urls', none)} AS source_urls
        FROM facts f JOIN (SELECT DISTINCT id FROM kept ${matches.length === 0 ? sql`` : sql`JOIN tree USING (id)`}) k USING (id)
        WHERE ${tenantPin(tx, 'f')}
        ORDER BY f.position, f.created_at, f.id`,
  );
}

/** Sections and categories by id (the reader's headings), in their order. */
export async function headings(tx: Tx, table: 'fact_sections' | 'fact_categories', ids: string[]): Promise<Array<{ id: string; name: string; description: string | null }>> {
  if (ids.length === 0) return [];
  return query(
    tx,
    sql`SELECT id, name, description FROM ${sql.identifier(table)} WHERE id = ANY(${uuidArray(ids)}) ORDER BY position NULLS LAST, name, id`,
  );
}

// Share codes

export interface ShareCodeRow {
  id: string;
  fact_id: string;
  code: string;
  created_by: string | null;
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  view_count: number;
  last_viewed_at: Date | string | null;
}

const SHARE_COLUMNS = sql.raw('id, fact_id, code, created_by, created_at, expires_at, revoked_at, view_count, last_viewed_at');

export async function insertShareCode(tx: Tx, tenantId: string, values: { factId: string; code: string; userId: string | null; expiresAt: Date | null }): Promise<ShareCodeRow> {
  const [row] = await query<ShareCodeRow>(
    tx,
    sql`INSERT INTO fact_share_codes (tenant_id, fact_id, code, created_by, expires_at)
        VALUES (${tenantId}, ${values.factId}, ${values.code}, ${values.userId}, ${values.expiresAt?.toISOString() ?? null}::timestamptz)
        RETURNING ${SHARE_COLUMNS}`,
  );
  return row!;
}

/** A page of the tenant's share codes, newest first, with their fact's text (one fact's when `factId`). */
export async function shareCodes(tx: Tx, page: { limit: number; offset: number; factId?: string }): Promise<{ rows: Array<ShareCodeRow & { fact_text: string }>; count: number }> {
  const where = page.factId ? sql`s.fact_id = ${page.factId}` : sql`true`;
  const rows = await query<ShareCodeRow & { fact_text: string; total: number }>(
    tx,
    sql`SELECT s.id, s.fact_id, s.code, s.created_by, s.created_at, s.expires_at, s.revoked_at, s.view_count, s.last_viewed_at,
               f.text AS fact_text, count(*) OVER ()::int AS total
        FROM fact_share_codes s JOIN facts f ON f.tenant_id = s.tenant_id AND f.id = s.fact_id
        WHERE ${where}
        ORDER BY s.created_at DESC, s.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  const count = rows[0]?.total ?? (page.offset > 0 ? await countShareCodes(tx, where) : 0);
  return { rows: rows.map(({ total: _total, ...row }) => row), count };
}

async function countShareCodes(tx: Tx, where: SQL): Promise<number> {
  const [row] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM fact_share_codes s WHERE ${where}`);
  return row?.n ?? 0;
}

/** Revokes a code (once: a revoked code keeps its first revocation time); null when there is none. */
/** Revokes a code (again: no change); `newly_revoked` tells whether this call did it. */
export async function revokeShareCode(tx: Tx, codeId: string): Promise<(ShareCodeRow & { newly_revoked: boolean }) | null> {
  const [row] = await query<ShareCodeRow & { newly_revoked: boolean }>(
    tx,
    sql`WITH before AS (SELECT id, revoked_at IS NULL AS active FROM fact_share_codes WHERE ${tenantPin(tx)} AND id = ${codeId} FOR UPDATE)
        UPDATE fact_share_codes c SET revoked_at = coalesce(c.revoked_at, now()) FROM before WHERE c.id = before.id
        RETURNING c.id, c.fact_id, c.code, c.created_by, c.created_at, c.expires_at, c.revoked_at, c.view_count, c.last_viewed_at, before.active AS newly_revoked`,
  );
  return row ?? null;
}

export async function factDisplayName(tx: Tx, factId: string): Promise<string | null> {
  const [row] = await query<{ display_name: string | null }>(tx, sql`SELECT display_name FROM facts WHERE id = ${factId}`);
  return row?.display_name ?? null;
}

/** A code that still opens its subtree (not revoked, not expired), counted as one more view. */
export async function openShareCode(tx: Tx, code: string): Promise<ShareCodeRow | null> {
  const [row] = await query<ShareCodeRow>(
    tx,
    sql`UPDATE fact_share_codes SET view_count = view_count + 1, last_viewed_at = now()
        WHERE code = ${code} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        RETURNING ${SHARE_COLUMNS}`,
  );
  return row ?? null;
}


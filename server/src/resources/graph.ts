/**
 * A record's relationship graph (GET {resource}/{id}/graph/): its neighbours to depth 1 or 2,
 * both ways — the records its relation fields hold and the records whose relation fields hold
 * it — as nodes and edges, derived from the catalog's relation fields (the same source as
 * backlinks.ts), never written per resource.
 *
 * One rule for what shows (docs/engine.md, "Relations show only what the reader may read"): a
 * node is a record of a resource the reader may read, reached through a relation field they may
 * read, among the rows their visibility and the status let them see (relations.ts
 * readableTargets). Anything else is never walked, so it shows neither as a node nor as an edge,
 * and nothing counts it: `truncated` says only that visible nodes were left out by the cap.
 *
 * Set-based: each depth is one statement (a UNION ALL of one piece per relation field and
 * direction from the kinds on the frontier), plus one statement for the edges among the nodes
 * of the last depth. A piece reads at most the cap's worth of rows.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AccessLevel, RelationGraph, RelationGraphEdge, RelationGraphKind, RelationGraphNode } from '../contracts.ts';
import { query, tenantPin, type Tx } from '../db/client.ts';
import { relationFields, type Catalog } from './catalog.ts';
import type { EngineContext } from './context.ts';
import { fieldError } from './errors.ts';
import { pagingInteger } from './list-query.ts';
import { readableTargets } from './relations.ts';
import type { Resource } from './resource.ts';
import type { ResourceService } from './service.ts';
import { mayReadField, mayReadResource } from './visibility.ts';

/** Nodes in an answer unless `limit` says otherwise, and at most. */
export const GRAPH_DEFAULT_NODES = 500;
export const GRAPH_MAX_NODES = 2_000;
const PARAMETERS = ['depth', 'kinds', 'limit'];

export interface GraphQuery {
  depth: 1 | 2;
  /** The kinds whose records may be nodes (the root is one whatever its kind). */
  kinds: Set<string>;
  limit: number;
}

const id = (name: string) => sql.identifier(name);
const uuids = (values: string[]): SQL => sql`ARRAY[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::uuid[]`;
const pin = (tx: Tx, resource: Resource): SQL => (resource.shared ? sql`true` : tenantPin(tx));

/** Whether a resource takes part in graphs at all: it has relation fields, or some relation points at it. */
export function inGraphs(catalog: Catalog, resource: Resource): boolean {
  return relationFields(resource).length > 0 || catalog.referrersOf(resource.kind).length > 0;
}

/** The kinds a reader at `access` may ask for in `kinds=`, in catalog order: resources in graphs they may read. */
export function graphKinds(catalog: Catalog, access: AccessLevel): Resource[] {
  return catalog.resources.filter((resource) => inGraphs(catalog, resource) && mayReadResource(resource, access));
}

/** The query string of GET {resource}/{id}/graph/; a bad parameter is a 400 naming it. */
export function parseGraphQuery(catalog: Catalog, access: AccessLevel, raw: Record<string, unknown>): GraphQuery {
  for (const [name, value] of Object.entries(raw)) {
    if (!PARAMETERS.includes(name)) throw fieldError(name, `Unknown parameter. Use ${PARAMETERS.join(', ')}.`);
    if (Array.isArray(value)) throw fieldError(name, 'Give this parameter once.');
  }
  const depthText = raw['depth'] === undefined || raw['depth'] === '' ? '2' : String(raw['depth']).trim();
  if (depthText !== '1' && depthText !== '2') throw fieldError('depth', 'Must be 1 or 2.');
  const allowed = graphKinds(catalog, access);
  let kinds: Set<string>;
  if (raw['kinds'] === undefined) {
    kinds = new Set(allowed.filter((resource) => resource.graph).map((resource) => resource.kind));
  } else {
    const names = String(raw['kinds']).split(',').map((name) => name.trim()).filter(Boolean);
    const known = new Set(allowed.map((resource) => resource.kind));
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) throw fieldError('kinds', `Unknown kind ${JSON.stringify(unknown[0]!.slice(0, 60))}. Use any of: ${[...known].join(', ')}.`);
    kinds = new Set(names);
  }
  return { depth: depthText === '1' ? 1 : 2, kinds, limit: pagingInteger('limit', raw['limit'], GRAPH_DEFAULT_NODES, 1, GRAPH_MAX_NODES) };
}

/** One row a piece reads: an edge (source holds target through field), and the node it reaches. */
interface EdgeRow {
  source_kind: string;
  source_id: string;
  field: string;
  target_kind: string;
  target_id: string;
  /** Which end is the record reached (the other is on the frontier). */
  reached: 'source' | 'target';
  reached_name: string | null;
}

/**
 * The pieces that walk one step from the frontier's records (ids by kind): forward through each
 * relation field of theirs the reader may read to targets of the wanted kinds, and back from
 * each resource of the wanted kinds whose relation field (readable) may hold them. `within`
 * keeps only records already in the graph (the last step's edges among them).
 */
function stepPieces(tx: Tx, catalog: Catalog, access: AccessLevel, frontier: Map<string, string[]>, kinds: Set<string>, cap: number, within?: Map<string, string[]>): SQL[] {
  const pieces: SQL[] = [];
  const reachedIn = (kind: string, column: SQL): SQL | null => {
    if (!within) return sql`true`;
    const ids = within.get(kind);
    return ids && ids.length > 0 ? sql`${column} = ANY(${uuids(ids)})` : null;
  };
  for (const [kind, ids] of frontier) {
    if (ids.length === 0) continue;
    const resource = catalog.get(kind);
    const frontierIds = uuids(ids);
    for (const [name, field] of relationFields(resource)) {
      if (!mayReadField(field, access)) continue;
      for (const targetKind of field.relation!.targets) {
        if (!kinds.has(targetKind)) continue;
        const target = catalog.get(targetKind);
        const reached = reachedIn(targetKind, sql`t.id`);
        if (!reached) continue;
        const holds = field.relation!.many ? sql`t.id = ANY(s.${id(name)})` : sql`t.id = s.${id(name)}`;
        pieces.push(sql`(SELECT ${kind}::text AS source_kind, s.id AS source_id, ${name}::text AS field, ${targetKind}::text AS target_kind, t.id AS target_id,
            'target'::text AS reached, t.display_name AS reached_name
          FROM (SELECT id, ${id(name)} FROM ${id(resource.table)} WHERE id = ANY(${frontierIds}) AND ${pin(tx, resource)}) s
          JOIN (SELECT id, display_name FROM ${id(target.table)} WHERE ${readableTargets(target, access)} AND ${pin(tx, target)}) t ON ${holds}
          WHERE ${reached}
          ORDER BY t.display_name, t.id LIMIT ${cap + 1})`);
      }
    }
    for (const referrer of catalog.referrersOf(kind)) {
      const holder = referrer.resource;
      if (!kinds.has(holder.kind) || !mayReadField(holder.fields[referrer.field]!, access)) continue;
      const reached = reachedIn(holder.kind, sql`r.id`);
      if (!reached) continue;
      const column = id(referrer.field);
      const rows = referrer.spec.many
        ? sql`(SELECT r.id, r.display_name, held.id AS held_id
              FROM (SELECT id, display_name, ${column} FROM ${id(holder.table)} WHERE ${column} && ${frontierIds} AND ${readableTargets(holder, access)} AND ${pin(tx, holder)}) r
              CROSS JOIN LATERAL unnest(r.${column}) AS held(id) WHERE held.id = ANY(${frontierIds}) AND ${reached})`
        : sql`(SELECT r.id, r.display_name, r.${column} AS held_id
              FROM (SELECT id, display_name, ${column} FROM ${id(holder.table)} WHERE ${column} = ANY(${frontierIds}) AND ${readableTargets(holder, access)} AND ${pin(tx, holder)}) r
              WHERE ${reached})`;
      pieces.push(sql`(SELECT ${holder.kind}::text AS source_kind, b.id AS source_id, ${referrer.field}::text AS field, ${kind}::text AS target_kind, b.held_id AS target_id,
          'source'::text AS reached, b.display_name AS reached_name
        FROM ${rows} b ORDER BY b.display_name, b.id LIMIT ${cap + 1})`);
    }
  }
  return pieces;
}

/** One statement for every piece of a step. */
async function step(tx: Tx, pieces: SQL[]): Promise<EdgeRow[]> {
  return pieces.length === 0 ? [] : query<EdgeRow>(tx, sql.join(pieces, sql` UNION ALL `));
}

const nodeKey = (kind: string, rowId: string) => `${kind}:${rowId}`;

/** GET {resource}/{id}/graph/: the record and its neighbours the reader may see, to `depth`, at most `limit` nodes. */
export async function relationGraph({ tx, actor }: EngineContext, service: ResourceService, rowId: string, graphQuery: GraphQuery): Promise<RelationGraph> {
  const { catalog, resource } = service;
  const access = actor.access;
  const root = await service.findVisible(tx, access, rowId);
  const cap = graphQuery.limit;
  const nodes = new Map<string, RelationGraphNode>();
  const edges = new Map<string, RelationGraphEdge>();
  let truncated = false;
  const addNode = (kind: string, nodeId: string, name: string | null, depth: number) => nodes.set(nodeKey(kind, nodeId), { id: nodeId, kind, display_name: name, depth });
  const addEdge = (row: EdgeRow) => {
    const key = `${row.source_kind}:${row.source_id}|${row.field}|${row.target_id}`;
    if (!edges.has(key)) {
      edges.set(key, { source: row.source_id, target: row.target_id, field: `${row.source_kind}.${row.field}`, label: row.field.replace(/_/g, ' ') });
    }
  };
  addNode(resource.kind, String(root.id), (root['display_name'] as string | null) ?? null, 0);

  let frontier = new Map<string, string[]>([[resource.kind, [String(root.id)]]]);
  for (let depth = 1; depth <= graphQuery.depth; depth++) {
    const pieces = stepPieces(tx, catalog, access, frontier, graphQuery.kinds, cap);
    const rows = await step(tx, pieces);
    // A piece that read past the cap may have left rows unread.
    if (rows.length > 0 && piecesOverflow(rows, cap)) truncated = true;
    // Nodes are taken in name order (then id), whichever piece found them, so a cut is the same for everyone.
    rows.sort((a, b) => compareNames(a.reached_name, b.reached_name) || (reachedId(a) < reachedId(b) ? -1 : reachedId(a) > reachedId(b) ? 1 : 0));
    const next = new Map<string, string[]>();
    for (const row of rows) {
      const kind = row.reached === 'source' ? row.source_kind : row.target_kind;
      const reached = reachedId(row);
      if (!nodes.has(nodeKey(kind, reached))) {
        if (nodes.size >= cap) {
          truncated = true;
          continue;
        }
        addNode(kind, reached, row.reached_name, depth);
        next.set(kind, [...(next.get(kind) ?? []), reached]);
      }
      addEdge(row);
    }
    frontier = next;
    if (frontier.size === 0) break;
  }
  // The edges among the records of the last depth, and from them to earlier ones, that the walk did not take.
  if (frontier.size > 0) {
    const within = new Map<string, string[]>();
    for (const node of nodes.values()) within.set(node.kind, [...(within.get(node.kind) ?? []), node.id]);
    const rows = await step(tx, stepPieces(tx, catalog, access, frontier, graphQuery.kinds, cap * 4, within));
    for (const row of rows) addEdge(row);
  }

  const kinds: RelationGraphKind[] = graphKinds(catalog, access).map((kind) => ({
    kind: kind.kind,
    label: kind.label,
    plural: kind.plural ?? `${kind.label}s`,
    path: kind.path,
    selected: graphQuery.kinds.has(kind.kind),
  }));
  return {
    root: { id: String(root.id), kind: resource.kind },
    depth: graphQuery.depth,
    limit: cap,
    truncated,
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    kinds,
  };
}

const reachedId = (row: EdgeRow) => (row.reached === 'source' ? row.source_id : row.target_id);

function compareNames(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a.localeCompare(b);
}

/** Whether any piece read its whole allowance (cap + 1 rows of one source kind, field and direction). */
function piecesOverflow(rows: EdgeRow[], cap: number): boolean {
  const perPiece = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.source_kind}.${row.field}.${row.target_kind}.${row.reached}`;
    const count = (perPiece.get(key) ?? 0) + 1;
    if (count > cap) return true;
    perPiece.set(key, count);
  }
  return false;
}

/**
 * A resource declaration: everything the engine needs to serve an entity.
 * See docs/adding-an-entity.md.
 */
import type { AccessLevel } from '../contracts.ts';
import type { Tx } from '../db/client.ts';
import type { Catalog } from './catalog.ts';
import type { Actor, EngineContext } from './context.ts';
import { decimal, readOnly, type FieldType, type Visibility } from './fields.ts';
import { searchFieldProblem, SEARCH_WEIGHTS } from './search-index.ts';

/** How much a searched field counts: 'A' for names (found first), then 'B', 'C', 'D'. */
export type SearchWeight = 'A' | 'B' | 'C' | 'D';

/** Who may create, edit and delete: research users, admins, or tenant managers (shared resources). */
export type WriteAccess = Exclude<AccessLevel, 'public' | 'paywall'> | 'manage-tenants';

export interface ResourceDeclaration {
  /** Counter kind and the key in entity counts (e.g. 'organizations'). */
  kind: string;
  /** Result type in quick search and list items (e.g. 'Organization'). */
  type: string;
  /** Route path under /api/v1 (e.g. '/assets/organizations'). */
  path: string;
  table: string;
  /** Singular noun for messages ("Organization not found."). */
  label: string;
  /** Plural noun for headings (e.g. 'Library entries'); `${label}s` by default. */
  plural?: string;
  /** Fields whose values make a record's second line where it is listed briefly (related records). */
  summary?: string[];
  fields: Record<string, FieldType>;
  /** Fields that can be ordered by, besides created_at, updated_at and display_name. */
  ordering: string[];
  /** The order of a list request without `ordering` (default -updated_at), e.g. 'name' for a glossary. */
  defaultOrdering?: string;
  /** Fields offered as filters (besides visibility and show_on_dashboard, always on). */
  filters: string[];
  /**
   * Timestamps filtered by range (e.g. created_at): `<name>_after` (from, inclusive) and
   * `<name>_before` (until, exclusive), each a date (YYYY-MM-DD, the day's start in UTC) or an
   * ISO 8601 date-time (list-query.ts). Both timestamps when not declared: every record has them.
   */
  dateRanges?: Array<'created_at' | 'updated_at'>;
  /** Minimum audience that may create, edit and delete. */
  writeAccess: WriteAccess;
  /**
   * The kind of list this entity can be an item of, and its column in list_items. Such a
   * resource's list takes the membership filters `lists=<ids>` (in any of them) and
   * `lists__not=<ids>` (in none), among the lists the reader may see (list-query.ts).
   */
  listItem?: { listKind: string; column: string };
  /**
   * Filters through other records' relations (list-query.ts `linkFilters`): `<name>=<ids>` keeps
   * the rows linked to any of those records by the filter's chain of relations, `<name>__not=<ids>`
   * those linked to none, among the records the reader may see at every step (e.g. people on
   * ledger entries with an organization; organizations of the deals an investor holds stakes in).
   */
  links?: Record<string, LinkFilter>;
  /**
   * The resource whose records hold the items of other resources' lists (lists): its items
   * table and that table's column naming the holder. The catalog pairs it with every `listItem`.
   */
  holdsListItems?: { table: string; listColumn: string };
  /**
   * What identifies a record: at least one of `names` must be filled in, and
   * duplicates (on import) share a name key, an email or a URL key.
   */
  identity?: {
    names: string[];
    /** The names that identify a record (normalized into name keys); each name field by default. */
    nameKeys?: (record: Record<string, unknown>) => Array<unknown>;
    emails?: string;
    urls?: string;
  };
  /** Fields whose values tell same-named records apart, e.g. a city and an email (pickers show them under the name). */
  detailFields?: string[];
  /** Spreadsheet header aliases: alias (lower case) → field name. */
  headerAliases?: Record<string, string>;
  /** Values a spreadsheet import gives the records it creates when the sheet has no such column (e.g. an e-mail's source). */
  importDefaults?: Record<string, unknown>;
  /**
   * Review (docs/review.md): rows are suggested, active (curated) or rejected, in a status
   * column; only active rows are records anywhere but the suggestions' own routes.
   * `typeCode` is the suggestion type code that names the resource (SPEC §3: ORG, PER); the
   * one reviewed resource without a code takes every other code (ledger entries).
   */
  review?: { typeCode?: string };
  /** Minimum audience that may read the records at all (default: everyone, by visibility). */
  readAccess?: AccessLevel;
  /**
   * Whether a signed-out visitor asking for a paywalled record is told it is locked (403
   * `paywalled`, nothing of it sent) rather than "not found": for the kinds whose paywalled
   * records the home cards and lists already count behind a lock (docs/engine.md "Paywalled
   * records"). Elsewhere a record a reader may not see is a 404, whatever its visibility.
   */
  paywallOffer?: boolean;
  /**
   * Whether records of this resource are in a relationship graph unless the caller picks the
   * kinds (`GET {path}/{id}/graph/`, resources/graph.ts): the records people follow from one to
   * another. Every resource with relations can be asked for (`kinds=`), and every one is a root.
   */
  graph?: boolean;
  /**
   * 'tenant' (default): rows belong to the request's tenant. 'shared': one
   * table for every tenant (geos, cities), without tenant_id or visibility.
   */
  scope?: 'tenant' | 'shared';
  /** Counter kinds whose sum is the unfiltered total; [kind] by default, none for shared resources. */
  counterKinds?: string[];
  /**
   * In quick search (GET search/): the result type is `type`, or the value of
   * `typeColumn`; `slugColumn` fills the result's slug. `explicitOnly`: only when `type` asks for
   * it (kinds beyond SPEC §2's result types, e.g. keywords for the dialog's Keywords chip).
   */
  quickSearch?: { typeColumn?: string; slugColumn?: string; types?: string[]; explicitOnly?: boolean };
  /**
   * Full-text search (list `search=`, quick search beyond names): the fields
   * searched, each with its weight — 'A' for the names, which rank first. The
   * engine derives the search column and index from this (search-index.ts).
   * `serverColumns`: columns the server writes and only searches — never presented, never
   * written by a client (raw data's text read from its file: long, served by its own route).
   */
  search?: { fields: Record<string, SearchWeight>; serverColumns?: Record<string, SearchWeight> };
  /**
   * Routes the module serves itself instead of the engine's (e.g. raw data's create and edit,
   * which take multipart bodies with files, and its upload of many files).
   */
  ownRoutes?: Array<'create' | 'update' | 'delete' | 'upload'>;
  /** Whether DELETE is offered (default true). */
  deletable?: boolean;
  /** Whether duplicates can be merged (organizations, people). */
  mergeable?: boolean;
  /**
   * Runs before a create or edit is written, in its transaction, with the
   * record as it will be (current values merged with the input); returns
   * extra column values (e.g. keywords from tagging rules).
   */
  beforeSave?: Array<(context: SaveContext) => Promise<Record<string, unknown> | void>>;
  /**
   * Runs after a create or edit is written (before the write's own audit entry), in its
   * transaction, with the engine context: for writes the record's change implies elsewhere,
   * each with its own audit entry (e.g. a fact's lowered visibility carried down to its
   * descendants, modules/facts).
   */
  afterSave?: Array<(ctx: EngineContext, context: AfterSaveContext) => Promise<void>>;
  /**
   * Runs before a record is deleted (a single or a bulk delete), in its transaction, e.g. to
   * take a lock the resource's writes share (facts: their tree's).
   */
  beforeDelete?: Array<(ctx: EngineContext, context: DeleteContext) => Promise<void>>;
  /**
   * Values presented with each row besides its fields (e.g. a list's item count), read in
   * one go for the rows presented, as a reader with `visible` sees them. Never written nor
   * exported; a client may send them back unchanged with an edit (they are ignored).
   */
  annotate?: {
    fields: string[];
    values: (context: AnnotateContext) => Promise<Map<string, Record<string, unknown>>>;
  };
  /**
   * Rows that belong to a user (saved views): the engine sets the row's `owner_id` column to
   * the writer (a person, or the user a system actor works for; nobody: 403) and refuses an
   * edit or delete by anyone else (403); it presents `owner_id`. Who reads which rows is
   * row-level security's (`enable_owner_rows`, migration 0230, checked by the conformance test):
   * the owner's own rows, and others' whose boolean `shareField` is true. Answers then differ
   * per user, so such a resource is read by research users and admins only (whose answers the
   * read cache never keeps).
   */
  owner?: { shareField?: string };
}

/** A filter through a chain of relations (ResourceDeclaration `links`). */
export interface LinkFilter {
  /** What the records named are to a row ("Investors"), for people reading the filter. */
  label: string;
  /**
   * The steps from a row to the records named. `{ from, field }` goes back to the rows of the
   * resource `from` whose relation `field` holds the current row; `{ field }` forward to the
   * records the current row's relation `field` holds. The records of the last step are compared
   * with the filter's ids; a last forward step may name several fields (any of them holds one).
   */
  path: LinkStep[];
}
export type LinkStep = { from: string; field: string } | { field: string | string[] };

export interface AnnotateContext {
  tx: Tx;
  catalog: Catalog;
  visible: Visibility[];
  rows: Array<Record<string, unknown> & { id: string }>;
}

export interface SaveContext {
  tx: Tx;
  resource: Resource;
  /** Every resource (a hook checking a value against another resource's declaration). */
  catalog: Catalog;
  /** What the writer reads and may write. */
  access: AccessLevel;
  tenantId: string | null;
  /** Who writes (e.g. for a rule that only a record's author may edit it: notes). */
  actor: Actor;
  /** The record's column values after the write (current merged with input). */
  record: Record<string, unknown>;
  /** Column values the input sets. */
  input: Record<string, unknown>;
  /** The record before the write, or null on create. */
  current: Record<string, unknown> | null;
}

export interface AfterSaveContext {
  resource: Resource;
  catalog: Catalog;
  /** The row as stored now. */
  row: Record<string, unknown> & { id: string };
  /** The row before the write, or null on create. */
  current: Record<string, unknown> | null;
}

export interface DeleteContext {
  resource: Resource;
  /** The row about to be deleted (as read before the delete). */
  row: Record<string, unknown> & { id: string };
}

/** A reviewed row's status: a suggestion waits for review, then becomes a record or is rejected. */
export const REVIEW_STATUSES = ['suggested', 'active', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export interface Resource extends ResourceDeclaration {
  /** Every writable column, in declaration order. */
  readonly columns: string[];
  readonly shared: boolean;
  /** Whether rows have a visibility (read by audience) — tenants' entities do, shared tables do not. */
  readonly hasVisibility: boolean;
  /**
   * The rows of a reviewed resource this declaration serves: 'active' (the curated records)
   * for the declaration itself, 'suggested' for its suggestions (reviewView). Ignored
   * without `review`.
   */
  readonly status: ReviewStatus;
}

/**
 * The same resource serving its rows of another status (e.g. the suggestions, at
 * suggested-entities/…): every engine query of the view reads and counts those rows only.
 */
export function reviewView(resource: Resource, status: ReviewStatus, path = resource.path): Resource {
  if (!resource.review) throw new Error(`${resource.kind} does not declare review.`);
  const view = { ...resource, status, path, counterKinds: counterKindsWithStatus(resource, status) };
  if (status === 'active') return view;
  return {
    ...view,
    fields: { ...resource.fields, ...SUGGESTION_FIELDS },
    columns: [...resource.columns, ...Object.keys(SUGGESTION_FIELDS)],
    ordering: [...resource.ordering, 'confidence'],
    defaultOrdering: SUGGESTION_ORDERING,
  };
}

/**
 * What every reviewed resource's suggestions have besides its fields (docs/review.md
 * "Confidence"): how sure the suggester was — the highest confidence of the suggestion's
 * provenance, kept on its row by migration 0180's triggers. Read-only (sent back with an edit,
 * it is ignored), orderable and so comparable (`confidence__gte=0.8`).
 */
export const SUGGESTION_FIELDS: Record<string, FieldType> = {
  confidence: readOnly(decimal({ min: 0, max: 1, scale: 2 })),
};
/** Suggestions are reviewed most confident first; then the newest. */
export const SUGGESTION_ORDERING = '-confidence,-updated_at';

/** A reviewed resource's counter kinds for rows of a status (the counter trigger's '<kind>:<status>'). */
function counterKindsWithStatus(resource: Resource, status: ReviewStatus): string[] {
  const kinds = resource.counterKinds ?? [resource.kind];
  return status === 'active' ? kinds : kinds.map((kind) => `${kind}:${status}`);
}

export function defineResource(declaration: ResourceDeclaration): Resource {
  const columns = Object.entries(declaration.fields).flatMap(([name, field]) => field.columns(name));
  for (const name of [...declaration.ordering, ...declaration.filters, ...(declaration.summary ?? []), ...(declaration.detailFields ?? [])]) {
    if (!(name in declaration.fields)) throw new Error(`${declaration.kind}: unknown field "${name}" in ordering/filters/summary/detailFields`);
  }
  for (const term of declaration.defaultOrdering?.split(',') ?? []) {
    const name = term.trim().replace(/^-/, '');
    if (!declaration.ordering.includes(name) && !['created_at', 'updated_at', 'display_name'].includes(name)) {
      throw new Error(`${declaration.kind}: defaultOrdering "${name}" is not orderable`);
    }
  }
  for (const [name, weight] of Object.entries(declaration.search?.fields ?? {})) {
    const problem = searchFieldProblem(name, declaration.fields[name]);
    if (problem) throw new Error(`${declaration.kind}: search: ${problem}`);
    if (!SEARCH_WEIGHTS.includes(weight)) throw new Error(`${declaration.kind}: search: weight of "${name}" must be A, B, C or D`);
  }
  for (const [name, weight] of Object.entries(declaration.search?.serverColumns ?? {})) {
    if (name in declaration.fields) throw new Error(`${declaration.kind}: search: "${name}" is a field; list it in search.fields`);
    if (!SEARCH_WEIGHTS.includes(weight)) throw new Error(`${declaration.kind}: search: weight of "${name}" must be A, B, C or D`);
  }
  const shared = declaration.scope === 'shared';
  if (declaration.owner) {
    const share = declaration.owner.shareField;
    if (shared) throw new Error(`${declaration.kind}: a shared resource's rows belong to no user`);
    if (declaration.readAccess !== 'research' && declaration.readAccess !== 'admin') {
      throw new Error(`${declaration.kind}: rows with an owner are read per user: readAccess must be research or admin (the read cache keeps visitors' and readers' answers per audience)`);
    }
    if (share !== undefined && declaration.fields[share]?.kind !== 'boolean') throw new Error(`${declaration.kind}: owner.shareField "${share}" is not a boolean field`);
  }
  if (declaration.review && (shared || !('visibility' in declaration.fields))) throw new Error(`${declaration.kind}: only a tenant's entities can be reviewed`);
  return { ...declaration, columns: [...new Set(columns)], shared, hasVisibility: 'visibility' in declaration.fields, status: 'active' };
}

/**
 * A resource declaration: everything the engine needs to serve an entity.
 * See docs/adding-an-entity.md.
 */
import type { AccessLevel } from '../contracts.ts';
import type { FieldType } from './fields.ts';

export type WriteAccess = Exclude<AccessLevel, 'public' | 'paywall'>;

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
  fields: Record<string, FieldType>;
  /** Fields that can be ordered by, besides created_at, updated_at and display_name. */
  ordering: string[];
  /** Fields offered as filters (besides visibility and show_on_dashboard, always on). */
  filters: string[];
  /** Minimum audience that may create, edit and delete. */
  writeAccess: WriteAccess;
  /** The kind of list this entity can be an item of, and its column in list_items. */
  listItem?: { listKind: string; column: string };
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
  /** Spreadsheet header aliases: alias (lower case) → field name. */
  headerAliases?: Record<string, string>;
  /** Whether the table has a status column separating suggestions from curated rows. */
  hasStatus?: boolean;
}

export interface Resource extends ResourceDeclaration {
  /** Every writable column, in declaration order. */
  readonly columns: string[];
}

export function defineResource(declaration: ResourceDeclaration): Resource {
  const columns = Object.entries(declaration.fields).flatMap(([name, field]) => field.columns(name));
  for (const name of [...declaration.ordering, ...declaration.filters]) {
    if (!(name in declaration.fields)) throw new Error(`${declaration.kind}: unknown field "${name}" in ordering/filters`);
  }
  return { ...declaration, columns: [...new Set(columns)] };
}

/**
 * Engine extensions: capabilities kept out of the engine's core (lists, review) that take
 * part in presenting, writing, merging and bulk-changing the records of any resource through
 * hooks. They are registered once, with the catalog (modules/registry.ts createCatalog); the engine calls
 * every extension's hook at its point and knows nothing of what the extension does.
 */
import type { SQL } from 'drizzle-orm';
import type { TSchema } from 'typebox';
import type { AccessLevel } from '../contracts.ts';
import type { Tx } from '../db/client.ts';
import type { EngineContext } from './context.ts';
import type { Visibility } from './fields.ts';
import type { Row } from './repository.ts';
import type { DeleteContext, Resource } from './resource.ts';
import type { ResourceService } from './service.ts';
import type { ResourceServices } from './services.ts';

/** A value parsed from a write's input, or why it is refused (a field error). */
export type ParsedValue = { ok: true; value: unknown } | { ok: false; message: string };

export interface PresentHookContext {
  tx: Tx;
  resource: Resource;
  access: AccessLevel;
  visible: Visibility[];
  rows: Row[];
  /** What `pageColumn` read in the list page's own statement, by row id (absent otherwise). */
  read?: Map<string, unknown>;
}

export interface WriteHookContext {
  resource: Resource;
  rowId: string;
  /** The values the extension parsed from the input (its `input` keys that were sent). */
  input: Record<string, unknown>;
  created: boolean;
}

export interface MergeHookContext {
  resource: Resource;
  survivorId: string;
  otherId: string;
}

/** A column an extension adds to a list page's statement. */
export interface PageColumn {
  extension: string;
  value: SQL;
}

/** The columns the extensions add to a page of `resource` read at `visible`. */
export function pageColumns(extensions: EngineExtension[], resource: Resource, visible: Visibility[]): PageColumn[] {
  return extensions.flatMap((extension) => {
    const value = extension.pageColumn?.(resource, visible);
    return value ? [{ extension: extension.name, value }] : [];
  });
}

/** What the page columns read, by extension and row id. */
export type PageReads = Map<string, Map<string, unknown>>;

/** Records pointing at a record through something other than a relation field (e.g. the lists holding it). */
export interface BacklinkGroup {
  /** The group's key in GET {resource}/{id}/related/ (e.g. 'lists.items'). */
  key: string;
  label: string;
  /** The resource of the records in the group (presented as that resource presents them). */
  resource: Resource;
  /** One page of the records a reader at `visible` sees, in the group's order, and how many there are. */
  page: (tx: Tx, visible: Visibility[], rowId: string, page: { limit: number; offset: number }) => Promise<{ rows: Row[]; count: number }>;
}

/** What an extension's bulk action is given besides the transaction and actor. */
export interface BulkHookContext {
  /** The service of the resource whose rows the action changes: write through it (checks, hooks, audit). */
  service: ResourceService;
  /** The action's parameter, as `parse` returned it. */
  parameter: unknown;
}

/**
 * A bulk action an extension adds to POST {resource}/bulk/. The engine does the rest as for
 * its own actions: the rows (ids, or all_matching with the writer's visibility, locked), one
 * transaction and all or nothing with each refused row's reason, the operation record with
 * what `apply` returned, and the undo (POST {resource}/bulk/{operation}/undo/) by whoever did
 * it or an admin, once.
 */
export interface BulkActionHook {
  /** The action's name (`action` in the request). */
  name: string;
  /** The body key of the action's one parameter (required); the operation record keeps it under this key. */
  parameter: string;
  /** The parameter's schema, for the route's documentation and validation. */
  schema: TSchema;
  /** Checks the parameter's value (a refusal is a 400 naming `parameter`). */
  parse: (value: unknown) => ParsedValue;
  /** Before any row is written: the parameter checked against what the writer sees (throw a field error naming it). */
  check?: (ctx: EngineContext, bulk: BulkHookContext) => Promise<void>;
  /**
   * One row's change, in the row's savepoint of the bulk transaction, through the service's
   * write: what its undo needs (a JSON object), or null when the row already is as asked.
   */
  apply: (ctx: EngineContext, bulk: BulkHookContext, row: Row) => Promise<Record<string, unknown> | null>;
  /** Takes one row's change back from what `apply` returned (with the row's `id`); false when there was nothing to put back. */
  undo: (ctx: EngineContext, bulk: BulkHookContext, row: Row, recorded: Record<string, unknown>) => Promise<boolean>;
}

export interface EngineExtension {
  /** Names the extension's part of a merge record (what onMerge returned, for undoMerge). */
  name: string;
  /** Input keys besides the resource's fields that writes accept for this resource, each parsed here. */
  input?: (resource: Resource) => Record<string, (value: unknown) => ParsedValue>;
  /** Keys added to presented records: read-only, a client may send them back unchanged. */
  presented?: (resource: Resource) => string[];
  /**
   * A correlated subquery over the list page's row (`page.id`, and its tenant `page.__tenant`,
   * which it should correlate on too: docs/scaling.md), read in the page's own statement so a
   * list stays one round trip; `present` receives its value as `read`.
   */
  pageColumn?: (resource: Resource, visible: Visibility[]) => SQL | null;
  /** Values presented with each row besides its fields, read in one go for the rows. */
  present?: (context: PresentHookContext) => Promise<Map<string, Record<string, unknown>> | null>;
  /** Backlink groups of a record of `resource` (after the relation fields' groups); `resources` is the catalog's. */
  backlinks?: (resource: Resource, resources: Resource[]) => BacklinkGroup[];
  /**
   * Before a record of `resource` is deleted (after the resource's own beforeDelete hooks), in
   * the delete's transaction: what the extension keeps that depends on it goes with it.
   */
  beforeDelete?: (ctx: EngineContext, context: DeleteContext & { services: ResourceServices }) => Promise<void>;
  /** After a create or edit is written (before it is read back and audited), in its transaction. */
  afterWrite?: (ctx: EngineContext, write: WriteHookContext) => Promise<void>;
  /** What a merge would move besides references, by name and number (merge preview). */
  mergePreview?: (tx: Tx, merge: MergeHookContext) => Promise<Record<string, number>>;
  /**
   * A merge moves what the extension keeps of the other record to the survivor, before the
   * other record is deleted; returns what undoMerge needs (JSON), kept in the merge record.
   */
  onMerge?: (ctx: EngineContext, merge: MergeHookContext) => Promise<unknown>;
  /** Puts back what onMerge moved, after the other record is restored. */
  undoMerge?: (ctx: EngineContext, merge: MergeHookContext, recorded: unknown) => Promise<void>;
  /** Bulk actions on records of `resource` (after the engine's own writes, before export). */
  bulkActions?: (resource: Resource) => BulkActionHook[];
}

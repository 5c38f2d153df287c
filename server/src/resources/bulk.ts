/**
 * Bulk actions on a resource's rows (POST {resource}/bulk/): delete, set
 * visibility, add or remove keywords, export, and the actions engine
 * extensions add (extensions.ts, `bulkActions`). The rows are
 * named by id or are every row a list query matches (re-evaluated here with
 * the caller's visibility). One request is one transaction and all or
 * nothing: when any row is refused (not found or not visible, not permitted,
 * invalid) nothing is written and the answer lists each refused row with its
 * reason. Every row written goes through the engine's own write or delete
 * (checks, hooks, audit entry naming the operation), and a visibility or
 * keyword change, or an extension's, can be undone
 * (POST {resource}/bulk/{operation}/undo/), again in one transaction with audit
 * entries.
 */
import { randomUUID } from 'node:crypto';
import { Type, type TSchema } from 'typebox';
import { BulkRequest, ENGINE_BULK_ACTIONS, type AccessLevel, type BulkRefusedBody, type BulkResult, type BulkUndoResult } from '../contracts.ts';
import type { Tx } from '../db/client.ts';
import { ApiError, badRequest, fieldError, notFound, permissionDenied } from './errors.ts';
import { insertBulkOperation, lockBulkOperation, markBulkUndone } from './audit.ts';
import type { Catalog } from './catalog.ts';
import { responsibleUser, type EngineContext } from './context.ts';
import type { BulkActionHook, BulkHookContext } from './extensions.ts';
import { parseListQuery, type ListQuery } from './list-query.ts';
import { checkRelationIds, idsOf, relatedRefs } from './relations.ts';
import * as repo from './repository.ts';
import type { Resource } from './resource.ts';
import { isUuid, type ResourceService } from './service.ts';
import type { ExportFormat } from './spreadsheet-export.ts';
import { visibleTo } from './visibility.ts';

/** The most rows one bulk request may name or match (400 beyond, naming `ids` or `all_matching`). */
export const BULK_MAX_ROWS = 1000;

type EngineAction = (typeof ENGINE_BULK_ACTIONS)[number];

/** The engine's actions whose changes are recorded for an undo (an extension's always are). */
const UNDOABLE: string[] = ['set_visibility', 'add_keywords', 'remove_keywords'];
/** Keys of every request: the action, the rows, and export's format. */
const COMMON_KEYS = ['action', 'ids', 'all_matching', 'format'];
/** The parameter each of the engine's actions needs besides the rows. */
const PARAMETER: Partial<Record<EngineAction, string>> = {
  set_visibility: 'visibility',
  add_keywords: 'keywords',
  remove_keywords: 'keywords',
};
const ENGINE_PARAMETERS = ['visibility', 'keywords'];
const MAX_KEYWORDS = 100;

const hasKeywords = (resource: Resource) => {
  const relation = resource.fields['keywords']?.relation;
  return Boolean(relation?.many && relation.targets.includes('keyword'));
};

/** The engine's own bulk actions a resource offers, from its declaration. */
function engineActions(resource: Resource): EngineAction[] {
  return ENGINE_BULK_ACTIONS.filter((action) => {
    switch (action) {
      case 'delete':
        return resource.deletable !== false;
      case 'set_visibility':
        return resource.hasVisibility;
      case 'add_keywords':
      case 'remove_keywords':
        return hasKeywords(resource);
      case 'export':
        return true;
    }
  });
}

/** The bulk actions the catalog's extensions add to a resource. */
function extensionActions(resource: Resource, catalog: Catalog): BulkActionHook[] {
  return catalog.extensions.flatMap((extension) => extension.bulkActions?.(resource) ?? []);
}

/** The bulk actions a resource offers: the engine's writes, the extensions' actions, then export. */
export function bulkActions(resource: Resource, catalog: Catalog): string[] {
  const own = engineActions(resource);
  const writes = own.filter((action) => action !== 'export');
  return [...writes, ...extensionActions(resource, catalog).map((hook) => hook.name), ...own.filter((action) => action === 'export')];
}

/** What a row's change needs for its undo (an extension's action: what its `apply` returned, besides the id). */
interface UndoRow {
  id: string;
  /** set_visibility: the visibility before. */
  visibility?: string;
  /** add_keywords: keywords the row did not have. */
  added?: string[];
  /** remove_keywords: keywords the row had. */
  removed?: string[];
  [recorded: string]: unknown;
}

interface UndoRecord {
  /** set_visibility: the visibility set. An extension's action: its parameter, under the parameter's key. */
  visibility?: string;
  rows: UndoRow[];
  [parameter: string]: unknown;
}

export interface ParsedBulk {
  action: string;
  ids: string[] | null;
  listQuery: ListQuery;
  visibility?: string;
  keywords?: string[];
  format: ExportFormat;
  /** An extension's action, with its parsed parameter. */
  hook?: { action: BulkActionHook; parameter: unknown };
}

export type RowRefusal = BulkRefusedBody['rows'][number];

/** A refused bulk request: nothing written, each refused row with its reason (409 bulk_refused). */
export class BulkRefused extends ApiError {
  constructor(readonly rows: RowRefusal[]) {
    super(409, 'bulk_refused', `Nothing was changed: ${rows.length} ${rows.length === 1 ? 'row was' : 'rows were'} refused.`);
  }

  override toBody(): BulkRefusedBody {
    return { detail: this.detail, code: this.code, rows: this.rows };
  }
}

/** Runs `apply` on each row in its own savepoint, collecting refusals; any refusal refuses the whole request. */
async function eachRow<T>(ctx: EngineContext, rows: repo.Row[], apply: (ctx: EngineContext, row: repo.Row) => Promise<T | null>): Promise<T[]> {
  const done: T[] = [];
  const refusals: RowRefusal[] = [];
  for (const row of rows) {
    try {
      const result = await ctx.tx.transaction((savepoint) => apply({ ...ctx, tx: savepoint as Tx }, row));
      if (result !== null) done.push(result);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refusals.push({ id: row.id, code: error.code, detail: error.detail });
    }
  }
  if (refusals.length > 0) throw new BulkRefused(refusals);
  return done;
}

function rowRefused(code: string, detail: string): ApiError {
  return new ApiError(409, code, detail);
}

export class BulkService {
  readonly actions: string[];
  private readonly hooks: BulkActionHook[];

  constructor(readonly service: ResourceService) {
    this.actions = bulkActions(service.resource, service.catalog);
    this.hooks = extensionActions(service.resource, service.catalog);
  }

  /** The request body's schema: the engine's keys and the parameters of the extensions' actions offered here. */
  get requestSchema(): TSchema {
    const parameters = Object.fromEntries(this.hooks.map((hook) => [hook.parameter, Type.Optional(hook.schema)]));
    return Type.Object({ ...BulkRequest.properties, ...parameters });
  }

  private hookContext(parameter: unknown): BulkHookContext {
    return { service: this.service, parameter };
  }

  private get resource(): Resource {
    return this.service.resource;
  }

  /** Checks the request body, naming the field at fault. */
  /** `access`: the caller's, whose readable fields all_matching may filter by. */
  parse(body: unknown, access: AccessLevel): ParsedBulk {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object.'] });
    }
    const input = body as Record<string, unknown>;
    const parameterKeys = [...ENGINE_PARAMETERS, ...this.hooks.map((hook) => hook.parameter)];
    for (const key of Object.keys(input)) {
      if (!COMMON_KEYS.includes(key) && !parameterKeys.includes(key)) throw fieldError(key, 'Unknown field.');
    }
    const action = input['action'];
    if (typeof action !== 'string' || !this.actions.includes(action)) {
      throw fieldError('action', `Must be one of: ${this.actions.join(', ')}.`);
    }
    const parsed: ParsedBulk = { action, ids: null, listQuery: parseListQuery(this.resource, {}, access), format: 'xlsx' };
    const hook = this.hooks.find((candidate) => candidate.name === action);

    const { ids, all_matching: allMatching } = input;
    if ((ids === undefined) === (allMatching === undefined)) {
      throw fieldError('ids', 'Give either ids or all_matching (the list query), not both.');
    }
    if (ids !== undefined) {
      if (!Array.isArray(ids) || ids.length === 0 || ids.some((value) => typeof value !== 'string' || !isUuid(value))) {
        throw fieldError('ids', 'Must be a non-empty list of record ids.');
      }
      if (ids.length > BULK_MAX_ROWS) throw fieldError('ids', `At most ${BULK_MAX_ROWS} rows per request; this names ${ids.length}.`);
      parsed.ids = [...new Set(ids.map((value) => (value as string).toLowerCase()))];
    } else {
      parsed.listQuery = this.parseAllMatching(allMatching, access);
    }

    const needed = hook ? hook.parameter : PARAMETER[action as EngineAction];
    for (const key of parameterKeys) {
      if (input[key] !== undefined && key !== needed) throw fieldError(key, `Not used by ${parsed.action}.`);
    }
    if (input['format'] !== undefined && parsed.action !== 'export') throw fieldError('format', `Not used by ${parsed.action}.`);
    if (needed && (input[needed] === undefined || input[needed] === null)) throw fieldError(needed, `Required by ${parsed.action}.`);

    if (hook) {
      const result = hook.parse(input[hook.parameter]);
      if (!result.ok) throw fieldError(hook.parameter, result.message);
      parsed.hook = { action: hook, parameter: result.value };
    } else if (parsed.action === 'set_visibility') {
      const field = this.resource.fields['visibility']!;
      const result = field.parse(input['visibility'], 'visibility');
      if (!result.ok) throw fieldError('visibility', result.message);
      parsed.visibility = result.value['visibility'] as string;
    } else if (needed === 'keywords') {
      const keywords = input['keywords'];
      if (!Array.isArray(keywords) || keywords.length === 0 || keywords.some((value) => typeof value !== 'string' || !isUuid(value))) {
        throw fieldError('keywords', 'Must be a non-empty list of keyword ids.');
      }
      if (keywords.length > MAX_KEYWORDS) throw fieldError('keywords', `At most ${MAX_KEYWORDS} keywords per request.`);
      parsed.keywords = [...new Set(keywords.map((value) => (value as string).toLowerCase()))];
    } else if (parsed.action === 'export') {
      const format = input['format'] ?? 'xlsx';
      if (format !== 'xlsx' && format !== 'csv') throw fieldError('format', 'Must be xlsx or csv.');
      parsed.format = format;
    }
    return parsed;
  }

  /** all_matching: the list's query parameters (search, filters, ordering); errors name all_matching.<parameter>. */
  private parseAllMatching(value: unknown, access: AccessLevel): ListQuery {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw fieldError('all_matching', 'Must be an object of list query parameters (search, filters, ordering).');
    }
    const params: Record<string, string | string[]> = {};
    for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
      if (['limit', 'offset', 'format'].includes(name)) throw fieldError(`all_matching.${name}`, 'Not used: every matching row is meant.');
      const valid = typeof raw === 'string' || (Array.isArray(raw) && raw.every((item) => typeof item === 'string'));
      if (!valid) throw fieldError(`all_matching.${name}`, 'Must be text or a list of text.');
      params[name] = raw as string | string[];
    }
    try {
      return parseListQuery(this.resource, params, access);
    } catch (error) {
      if (!(error instanceof ApiError) || !error.errors) throw error;
      const errors = Object.fromEntries(Object.entries(error.errors).map(([name, messages]) => [`all_matching.${name}`, messages]));
      const [name, messages] = Object.entries(errors)[0]!;
      throw badRequest(`${name}: ${messages[0]}`, errors);
    }
  }

  /** The rows meant, locked: the ids given, or every row matching (up to the cap); any id not found refuses the request. */
  private async targetRows({ tx, actor }: EngineContext, parsed: ParsedBulk): Promise<repo.Row[]> {
    const visible = visibleTo(actor.access);
    let ids = parsed.ids;
    if (!ids) {
      ids = await repo.matchingIds(tx, this.resource, visible, await this.service.matchingQuery(tx, visible, parsed.listQuery), BULK_MAX_ROWS + 1);
      if (ids.length > BULK_MAX_ROWS) {
        throw fieldError('all_matching', `Matches more than ${BULK_MAX_ROWS} rows, the most one request may change; narrow the search or filters.`);
      }
    }
    const rows = await repo.lockRows(tx, this.resource, visible, ids);
    const found = new Map(rows.map((row) => [row.id, row]));
    const missing = ids.filter((rowId) => !found.has(rowId));
    if (missing.length > 0) {
      throw new BulkRefused(missing.map((rowId) => ({ id: rowId, code: 'not_found', detail: `${this.resource.label} not found.` })));
    }
    return ids.map((rowId) => found.get(rowId)!);
  }

  /** What an action names must exist and be visible to the writer (400 naming the field otherwise). */
  private async checkParameters(ctx: EngineContext, parsed: ParsedBulk): Promise<void> {
    const { tx, actor } = ctx;
    if (parsed.hook) await parsed.hook.action.check?.(ctx, this.hookContext(parsed.hook.parameter));
    if (parsed.keywords) {
      const errors = await checkRelationIds(tx, this.service.catalog, this.resource, { keywords: parsed.keywords }, actor.access, null);
      if (errors['keywords']) throw badRequest(`keywords: ${errors['keywords'][0]}`, { keywords: errors['keywords'] });
    }
  }

  /** The ids of the rows a bulk request means (for an export, which reads them again as it streams). */
  async targetIds(ctx: EngineContext, parsed: ParsedBulk): Promise<string[]> {
    return (await this.targetRows(ctx, parsed)).map((row) => row.id);
  }

  /** POST {resource}/bulk/ (every action but export): the action done on every row, or nothing and the refused rows. */
  async run(base: EngineContext, parsed: ParsedBulk): Promise<BulkResult> {
    const ctx: EngineContext = { ...base, bulkOperationId: randomUUID() };
    const { tx, actor } = ctx;
    await this.checkParameters(ctx, parsed);
    const rows = await this.targetRows(ctx, parsed);
    const undoRows = await eachRow(ctx, rows, (savepoint, row) => this.apply(savepoint, row, parsed));
    const undoable = parsed.hook !== undefined || UNDOABLE.includes(parsed.action);
    if (undoRows.length > 0) {
      const undo: UndoRecord = { visibility: parsed.visibility, rows: undoable ? undoRows : [] };
      if (parsed.hook) undo[parsed.hook.action.parameter] = parsed.hook.parameter;
      await insertBulkOperation(tx, actor.tenantId, {
        id: ctx.bulkOperationId!, resource: this.resource.kind, action: parsed.action, user_id: responsibleUser(actor)?.id ?? null, undo,
      });
    }
    const wrote = undoRows.length > 0;
    return {
      action: parsed.action,
      matched: rows.length,
      changed: undoRows.map((entry) => entry.id),
      operation_id: wrote ? ctx.bulkOperationId! : null,
      undo: wrote && undoable ? `/api/v1${this.resource.path}/bulk/${ctx.bulkOperationId}/undo/` : null,
    };
  }

  /** One row's change through the engine's write (or delete); what its undo needs, or null when the row already is as asked. */
  private async apply(ctx: EngineContext, row: repo.Row, parsed: ParsedBulk): Promise<UndoRow | null> {
    if (parsed.hook) {
      const recorded = await parsed.hook.action.apply(ctx, this.hookContext(parsed.hook.parameter), row);
      return recorded === null ? null : { ...recorded, id: row.id };
    }
    const access = ctx.actor.access;
    const keywords = idsOf(row['keywords']);
    switch (parsed.action as EngineAction) {
      case 'delete':
        if (!(await this.service.removeRow(ctx, row))) throw notFound(`${this.resource.label} not found.`);
        return { id: row.id };
      case 'set_visibility':
        if (row['visibility'] === parsed.visibility) return null;
        await this.service.write(ctx, row, this.service.parseInput({ visibility: parsed.visibility }, row, access));
        return { id: row.id, visibility: String(row['visibility']) };
      case 'add_keywords': {
        const added = parsed.keywords!.filter((keyword) => !keywords.includes(keyword));
        if (added.length === 0) return null;
        await this.service.write(ctx, row, this.service.parseInput({ keywords: [...keywords, ...added] }, row, access));
        return { id: row.id, added };
      }
      case 'remove_keywords': {
        const removed = parsed.keywords!.filter((keyword) => keywords.includes(keyword));
        if (removed.length === 0) return null;
        const kept = keywords.filter((keyword) => !removed.includes(keyword));
        await this.service.write(ctx, row, this.service.parseInput({ keywords: kept }, row, access));
        return { id: row.id, removed };
      }
      case 'export':
        return null;
    }
  }

  /**
   * POST {resource}/bulk/{operation}/undo/: puts back what a visibility or keyword change
   * (or an extension's action) did, by whoever did it or an admin, once. A row deleted
   * since, or whose visibility was changed again since, refuses the undo (nothing written).
   */
  async undo(base: EngineContext, operationId: string): Promise<BulkUndoResult> {
    const { tx, actor } = base;
    const operation = isUuid(operationId) ? await lockBulkOperation(tx, operationId) : null;
    if (!operation || operation.resource !== this.resource.kind) throw notFound('Bulk operation not found.');
    if (operation.user_id !== (responsibleUser(actor)?.id ?? null) && actor.access !== 'admin') {
      throw permissionDenied('Only the user who made a bulk change, or an admin, may undo it.');
    }
    const hook = this.hooks.find((candidate) => candidate.name === operation.action);
    if (!hook && !UNDOABLE.includes(operation.action)) throw new ApiError(409, 'conflict', `A bulk ${operation.action} cannot be undone.`);
    if (operation.undone_at) throw new ApiError(409, 'conflict', 'This bulk change has already been undone.');
    const record = operation.undo as UndoRecord;
    const ctx: EngineContext = { ...base, bulkOperationId: operation.id };
    const access = actor.access;
    // The operation shows the rows were the writer's to change; they may no longer see some (hidden since).
    const rows = await repo.lockRows(tx, this.resource, visibleTo('admin'), record.rows.map((entry) => entry.id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const missing = record.rows.filter((entry) => !byId.has(entry.id));
    if (missing.length > 0) {
      throw new BulkRefused(missing.map((entry) => ({ id: entry.id, code: 'not_found', detail: `${this.resource.label} was deleted since.` })));
    }
    // Keywords deleted since cannot come back.
    const removed = record.rows.flatMap((entry) => entry.removed ?? []);
    const existing = removed.length > 0
      ? await relatedRefs(tx, this.service.catalog, this.resource, 'admin', [{ keywords: removed }])
      : new Map();
    const undoOf = new Map(record.rows.map((entry) => [entry.id, entry]));
    const restored = await eachRow(ctx, record.rows.map((entry) => byId.get(entry.id)!), async (savepoint, row) => {
      const entry = undoOf.get(row.id)!;
      if (hook) return (await hook.undo(savepoint, this.hookContext(record[hook.parameter]), row, entry)) ? row.id : null;
      const keywords = idsOf(row['keywords']);
      switch (operation.action) {
        case 'set_visibility':
          if (row['visibility'] !== record.visibility) throw rowRefused('changed', 'Its visibility was changed again since.');
          await this.service.write(savepoint, row, this.service.parseInput({ visibility: entry.visibility }, row, access));
          break;
        case 'add_keywords': {
          const added = (entry.added ?? []).filter((keyword) => keywords.includes(keyword));
          if (added.length === 0) return null;
          await this.service.write(savepoint, row, this.service.parseInput({ keywords: keywords.filter((keyword) => !added.includes(keyword)) }, row, access));
          break;
        }
        case 'remove_keywords': {
          const back = (entry.removed ?? []).filter((keyword) => existing.has(keyword) && !keywords.includes(keyword));
          if (back.length === 0) return null;
          await this.service.write(savepoint, row, this.service.parseInput({ keywords: [...keywords, ...back] }, row, access));
          break;
        }
      }
      return row.id;
    });
    await markBulkUndone(tx, operation.id);
    return { operation_id: operation.id, restored };
  }
}

/**
 * The rules of every resource: who sees which rows and fields, how input
 * becomes column values (field errors, never a partial write), relations kept
 * consistent, the audit log, and how rows are presented. Routes stay thin;
 * only repository.ts, relations.ts and audit.ts write SQL.
 */
import type { AccessLevel, AuditEntry, AvailableFilter, AvailableFilters, RelatedRef } from '../contracts.ts';
import { atLeast } from '../auth/access.ts';
import type { Tx } from '../db/client.ts';
import { ApiError, badRequest, conflict, isUniqueViolation, notFound, paywalled, permissionDenied, type FieldErrors, type ItemErrors } from './errors.ts';
import { diff, recordHistory, writeAudit, type AuditAction, type Changes } from './audit.ts';
import type { Catalog } from './catalog.ts';
import { pageColumns, type PageColumn, type PageReads, type ParsedValue } from './extensions.ts';
import { responsibleUser, type Actor, type EngineContext } from './context.ts';
import { incompleteDateFlags, type FieldType, type Visibility } from './fields.ts';
import type { ListQuery, ResultPage } from './list-query.ts';
import { comparableAs, fieldLookups, filterNames } from './list-query.ts';
import { checkRelationIds, idsOf, relatedRefs, removeReferences, resolveNames } from './relations.ts';
import * as repo from './repository.ts';
import { SearchStatisticsCache } from './search-statistics.ts';
import type { Resource } from './resource.ts';
import type { ResourceServices } from './services.ts';
import { isUuid, normalizeName } from './values.ts';
import { mayReadField, mayReadResource, visibleTo } from './visibility.ts';

export { isUuid };

/** Keys a client may send back unchanged (e.g. from a GET) that are not writable. */
const READ_ONLY = ['id', 'created_at', 'updated_at', 'created_by', 'updated_by', 'display_name'];

export interface ParsedInput {
  values: Record<string, unknown>;
  /** Input for the extensions (e.g. the lists the row is an item of), by input key: their afterWrite hooks apply it. */
  extra?: Record<string, unknown>;
}

export type ListPage = ResultPage<Record<string, unknown>>;

/** What presenting a row needs besides the row: the reader and related records. */
export interface PresentContext {
  access: AccessLevel;
  refs?: Map<string, RelatedRef>;
}

export class ResourceService {
  /** Per service (one per resource and engine: services.ts): what its searches' plans depend on. */
  private readonly searchStatistics: SearchStatisticsCache;
  readonly catalog: Catalog;

  /** Built by ResourceServices, the engine's one service per resource; `services` serves the other resources. */
  constructor(
    readonly resource: Resource,
    readonly services: ResourceServices,
  ) {
    this.catalog = services.catalog;
    this.searchStatistics = new SearchStatisticsCache(resource);
  }

  private readonlyKeys(): string[] {
    const flags = Object.entries(this.resource.fields).flatMap(([name, field]) =>
      field.kind === 'incomplete_date' ? incompleteDateFlags(name) : [],
    );
    const presented = this.catalog.extensions.flatMap((extension) => extension.presented?.(this.resource) ?? []);
    const owner = this.resource.owner ? [repo.OWNER_COLUMN] : [];
    return [...READ_ONLY, ...flags, ...owner, ...(this.resource.annotate?.fields ?? []), ...presented];
  }

  /** The fields a reader at `access` receives: not a restricted one above them, nor a relation to records they may not read (visibility.ts). */
  readableFields(access: AccessLevel): Array<[string, FieldType]> {
    return Object.entries(this.resource.fields).filter(([, field]) => mayReadField(field, access));
  }

  /**
   * Validates input for create (current = null) or patch (only the fields
   * sent). Fields the writer may not write, immutable fields that change and
   * required fields left empty on create are field errors.
   */
  parseInput(body: unknown, current: repo.Row | null, access: AccessLevel = 'admin'): ParsedInput {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object.'] });
    }
    const errors: FieldErrors = {};
    const itemErrors: ItemErrors = {};
    const values: Record<string, unknown> = {};
    const extra: Record<string, unknown> = {};
    const readOnly = this.readonlyKeys();
    const extensionInput = Object.assign({}, ...this.catalog.extensions.map((extension) => extension.input?.(this.resource) ?? {})) as Record<string, (value: unknown) => ParsedValue>;
    for (const [name, input] of Object.entries(body as Record<string, unknown>)) {
      if (input === undefined) continue;
      // Own keys only: a key such as "toString" or "constructor" must not find a built-in of the object.
      const field = Object.hasOwn(this.resource.fields, name) ? this.resource.fields[name] : undefined;
      if (field?.readOnly) continue;
      if (field) {
        if (field.writeAccess && !atLeast(access, field.writeAccess)) {
          errors[name] = ['You may not change this field.'];
          continue;
        }
        const parsed = field.parse(input, name);
        if (!parsed.ok) {
          errors[name] = [parsed.message];
          if (parsed.item) itemErrors[name] = [parsed.item];
        } else if (field.immutable && current && JSON.stringify(parsed.value[name]) !== JSON.stringify(current[name])) {
          errors[name] = ['This field cannot be changed once set.'];
        } else Object.assign(values, parsed.value);
      } else if (Object.hasOwn(extensionInput, name)) {
        const parsed = extensionInput[name]!(input);
        if (parsed.ok) extra[name] = parsed.value;
        else errors[name] = [parsed.message];
      } else if (!readOnly.includes(name)) {
        errors[name] = ['Unknown field.'];
      }
    }
    if (!current) {
      for (const [name, field] of Object.entries(this.resource.fields)) {
        if (field.required && !(name in values) && !errors[name]) errors[name] = ['This field is required.'];
      }
    }

    const identity = this.resource.identity;
    if (identity) {
      const merged = { ...(current ?? {}), ...values };
      const names = identity.names.map((name) => merged[name]).filter((value): value is string => typeof value === 'string' && value !== '');
      if (names.length === 0 && !identity.names.some((name) => errors[name])) {
        errors[identity.names[0]!] = [
          identity.names.length === 1 ? 'This field is required.' : `Provide at least one of: ${identity.names.join(', ')}.`,
        ];
      }
      const keyNames = identity.nameKeys ? identity.nameKeys(merged) : names;
      const keys = keyNames.filter((name): name is string => typeof name === 'string').map(normalizeName);
      values['name_keys'] = [...new Set(keys.filter(Boolean))];
    }

    throwIfErrors(errors, itemErrors);
    return Object.keys(extra).length === 0 ? { values } : { values, extra };
  }

  present(row: repo.Row, context: PresentContext): Record<string, unknown> {
    const output: Record<string, unknown> = { id: row.id, display_name: row['display_name'] ?? null };
    for (const [name, field] of this.readableFields(context.access)) {
      const value = field.present(row, name);
      output[name] = field.relation ? presentRelation(value, field.relation.many, context.refs) : value;
      if (field.kind === 'incomplete_date') {
        for (const flag of incompleteDateFlags(name)) output[flag] = Boolean(row[flag]);
      }
    }
    if (this.resource.owner) output[repo.OWNER_COLUMN] = row[repo.OWNER_COLUMN] ?? null;
    output['created_at'] = timestamp(row['created_at']);
    output['updated_at'] = timestamp(row['updated_at']);
    output['updated_by'] = row['updated_by'] ?? null;
    return output;
  }

  /** The columns extensions add to a page of this resource (read with its rows, handed back to presentRows). */
  pageColumns(visible: Visibility[]): PageColumn[] {
    return pageColumns(this.catalog.extensions, this.resource, visible);
  }

  /** Rows as a reader at `access` sees them, with related records and the extensions' values looked up in bulk. */
  async presentRows(
    tx: Tx,
    access: AccessLevel,
    rows: repo.Row[],
    /** What the page columns read when the rows are a list page's. */
    read?: PageReads,
  ): Promise<Array<Record<string, unknown>>> {
    const visible = visibleTo(access);
    const refs = await relatedRefs(tx, this.catalog, this.resource, access, rows);
    // Shared rows (geos, cities) are written by tenant managers of the default tenant: another
    // tenant's reader gets no user id of theirs.
    const ownUsers = this.resource.shared ? await repo.ownTenantUsers(tx, rows.map((row) => row['updated_by'])) : null;
    const extra = this.resource.annotate && rows.length > 0 ? await this.resource.annotate.values({ tx, catalog: this.catalog, visible, rows }) : null;
    const extended: Array<Map<string, Record<string, unknown>>> = [];
    for (const extension of this.catalog.extensions) {
      const hookContext = { tx, resource: this.resource, access, visible, rows, ...(read?.has(extension.name) ? { read: read.get(extension.name)! } : {}) };
      const values = extension.present && rows.length > 0 ? await extension.present(hookContext) : null;
      if (values) extended.push(values);
    }
    return rows.map((row) => {
      const shown = ownUsers && !ownUsers.has(String(row['updated_by'])) ? { ...row, updated_by: null } : row;
      const presented = { ...this.present(shown, { access, refs }), ...extra?.get(row.id) };
      for (const values of extended) Object.assign(presented, values.get(row.id));
      return presented;
    });
  }

  async list({ tx, actor }: EngineContext, listQuery: ListQuery): Promise<ListPage> {
    const access = actor.access;
    const visible = visibleTo(access);
    const unfiltered = !listQuery.search && Object.keys(listQuery.filters).length === 0;
    const counterKinds = repo.counterKindsOf(this.resource);
    // An unfiltered total comes from the counters; any other is the matching rows counted
    // up to the cap, estimated beyond it. Both are read in the page's own statement.
    const counterTotal = unfiltered && counterKinds.length > 0
      ? { kinds: counterKinds, visible: this.resource.hasVisibility ? visible : null }
      : undefined;
    // A search the planner expects to match twice the cap or more is not counted at
    // all: counting even up to the cap reads a thousand matches (and builds the whole
    // index bitmap of a common word) for a total that would be estimated anyway. One it
    // expects to match fewer is read as one set of every match, which gives the page
    // and the total (repository.ts TotalFrom).
    const statistics = listQuery.search && !counterTotal ? await this.searchStatistics.of(tx, actor.tenantId, visible, listQuery) : null;
    const planned = statistics ? statistics.planned : listQuery.search && !counterTotal ? await repo.plannedMatching(tx, this.resource, visible, listQuery) : null;
    const uncounted = planned !== null && planned >= repo.SURELY_BEYOND_CAP;
    const matching = statistics ? { ...listQuery, searchBy: statistics.searchBy, searchQuery: statistics.searchQuery } : listQuery;
    const columns = this.pageColumns(visible);
    let { rows, read, count, estimate } = await this.readPage(tx, visible, matching, counterTotal, columns, uncounted ? 'none' : planned !== null && !listQuery.ranked ? 'matched' : 'capped', planned);
    // Typos are forgiven only when the search as typed finds nothing the reader may see
    // (repository.ts FORGIVE_BELOW): then each word typed also matches the tenant's words like it, the rule
    // quick search's typo tier has (search_similar_words, migration 0200). The decision depends
    // on the exact total alone, never on the page asked for, so every page of a search agrees.
    let similar: string[] | null = null;
    if (listQuery.search && !counterTotal && !estimate && count < repo.FORGIVE_BELOW) {
      const forgiving = await repo.forgivingSearchQuery(tx, this.resource, listQuery.search);
      if (forgiving) {
        const forgiven = await this.readPage(tx, visible, { ...listQuery, searchBy: 'index', searchQuery: forgiving }, undefined, columns, listQuery.ranked ? 'capped' : 'matched', null);
        if (forgiven.count > count || forgiven.estimate) {
          ({ rows, read, count, estimate } = forgiven);
          // The words like those typed it matched, for the reader's screen to mark (similar_words):
          // those the page's rows hold, so no word of a record the reader may not see is named.
          similar = await repo.wordsOfRows(tx, this.resource, rows.map((row) => row.id), repo.similarWordsOf(forgiving));
        }
      }
    }
    const page: ListPage = {
      count,
      offset: listQuery.offset,
      limit: listQuery.limit,
      results: await this.presentRows(tx, access, rows, read),
    };
    if (estimate) page.count_is_estimate = true;
    if (similar) {
      page.search_includes_similar = true;
      page.similar_words = similar;
    }
    return page;
  }

  /**
   * A list page and its total, read as `totalFrom` says (repository.ts TotalFrom); `planned` is
   * the planner's estimate of the matches when one was made (null: estimated here if needed).
   */
  private async readPage(
    tx: Tx,
    visible: Visibility[],
    matching: ListQuery,
    counterTotal: repo.CounterTotal | undefined,
    columns: PageColumn[],
    totalFrom: repo.TotalFrom,
    planned: number | null,
  ): Promise<{ rows: repo.Row[]; read: PageReads; count: number; estimate: boolean }> {
    let found = await repo.selectPage(tx, this.resource, visible, matching, counterTotal, totalFrom, columns);
    if (totalFrom === 'matched' && (found.total ?? 0) > repo.MATCHED_SET_CAP) {
      // The planner expected fewer matches than there are: the set was cut short and its
      // page may lack rows, so the page is read in list order after all.
      totalFrom = 'capped';
      found = await repo.selectPage(tx, this.resource, visible, matching, counterTotal, totalFrom, columns);
    }
    const { rows, read, total } = found;
    let count = total ?? 0;
    let estimate = false;
    if (totalFrom === 'none') {
      count = Math.round(planned ?? 0);
      estimate = true;
    } else if (total === null && counterTotal) {
      // An empty page carries no total.
      count = await repo.countFromCounters(tx, counterTotal.kinds, counterTotal.visible);
    } else if (total === null && matching.offset > 0) {
      ({ count, estimate } = await repo.countMatching(tx, this.resource, visible, matching));
    } else if (!counterTotal && count > repo.EXACT_COUNT_CAP) {
      // Beyond the cap a total is an estimate however it was read (a matched set knows it
      // exactly, but the page past the last, which reads no set, could not say the same).
      count = planned === null
        ? await repo.estimateMatching(tx, this.resource, visible, matching)
        : Math.max(Math.round(planned), repo.EXACT_COUNT_CAP + 1);
      estimate = true;
    }
    if (estimate) ({ count, estimate } = boundedByPage(count, matching, rows.length));
    return { rows, read, count, estimate };
  }

  /**
   * The query a list search means for acting on its rows (exports, bulk "all matching"): the
   * search as typed, or — when that finds nothing the reader may see — the same search
   * forgiving typos, as `list` then shows (search_includes_similar): a file or a bulk action
   * takes the rows the list showed.
   */
  async matchingQuery(tx: Tx, visible: Visibility[], listQuery: ListQuery): Promise<ListQuery> {
    if (!listQuery.search) return listQuery;
    if ((await repo.matchingIds(tx, this.resource, visible, listQuery, repo.FORGIVE_BELOW)).length >= repo.FORGIVE_BELOW) return listQuery;
    const forgiving = await repo.forgivingSearchQuery(tx, this.resource, listQuery.search);
    return forgiving ? { ...listQuery, searchBy: 'index', searchQuery: forgiving } : listQuery;
  }

  async get({ tx, actor }: EngineContext, rowId: string): Promise<Record<string, unknown>> {
    return (await this.presentRows(tx, actor.access, [await this.findReadable(tx, actor.access, rowId)]))[0]!;
  }

  /** The row to show a reader, or the error that says why not (a paywalled record offered to a visitor: 403 `paywalled`; else 404). */
  async findReadable(tx: Tx, access: AccessLevel, rowId: string): Promise<repo.Row> {
    const row = isUuid(rowId) ? await repo.selectOne(tx, this.resource, visibleTo(access), rowId) : null;
    if (!row) throw await this.unreadable(tx, access, rowId);
    return row;
  }

  async create(ctx: EngineContext, body: unknown): Promise<Record<string, unknown>> {
    const input = this.parseInput(body, null, ctx.actor.access);
    const row = await this.write(ctx, null, input);
    // The creator sees what they wrote, even when its visibility hides it from them later.
    return (await this.presentRows(ctx.tx, ctx.actor.access, [row]))[0]!;
  }

  async update(ctx: EngineContext, rowId: string, body: unknown): Promise<Record<string, unknown>> {
    const current = await this.findVisible(ctx.tx, ctx.actor.access, rowId);
    const input = this.parseInput(body, current, ctx.actor.access);
    const row = await this.write(ctx, current, input);
    return (await this.presentRows(ctx.tx, ctx.actor.access, [row]))[0]!;
  }

  /**
   * Writes a parsed create (current = null) or edit in the caller's
   * transaction: relation ids checked, beforeSave hooks run, the extensions'
   * afterWrite hooks (e.g. lists) and the resource's afterSave hooks run, an audit entry written. Returns the row as stored.
   */
  async write(ctx: EngineContext, current: repo.Row | null, input: ParsedInput): Promise<repo.Row> {
    this.assertMayWrite(ctx.actor);
    const { tx, actor } = ctx;
    const values = { ...input.values };
    const owner = this.assertOwner(actor, current);
    if (current) await this.keepUnseenRelations(tx, actor.access, current, values);
    throwIfErrors(await checkRelationIds(tx, this.catalog, this.resource, values, actor.access, current));
    for (const hook of this.resource.beforeSave ?? []) {
      const extra = await hook({
        tx, resource: this.resource, catalog: this.catalog, access: actor.access, tenantId: actor.tenantId, actor,
        record: { ...(current ?? {}), ...values }, input: values, current,
      });
      if (extra) Object.assign(values, extra);
    }
    const before = current ? (await this.presentRows(tx, 'admin', [current]))[0]! : null;
    const userId = responsibleUser(actor)?.id ?? null;
    let rowId: string;
    try {
      if (current) {
        // Read without a lock: the row may have been deleted, or (a suggestion) reviewed, since.
        if (!(await repo.updateRow(tx, this.resource, current.id, { ...values, updated_by: userId }))) {
          throw conflict(`This ${this.resource.label.toLowerCase()} was just deleted or reviewed by someone else; reload.`);
        }
        rowId = current.id;
      } else {
        const owned = owner ? { [repo.OWNER_COLUMN]: owner } : {};
        rowId = await repo.insertRow(tx, this.resource, this.resource.shared ? null : actor.tenantId, { ...values, ...owned, created_by: userId, updated_by: userId });
      }
    } catch (error) {
      // Hooks check unique values with a clear field error; a concurrent write can still win the race.
      if (isUniqueViolation(error)) throw conflict(`Another ${this.resource.label.toLowerCase()} was just saved with the same values; reload and try again.`);
      throw error;
    }
    for (const extension of this.catalog.extensions) {
      await extension.afterWrite?.(ctx, { resource: this.resource, rowId, input: input.extra ?? {}, created: current === null });
    }
    const row = (await repo.selectOne(tx, this.resource, visibleTo('admin'), rowId))!;
    for (const hook of this.resource.afterSave ?? []) await hook(ctx, { resource: this.resource, catalog: this.catalog, row, current });
    const after = (await this.presentRows(tx, 'admin', [row]))[0]!;
    await this.audit(ctx, current ? 'update' : 'create', rowId, after['display_name'], diff(before, after));
    return row;
  }

  /**
   * A writer who cannot see some related records (a research user and a
   * hidden organization) sends back the references they were shown: the
   * unseen ones are kept, not silently dropped.
   */
  private async keepUnseenRelations(tx: Tx, access: AccessLevel, current: repo.Row, values: Record<string, unknown>): Promise<void> {
    if (access === 'admin') return;
    const seen = await relatedRefs(tx, this.catalog, this.resource, access, [current]);
    for (const [name, field] of Object.entries(this.resource.fields)) {
      if (!field.relation || !(name in values)) continue;
      const unseen = idsOf(current[name]).filter((value) => !seen.has(value));
      if (unseen.length === 0) continue;
      if (field.relation.many) values[name] = [...new Set([...(values[name] as string[]), ...unseen])];
      else if (values[name] === null) values[name] = unseen[0];
    }
  }

  /** Hard delete: references to the row are removed (or their rows deleted) and list memberships cascade. */
  async remove(ctx: EngineContext, rowId: string): Promise<void> {
    const row = await this.findVisible(ctx.tx, ctx.actor.access, rowId);
    if (!(await this.removeRow(ctx, row))) throw notFound(`${this.resource.label} not found.`);
  }

  /**
   * Deletes a row the writer was allowed to see, in the caller's transaction, with its
   * references and audit entries. False when the row was gone already (deleted concurrently).
   */
  async removeRow(ctx: EngineContext, row: repo.Row): Promise<boolean> {
    this.assertMayWrite(ctx.actor);
    const { tx, actor } = ctx;
    this.assertOwner(actor, row);
    for (const hook of this.resource.beforeDelete ?? []) await hook(ctx, { resource: this.resource, row });
    for (const extension of this.catalog.extensions) await extension.beforeDelete?.(ctx, { resource: this.resource, row, services: this.services });
    const before = (await this.presentRows(tx, 'admin', [row]))[0]!;
    // Deleted first: a concurrent delete of the same row waits here for this one to commit,
    // then deletes nothing (its caller rolls back: no second audit entry, no references touched);
    // so does the delete of a suggestion accepted or rejected meanwhile (repository.ts deleteRow).
    if (!(await repo.deleteRow(tx, this.resource, row.id))) return false;
    const { cascaded } = await removeReferences(tx, this.catalog, this.resource.kind, row.id);
    await this.audit(ctx, 'delete', row.id, before['display_name'], diff(before, null));
    for (const dependent of cascaded) {
      // Deleted with the record it depended on (e.g. an investment with its ledger entry).
      await writeAudit(tx, {
        actor, resource: dependent.kind, recordId: dependent.id, action: 'delete',
        displayName: dependent.display_name, changes: {}, bulkOperationId: ctx.bulkOperationId,
      });
    }
    return true;
  }

  async history({ tx, actor }: EngineContext, rowId: string): Promise<{ results: AuditEntry[] }> {
    if (!isUuid(rowId)) throw notFound(`${this.resource.label} not found.`);
    // A row that belongs to a user shows its history only to those who may read it (its owner, or the team when shared).
    if (this.resource.owner) await this.findVisible(tx, actor.access, rowId);
    const results = await recordHistory(tx, this.resource.kind, rowId);
    // A deleted record keeps its history; a record that never existed has none.
    if (results.length === 0) await this.findVisible(tx, actor.access, rowId);
    return { results };
  }

  audit(ctx: EngineContext, action: AuditAction, recordId: string, displayName: unknown, changes: Changes, merge?: unknown): Promise<string> {
    return writeAudit(ctx.tx, {
      actor: ctx.actor, resource: this.resource.kind, recordId, action, displayName, changes, merge, bulkOperationId: ctx.bulkOperationId,
    });
  }

  /**
   * The filters a reader may use, each with its lookups: the declared filters with the values
   * (and counts) among the rows they see, then the fields that only compare or can only be
   * empty, without values.
   */
  async availableFilters({ tx, actor }: EngineContext): Promise<AvailableFilters> {
    const visible = visibleTo(actor.access);
    const lookups = fieldLookups(this.resource, actor.access);
    const declared = filterNames(this.resource).filter((name) => Object.hasOwn(lookups, name));
    const filters: AvailableFilter[] = [];
    for (const name of declared) {
      const field = this.resource.fields[name]!;
      if (field.relation) {
        const values = await repo.relationFilterValues(tx, this.resource, visible, name);
        const refs = await relatedRefs(tx, this.catalog, this.resource, actor.access, [{ [name]: values.map((entry) => entry.value) }]);
        filters.push({
          name,
          type: 'relation' as const,
          lookups: lookups[name]!,
          // Only related records the caller may see are offered.
          values: values.filter((entry) => refs.has(entry.value)).map((entry) => ({ ...entry, label: refs.get(entry.value)!.display_name })),
        });
        continue;
      }
      const values = await repo.filterValues(tx, this.resource, visible, name);
      filters.push({
        name,
        type: field.filter === 'boolean' ? ('boolean' as const) : ('choice' as const),
        lookups: lookups[name]!,
        values: values.map((entry) => ({ value: entry.value, count: entry.count })),
      });
    }
    for (const [name, fieldLookupList] of Object.entries(lookups)) {
      if (declared.includes(name)) continue;
      filters.push({ name, type: comparableAs(this.resource, name) ?? 'array', lookups: fieldLookupList, values: [] });
    }
    return { filters };
  }

  /**
   * Spreadsheet cells of relation fields hold names: resolved to ids (or row
   * errors for unknown and ambiguous names) before the usual validation.
   */
  async resolveRelationNames(tx: Tx, access: AccessLevel, values: Record<string, unknown>): Promise<{ values: Record<string, unknown>; errors: FieldErrors }> {
    const resolved = { ...values };
    const errors: FieldErrors = {};
    for (const [name, field] of Object.entries(this.resource.fields)) {
      if (!field.relation || values[name] === undefined || values[name] === null) continue;
      const names = (Array.isArray(values[name]) ? (values[name] as unknown[]) : [values[name]]).map(String);
      const result = await resolveNames(tx, this.catalog, field.relation.targets, names, access);
      if (result.errors.length > 0) errors[name] = result.errors;
      resolved[name] = field.relation.many ? result.ids : (result.ids[0] ?? null);
    }
    return { values: resolved, errors };
  }

  /**
   * A write below the resource's writeAccess is a 403, whoever asks: routes refuse it before
   * the engine runs, and jobs and scripts acting for a user meet the same rule here.
   */
  assertMayWrite(actor: Actor): void {
    const needed = this.resource.writeAccess;
    const allowed = needed === 'manage-tenants' ? actor.manageTenants === true : atLeast(actor.access, needed);
    if (!allowed) throw permissionDenied();
  }

  /**
   * For a resource whose rows belong to a user (`owner`): the user a new row belongs to (the
   * writer), or a 403 when the writer is nobody, or when `current` belongs to someone else — a
   * shared row is read by the team but changed only by its owner. Row-level security holds the
   * same rule (migration 0230); this says it as an answer rather than as a row not found.
   * Null for other resources.
   */
  assertOwner(actor: Actor, current: repo.Row | null): string | null {
    if (!this.resource.owner) return null;
    const user = responsibleUser(actor)?.id ?? null;
    const label = this.resource.label.toLowerCase();
    if (!user) throw permissionDenied(`A ${label} belongs to a user: sign in to save one.`);
    if (current && current[repo.OWNER_COLUMN] !== user) throw permissionDenied(`Only its owner may change or delete this ${label}.`);
    return user;
  }

  async findVisible(tx: Tx, access: AccessLevel, rowId: string): Promise<repo.Row> {
    const row = isUuid(rowId) ? await repo.selectOne(tx, this.resource, visibleTo(access), rowId) : null;
    if (!row) throw notFound(`${this.resource.label} not found.`);
    return row;
  }

  /**
   * Why a record is not sent: a visitor asking for a paywalled record of a kind that offers
   * them (`paywallOffer`) is told so (403 `paywalled`, the label only), since the home cards
   * and lists already count such records behind a lock;
   * anything else — hidden, deleted, never there — is the same 404, so a hidden record's
   * existence never shows.
   */
  private async unreadable(tx: Tx, access: AccessLevel, rowId: string): Promise<ApiError> {
    const offered = access === 'public' && this.resource.paywallOffer === true && this.resource.hasVisibility && mayReadResource(this.resource, 'paywall') && isUuid(rowId);
    if (offered && (await repo.selectOne(tx, this.resource, ['paywalled'], rowId))) return paywalled(this.resource.label);
    return notFound(`${this.resource.label} not found.`);
  }

  /** The rows among `rowIds` the reader may see, by id; ids that are not uuids or not visible are absent. */
  async findVisibleMany(tx: Tx, access: AccessLevel, rowIds: string[]): Promise<Map<string, repo.Row>> {
    const rows = await repo.selectMany(tx, this.resource, visibleTo(access), rowIds.filter(isUuid));
    return new Map(rows.map((row) => [String(row.id), row]));
  }
}

function throwIfErrors(errors: FieldErrors, itemErrors?: ItemErrors): void {
  const first = Object.entries(errors)[0];
  if (first) throw badRequest(`${first[0]}: ${first[1][0]}`, errors, itemErrors);
}

/** A relation's ids as references, leaving out records the reader may not see. */
function presentRelation(value: unknown, many: boolean, refs: Map<string, RelatedRef> | undefined): unknown {
  if (!many) return typeof value === 'string' ? (refs?.get(value) ?? null) : null;
  return (Array.isArray(value) ? value : []).map((item) => refs?.get(String(item))).filter((ref): ref is RelatedRef => ref !== undefined);
}

function timestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

/**
 * An estimated total checked against the page read: a short page is the last, so the total is
 * exactly the rows before it and on it; an empty page past the first says the total is at most
 * its offset; a full page says there is at least one more row. Whatever the planner's statistics
 * say (stale ones after a big import: planner-statistics.ts), a total never contradicts the rows
 * and paging never runs past the last result.
 */
export function boundedByPage(estimated: number, page: { offset: number; limit: number }, rows: number): { count: number; estimate: boolean } {
  if (rows > 0 && rows < page.limit) return { count: page.offset + rows, estimate: false };
  if (rows === 0) return page.offset === 0 ? { count: 0, estimate: false } : { count: Math.min(estimated, page.offset), estimate: true };
  return { count: Math.max(estimated, page.offset + rows + 1), estimate: true };
}

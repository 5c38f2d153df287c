/**
 * Lists as an engine extension (resources/extensions.ts): records of a resource declaring
 * `listItem` can be items of lists of its kind. The engine knows nothing of lists; through
 * these hooks a record presents the lists holding it (`lists`, `lists_as_item`), a write
 * may set them (`lists`), a merge moves the other record's memberships to the survivor, and
 * the bulk action `add_to_list` adds rows to a list (undoably).
 */
import { AddToListParameter, type AccessLevel } from '../../contracts.ts';
import type { Tx } from '../../db/client.ts';
import { badRequest, fieldError } from '../../resources/errors.ts';
import type { BulkActionHook, EngineExtension, ParsedValue } from '../../resources/extensions.ts';
import { idsOf } from '../../resources/relations.ts';
import { lockRows, type Row } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';
import { isUuid } from '../../resources/values.ts';
import { visibleTo } from '../../resources/visibility.ts';
import * as repo from './lists.repository.ts';

/** The backlinks group of list memberships (lists are not a relation field of the record). */
export const LIST_MEMBERSHIPS = 'lists.items';

export const listsExtension: EngineExtension = {
  name: 'lists',

  input: (resource) => {
    const parsers: Record<string, (value: unknown) => ParsedValue> = {};
    if (resource.listItem) parsers['lists'] = parseListIds;
    return parsers;
  },

  presented: (resource) => (resource.listItem ? ['lists_as_item'] : []),

  // The lists holding a record, as a group of its backlinks (GET {resource}/{id}/related/).
  backlinks: (resource, resources) => {
    const lists = resources.find((candidate) => candidate.kind === 'lists');
    if (!resource.listItem || !lists) return [];
    return [{ key: LIST_MEMBERSHIPS, label: 'Lists', resource: lists, page: (tx, visible, rowId, page) => repo.listsHoldingPage(tx, resource, lists, visible, rowId, page) }];
  },

  pageColumn: (resource, visible) => (resource.listItem ? repo.itemListsColumn(resource, visible) : null),

  present: async ({ tx, resource, visible, rows, read }) => {
    if (!resource.listItem) return null;
    const lists = read ?? (await repo.listsOfItems(tx, resource, visible, rows.map((row) => row.id)));
    return new Map(rows.map((row) => {
      const entries = (lists.get(row.id) ?? []) as repo.ItemLists;
      return [row.id, { lists: entries.map((entry) => entry.id), lists_as_item: entries }];
    }));
  },

  afterWrite: async ({ tx, actor }, { resource, rowId, input }) => {
    const lists = input['lists'] as string[] | undefined;
    if (!resource.listItem || lists === undefined) return;
    // As with relations: a writer sends back the lists they were shown, so memberships in
    // lists they cannot see (hidden ones, for a research user) are kept, not dropped.
    const unseen = actor.access === 'admin' ? [] : await unseenLists(tx, resource, actor.access, rowId);
    const missing = await repo.setListMemberships(tx, resource, actor.tenantId, rowId, [...new Set([...lists, ...unseen])], visibleTo(actor.access));
    if (missing.length > 0) {
      throw badRequest(`lists: Unknown list id ${missing[0]}.`, { lists: missing.map((listId) => `Unknown ${resource.listItem!.listKind} id ${listId}.`) });
    }
  },

  mergePreview: async (tx, { resource, otherId }) => {
    const counts: Record<string, number> = {};
    const items = resource.listItem ? await repo.membershipsOf(tx, resource, otherId) : [];
    if (items.length > 0) counts['lists'] = items.length;
    return counts;
  },

  onMerge: async ({ tx, actor }, { resource, survivorId, otherId }) => {
    if (!resource.listItem) return undefined;
    const survivorLists = new Set((await repo.membershipsOf(tx, resource, survivorId)).map((item) => item.list_id));
    const recorded: MergedMembership[] = [];
    for (const item of await repo.membershipsOf(tx, resource, otherId)) {
      const survivorWasIn = survivorLists.has(item.list_id);
      recorded.push({ ...item, survivorWasIn });
      if (!survivorWasIn) await repo.addListItem(tx, resource, actor.tenantId, item.list_id, survivorId);
    }
    return recorded;
  },

  undoMerge: async ({ tx, actor }, { resource, survivorId, otherId }, recorded) => {
    if (!resource.listItem) return;
    for (const item of recorded as MergedMembership[]) {
      await repo.restoreMembership(tx, resource, actor.tenantId, item.list_id, otherId, item.position);
      if (!item.survivorWasIn) await repo.deleteItem(tx, item.list_id, survivorId);
    }
  },

  bulkActions: (resource) => (resource.listItem ? [addToList] : []),
};

/**
 * POST {resource}/bulk/ {action: "add_to_list", list}: each row joins the list through the
 * engine's write (so `afterWrite` above applies it, with the list's auto-tagging, history and
 * audit). The undo takes the row out of the list again, with the keywords auto-tagging gave it.
 * The operation record keeps `{list, rows: [{id, added}]}`.
 */
const addToList: BulkActionHook = {
  name: 'add_to_list',
  parameter: 'list',
  schema: AddToListParameter.properties.list,
  parse: (value) =>
    typeof value === 'string' && isUuid(value) ? { ok: true, value: value.toLowerCase() } : { ok: false, message: 'Must be the id of a list.' },

  // The list must be one of the rows' kind that the writer sees; locked, so it is not deleted meanwhile.
  check: async ({ tx, actor }, { service, parameter }) => {
    const listKind = service.resource.listItem!.listKind;
    const [list] = await lockRows(tx, service.catalog.get('lists'), visibleTo(actor.access), [parameter as string]);
    if (!list || list['kind'] !== listKind) throw fieldError('list', `Unknown ${listKind} id ${String(parameter)}.`);
  },

  apply: async (ctx, { service, parameter }, row) => {
    const listId = parameter as string;
    const lists = await allLists(ctx.tx, service.resource, row);
    if (lists.includes(listId)) return null;
    const keywords = idsOf(row['keywords']);
    const after = await service.write(ctx, row, { values: {}, extra: { lists: [...lists, listId] } });
    // The list's auto-tagging may have given the row keywords: the undo takes them away again.
    return { added: idsOf(after['keywords']).filter((keyword) => !keywords.includes(keyword)) };
  },

  undo: async (ctx, { service, parameter }, row, recorded) => {
    const added = (recorded['added'] as string[] | undefined) ?? [];
    const keywords = idsOf(row['keywords']);
    const input = keywords.some((keyword) => added.includes(keyword))
      ? service.parseInput({ keywords: keywords.filter((keyword) => !added.includes(keyword)) }, row, ctx.actor.access)
      : { values: {} };
    input.extra = { lists: (await allLists(ctx.tx, service.resource, row)).filter((listId) => listId !== parameter) };
    await service.write(ctx, row, input);
    return true;
  },
};

/** Every list a row is in, whoever may see it (the write keeps the ones the writer cannot see). */
async function allLists(tx: Tx, resource: Resource, row: Row): Promise<string[]> {
  return ((await repo.listsOfItems(tx, resource, visibleTo('admin'), [row.id])).get(row.id) ?? []).map((entry) => entry.id);
}

/** A membership of the other record at a merge, and whether the survivor was in the list already. */
interface MergedMembership {
  list_id: string;
  position: number;
  survivorWasIn: boolean;
}

/** `lists` in a write: the ids of the lists the record is an item of. */
function parseListIds(input: unknown): ParsedValue {
  if (!Array.isArray(input) || input.some((item) => typeof item !== 'string' || !isUuid(item))) {
    return { ok: false, message: 'Must be a list of list ids.' };
  }
  // Ids are compared with the database's lower-case ones.
  return { ok: true, value: [...new Set((input as string[]).map((id) => id.toLowerCase()))] };
}

/** Ids of the lists a row is in that a reader at `access` does not see. */
async function unseenLists(tx: Tx, resource: Resource, access: AccessLevel, rowId: string): Promise<string[]> {
  const seen = new Set(((await repo.listsOfItems(tx, resource, visibleTo(access), [rowId])).get(rowId) ?? []).map((entry) => entry.id));
  return (await allLists(tx, resource, { id: rowId })).filter((listId) => !seen.has(listId));
}

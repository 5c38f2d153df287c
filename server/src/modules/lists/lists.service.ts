/**
 * Lists beyond the engine's CRUD: a list by its kind and slug (earlier slugs
 * redirect), and its ordered items — each presented by its own resource's
 * service, so what a reader sees of an item is what they see on its page.
 * Adding, removing and reordering items are writes of the list and of the
 * item: the engine's write rule (assertMayWrite) applies to both, whoever
 * calls — a route, a job or a script.
 */
import type { AccessLevel, RelatedRef } from '../../contracts.ts';
import type { Tx } from '../../db/client.ts';
import { ApiError, fieldError, itemError, notFound } from '../../resources/errors.ts';
import { diff } from '../../resources/audit.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import type { Row } from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';
import { isUuid, type ListPage, type ResourceService } from '../../resources/service.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { LIST_KIND_SEGMENTS, lists, segmentOf } from './lists.resource.ts';
import * as repo from './lists.repository.ts';

/** At most this many items are reordered by one request. */
export const MAX_REORDER = 1000;

/** What a kind's list holds, in words ("organizations list"). */
const listWords = (kind: string) => `${segmentOf(kind)} list`;

export type ListLookup = { record: Record<string, unknown>; moved: false } | { moved: true; id: string; kind: string; slug: string };

export class ListsService {
  private readonly lists: ResourceService;
  private readonly items = new Map<string, ResourceService>();

  constructor(services: ResourceServices) {
    this.lists = services.get(lists.kind);
    for (const resource of services.catalog.resources) {
      if (resource.listItem) this.items.set(resource.listItem.listKind, services.get(resource.kind));
    }
  }

  /** The service of the records a list of `kind` holds, or a 400 when no resource serves them yet. */
  private itemService(kind: string): ResourceService {
    const service = this.items.get(kind);
    if (!service) throw fieldError('id', `Items cannot be added to ${article(listWords(kind))} ${listWords(kind)} yet.`);
    return service;
  }

  private async findList(tx: Tx, access: AccessLevel, listId: string): Promise<Row> {
    return this.lists.findReadable(tx, access, listId);
  }

  /** GET lists/{segment}/{slug or id}/: the list, or where it moved when an earlier slug is used. */
  async bySlug({ tx, actor }: EngineContext, segment: string, slug: string): Promise<ListLookup> {
    const kind = LIST_KIND_SEGMENTS[segment];
    if (!kind) throw notFound('List not found.');
    const access = actor.access;
    const found = await repo.findSlug(tx, kind, slug);
    const listId = found?.id ?? (isUuid(slug) ? slug : null);
    if (listId === null) throw notFound('List not found.');
    const row = await this.findList(tx, access, listId);
    if (row['kind'] !== kind) throw notFound('List not found.');
    if (found?.moved) return { moved: true, id: row.id, kind, slug: String(row['slug']) };
    return { moved: false, record: (await this.lists.presentRows(tx, access, [row]))[0]! };
  }

  /** GET lists/{id}/items/: one page of the items the caller may see, in the list's order. */
  async listItems({ tx, actor }: EngineContext, listId: string, page: { limit: number; offset: number }): Promise<ListPage> {
    const access = actor.access;
    const visible = visibleTo(access);
    const { limit, offset } = page;
    const list = await this.findList(tx, access, listId);
    const service = this.items.get(String(list['kind']));
    if (!service) return { count: 0, offset, limit, results: [] };
    const rows = await repo.selectItems(tx, service.resource, list.id, visible, limit, offset);
    const count = await repo.countItems(tx, service.resource, list.id, visible);
    return { count, offset, limit, results: await service.presentRows(tx, access, rows) };
  }

  /**
   * POST lists/{id}/items/ {id}: appends a record of the list's kind (nothing
   * changes when it is already there). With auto_tagging on, the record
   * receives the list's keywords.
   */
  async addItem(ctx: EngineContext, listId: string, body: unknown): Promise<{ added: boolean; item: Record<string, unknown> }> {
    const { tx, actor: writer } = ctx;
    this.lists.assertMayWrite(writer);
    const itemId = parseItemId(body);
    const list = await this.findList(tx, writer.access, listId);
    await repo.lockList(tx, list.id);
    const kind = String(list['kind']);
    const service = this.itemService(kind);
    service.assertMayWrite(writer);
    const item = await this.findItem(tx, writer.access, service, kind, itemId);
    const before = (await service.presentRows(tx, 'admin', [item]))[0]!;
    const added = await repo.addListItem(tx, service.resource, writer.tenantId, list.id, item.id);
    if (added) {
      const after = (await service.presentRows(tx, 'admin', [(await service.findVisible(tx, 'admin', item.id))]))[0]!;
      await service.audit(ctx, 'update', item.id, after['display_name'], diff(before, after));
      await this.recordListChange(ctx, list, { items: { from: null, to: refOf(after, service.resource) } });
    }
    const current = await service.findVisible(tx, 'admin', item.id);
    return { added, item: (await service.presentRows(tx, writer.access, [current]))[0]! };
  }

  /** DELETE lists/{id}/items/{itemId}/: the record leaves the list (its keywords stay). */
  async removeItem(ctx: EngineContext, listId: string, itemId: string): Promise<void> {
    const { tx, actor: writer } = ctx;
    this.lists.assertMayWrite(writer);
    const list = await this.findList(tx, writer.access, listId);
    const service = this.items.get(String(list['kind']));
    const item = service && isUuid(itemId) ? await findOrNull(service, tx, writer.access, itemId) : null;
    if (!service || !item) throw notFound('That record is not an item of this list.');
    service.assertMayWrite(writer);
    const before = (await service.presentRows(tx, 'admin', [item]))[0]!;
    if (!(await repo.deleteItem(tx, list.id, item.id))) throw notFound('That record is not an item of this list.');
    const after = (await service.presentRows(tx, 'admin', [item]))[0]!;
    await service.audit(ctx, 'update', item.id, after['display_name'], diff(before, after));
    await this.recordListChange(ctx, list, { items: { from: refOf(before, service.resource), to: null } });
  }

  /**
   * PUT lists/{id}/items/order/ {ids}: the items named are put in that order,
   * in the places they held together; other items (e.g. ones the writer may
   * not see) keep theirs.
   */
  async reorder(ctx: EngineContext, listId: string, body: unknown): Promise<void> {
    const { tx, actor: writer } = ctx;
    this.lists.assertMayWrite(writer);
    const ids = parseIds(body);
    const list = await this.findList(tx, writer.access, listId);
    await repo.lockList(tx, list.id);
    const service = this.items.get(String(list['kind']));
    const members = new Set(service ? await repo.itemsInOrder(tx, list.id, ids) : []);
    const visible = new Set(service ? await repo.visibleIds(tx, service.resource, visibleTo(writer.access), [...members]) : []);
    const bad = ids.findIndex((value) => !members.has(value) || !visible.has(value));
    if (bad >= 0) throw itemError('ids', bad, `${ids[bad]} is not an item of this list.`);
    const before = await repo.itemsInOrder(tx, list.id, ids);
    await repo.reorderItems(tx, list.id, ids);
    if (before.some((value, index) => value !== ids[index])) {
      await this.recordListChange(ctx, list, { item_order: { from: before, to: ids } });
    }
  }

  /** The record to add: of the list's kind and visible to the writer, else a 400 saying what is wrong. */
  private async findItem(tx: Tx, access: AccessLevel, service: ResourceService, kind: string, itemId: string): Promise<Row> {
    const found = await findOrNull(service, tx, access, itemId);
    if (found) return found;
    const wanted = service.resource.label.toLowerCase();
    for (const [otherKind, other] of this.items) {
      if (otherKind === kind || !(await findOrNull(other, tx, access, itemId))) continue;
      const label = other.resource.label.toLowerCase();
      throw fieldError('id', `That is ${article(label)} ${label}; ${article(listWords(kind))} ${listWords(kind)} holds only ${plural(wanted)}.`);
    }
    throw fieldError('id', `Unknown ${wanted} id ${itemId}.`);
  }

  /** Adding, removing and reordering items change the list: its updated_at and history say so. */
  private async recordListChange(ctx: EngineContext, list: Row, changes: Record<string, { from: unknown; to: unknown }>): Promise<void> {
    await repo.touchList(ctx.tx, list.id, responsibleUser(ctx.actor)?.id ?? null);
    await this.lists.audit(ctx, 'update', list.id, list['display_name'], changes);
  }
}

/** The record when the caller may see it; null when it does not exist for them. */
async function findOrNull(service: ResourceService, tx: Tx, access: AccessLevel, rowId: string): Promise<Row | null> {
  try {
    return await service.findVisible(tx, access, rowId);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) return null;
    throw error;
  }
}

const article = (words: string) => (/^[aeiou]/i.test(words) ? 'an' : 'a');

/** "organization" → "organizations", "person" → "people", "library entry" → "library entries". */
function plural(noun: string): string {
  if (noun.endsWith('person')) return `${noun.slice(0, -6)}people`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function refOf(record: Record<string, unknown>, resource: Resource): RelatedRef {
  return { id: String(record['id']), display_name: (record['display_name'] as string | null) ?? null, kind: resource.kind };
}

function parseItemId(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'invalid', 'The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object like {"id": "…"}.'] });
  }
  const raw = (body as { id?: unknown }).id;
  if (raw === undefined || raw === null || raw === '') throw fieldError('id', 'This field is required.');
  if (typeof raw !== 'string' || !isUuid(raw.trim())) throw fieldError('id', 'Must be the id of a record.');
  return raw.trim().toLowerCase();
}

function parseIds(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'invalid', 'The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object like {"ids": ["…"]}.'] });
  }
  const raw = (body as { ids?: unknown }).ids;
  if (raw === undefined || raw === null) throw fieldError('ids', 'This field is required.');
  if (!Array.isArray(raw)) throw fieldError('ids', 'Must be a list of item ids.');
  if (raw.length === 0) throw fieldError('ids', 'Name at least one item.');
  if (raw.length > MAX_REORDER) throw fieldError('ids', `Ensure this list has no more than ${MAX_REORDER} items.`);
  const ids: string[] = [];
  for (const [index, value] of raw.entries()) {
    if (typeof value !== 'string' || !isUuid(value.trim())) throw itemError('ids', index, 'Must be the id of a record.');
    const normalized = value.trim().toLowerCase();
    if (ids.includes(normalized)) throw itemError('ids', index, `${normalized} is listed twice.`);
    ids.push(normalized);
  }
  return ids;
}

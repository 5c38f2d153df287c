/**
 * The rules of every resource: who sees which rows, how input becomes column
 * values (field errors, never a partial write), and how rows are presented.
 * Routes stay thin; only repository.ts writes SQL.
 */
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/client.ts';
import { badRequest, notFound, type FieldErrors } from '../http/errors.ts';
import { incompleteDateFlags } from './fields.ts';
import type { ListQuery } from './list-query.ts';
import { filterNames } from './list-query.ts';
import * as repo from './repository.ts';
import type { Resource } from './resource.ts';
import { normalizeName } from './values.ts';
import { visibleTo } from './visibility.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);

/** Keys a client may send back unchanged (e.g. from a GET) that are not writable. */
const READ_ONLY = ['id', 'created_at', 'updated_at', 'created_by', 'updated_by', 'display_name', 'lists_as_item'];

export interface ParsedInput {
  values: Record<string, unknown>;
  /** List ids when the input sets the lists the row is an item of. */
  lists?: string[];
}

export interface ListPage {
  count: number;
  count_is_estimate?: boolean;
  next: string | null;
  previous: string | null;
  results: Array<Record<string, unknown>>;
}

export class ResourceService {
  constructor(readonly resource: Resource) {}

  private readonlyKeys(): string[] {
    const flags = Object.entries(this.resource.fields).flatMap(([name, field]) =>
      field.columns(name).length === 4 ? incompleteDateFlags(name) : [],
    );
    return [...READ_ONLY, ...flags];
  }

  /** Validates input for create (all fields) or patch (only those sent). */
  parseInput(body: unknown, current: repo.Row | null): ParsedInput {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object.'] });
    }
    const errors: FieldErrors = {};
    const values: Record<string, unknown> = {};
    let lists: string[] | undefined;
    const readOnly = this.readonlyKeys();
    for (const [name, input] of Object.entries(body as Record<string, unknown>)) {
      if (input === undefined) continue;
      const field = this.resource.fields[name];
      if (field) {
        const parsed = field.parse(input, name);
        if (parsed.ok) Object.assign(values, parsed.value);
        else errors[name] = [parsed.message];
      } else if (name === 'lists' && this.resource.listItem) {
        if (!Array.isArray(input) || input.some((item) => typeof item !== 'string' || !isUuid(item))) {
          errors[name] = ['Must be a list of list ids.'];
        } else {
          lists = [...new Set(input as string[])];
        }
      } else if (!readOnly.includes(name)) {
        errors[name] = ['Unknown field.'];
      }
    }

    const identity = this.resource.identity;
    if (identity) {
      const merged = { ...(current ?? {}), ...values };
      const names = identity.names.map((name) => merged[name]).filter((value): value is string => typeof value === 'string' && value !== '');
      if (names.length === 0 && !identity.names.some((name) => errors[name])) {
        errors[identity.names[0]!] = [`Provide at least one of: ${identity.names.join(', ')}.`];
      }
      const keyNames = identity.nameKeys ? identity.nameKeys(merged) : names;
      const keys = keyNames.filter((name): name is string => typeof name === 'string').map(normalizeName);
      values['name_keys'] = [...new Set(keys.filter(Boolean))];
    }

    if (Object.keys(errors).length > 0) {
      const [field, messages] = Object.entries(errors)[0]!;
      throw badRequest(`${field}: ${messages[0]}`, errors);
    }
    return lists === undefined ? { values } : { values, lists };
  }

  present(row: repo.Row, lists?: Array<{ id: string; name: string; slug: string; kind: string }>): Record<string, unknown> {
    const output: Record<string, unknown> = { id: row.id, display_name: row['display_name'] ?? null };
    for (const [name, field] of Object.entries(this.resource.fields)) {
      output[name] = field.present(row, name);
      if (field.columns(name).length === 4) {
        for (const flag of incompleteDateFlags(name)) output[flag] = Boolean(row[flag]);
      }
    }
    if (this.resource.listItem) {
      output['lists'] = (lists ?? []).map((entry) => entry.id);
      output['lists_as_item'] = lists ?? [];
    }
    output['created_at'] = timestamp(row['created_at']);
    output['updated_at'] = timestamp(row['updated_at']);
    output['updated_by'] = row['updated_by'] ?? null;
    return output;
  }

  private async presentRows(tx: Tx, request: FastifyRequest, rows: repo.Row[]) {
    const lists = await repo.listsOfItems(tx, this.resource, visibleTo(request.principal.access), rows.map((row) => row.id));
    return rows.map((row) => this.present(row, lists.get(row.id)));
  }

  async list(request: FastifyRequest, listQuery: ListQuery): Promise<ListPage> {
    const visible = visibleTo(request.principal.access);
    return request.tx(async (tx) => {
      const rows = await repo.selectPage(tx, this.resource, visible, listQuery);
      const unfiltered = !listQuery.search && Object.keys(listQuery.filters).length === 0;
      const { count, estimate } = unfiltered
        ? { count: await repo.countFromCounters(tx, this.resource.kind, visible), estimate: false }
        : await repo.countMatching(tx, this.resource, visible, listQuery);
      const page: ListPage = {
        count,
        next: listQuery.offset + rows.length < count ? pageUrl(request, listQuery.offset + listQuery.limit, listQuery.limit) : null,
        previous: listQuery.offset > 0 ? pageUrl(request, Math.max(0, listQuery.offset - listQuery.limit), listQuery.limit) : null,
        results: await this.presentRows(tx, request, rows),
      };
      if (estimate) page.count_is_estimate = true;
      return page;
    });
  }

  async get(request: FastifyRequest, rowId: string): Promise<Record<string, unknown>> {
    return request.tx(async (tx) => {
      const row = await this.findVisible(tx, request, rowId);
      return (await this.presentRows(tx, request, [row]))[0]!;
    });
  }

  async create(request: FastifyRequest, body: unknown): Promise<Record<string, unknown>> {
    const input = this.parseInput(body, null);
    const userId = request.principal.user?.id ?? null;
    return request.tx(async (tx) => {
      const rowId = await repo.insertRow(tx, this.resource, request.tenant!.id, { ...input.values, created_by: userId, updated_by: userId });
      await this.applyLists(tx, request, rowId, input.lists);
      // The creator sees what they wrote, even when its visibility hides it from them later.
      const row = await repo.selectOne(tx, this.resource, visibleTo('admin'), rowId);
      return (await this.presentRows(tx, request, [row!]))[0]!;
    });
  }

  async update(request: FastifyRequest, rowId: string, body: unknown): Promise<Record<string, unknown>> {
    return request.tx(async (tx) => {
      const current = await this.findVisible(tx, request, rowId);
      const input = this.parseInput(body, current);
      await repo.updateRow(tx, this.resource, rowId, { ...input.values, updated_by: request.principal.user?.id ?? null });
      await this.applyLists(tx, request, rowId, input.lists);
      const row = await repo.selectOne(tx, this.resource, visibleTo('admin'), rowId);
      return (await this.presentRows(tx, request, [row!]))[0]!;
    });
  }

  /** Hard delete; list memberships go with the row (foreign keys cascade). */
  async remove(request: FastifyRequest, rowId: string): Promise<void> {
    await request.tx(async (tx) => {
      await this.findVisible(tx, request, rowId);
      await repo.deleteRow(tx, this.resource, rowId);
    });
  }

  async availableFilters(request: FastifyRequest) {
    const visible = visibleTo(request.principal.access);
    return request.tx(async (tx) => {
      const filters = [];
      for (const name of filterNames(this.resource)) {
        const field = this.resource.fields[name]!;
        const values = await repo.filterValues(tx, this.resource, visible, name);
        filters.push({
          name,
          type: field.filter === 'boolean' ? 'boolean' : 'choice',
          values: values.map((entry) => ({ value: entry.value, count: entry.count })),
        });
      }
      return { filters };
    });
  }

  private async findVisible(tx: Tx, request: FastifyRequest, rowId: string): Promise<repo.Row> {
    const row = isUuid(rowId) ? await repo.selectOne(tx, this.resource, visibleTo(request.principal.access), rowId) : null;
    if (!row) throw notFound(`${this.resource.label} not found.`);
    return row;
  }

  private async applyLists(tx: Tx, request: FastifyRequest, rowId: string, lists: string[] | undefined): Promise<void> {
    if (lists === undefined) return;
    const missing = await repo.setListMemberships(tx, this.resource, request.tenant!.id, rowId, lists);
    if (missing.length > 0) {
      throw badRequest(`lists: Unknown list id ${missing[0]}.`, { lists: missing.map((listId) => `Unknown ${this.resource.listItem!.listKind} id ${listId}.`) });
    }
  }
}

function timestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

function pageUrl(request: FastifyRequest, offset: number, limit: number): string {
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(limit));
  return `${url.pathname}${url.search}`;
}

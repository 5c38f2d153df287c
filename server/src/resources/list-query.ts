/**
 * Parses a list request's query string (limit, offset, ordering, search and
 * declared filters) into a ListQuery, rejecting anything unknown or malformed
 * with a 400 that names the parameter.
 */
import { fieldError } from '../http/errors.ts';
import { isUuid } from './values.ts';
import type { Resource } from './resource.ts';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
export const DEFAULT_ORDERING = '-updated_at';
/** Always orderable, whatever the declaration says. */
export const COMMON_ORDERING = ['created_at', 'updated_at', 'display_name'];
/** Always filterable on every resource. */
export const COMMON_FILTERS = ['visibility', 'show_on_dashboard'];
/** `ordering=relevance`: a search's results ranked by where they match (see ListQuery.ranked). */
export const RELEVANCE = 'relevance';
const RESERVED = ['limit', 'offset', 'ordering', 'search', 'format'];
export const MAX_SEARCH_LENGTH = 200;

export interface OrderTerm {
  field: string;
  descending: boolean;
}

/** One page of results as services return it; the HTTP layer adds the page links (http/pages.ts). */
export interface ResultPage<T> {
  count: number;
  /** A filtered count is exact up to a cap, then estimated. */
  count_is_estimate?: boolean;
  offset: number;
  limit: number;
  results: T[];
}

export interface ListQuery {
  limit: number;
  offset: number;
  ordering: OrderTerm[];
  search: string | null;
  /**
   * Whether rows come by relevance (`ordering=relevance` with a search): names
   * starting with the search text first, then records with a name word
   * starting with it, then those matching elsewhere — each in the default order.
   */
  ranked: boolean;
  /** Filter field → accepted values (OR within a field, AND across fields). */
  filters: Record<string, string[]>;
  format: 'json' | 'xlsx';
  /**
   * How the search is matched: through the full-text index (default) or by
   * the tenant's rows. Never parsed from a request: the engine sets it from
   * the search's statistics (search-statistics.ts); the same rows match.
   */
  searchBy?: 'index' | 'scan';
}

export function filterNames(resource: Resource): string[] {
  return [...COMMON_FILTERS.filter((name) => name in resource.fields), ...resource.filters];
}

/** The range filters of a resource's timestamps: `<name>_after` and `<name>_before`, with their column and comparison. */
export interface RangeFilter {
  column: string;
  operator: '>=' | '<';
}

export function rangeFilters(resource: Resource): Map<string, RangeFilter> {
  const ranges = new Map<string, RangeFilter>();
  for (const column of resource.dateRanges ?? []) {
    ranges.set(`${column}_after`, { column, operator: '>=' });
    ranges.set(`${column}_before`, { column, operator: '<' });
  }
  return ranges;
}

const DATE_OR_TIME_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A range filter's value as an ISO date-time, or a 400 naming the parameter. */
function rangeValue(name: string, values: string[]): string {
  if (values.length !== 1) throw fieldError(name, 'Give one date or date-time.');
  const value = values[0]!;
  const time = DATE_OR_TIME_RE.test(value) ? Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value) : NaN;
  if (!Number.isFinite(time)) throw fieldError(name, 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time.');
  return new Date(time).toISOString();
}

export function orderingNames(resource: Resource): string[] {
  return [...COMMON_ORDERING, ...resource.ordering];
}

/** A whole-number query parameter: the fallback when absent, 400 naming it when malformed or below min, capped at max. */
export function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw fieldError(name, 'Must be a whole number.');
  const value = Number(raw);
  if (value < min) throw fieldError(name, `Must be at least ${min}.`);
  return Math.min(value, max);
}

/** A list request's parameters: text as sent, or numbers where the route's schema already read them (limit, offset). */
export type ListParameters = Record<string, string | number | string[] | undefined>;

/** A parameter that may be given once, as text (a number the schema read is given back as text). */
export function oneParameter(query: ListParameters, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw fieldError(name, 'Give this parameter once.');
  return value === undefined ? undefined : String(value);
}

/** `name,-created_at` → order terms; a field not allowed is a 400 naming ordering, with the fields there are. */
export function parseOrdering<Field extends string>(text: string, allowed: readonly Field[]): Array<{ field: Field; descending: boolean }> {
  return text
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean)
    .map((term) => {
      const descending = term.startsWith('-');
      const field = descending ? term.slice(1) : term;
      if (!(allowed as readonly string[]).includes(field)) {
        throw fieldError('ordering', `Unknown field "${field}". Order by one of: ${allowed.join(', ')}.`);
      }
      return { field: field as Field, descending };
    });
}

export function parseListQuery(resource: Resource, query: ListParameters): ListQuery {
  const one = (name: string) => oneParameter(query, name);

  const limit = integer('limit', one('limit'), DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = integer('offset', one('offset'), 0, 0, Number.MAX_SAFE_INTEGER);

  const allowedOrdering = orderingNames(resource);
  const searchRaw = one('search')?.trim() ?? '';
  if (searchRaw.length > MAX_SEARCH_LENGTH) throw fieldError('search', `Ensure this has no more than ${MAX_SEARCH_LENGTH} characters.`);
  const orderingParam = one('ordering');
  const ranked = orderingParam?.trim() === RELEVANCE;
  if (ranked && !searchRaw) throw fieldError('ordering', 'Order by relevance only with a search.');
  const ordering = parseOrdering((ranked ? undefined : orderingParam) || resource.defaultOrdering || DEFAULT_ORDERING, allowedOrdering);


  const format = one('format') ?? 'json';
  if (format !== 'json' && format !== 'xlsx') throw fieldError('format', 'Must be json or xlsx.');

  const ranges = rangeFilters(resource);
  const allowedFilters = [...filterNames(resource), ...ranges.keys()];
  const filters: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (RESERVED.includes(name) || raw === undefined) continue;
    if (!allowedFilters.includes(name)) {
      throw fieldError(name, `Unknown filter. Filter by one of: ${allowedFilters.join(', ')}.`);
    }
    const values = (Array.isArray(raw) ? raw : [String(raw)])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
    if (values.length === 0) continue;
    if (ranges.has(name)) {
      filters[name] = [rangeValue(name, values)];
      continue;
    }
    const field = resource.fields[name]!;
    if (field.filter === 'boolean') {
      const booleans = values.map((value) => value.toLowerCase());
      if (booleans.some((value) => value !== 'true' && value !== 'false')) throw fieldError(name, 'Must be true or false.');
      filters[name] = [...new Set(booleans)];
    } else {
      if (field.choices && values.some((value) => !field.choices!.includes(value))) {
        throw fieldError(name, `Must be one of: ${field.choices.join(', ')}.`);
      }
      // Values the column cannot hold would otherwise fail in the database.
      if (field.relation && values.some((value) => !isUuid(value))) throw fieldError(name, 'Must be record ids.');
      if (field.kind === 'integer' && values.some((value) => !/^-?\d{1,9}$/.test(value))) throw fieldError(name, 'Must be whole numbers (at most 9 digits).');
      if (field.kind === 'decimal' && values.some((value) => !/^-?\d{1,15}(\.\d+)?$/.test(value))) throw fieldError(name, 'Must be numbers.');
      filters[name] = [...new Set(field.relation ? values.map((value) => value.toLowerCase()) : values)];
    }
  }

  if (searchRaw && !resource.search) throw fieldError('search', 'This list cannot be searched.');
  return { limit, offset, ordering, search: searchRaw || null, ranked, filters, format };
}

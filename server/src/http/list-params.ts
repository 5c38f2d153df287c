/**
 * Paging, ordering, search and boolean filters for list routes that are not
 * resource-engine entities (users, tenants): the same parameters and the same
 * `{count, next, previous, results}` answer as the engine's lists (links: pages.ts).
 */
import { DEFAULT_LIMIT, MAX_LIMIT } from '../resources/list-query.ts';
import { fieldError } from './errors.ts';

const MAX_SEARCH_LENGTH = 200;

export interface ListSpec<Field extends string, Filter extends string> {
  /** Fields a client may order by. */
  ordering: readonly Field[];
  /** Ordering when the request gives none, e.g. "email". */
  defaultOrdering: string;
  /** Boolean columns that can be filtered with ?name=true|false. */
  booleanFilters: readonly Filter[];
}

export interface ListParams<Field extends string, Filter extends string> {
  limit: number;
  offset: number;
  ordering: Array<{ field: Field; descending: boolean }>;
  search: string | null;
  filters: Partial<Record<Filter, boolean>>;
}

type Query = Record<string, string | string[] | undefined>;

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw fieldError(name, 'Give this parameter once.');
  return value;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw fieldError(name, 'Must be a whole number.');
  const value = Number(raw);
  if (value < min) throw fieldError(name, `Must be at least ${min}.`);
  return Math.min(value, max);
}

/** Reads a list request's query string; anything unknown or malformed is a 400 naming the parameter. */
export function parseListParams<Field extends string, Filter extends string>(
  spec: ListSpec<Field, Filter>,
  query: Query,
): ListParams<Field, Filter> {
  const limit = integer('limit', single(query, 'limit'), DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = integer('offset', single(query, 'offset'), 0, 0, Number.MAX_SAFE_INTEGER);

  const ordering = (single(query, 'ordering') || spec.defaultOrdering)
    .split(',')
    .map((term) => term.trim())
    .filter(Boolean)
    .map((term) => {
      const descending = term.startsWith('-');
      const field = (descending ? term.slice(1) : term) as Field;
      if (!spec.ordering.includes(field)) {
        throw fieldError('ordering', `Unknown field "${field}". Order by one of: ${spec.ordering.join(', ')}.`);
      }
      return { field, descending };
    });

  const search = single(query, 'search')?.trim() ?? '';
  if (search.length > MAX_SEARCH_LENGTH) throw fieldError('search', `Ensure this has no more than ${MAX_SEARCH_LENGTH} characters.`);

  const filters: Partial<Record<Filter, boolean>> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (['limit', 'offset', 'ordering', 'search'].includes(name) || raw === undefined) continue;
    if (!spec.booleanFilters.includes(name as Filter)) {
      const known = spec.booleanFilters.length > 0 ? ` Filter by one of: ${spec.booleanFilters.join(', ')}.` : '';
      throw fieldError(name, `Unknown filter.${known}`);
    }
    const value = single(query, name)!.trim().toLowerCase();
    if (value === '') continue;
    if (value !== 'true' && value !== 'false') throw fieldError(name, 'Must be true or false.');
    filters[name as Filter] = value === 'true';
  }

  return { limit, offset, ordering, search: search || null, filters };
}

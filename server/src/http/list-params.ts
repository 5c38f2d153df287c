/**
 * Paging, ordering, search and boolean filters for list routes that are not
 * resource-engine entities (users, tenants): the same parameters and the same
 * `{count, next, previous, results}` answer as the engine's lists (links: pages.ts).
 * As there, the route's schema (listQuerystring) types each parameter, and
 * parseListParams checks what depends on the list: its ordering fields and filters.
 */
import { Type } from 'typebox';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_SEARCH_LENGTH, oneParameter, parseOrdering, parsePaging, type ListParameters } from '../resources/list-query.ts';
import { fieldError } from './errors.ts';

export interface ListSpec<Field extends string, Filter extends string> {
  /** Fields a client may order by. */
  ordering: readonly Field[];
  /** Ordering when the request gives none, e.g. "email". */
  defaultOrdering: string;
  /** Boolean columns that can be filtered with ?name=true|false. */
  booleanFilters: readonly Filter[];
  /** What search looks in, for the API's documentation ("Part of the email or alias"). */
  searched: string;
}

export interface ListParams<Field extends string, Filter extends string> {
  limit: number;
  offset: number;
  ordering: Array<{ field: Field; descending: boolean }>;
  search: string | null;
  filters: Partial<Record<Filter, boolean>>;
}

/** A filter's value as a query string brings it: once, or repeated (which the parser names). */
export const FilterParam = Type.Union([Type.String(), Type.Array(Type.String())]);

/**
 * The schema of `limit` and `offset`, as every list declares them; the handler reads them with
 * parsePaging (resources/list-query.ts), which checks them whatever the schema let through (a
 * query string's 1e309 is read as Infinity, which Ajv's integer and maximum let pass).
 */
export function limitOffsetParams(options: { defaultLimit?: number; maxLimit?: number; per?: string } = {}) {
  const max = options.maxLimit ?? MAX_LIMIT;
  return {
    limit: Type.Optional(Type.Integer({
      minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: options.defaultLimit ?? DEFAULT_LIMIT,
      description: `${options.per ?? 'Rows per page'}; more than ${max} gives ${max}`,
    })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  };
}

/** limit, offset, ordering and search, as every list takes them (the engine's too). */
export function pagingParams(ordering: string, searched?: string) {
  return {
    ...limitOffsetParams(),
    ordering: Type.Optional(Type.String({ description: ordering })),
    search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_LENGTH, ...(searched ? { description: searched } : {}) })),
  };
}

/**
 * The query string of such a list. Filter values and names are left to parseListParams, as
 * the engine leaves them to parseListQuery: an empty value is no filter, and an unknown name
 * is answered with the ones there are.
 */
export function listQuerystring<Field extends string, Filter extends string>(spec: ListSpec<Field, Filter>) {
  return Type.Object(
    {
      ...pagingParams(`Default ${spec.defaultOrdering}. One of ${spec.ordering.join(', ')}; -field for descending.`, spec.searched),
      ...Object.fromEntries(spec.booleanFilters.map((name) => [name, Type.Optional(Type.String({ description: 'true or false' }))])),
    },
    { additionalProperties: FilterParam },
  );
}

const PAGING = ['limit', 'offset', 'ordering', 'search'];

/** Reads a list request's query string, which listQuerystring has typed; what the list does not know is a 400 naming it. */
export function parseListParams<Field extends string, Filter extends string>(
  spec: ListSpec<Field, Filter>,
  query: ListParameters,
): ListParams<Field, Filter> {
  const single = (name: string) => oneParameter(query, name);
  const ordering = parseOrdering(single('ordering') || spec.defaultOrdering, spec.ordering);
  const filters: Partial<Record<Filter, boolean>> = {};
  for (const name of Object.keys(query)) {
    if (PAGING.includes(name) || query[name] === undefined) continue;
    if (!spec.booleanFilters.includes(name as Filter)) {
      const known = spec.booleanFilters.length > 0 ? ` Filter by one of: ${spec.booleanFilters.join(', ')}.` : '';
      throw fieldError(name, `Unknown filter.${known}`);
    }
    const value = single(name)!.trim().toLowerCase();
    if (value === '') continue;
    if (value !== 'true' && value !== 'false') throw fieldError(name, 'Must be true or false.');
    filters[name as Filter] = value === 'true';
  }

  return {
    ...parsePaging(query),
    ordering,
    search: single('search')?.trim() || null,
    filters,
  };
}

/**
 * Parses a list request's query string (limit, offset, ordering, search and
 * the lookups of declared fields) into a ListQuery, rejecting anything unknown
 * or malformed with a 400 that names the parameter.
 */
import { LOOKUPS, MAX_LIMIT, type AccessLevel, type Lookup } from '../contracts.ts';
import { fieldError } from './errors.ts';
import type { FieldType } from './fields.ts';
import { isUuid, parseIncompleteDate } from './values.ts';
import type { Resource } from './resource.ts';
import { linkHops } from './catalog.ts';
import { mayReadField, mayReadResource } from './visibility.ts';

export const DEFAULT_LIMIT = 25;
/** Declared with the API contracts, where the Operator's query limit names it too. */
export { MAX_LIMIT };
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
  /** A search that found little as typed, answered with words like those typed too (service.ts `list`). */
  search_includes_similar?: boolean;
  /** With `search_includes_similar`: the words like those typed the search matched too (folded, as stored). */
  similar_words?: string[];
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
  /**
   * List parameter → its values as the database compares them (AND across parameters):
   * `<field>` any of the values, `<field>__<lookup>` a lookup (lookupOf), `<timestamp>_after`
   * and `_before` a range. A date's comparison holds the bound of its period (dateBound).
   */
  filters: Record<string, string[]>;
  format: 'json' | 'xlsx';
  /**
   * How the search is matched: through the full-text index (default) or by
   * the tenant's rows. Never parsed from a request: the engine sets it from
   * the search's statistics (search-statistics.ts); the same rows match.
   */
  searchBy?: 'index' | 'scan';
  /**
   * The search as a tsquery with each prefix written as the tenant's words that start
   * with it (migration 0170 search_query_in), which the index reads faster than a prefix.
   * Never parsed from a request: set by the engine from the search's statistics; the
   * same rows match as with the prefixes.
   */
  searchQuery?: string | null;
}

export function filterNames(resource: Resource): string[] {
  return [...COMMON_FILTERS.filter((name) => name in resource.fields), ...resource.filters];
}

/**
 * The fields a list can be grouped by (a table's group-by, saved views): its declared filters
 * that hold one value per row — a choice, category, visibility, flag, number or a relation to
 * one record (organizations by ownership type, ledger entries by year, raw data by bucket) —
 * among those a reader at `access` may read. A field of many values (keywords) would put a row
 * in several groups.
 */
export function groupableFields(resource: Resource, access: AccessLevel): string[] {
  return filterNames(resource).filter((name) => {
    const field = resource.fields[name];
    return field !== undefined && !field.multiple && mayReadField(field, access);
  });
}

/**
 * How a list parameter compares a field: is any of (`f=a,b`), is none of (`f__not=a,b`),
 * compares with one value (`f__gt=`, `__gte`, `__lt`, `__lte`), has no value (`f__empty=true`)
 * or has one (`f__empty=false`). The parameter of a lookup is lookupParameter's.
 */
export { LOOKUPS, type Lookup };
const COMPARISONS: readonly Lookup[] = ['gt', 'gte', 'lt', 'lte'];
/** Between a field's name and its lookup in a parameter's name. */
const LOOKUP_SEPARATOR = '__';

/** The list parameter of a field's lookup: the field's name for `is`, `<field>__<lookup>` otherwise. */
export const lookupParameter = (field: string, lookup: Lookup): string => (lookup === 'is' ? field : `${field}${LOOKUP_SEPARATOR}${lookup}`);

/** A parameter's field and lookup (`founding_date__gt` → founding_date, gt); the lookup as written, which may be none of LOOKUPS. */
export function lookupOf(parameter: string): { field: string; lookup: string } {
  const at = parameter.indexOf(LOOKUP_SEPARATOR);
  return at < 0 ? { field: parameter, lookup: 'is' } : { field: parameter.slice(0, at), lookup: parameter.slice(at + LOOKUP_SEPARATOR.length) };
}

/**
 * What a comparable field compares: numbers (integer and decimal fields) or dates (dates and
 * incomplete dates), when the resource orders by it — ordering is what declares a field's
 * values meaningful to rank. Null for any other field.
 */
export function comparableAs(resource: Resource, name: string): 'number' | 'date' | null {
  const field = resource.fields[name];
  if (!field || !resource.ordering.includes(name)) return null;
  if (field.kind === 'integer' || field.kind === 'decimal') return 'number';
  if (field.kind === 'date' || field.kind === 'incomplete_date') return 'date';
  return null;
}

/** Whether a field holds a list of values (emails, phones, URLs, many related records): `__empty` asks for none. */
export const isArrayField = (field: FieldType): boolean => field.multiple === true;


/**
 * The lookups of each field a reader at `access` may filter by, in LOOKUPS order: declared
 * filters are (and are not) any of some values; comparable fields compare; every one of them,
 * and array fields, can be asked to be empty. Fields with none are left out; so are fields the
 * reader may not read (a restricted field, or a relation to records they may not read: visibility.ts
 * mayReadField) — not even named to them.
 */
export function fieldLookups(resource: Resource, access: AccessLevel): Record<string, Lookup[]> {
  const filters = filterNames(resource);
  const lookups: Record<string, Lookup[]> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!mayReadField(field, access)) continue;
    const allowed = new Set<Lookup>();
    if (filters.includes(name)) ['is', 'not', 'empty'].forEach((lookup) => allowed.add(lookup as Lookup));
    if (comparableAs(resource, name)) [...COMPARISONS, 'empty' as const].forEach((lookup) => allowed.add(lookup));
    if (isArrayField(field)) allowed.add('empty');
    if (allowed.size > 0) lookups[name] = LOOKUPS.filter((lookup) => allowed.has(lookup));
  }
  return lookups;
}

/**
 * A date given to a comparison, as a period: `YYYY` a year, `YYYY-MM` a month, `YYYY-MM-DD`
 * a day. `start` is its first day, `next` the first day after it (ISO dates).
 */
export function datePeriod(text: string): { start: string; next: string } | null {
  if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(text)) return null;
  const parsed = parseIncompleteDate(text);
  if (!parsed.ok || !parsed.value) return null;
  const { date, incomplete_month: wholeYear, incomplete_day: wholeMonth } = parsed.value;
  const start = new Date(`${date}T00:00:00Z`);
  const next = new Date(start);
  if (wholeYear) next.setUTCFullYear(next.getUTCFullYear() + 1);
  else if (wholeMonth) next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCDate(next.getUTCDate() + 1);
  // Year 9999's end is past what a date column holds: a "first day after" that far is no bound.
  return { start: date, next: next.getUTCFullYear() > 9999 ? '10000-01-01' : next.toISOString().slice(0, 10) };
}

/**
 * The bound a date comparison is written with (repository.ts): a row's period — a stored
 * incomplete date is a year or a month too — must lie wholly after (gt: after the end of the
 * given period; gte: from its start) or before (lt: before its start; lte: to its end) it.
 * gt and gte compare a row's first day (≥ the bound), lt and lte its first day after (≤ it).
 */
export function dateBound(lookup: 'gt' | 'gte' | 'lt' | 'lte', period: { start: string; next: string }): string {
  return lookup === 'gt' || lookup === 'lte' ? period.next : period.start;
}

const DECIMAL_RE = /^-?\d{1,15}(\.\d+)?$/;

/** A lookup's values as the database compares them, or a 400 naming the parameter. */
function lookupValues(resource: Resource, parameter: string, name: string, lookup: Lookup, values: string[]): string[] {
  const field = resource.fields[name]!;
  if (lookup === 'empty') {
    const value = values.length === 1 ? values[0]!.toLowerCase() : '';
    if (value !== 'true' && value !== 'false') throw fieldError(parameter, 'Must be true (has no value) or false (has one).');
    return [value];
  }
  if (COMPARISONS.includes(lookup)) {
    if (values.length !== 1) throw fieldError(parameter, 'Give one value to compare with.');
    const value = values[0]!;
    if (comparableAs(resource, name) === 'date') {
      const period = datePeriod(value);
      if (!period) throw fieldError(parameter, 'Must be a date: YYYY, YYYY-MM or YYYY-MM-DD.');
      return [dateBound(lookup as 'gt' | 'gte' | 'lt' | 'lte', period)];
    }
    if (field.kind === 'integer') {
      // What the column holds: an integer, or a bigint (integer({ big: true })).
      const digits = field.columnCast === 'bigint' ? 15 : 9;
      if (!new RegExp(`^-?\\d{1,${digits}}$`).test(value)) throw fieldError(parameter, `Must be a whole number (at most ${digits} digits).`);
    } else if (!DECIMAL_RE.test(value)) {
      throw fieldError(parameter, 'Must be a number (at most 15 digits before the point).');
    }
    return [value];
  }
  return equalityValues(parameter, field, values);
}

/**
 * A filter parameter's field and lookup, when the reader may use it (`lookups`: fieldLookups);
 * else a 400 naming the parameter — an unknown field (or one the reader may not read), an
 * unknown lookup, or one the field does not take — with what there is instead.
 */
function checkedLookup(parameter: string, lookups: Record<string, Lookup[]>, ranges: string[]): { field: string; lookup: Lookup } {
  const { field, lookup } = lookupOf(parameter);
  const allowed = Object.hasOwn(lookups, field) ? lookups[field]! : null;
  if (!allowed) {
    const known = [...Object.keys(lookups), ...ranges];
    throw fieldError(parameter, `Unknown filter. Filter by one of: ${known.join(', ')} (see available-filters for each field's lookups).`);
  }
  const takes = allowed.map((one) => lookupParameter(field, one)).join(', ');
  if (!(LOOKUPS as readonly string[]).includes(lookup)) throw fieldError(parameter, `Unknown lookup "${lookup}". ${field} takes: ${takes}.`);
  // `f__is` is refused too: `is` is the field's own name (one spelling per filter).
  if (!allowed.includes(lookup as Lookup) || lookupParameter(field, lookup as Lookup) !== parameter) {
    throw fieldError(parameter, `${field} cannot be filtered this way. It takes: ${takes}.`);
  }
  return { field, lookup: lookup as Lookup };
}

/** The values of an is / is-not filter, checked against what the column holds. */
function equalityValues(parameter: string, field: FieldType, values: string[]): string[] {
  if (field.filter === 'boolean') {
    const booleans = values.map((value) => value.toLowerCase());
    if (booleans.some((value) => value !== 'true' && value !== 'false')) throw fieldError(parameter, 'Must be true or false.');
    return [...new Set(booleans)];
  }
  if (field.choices && values.some((value) => !field.choices!.includes(value))) {
    throw fieldError(parameter, `Must be one of: ${field.choices.join(', ')}.`);
  }
  // Values the column cannot hold would otherwise fail in the database.
  if (field.relation && values.some((value) => !isUuid(value))) throw fieldError(parameter, 'Must be record ids.');
  if (field.kind === 'integer' && values.some((value) => !/^-?\d{1,9}$/.test(value))) throw fieldError(parameter, 'Must be whole numbers (at most 9 digits).');
  if (field.kind === 'decimal' && values.some((value) => !DECIMAL_RE.test(value))) throw fieldError(parameter, 'Must be numbers.');
  return [...new Set(field.relation ? values.map((value) => value.toLowerCase()) : values)];
}

/** The range filters of a resource's timestamps: `<name>_after` and `<name>_before`, with their column and comparison. */
export interface RangeFilter {
  column: string;
  operator: '>=' | '<';
}

/** The timestamps of a resource filtered by range: those declared, else both (every record has them). */
export const rangedTimestamps = (resource: Resource): Array<'created_at' | 'updated_at'> => resource.dateRanges ?? ['created_at', 'updated_at'];

export function rangeFilters(resource: Resource): Map<string, RangeFilter> {
  const ranges = new Map<string, RangeFilter>();
  for (const column of rangedTimestamps(resource)) {
    ranges.set(`${column}_after`, { column, operator: '>=' });
    ranges.set(`${column}_before`, { column, operator: '<' });
  }
  return ranges;
}

const DATE_OR_TIME_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The parameter of list membership: `lists` (in any of these lists) and `lists__not` (in none). */
export const MEMBERSHIP_FIELD = 'lists';

/** The membership filters a resource's list takes (those whose records can be list items): parameter → lookup. */
export function membershipFilters(resource: Resource): Map<string, 'is' | 'not'> {
  if (!resource.listItem) return new Map();
  return new Map([[MEMBERSHIP_FIELD, 'is'], [lookupParameter(MEMBERSHIP_FIELD, 'not'), 'not']]);
}

/**
 * The link filters (resource.ts `links`) a reader at `access` may use: parameter → the filter's
 * name and lookup (`<name>` any of the ids, `<name>__not` none). A reader who may not read every
 * resource and relation on the way does not get the filter (a 400 "Unknown filter", as a
 * restricted field): it would tell what they cannot read.
 */
export function linkFilters(resource: Resource, access: AccessLevel): Map<string, { name: string; lookup: 'is' | 'not' }> {
  const filters = new Map<string, { name: string; lookup: 'is' | 'not' }>();
  for (const [name, filter] of Object.entries(resource.links ?? {})) {
    const readable = linkHops(filter).every((hop) =>
      mayReadResource(hop.resource, access)
      && hop.fields.every((field) => mayReadField((hop.direction === 'back' ? hop.resource : hop.from).fields[field]!, access)));
    if (!readable) continue;
    filters.set(name, { name, lookup: 'is' });
    filters.set(lookupParameter(name, 'not'), { name, lookup: 'not' });
  }
  return filters;
}

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

/** A list request's parameters: text as sent, or numbers where the route's schema already read them (limit, offset). */
export type ListParameters = Record<string, string | number | string[] | undefined>;

/** A page of a list: how many rows, from which. */
export interface Paging {
  limit: number;
  offset: number;
}

/**
 * One paging parameter, read the same way by every list (parsePaging): a whole number — text of
 * digits, or the number the route's schema read from it — that is a safe integer and at least
 * `min`; the fallback when absent, `cap` when larger. Anything else is a 400 naming it: 'abc'
 * and 1.5 "Must be a whole number." (1e309, which a schema reads as Infinity, too), -1 "Must be
 * at least 0.", 99999999999999999999 "Must be at most 9007199254740991." — never a value that
 * reaches SQL as Infinity, NaN or past what a bigint holds.
 */
export function pagingInteger(name: string, raw: unknown, fallback: number, min: number, cap: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (Array.isArray(raw)) throw fieldError(name, 'Give this parameter once.');
  const text = typeof raw === 'string' ? raw.trim() : null;
  if (text !== null && !/^[-+]?\d+$/.test(text)) throw fieldError(name, 'Must be a whole number.');
  const value = text !== null ? Number(text) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw fieldError(name, 'Must be a whole number.');
  if (value < min) throw fieldError(name, `Must be at least ${min}.`);
  if (!Number.isSafeInteger(value)) throw fieldError(name, `Must be at most ${Number.MAX_SAFE_INTEGER}.`);
  // + 0: -0 is 0.
  return Math.min(value, cap) + 0;
}

/**
 * `limit` and `offset` of any list of the API — the engine's lists and list-items, users,
 * tenants, share codes, related groups — by one rule (docs/validation.md, "Paging"): limit a
 * whole number from 1 (more than `maxLimit` gives `maxLimit`), offset one from 0, both safe
 * integers; a 400 naming the parameter otherwise (pagingInteger).
 */
export function parsePaging(query: Record<string, unknown>, options: { defaultLimit?: number; maxLimit?: number } = {}): Paging {
  return {
    limit: pagingInteger('limit', query['limit'], options.defaultLimit ?? DEFAULT_LIMIT, 1, options.maxLimit ?? MAX_LIMIT),
    offset: pagingInteger('offset', query['offset'], 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

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

/**
 * A list request's parameters as a ListQuery. `access` is the reader's: fields they may not
 * read cannot be filtered by (a 400, as an unknown filter — fieldLookups).
 */
export function parseListQuery(resource: Resource, query: ListParameters, access: AccessLevel): ListQuery {
  const one = (name: string) => oneParameter(query, name);

  const { limit, offset } = parsePaging(query);

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
  const memberships = membershipFilters(resource);
  const links = linkFilters(resource, access);
  const lookups = fieldLookups(resource, access);
  const filters: Record<string, string[]> = {};
  for (const [parameter, raw] of Object.entries(query)) {
    if (RESERVED.includes(parameter) || raw === undefined) continue;
    const own = ranges.has(parameter) || memberships.has(parameter) || links.has(parameter);
    const lookup = own ? null : checkedLookup(parameter, lookups, [...ranges.keys(), ...memberships.keys(), ...links.keys()]);
    const values = (Array.isArray(raw) ? raw : [String(raw)])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
    if (values.length === 0) continue;
    if (links.has(parameter)) {
      if (values.some((value) => !isUuid(value))) throw fieldError(parameter, 'Must be record ids.');
      filters[parameter] = [...new Set(values.map((value) => value.toLowerCase()))];
      continue;
    }
    if (memberships.has(parameter)) {
      if (values.some((value) => !isUuid(value))) throw fieldError(parameter, 'Must be list ids.');
      filters[parameter] = [...new Set(values.map((value) => value.toLowerCase()))];
      continue;
    }
    filters[parameter] = lookup ? lookupValues(resource, parameter, lookup.field, lookup.lookup, values) : [rangeValue(parameter, values)];
  }

  if (searchRaw && !resource.search) throw fieldError('search', 'This list cannot be searched.');
  return { limit, offset, ordering, search: searchRaw || null, ranked, filters, format };
}

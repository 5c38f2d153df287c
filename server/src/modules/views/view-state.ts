/**
 * What a saved view holds (docs/web.md "Saved views"), checked against the declaration of the
 * resource whose list it shows — as the list itself would check it for the one saving it, so a
 * view never holds a filter, ordering, column or grouping its list would refuse. Each problem
 * is a 400 naming the setting (`state.filters.hq_city__like`, `state.columns`, …).
 */
import type { AccessLevel, SavedViewState } from '../../contracts.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { ApiError, fieldError } from '../../resources/errors.ts';
import { groupableFields, MAX_SEARCH_LENGTH, parseListQuery } from '../../resources/list-query.ts';
import type { Resource } from '../../resources/resource.ts';
import { mayReadField } from '../../resources/visibility.ts';

export const DENSITIES = ['comfortable', 'compact'] as const;
export const VIEW_PAGE_SIZES = [25, 50, 100] as const;

/** A saved view's settings, as stored and presented (the contract's SavedViewState). */
export type ViewState = SavedViewState;

const SETTINGS: Array<keyof ViewState> = ['search', 'ordering', 'filters', 'columns', 'density', 'group_by', 'page_size'];
/** List parameters that are not filters: a view keeps them as settings of their own. */
const NOT_FILTERS = ['limit', 'offset', 'ordering', 'search', 'format', 'page', 'page_size', 'view', 'tab', 'group_by', 'columns', 'density'];
const MAX_FILTERS = 50;
const MAX_VALUES = 100;

const problem = (setting: string, message: string) => fieldError(`state.${setting}`, message);

/** The columns a table of `resource` can show a reader at `access`: its readable fields, what the engine and its extensions present with a row. */
export function viewColumns(catalog: Catalog, resource: Resource, access: AccessLevel): string[] {
  const fields = Object.entries(resource.fields).filter(([, field]) => field.kind !== 'object' && mayReadField(field, access)).map(([name]) => name);
  const presented = catalog.extensions.flatMap((extension) => extension.presented?.(resource) ?? []);
  return ['display_name', ...fields, ...(resource.annotate?.fields ?? []), ...presented, 'created_at', 'updated_at'];
}

/** The state as stored: every setting checked against `target` for a reader at `access`, defaults filled in. */
export function parseViewState(catalog: Catalog, target: Resource, input: unknown, access: AccessLevel): ViewState {
  if (input === null || input === undefined) input = {};
  if (typeof input !== 'object' || Array.isArray(input)) throw fieldError('state', 'Must be an object of the list\'s settings.');
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!(SETTINGS as string[]).includes(key)) throw problem(key, `Unknown setting. A view holds: ${SETTINGS.join(', ')}.`);
  }

  const search = raw['search'] ?? '';
  if (typeof search !== 'string') throw problem('search', 'Must be text.');
  if (search.trim().length > MAX_SEARCH_LENGTH) throw problem('search', `Ensure this has no more than ${MAX_SEARCH_LENGTH} characters.`);
  const ordering = raw['ordering'] ?? '';
  if (typeof ordering !== 'string') throw problem('ordering', 'Must be text: fields separated by commas, -field for descending.');

  const filters = parseFilters(raw['filters'] ?? {});
  // The list's own parser: ordering fields, filter names, lookups and values, restricted fields
  // (a 400 "Unknown filter" for a reader who may not read them), search on a searchable list.
  const query: Record<string, string> = { ...Object.fromEntries(Object.entries(filters).map(([name, values]) => [name, values.join(',')])) };
  if (search.trim()) query['search'] = search.trim();
  if (ordering.trim()) query['ordering'] = ordering.trim();
  try {
    parseListQuery(target, query, access);
  } catch (error) {
    if (!(error instanceof ApiError) || !error.errors) throw error;
    const [parameter, messages] = Object.entries(error.errors)[0]!;
    const setting = parameter === 'search' || parameter === 'ordering' ? parameter : `filters.${parameter}`;
    throw problem(setting, messages[0] ?? 'Invalid.');
  }

  const columns = parseColumns(raw['columns'], viewColumns(catalog, target, access));
  const density = raw['density'] ?? null;
  if (density !== null && !(DENSITIES as readonly unknown[]).includes(density)) throw problem('density', `Must be one of: ${DENSITIES.join(', ')}.`);
  const groupBy = raw['group_by'] ?? null;
  if (groupBy !== null) {
    const groupable = groupableFields(target, access);
    if (typeof groupBy !== 'string' || !groupable.includes(groupBy)) {
      throw problem('group_by', groupable.length > 0 ? `Group by one of: ${groupable.join(', ')}.` : 'This list cannot be grouped.');
    }
  }
  const pageSize = raw['page_size'] ?? null;
  if (pageSize !== null && !(VIEW_PAGE_SIZES as readonly unknown[]).includes(pageSize)) throw problem('page_size', `Must be one of: ${VIEW_PAGE_SIZES.join(', ')}.`);

  return {
    search: search.trim(),
    ordering: ordering.trim(),
    filters,
    columns,
    density: density as ViewState['density'],
    group_by: groupBy as string | null,
    page_size: pageSize as ViewState['page_size'],
  };
}

function parseFilters(input: unknown): Record<string, string[]> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw problem('filters', 'Must be an object: list parameter → its values.');
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_FILTERS) throw problem('filters', `Ensure there are no more than ${MAX_FILTERS} filters.`);
  const filters: Record<string, string[]> = {};
  for (const [name, raw] of entries) {
    if (NOT_FILTERS.includes(name)) throw problem(`filters.${name}`, `Not a filter: ${name} is a setting of its own.`);
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length > MAX_VALUES || values.some((value) => typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) {
      throw problem(`filters.${name}`, `Must be a list of at most ${MAX_VALUES} values.`);
    }
    const kept = values.map((value) => String(value).trim()).filter((value) => value !== '');
    // A value holding a comma would be two values in the list's parameter.
    if (kept.some((value) => value.includes(','))) throw problem(`filters.${name}`, 'A value may not contain a comma: give each value on its own.');
    if (kept.length > 0) filters[name] = [...new Set(kept)];
  }
  return filters;
}

function parseColumns(input: unknown, available: string[]): string[] | null {
  if (input === undefined || input === null) return null;
  if (!Array.isArray(input) || input.some((name) => typeof name !== 'string')) throw problem('columns', 'Must be a list of column names.');
  const unknown = (input as string[]).filter((name) => !available.includes(name));
  if (unknown.length > 0) throw problem('columns', `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Show any of: ${available.join(', ')}.`);
  return [...new Set(input as string[])];
}

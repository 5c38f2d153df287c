import type { ResourceMeta, SavedViewState } from '@intelnotes/server/contracts';

/**
 * A table's settings as URL parameters (docs/web.md "Saved views"), kept apart from the hooks
 * that use them so they are unit-tested (view-params.test.ts).
 */

/** Not a saved view: the list as it is, even for a user with a default view. */
export const NO_VIEW = 'none';
export const VIEW = 'view';
export const GROUP_BY = 'group_by';
export const COLUMNS = 'columns';
export const DENSITY = 'density';
/** Parameters that are no setting of a list: where the page is, and the view itself. */
const NOT_SETTINGS = ['tab', VIEW, 'page'];

/** A view's settings as URL parameters, the way the table writes them (absent: the table's own). */
export function viewParams(state: SavedViewState, meta: Pick<ResourceMeta, 'filters'>, defaultPageSize: number): Record<string, string> {
  const params: Record<string, string> = {};
  if (state.search) params['search'] = state.search;
  if (state.ordering) params['ordering'] = state.ordering;
  for (const [name, values] of Object.entries(state.filters)) {
    if (meta.filters.includes(name) && values.length > 0) params[name] = values.join(',');
  }
  if (state.page_size !== null && state.page_size !== defaultPageSize) params['page_size'] = String(state.page_size);
  if (state.group_by) params[GROUP_BY] = state.group_by;
  if (state.columns) params[COLUMNS] = state.columns.join(',');
  if (state.density) params[DENSITY] = state.density;
  return params;
}

/** The settings in a URL, as viewParams writes them. */
export function settingsOf(params: URLSearchParams): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [name, value] of params) if (!NOT_SETTINGS.includes(name) && value !== '') settings[name] = value;
  return settings;
}

export const sameSettings = (a: Record<string, string>, b: Record<string, string>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
};

/**
 * The ordering a grouped list asks for: the group's field first when the list can order by it
 * (ledger entries by year), so each group's rows come together on a page and across pages; the
 * table's own ordering (or the list's default) after it. A field the list cannot order by groups
 * the page's rows as they come.
 */
export function groupedOrdering(ordering: string, groupBy: string | null, meta: Pick<ResourceMeta, 'ordering' | 'default_ordering'>): string {
  if (!groupBy || !meta.ordering.includes(groupBy)) return ordering;
  const terms = (ordering || meta.default_ordering).split(',').map((term) => term.trim()).filter(Boolean);
  if (terms[0]?.replace(/^-/, '') === groupBy) return ordering;
  return [groupBy, ...terms.filter((term) => term.replace(/^-/, '') !== groupBy)].join(',');
}

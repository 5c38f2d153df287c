import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ResourceMeta, SavedViewState } from '@intelnotes/server/contracts';
import { SAVED_VIEWS_PATH, type SavedView } from '../../api/saved-views';
import { useListResourceQuery } from '../../api/resources';
import { atLeast, useAccessLevel } from '../resource-view';
import type { TableDensity, TablePrefsState } from '../table-prefs';
import type { ListStateControl } from '../use-list-url-state';
import { COLUMNS, DENSITY, GROUP_BY, NO_VIEW, sameSettings, settingsOf, VIEW, viewParams } from './view-params';

/**
 * What a table shows beyond its list state — the columns, density and grouping — and the saved
 * view it shows, all in the URL (docs/web.md "Saved views"):
 *
 * - `view=<id>` names the saved view; the view's settings are the URL's list parameters
 *   (search, ordering, filters, page_size) plus `group_by`, `columns` and `density`. Opening a
 *   link of a view alone (`?view=<id>`) writes its settings into the URL, so whatever the URL
 *   holds is what the table shows, and a URL that differs from the view is the view modified.
 * - A list opened with no parameters (besides `tab`) opens the user's default view of it.
 *   `view=none` is the list without one.
 * - `columns` and `density` in the URL win over the choices this browser remembers
 *   (table-prefs.ts), and while a view is shown a change of them goes into the URL.
 */

/** Not a saved view: the list as it is, even for a user with a default view. */
export { NO_VIEW };

interface TableViewOptions {
  meta: ResourceMeta;
  /** Whether the table offers saved views (research users and admins, on a list page). */
  savedViews: boolean;
  listState: ListStateControl;
  /** The columns and density this browser remembers for the table. */
  prefs: TablePrefsState;
  /** Every column the table can show, and those always shown. */
  available: string[];
  always: string[];
  defaultPageSize: number;
}

/** The table's settings from the URL, the saved views of its resource and how to move between them. */
export function useTableView({ meta, savedViews, listState, prefs, available, always, defaultPageSize }: TableViewOptions) {
  const [params, setParams] = useSearchParams();
  const access = useAccessLevel();
  const enabled = savedViews && atLeast(access, 'research');
  const list = useListResourceQuery(
    { path: SAVED_VIEWS_PATH, params: { resource: meta.kind, limit: '100' } },
    { skip: !enabled },
  );
  const views = useMemo(() => (enabled ? ((list.data?.results ?? []) as unknown as SavedView[]) : []), [enabled, list.data]);
  const viewId = enabled ? params.get(VIEW) : null;
  const active = views.find((view) => view.id === viewId) ?? null;

  const columnsParam = params.get(COLUMNS);
  const densityParam = params.get(DENSITY);
  const inUrl = columnsParam !== null || densityParam !== null || active !== null;
  const shown = useMemo(() => {
    if (columnsParam === null) return prefs.shown;
    const chosen = columnsParam.split(',');
    return available.filter((name) => always.includes(name) || chosen.includes(name));
  }, [columnsParam, prefs.shown, available, always]);
  const density: TableDensity = densityParam === 'compact' || densityParam === 'comfortable' ? densityParam : prefs.density;
  const groupParam = params.get(GROUP_BY);
  const groupBy = groupParam !== null && meta.group_by.includes(groupParam) && meta.fields.some((field) => field.name === groupParam && atLeast(access, field.read_access))
    ? groupParam
    : null;

  /** Sets (or, with null, removes) URL parameters in one history entry. */
  const setUrl = useCallback(
    (patch: Record<string, string | null>, options: { replace?: boolean } = {}) => {
      const next = new URLSearchParams(params);
      for (const [name, value] of Object.entries(patch)) {
        if (value === null) next.delete(name);
        else next.set(name, value);
      }
      if (next.toString() !== params.toString()) setParams(next, { replace: options.replace ?? false });
    },
    [params, setParams],
  );

  const layout: TablePrefsState = {
    shown,
    density,
    setShown: (columns) => {
      if (!inUrl) return prefs.setShown(columns);
      setUrl({ [COLUMNS]: available.filter((name) => always.includes(name) || columns.includes(name)).join(',') }, { replace: true });
    },
    setDensity: (value) => (inUrl ? setUrl({ [DENSITY]: value }, { replace: true }) : prefs.setDensity(value)),
    reset: () => (inUrl ? setUrl({ [COLUMNS]: null, [DENSITY]: null }, { replace: true }) : prefs.reset()),
  };

  /** Shows a view: its settings become the URL's (the page's tab kept). */
  const apply = useCallback(
    (view: SavedView, options: { replace?: boolean } = {}) => {
      const next = new URLSearchParams();
      const tab = params.get('tab');
      if (tab !== null) next.set('tab', tab);
      next.set(VIEW, view.id);
      for (const [name, value] of Object.entries(viewParams(view.state, meta, defaultPageSize))) next.set(name, value);
      setParams(next, { replace: options.replace ?? false });
    },
    [params, setParams, meta, defaultPageSize],
  );

  /** The list without a view (nor its settings), even for a user with a default. */
  const clear = useCallback(() => {
    const next = new URLSearchParams();
    const tab = params.get('tab');
    if (tab !== null) next.set('tab', tab);
    next.set(VIEW, NO_VIEW);
    setParams(next);
  }, [params, setParams]);

  // A list opened bare opens the user's default view; a link of a view alone gets its settings.
  const loaded = list.data !== undefined;
  useEffect(() => {
    if (!enabled || !loaded || Object.keys(settingsOf(params)).length > 0 || params.has('page')) return;
    if (viewId === null) {
      const fallback = views.find((view) => view.is_default);
      if (fallback) apply(fallback, { replace: true });
    } else if (active && Object.keys(viewParams(active.state, meta, defaultPageSize)).length > 0) {
      apply(active, { replace: true });
    }
  }, [enabled, loaded, params, viewId, views, active, apply, meta, defaultPageSize]);

  const { state } = listState;
  /** What the table shows now, as a view's settings (for "Save as" and "Update"). */
  const current = useCallback(
    (): SavedViewState => ({
      search: state.search.trim(),
      ordering: state.ordering,
      filters: state.filters,
      columns: shown,
      density,
      group_by: groupBy,
      page_size: state.pageSize === defaultPageSize ? null : (state.pageSize as 25 | 50 | 100),
    }),
    [state, shown, density, groupBy, defaultPageSize],
  );
  const modified = active !== null && !sameSettings(viewParams(active.state, meta, defaultPageSize), settingsOf(params));

  return {
    /** Saved views are offered (research users and admins); the views of the table's resource. */
    enabled,
    views,
    /** The view shown, and whether the table's settings differ from it. */
    active,
    modified,
    /** A view named in the URL that the reader cannot read (deleted, private, another tenant's). */
    missing: enabled && loaded && viewId !== null && viewId !== NO_VIEW && active === null,
    layout,
    groupBy,
    setGroupBy: (field: string | null) => setUrl({ [GROUP_BY]: field, page: null }),
    apply,
    clear,
    current,
  };
}

export type TableView = ReturnType<typeof useTableView>;

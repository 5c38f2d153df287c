import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import type { ListParams } from '../api/resources';

export const PAGE_SIZES = [25, 50, 100] as const;
/** The page size of a list whose view names none (SPEC §9: 25, 50 or 100 a page). */
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0];

/** What a list shows, all of it kept in the URL query string so a view can be bookmarked. */
export interface ListUrlState {
  /** Zero-based page index (the URL shows it one-based: page=2 is the second page). */
  page: number;
  pageSize: number;
  /** API ordering ("-updated_at", "name_inc"); "" for the server's default. */
  ordering: string;
  search: string;
  /** Filter name → selected values. */
  filters: Record<string, string[]>;
}

/** A list's state and how to change it: from the URL (useListUrlState), or kept by a page itself. */
export interface ListStateControl {
  state: ListUrlState;
  update: (patch: Partial<ListUrlState>, options?: { replace?: boolean }) => void;
}

/** What a list's URL state needs to know: the fields it may order and filter by. */
export type ListUrlSpec = Pick<ResourceMeta, 'ordering' | 'filters'>;

function readState(params: URLSearchParams, meta: ListUrlSpec, defaultPageSize: number): ListUrlState {
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('page_size'));
  const ordering = (params.get('ordering') ?? '')
    .split(',')
    .map((term) => term.trim())
    .filter((term) => meta.ordering.includes(term.replace(/^-/, '')))
    .join(',');
  const filters: Record<string, string[]> = {};
  for (const name of meta.filters) {
    const values = (params.get(name) ?? '').split(',').filter((value) => value !== '');
    if (values.length > 0) filters[name] = values;
  }
  return {
    page: Number.isInteger(page) && page > 1 ? page - 1 : 0,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    ordering,
    search: params.get('search') ?? '',
    filters,
  };
}

/**
 * The list state of a resource read from and written to the URL. Parameters it does not own
 * (such as `tab`) are kept as they are. Changing the search, filters, ordering or page size
 * goes back to the first page. `defaultPageSize` is the page size of a URL without one (the
 * email list's preview shows 50, SPEC §9); the URL names the page size only when it differs.
 */
export function useListUrlState(meta: ListUrlSpec, defaultPageSize: number = DEFAULT_PAGE_SIZE): ListStateControl {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readState(params, meta, defaultPageSize), [params, meta, defaultPageSize]);

  const update = useCallback(
    (patch: Partial<ListUrlState>, options: { replace?: boolean } = {}) => {
      const previous = readState(params, meta, defaultPageSize);
      const next = { ...previous, ...patch };
      const resetsPage =
        patch.page === undefined &&
        (['pageSize', 'ordering', 'search', 'filters'] as const).some(
          (key) => key in patch && JSON.stringify(patch[key]) !== JSON.stringify(previous[key]),
        );
      if (resetsPage) next.page = 0;
      const out = new URLSearchParams(params);
      const put = (name: string, value: string, fallback = '') => {
        if (value === fallback) out.delete(name);
        else out.set(name, value);
      };
      put('page', String(next.page + 1), '1');
      put('page_size', String(next.pageSize), String(defaultPageSize));
      put('ordering', next.ordering);
      put('search', next.search.trim());
      for (const name of meta.filters) put(name, (next.filters[name] ?? []).join(','));
      // The grid echoes changes back (e.g. page 1 after a new sort): no duplicate history entries.
      if (out.toString() === params.toString()) return;
      setParams(out, { replace: options.replace ?? false });
    },
    [meta, params, setParams, defaultPageSize],
  );

  return { state, update };
}

/** The list request for a state; `paged: false` for the export, which takes every row. */
export function listParams(state: ListUrlState, paged = true): ListParams {
  const params: ListParams = {};
  if (paged) {
    params['limit'] = String(state.pageSize);
    params['offset'] = String(state.page * state.pageSize);
  }
  if (state.ordering) params['ordering'] = state.ordering;
  if (state.search.trim()) params['search'] = state.search.trim();
  for (const [name, values] of Object.entries(state.filters)) {
    // Empty filter values are left out of the query (SPEC §5).
    if (values.length > 0) params[name] = values.join(',');
  }
  return params;
}

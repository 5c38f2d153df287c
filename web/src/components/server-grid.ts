import { useMemo } from 'react';
import type { DataGridProps, GridSortModel, GridValidRowModel } from '@mui/x-data-grid';
import { useNavigate } from 'react-router';
import { PAGE_SIZES, type ListUrlState } from './use-list-url-state';

/** The grid shows the first ordering term, when it is one of the sortable columns. */
function toSortModel(ordering: string, sortable: string[]): GridSortModel {
  const first = ordering.split(',')[0]?.trim();
  if (!first) return [];
  const field = first.replace(/^-/, '');
  return sortable.includes(field) ? [{ field, sort: first.startsWith('-') ? 'desc' : 'asc' }] : [];
}

interface ServerGridOptions<Row extends GridValidRowModel> {
  state: ListUrlState;
  update: (patch: Partial<ListUrlState>) => void;
  /** The list query's total (undefined while a new page loads) and whether it is fetching. */
  count: number | undefined;
  fetching: boolean;
  /** Columns the server sorts by. */
  sortable: string[];
  /** Where a row leads (click or Enter). */
  pathOf: (row: Row) => string;
}

/**
 * What every server-paginated grid shares (DataTable for the engine's resources,
 * ServerListTable for users and tenants): pages and sorting kept in the URL and done by
 * the server, rows that open their page on click or Enter, no client-side menus.
 */
export function useServerGrid<Row extends GridValidRowModel>({ state, update, count, fetching, sortable, pathOf }: ServerGridOptions<Row>) {
  const navigate = useNavigate();
  const sortModel = useMemo(() => toSortModel(state.ordering, sortable), [state.ordering, sortable]);
  return {
    // Unknown (-1) while a new page loads, so the grid never clamps a bookmarked page
    // number against the previous query's total.
    rowCount: count ?? -1,
    // Only while rows for a new page or query load: the grid's loading overlay covers the rows
    // and swallows clicks, so a refresh of the rows shown (after a decision, a live event) keeps
    // them usable and updates them in place.
    loading: fetching && count === undefined,
    autoHeight: true,
    paginationMode: 'server',
    sortingMode: 'server',
    // A page size the reader cannot pick (a query's own limit, e.g. 10) is offered as well.
    pageSizeOptions: [...new Set<number>([...PAGE_SIZES, state.pageSize])].sort((a, b) => a - b),
    paginationModel: { page: state.page, pageSize: state.pageSize },
    onPaginationModelChange: (model) => update({ page: model.pageSize === state.pageSize ? model.page : 0, pageSize: model.pageSize }),
    sortModel,
    sortingOrder: ['asc', 'desc', null],
    onSortModelChange: (model) => {
      const [first] = model;
      update({ ordering: first?.sort ? `${first.sort === 'desc' ? '-' : ''}${first.field}` : '' });
    },
    onRowClick: ({ row }) => navigate(pathOf(row)),
    onCellKeyDown: ({ row }, event) => {
      if (event.key === 'Enter') navigate(pathOf(row));
    },
    disableColumnMenu: true,
    disableColumnFilter: true,
    disableRowSelectionOnClick: true,
  } satisfies Partial<DataGridProps<Row>>;
}

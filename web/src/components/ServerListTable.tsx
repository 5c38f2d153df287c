import { useCallback, useMemo, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { apiErrorMessage, type ApiError } from '../api/api-error';
import { RetryAlert } from './RetryAlert';
import { SearchField } from './SearchField';
import { gridDensity, useTablePrefs } from './table-prefs';
import { TableSettings } from './TableSettings';
import { useServerGrid } from './server-grid';
import { type ListUrlSpec, type ListUrlState } from './use-list-url-state';

/** One page of a list call: `{count, next, previous, results}`. */
interface ListPage<Row> {
  count: number;
  results: Row[];
}

export interface ServerListTableProps<Row extends { id: string }> {
  /** The grid's accessible name (the page title). */
  title: string;
  /** Where column choice and density are remembered (e.g. "users"). */
  tableKey: string;
  searchLabel: string;
  /** Fields the list may be ordered and filtered by; columns outside `ordering` do not sort. */
  spec: ListUrlSpec;
  state: ListUrlState;
  update: (patch: Partial<ListUrlState>, options?: { replace?: boolean }) => void;
  columns: GridColDef<Row>[];
  /** The RTK Query result of the list call for `state`. */
  list: {
    data?: ListPage<Row>;
    currentData?: ListPage<Row>;
    isFetching: boolean;
    error?: ApiError;
    refetch: () => unknown;
  };
  /** Where a row leads (a click or Enter on a cell). */
  rowPath: (row: Row) => string;
  /** What the empty list says when nothing is searched or filtered. */
  emptyLabel: string;
  /** Extra controls beside the search box (e.g. a status filter). */
  toolbar?: ReactNode;
}

/**
 * A server-paginated list that is not a resource-engine entity (users, tenants): the same
 * grid, page sizes (25/50/100), sorting, 500 ms search, URL-kept state and remembered column
 * choice and density as `DataTable`.
 */
export function ServerListTable<Row extends { id: string }>({
  title,
  tableKey,
  searchLabel,
  spec,
  state,
  update,
  columns,
  list,
  rowPath,
  emptyLabel,
  toolbar,
}: ServerListTableProps<Row>) {
  const onSearch = useCallback((search: string) => update({ search }, { replace: true }), [update]);
  const gridColumns = useMemo(
    () => columns.map((column) => ({ ...column, sortable: spec.ordering.includes(column.field) })),
    [columns, spec.ordering],
  );
  const names = useMemo(() => columns.map((column) => column.field), [columns]);
  const prefs = useTablePrefs(tableKey, names, names, names.slice(0, 1));
  const columnVisibility = useMemo(() => Object.fromEntries(names.map((name) => [name, prefs.shown.includes(name)])), [names, prefs.shown]);
  const headers = useMemo(() => new Map(columns.map((column) => [column.field, column.headerName ?? column.field])), [columns]);
  const grid = useServerGrid<Row>({ state, update, count: list.currentData?.count, fetching: list.isFetching, sortable: spec.ordering, pathOf: rowPath });
  const filtered = state.search !== '' || Object.keys(state.filters).length > 0;

  return (
    <Stack spacing={2} sx={{ minWidth: 0 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ gap: 1.5, flexWrap: 'wrap', alignItems: { xs: 'stretch', sm: 'center' } }}>
        <SearchField label={searchLabel} value={state.search} onSearch={onSearch} />
        {toolbar}
        <Stack direction="row" sx={{ ml: { sm: 'auto' } }}>
          <TableSettings prefs={prefs} available={names} always={names.slice(0, 1)} label={(name) => headers.get(name) ?? name} />
        </Stack>
      </Stack>

      {list.error && <RetryAlert onRetry={() => void list.refetch()}>{apiErrorMessage(list.error)}</RetryAlert>}

      <Box sx={{ width: '100%', minWidth: 0, bgcolor: 'background.paper' }}>
        <DataGrid<Row>
          aria-label={title}
          rows={list.data?.results ?? []}
          columns={gridColumns}
          columnVisibilityModel={columnVisibility}
          density={gridDensity(prefs.density)}
          {...grid}
          localeText={{
            noRowsLabel: filtered ? 'No results found.' : emptyLabel,
            paginationDisplayedRows: ({ from, to, count }) =>
              count < 0 ? `${from}–${to}` : `${from}–${to} of ${count.toLocaleString('en-GB')}`,
          }}
          sx={{
            '& .MuiDataGrid-row': { cursor: 'pointer' },
            '& .MuiDataGrid-cell:focus-within': { outline: 'none' },
            '& .MuiDataGrid-cell:focus': { outline: (theme) => `2px solid ${theme.palette.primary.dark}`, outlineOffset: -2 },
          }}
        />
      </Box>
    </Stack>
  );
}

import { useCallback, useMemo, useState, type ReactNode, type RefObject } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import { DataGrid, useGridApiRef, type DataGridProps, type GridApi, type GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router';
import type { FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../api/api-error';
import {
  useAvailableFiltersQuery,
  useExportResourceMutation,
  useListResourceQuery,
  type ListParams,
  type ResourceRecord,
} from '../api/resources';
import { BulkActionBar, useRowSelection, type BulkExtension } from './BulkActionBar';
import { CollapsibleFilters } from './CollapsibleFilters';
import { choiceText, formatDateTime, formatItem, formatScalar, formatTotal } from './field-format';
import { relationValue } from './form-values';
import { refName } from './RelationField';
import { ListFilters } from './ListFilters';
import { notify } from './notify';
import { fieldLabel, recordName, recordPath, useAccessLevel, useCanWrite, visibleFields, type ResourceView } from './resource-view';
import { GRID_EDITING_SX, useGridEditing } from './grid/use-grid-editing';
import { SearchField } from './SearchField';
import { SpreadsheetUploadDialog } from './SpreadsheetUploadDialog';
import { gridDensity, useTablePrefs } from './table-prefs';
import { TableSettings } from './TableSettings';
import { DEFAULT_PAGE_SIZE, listParams, useListUrlState, type ListStateControl } from './use-list-url-state';
import { GroupByMenu } from './GroupByMenu';
import { isGroupRow, useGroupedRows, type GroupRow } from './grouped-rows';
import { groupedOrdering } from './views/view-params';
import { useTableView } from './views/table-view';
import { ViewsMenu } from './views/ViewsMenu';
import { useServerGrid } from './server-grid';
import { VisibilityChip } from './VisibilityChip';

interface DataTableProps {
  meta: ResourceMeta;
  view: ResourceView;
  /** List parameters the page fixes (e.g. the kind of list of a tab), sent with every query. */
  fixedParams?: ListParams;
  /** Where column choice and density are remembered (default: the resource kind). */
  tableKey?: string;
  /** Controls beside the search box, before the filters (on a phone, folded away with them). */
  toolbar?: ReactNode;
  /** How many of the toolbar's controls are set (counted on the phone's Filters button). */
  toolbarActive?: number;
  /** Where a row leads (default: the record's page under the view's basePath). */
  rowPath?: (row: ResourceRecord) => string;
  /** Replaces the Export button (e.g. a menu of the resource's own export formats); null: no export. */
  exportControl?: ReactNode;
  /** Whether the resource's filters (from available-filters/) are offered. */
  filterable?: boolean;
  /** Columns computed from the row rather than read from a field (their labels from the view). */
  derivedColumns?: Record<string, (row: ResourceRecord) => string | number>;
  /** The grid's API, for a page that moves the focus itself (e.g. keyboard shortcuts). */
  apiRef?: RefObject<GridApi | null>;
  /** Whether writers get the spreadsheet Upload button (false where upload/ takes other files). */
  spreadsheetUpload?: boolean;
  /** Engine bulk actions the selection bar leaves out, and the feature's own actions it adds. */
  bulk?: BulkExtension;
  /**
   * The search, ordering and paging, when the page keeps them itself instead of the URL (the
   * Operator's query holds its own); the URL's by default.
   */
  listState?: ListStateControl;
  /** Whether research users and admins get the Views menu (default: on a list page — the URL's list state, with filters). */
  savedViews?: boolean;
  /**
   * Whether those who may write the resource edit its fields in the table's cells (docs/web.md
   * "Editing in the table"); off where rows are not the resource's records as such (suggestions).
   */
  inlineEdit?: boolean;
}

/** Columns a cell cannot show (objects) are never offered. */
const NOT_COLUMNS = ['object'];
const ALWAYS_SHOWN = ['display_name'];

/** A value as one line of text in a cell: related records by name. */
function cellText(field: FieldMeta | undefined, name: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (name === 'created_at' || name === 'updated_at') return formatDateTime(String(value));
  if (field?.kind === 'relation') {
    const refs = relationValue(field, value);
    return (Array.isArray(refs) ? refs : refs ? [refs] : []).map(refName).join(', ');
  }
  if (Array.isArray(value)) return value.map((item) => formatItem(field?.kind, item)).join(', ');
  if (field?.kind === 'choice') return choiceText(field, value);
  return formatScalar(field?.kind, value);
}

/**
 * The list of a resource: server-side pagination (25/50/100), sorting (`ordering`), search
 * (500 ms pause) and filters (from available-filters), all kept in the URL; spreadsheet
 * export and, for writers, upload and row selection with bulk actions (BulkActionBar); the
 * columns shown and the density are the user's, remembered per table. A row opens the
 * record's page.
 */
export function DataTable({
  meta,
  view,
  fixedParams,
  tableKey,
  toolbar,
  toolbarActive,
  rowPath,
  exportControl,
  filterable = true,
  derivedColumns,
  apiRef,
  spreadsheetUpload = true,
  bulk,
  listState,
  savedViews,
  inlineEdit = false,
}: DataTableProps) {
  const pathOf = useCallback((row: ResourceRecord) => (rowPath ? rowPath(row) : recordPath(view, row.id)), [rowPath, view]);
  const canWrite = useCanWrite(meta);
  const access = useAccessLevel();
  const urlState = useListUrlState(meta, view.pageSize);
  const { state, update } = listState ?? urlState;
  const available = useMemo(() => {
    const fields = visibleFields(meta, view, access).filter((field) => !NOT_COLUMNS.includes(field.kind)).map((field) => field.name);
    return [...new Set([...view.columns, ...fields, ...Object.keys(derivedColumns ?? {}), 'created_at', 'updated_at'])];
  }, [meta, view, access, derivedColumns]);
  const storedPrefs = useTablePrefs(tableKey ?? meta.kind, available, view.columns, ALWAYS_SHOWN);
  // Columns, density and grouping from the URL, and the saved view shown (components/views).
  const table = useTableView({
    meta, savedViews: savedViews ?? (listState === undefined && filterable), listState: { state, update }, prefs: storedPrefs,
    available, always: ALWAYS_SHOWN, defaultPageSize: view.pageSize ?? DEFAULT_PAGE_SIZE,
  });
  const prefs = table.layout;
  const ordering = groupedOrdering(state.ordering, table.groupBy, meta);
  const params = useMemo(() => ({ ...listParams({ ...state, ordering }), ...fixedParams }), [state, ordering, fixedParams]);
  const query = useMemo(() => ({ ...listParams({ ...state, ordering }, false), ...fixedParams }), [state, ordering, fixedParams]);
  const list = useListResourceQuery({ path: meta.path, params });
  const grid = useServerGrid<ResourceRecord>({ state, update, count: list.currentData?.count, fetching: list.isFetching, sortable: available, pathOf });
  const pageRows = useMemo(() => list.currentData?.results ?? [], [list.currentData]);
  const pageIds = useMemo(() => pageRows.map((row) => row.id), [pageRows]);
  const rowSelection = useRowSelection(JSON.stringify(query), pageIds);
  const gridRows = useMemo(() => list.data?.results ?? [], [list.data]);
  const ownApiRef = useGridApiRef();
  const gridApiRef = apiRef ?? ownApiRef;
  const editing = useGridEditing({ meta, view, enabled: inlineEdit && canWrite, access, rows: gridRows, apiRef: gridApiRef });
  const filters = useAvailableFiltersQuery(meta.path, { skip: !filterable });
  const [exportList, exportState] = useExportResourceMutation();
  const [uploadOpen, setUploadOpen] = useState(false);
  // Typing in the search box replaces the history entry instead of adding one per search.
  const onSearch = useCallback((search: string) => update({ search }, { replace: true }), [update]);

  const columns = useMemo<GridColDef<ResourceRecord>[]>(
    () =>
      available.map((name): GridColDef<ResourceRecord> => {
        const field = meta.fields.find((entry) => entry.name === name);
        const derived = derivedColumns?.[name];
        if (derived) return { field: name, headerName: fieldLabel(view, name), sortable: false, minWidth: 120, flex: 0, valueGetter: (_value, row) => derived(row) };
        const column: GridColDef<ResourceRecord> = {
          field: name,
          headerName: fieldLabel(view, name),
          sortable: meta.ordering.includes(name),
          minWidth: view.minWidths?.[name] ?? 140,
          flex: 1,
          valueGetter: (_value, row) => (view.cells?.[name] ? view.cells[name](row[name], row) : cellText(field, name, row[name])),
        };
        if (name === 'display_name') {
          return {
            ...column,
            minWidth: 220,
            flex: 2,
            valueGetter: (_value, row) => recordName(meta, row),
            renderCell: ({ row, value }) => (
              // The link makes rows reachable by keyboard and opens in a new tab on middle click.
              <Link component={RouterLink} to={pathOf(row)} onClick={(event) => event.stopPropagation()} sx={{ fontWeight: 600 }}>
                {String(value)}
              </Link>
            ),
          };
        }
        if (field?.kind === 'visibility') {
          return { ...column, minWidth: 130, flex: 0, renderCell: ({ row }) => <VisibilityChip value={row[name]} /> };
        }
        if (name === 'updated_at' || name === 'created_at') return { ...column, minWidth: 170, flex: 0 };
        return column;
      }),
    [meta, view, available, pathOf, derivedColumns],
  );
  const editedColumns = useMemo(() => (editing.active ? columns.map(editing.decorate) : columns), [columns, editing.active, editing.decorate]);
  const columnVisibility = useMemo(
    () => Object.fromEntries(available.map((name) => [name, prefs.shown.includes(name)])),
    [available, prefs.shown],
  );

  const runExport = async () => {
    try {
      const { filename } = await exportList({
        path: meta.path,
        params: query,
        fallbackName: `${meta.kind}.xlsx`,
      }).unwrap();
      notify.success(`Downloaded ${filename}.`);
    } catch (error) {
      notify.error(`Export failed: ${apiErrorMessage(error as Parameters<typeof apiErrorMessage>[0])}`);
    }
  };

  // Kept stable: the grid treats a new sort model as a new sort and goes back to page 1.
  const page = list.data;
  // Grouping (grouped-rows.tsx) goes around editing: a group's header is no record's row.
  const groups = useGroupedRows<ResourceRecord>(editing.active ? editing.rows : (page?.results ?? []), meta.fields.find((field) => field.name === table.groupBy), table.groupBy ? fieldLabel(view, table.groupBy) : '');
  const gridColumns = (table.groupBy ? groups.withHeaders(editedColumns, prefs.shown.length) : editedColumns) as GridColDef<ResourceRecord | GroupRow>[];
  // A feature's own bulk actions make rows selectable even where the engine offers none (suggestions).
  const selecting = canWrite && (meta.bulk_actions.length > 0 || bulk !== undefined);
  const selectedCount = rowSelection.selection.allMatching ? 1 : rowSelection.selection.ids.size;
  return (
    <Stack spacing={2} sx={{ minWidth: 0 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        useFlexGap
        sx={{ gap: 1.5, flexWrap: 'wrap', alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <SearchField
          label={`Search ${view.title.toLowerCase()}`}
          value={state.search}
          onSearch={onSearch}
        />
        <CollapsibleFilters active={Object.keys(state.filters).length + (toolbarActive ?? 0)}>
          {toolbar}
          {filterable && (
            <ListFilters
              meta={meta}
              view={view}
              available={filters.data?.filters ?? []}
              selected={state.filters}
              onChange={(next) => update({ filters: next })}
            />
          )}
        </CollapsibleFilters>
        <Stack direction="row" useFlexGap sx={{ gap: 1, flexWrap: 'wrap', ml: { sm: 'auto' } }}>
          <ViewsMenu meta={meta} table={table} />
          <GroupByMenu
            fields={meta.group_by.filter((name) => visibleFields(meta, view, access).some((field) => field.name === name))}
            value={table.groupBy}
            onChange={table.setGroupBy}
            label={(name) => fieldLabel(view, name)}
          />
          <TableSettings prefs={prefs} available={available} always={ALWAYS_SHOWN} label={(name) => fieldLabel(view, name)} />
          {exportControl !== undefined ? exportControl : (
            <Button
              variant="outlined"
              startIcon={<FileDownloadIcon />}
              onClick={runExport}
              disabled={exportState.isLoading}
            >
              {exportState.isLoading ? 'Exporting…' : 'Export'}
            </Button>
          )}
          {canWrite && spreadsheetUpload && (
            <Button variant="outlined" startIcon={<FileUploadIcon />} onClick={() => setUploadOpen(true)}>
              Upload
            </Button>
          )}
        </Stack>
      </Stack>

      {list.error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => list.refetch()}>
              Retry
            </Button>
          }
        >
          {apiErrorMessage(list.error)}
        </Alert>
      )}

      {selecting && selectedCount > 0 && (
        <BulkActionBar
          meta={meta}
          selection={rowSelection.selection}
          pageRows={pageRows}
          total={list.currentData?.count ?? 0}
          totalIsEstimate={list.currentData?.count_is_estimate === true}
          query={query}
          onSelectAllMatching={rowSelection.selectAllMatching}
          onClear={rowSelection.clear}
          extension={bulk}
        />
      )}

      <Box sx={{ width: '100%', minWidth: 0, bgcolor: 'background.paper' }} onPaste={editing.active ? editing.onPaste : undefined}>
        <DataGrid<ResourceRecord | GroupRow>
          apiRef={gridApiRef as RefObject<GridApi | null>}
          aria-label={view.title}
          rows={groups.rows}
          columns={gridColumns}
          columnVisibilityModel={columnVisibility}
          onColumnVisibilityModelChange={(model) => prefs.setShown(available.filter((name) => model[name] !== false))}
          density={gridDensity(prefs.density)}
          checkboxSelection={selecting}
          keepNonExistentRowsSelected
          rowSelectionModel={rowSelection.model}
          onRowSelectionModelChange={rowSelection.onModelChange}
          {...(grid as unknown as Partial<DataGridProps<ResourceRecord | GroupRow>>)}
          // A group's header folds it; a record's row opens it (or, editing, selects its cell).
          onRowClick={(params) => {
            if (isGroupRow(params.row)) groups.toggle(params.row.__group.key);
            else if (!editing.active || editing.rowClickAllowed(params as never)) grid.onRowClick(params as never);
          }}
          onCellKeyDown={(params, event) => {
            if (isGroupRow(params.row)) return;
            if (!editing.active || !editing.onCellKeyDown(params as never, event)) grid.onCellKeyDown(params as never, event);
          }}
          isRowSelectable={groups.isRowSelectable}
          getRowClassName={groups.getRowClassName}
          {...(editing.active && {
            getCellClassName: (params) => (isGroupRow(params.row) ? '' : editing.getCellClassName(params as never)),
            onCellClick: (params, event) => (isGroupRow(params.row) ? undefined : editing.onCellClick(params as never, event as never)),
            onCellDoubleClick: (params) => (isGroupRow(params.row) ? undefined : editing.onCellDoubleClick(params as never)),
          })}
          localeText={{
            noRowsLabel: state.search || Object.keys(state.filters).length > 0 ? 'No results found.' : (view.emptyText ?? `No ${view.title.toLowerCase()} yet.`),
            paginationDisplayedRows: ({ from, to, count }) =>
              count < 0
                ? `${from}–${to}`
                : `${from}–${to} of ${formatTotal(count, page?.count_is_estimate)}`,
          }}
          sx={{
            '& .MuiDataGrid-row': { cursor: 'pointer' },
            '& .table-group-row': { bgcolor: 'action.hover' },
            '& .table-group-row .MuiDataGrid-cellCheckbox > *': { visibility: 'hidden' },
            '& .MuiDataGrid-cell:focus-within': { outline: 'none' },
            '& .MuiDataGrid-cell:focus': { outline: (theme) => `2px solid ${theme.palette.primary.dark}`, outlineOffset: -2 },
            ...GRID_EDITING_SX,
          }}
        />
        {editing.editor}
      </Box>

      {canWrite && spreadsheetUpload && <SpreadsheetUploadDialog meta={meta} view={view} open={uploadOpen} onClose={() => setUploadOpen(false)} />}
    </Stack>
  );
}

import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import BoltIcon from '@mui/icons-material/Bolt';
import DeleteIcon from '@mui/icons-material/Delete';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import type { ResourceRecord } from '../../api/resources';
import type { BulkExtension, RowSelection } from '../../components/BulkActionBar';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { choiceText } from '../../components/field-format';
import { notify } from '../../components/notify';
import { PageTabs } from '../../components/PageTabs';
import { useCanWrite } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { listParams, useListUrlState } from '../../components/use-list-url-state';
import { AnalysisReportButton } from './AnalysisReport';
import { useExportRawDataMutation, useProcessRawDataMutation, useRemoveRawDataBatchMutation, useSendToLibraryMutation, useTypeCountsQuery } from './rawdata.api';
import { bucketEditPath, bucketsView, itemEditPath, rawDataView } from './rawdata.view';

const TABS = [
  { value: '1', label: 'Raw data' },
  { value: '2', label: 'Buckets' },
] as const;

const items = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'item' : 'items'}`;

/** The list's own export (GET raw-data/export/ with the list's search and filters): the rows, or the rows and their files. */
/**
 * The created-date range (the engine's `created_at_after` / `created_at_before`), kept in the URL
 * beside the list's own state. "To" is the last day included: the server's `_before` is exclusive.
 */
const DATE_PARAMS = { from: 'created_from', to: 'created_to' } as const;

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

function useCreatedRange() {
  const [params, setParams] = useSearchParams();
  const from = params.get(DATE_PARAMS.from);
  const to = params.get(DATE_PARAMS.to);
  const apiParams = useMemo(
    () => ({ ...(isDay(from) ? { created_at_after: from } : {}), ...(isDay(to) ? { created_at_before: nextDay(to) } : {}) }),
    [from, to],
  );
  // From the address bar, not this render's params (react-router's updater gets those too): two
  // quick changes must not undo each other.
  const set = (name: string, value: string) =>
    setParams(() => {
      const next = new URLSearchParams(window.location.search);
      if (value === '') next.delete(name);
      else next.set(name, value);
      next.delete('page');
      return next;
    });
  return { from: from ?? '', to: to ?? '', apiParams, set };
}

function CreatedRange({ range }: { range: ReturnType<typeof useCreatedRange> }) {
  return (
    // Two equal halves of the row on a phone, where two 170 px fields ran past the gutter.
    <Stack direction="row" spacing={1} sx={{ minWidth: 0 }}>
      {(['from', 'to'] as const).map((end) => (
        <TextField
          key={end}
          type="date"
          label={end === 'from' ? 'Created from' : 'Created to'}
          value={range[end]}
          onChange={(event) => range.set(DATE_PARAMS[end], event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ width: { xs: 'auto', sm: 170 }, flex: { xs: '1 1 0', sm: '0 0 auto' }, minWidth: 0 }}
        />
      ))}
    </Stack>
  );
}

/** The analysis report of what the list shows: its search, filters and date range. */
function ListReportButton({ meta, fixedParams }: { meta: ResourceMeta; fixedParams: Record<string, string> }) {
  const { state } = useListUrlState(meta);
  return <AnalysisReportButton filters={{ ...listParams(state, false), ...fixedParams }} />;
}

function ExportMenu({ meta, fixedParams }: { meta: ResourceMeta; fixedParams: Record<string, string> }) {
  const { state } = useListUrlState(meta);
  const [runExport, exportState] = useExportRawDataMutation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const exportAs = async (withFiles: boolean) => {
    setAnchor(null);
    try {
      const { filename } = await runExport({ params: { ...listParams(state, false), ...fixedParams }, withFiles }).unwrap();
      notify.success(`Downloaded ${filename}.`);
    } catch (error) {
      notify.error(`Export failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <>
      <Button variant="outlined" startIcon={<FileDownloadIcon />} endIcon={<ArrowDropDownIcon />} disabled={exportState.isLoading}
        onClick={(event) => setAnchor(event.currentTarget)}>
        {exportState.isLoading ? 'Exporting…' : 'Export'}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void exportAs(false)}>Spreadsheet (.xlsx)</MenuItem>
        <MenuItem onClick={() => void exportAs(true)}>Spreadsheet and files (.zip)</MenuItem>
      </Menu>
    </>
  );
}

/**
 * Deleting selected items goes through DELETE raw-data/remove-batch/ (all or none, and the files
 * no other item uses leave the store), not the engine's bulk delete.
 */
function DeleteSelected({ selection, pageRows, clear }: { selection: RowSelection; pageRows: ResourceRecord[]; clear: () => void }) {
  const [remove, removeState] = useRemoveRawDataBatchMutation();
  const [open, setOpen] = useState(false);
  const ids = [...selection.ids];
  const only = ids.length === 1 ? pageRows.find((row) => row.id === ids[0])?.display_name : undefined;
  const confirm = async () => {
    try {
      const { deleted } = await remove(ids).unwrap();
      setOpen(false);
      clear();
      notify.success(`Deleted ${items(deleted)}.`);
    } catch (error) {
      notify.error(`Deleting failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <>
      <Button size="small" variant="outlined" color="error" startIcon={<DeleteIcon />}
        // remove-batch takes ids; "all matching" would first have to list them.
        disabled={selection.allMatching || ids.length === 0 || ids.length > 1000 || removeState.isLoading}
        title={selection.allMatching ? 'Select the rows to delete (at most 1,000)' : undefined}
        onClick={() => setOpen(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete ${only ? `“${only}”` : items(ids.length)}?`}
        confirmLabel="Delete"
        danger
        busy={removeState.isLoading}
        onCancel={() => setOpen(false)}
        onConfirm={() => void confirm()}
      >
        The selected raw data will be deleted for good, with their files unless another item shares them. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}

/** Picked rows (at most 1,000: the calls take ids) are processed, or sent to the library. */
function ProcessSelected({ selection, clear }: { selection: RowSelection; clear: () => void }) {
  const [process, processState] = useProcessRawDataMutation();
  const [send, sendState] = useSendToLibraryMutation();
  const ids = [...selection.ids];
  const unusable = selection.allMatching || ids.length === 0;
  const run = async () => {
    try {
      const { results } = await process(ids).unwrap();
      clear();
      notify.success(`Processing ${items(results.length)}.`);
    } catch (error) {
      notify.error(`Processing could not start: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  const toLibrary = async () => {
    try {
      const { results } = await send(ids).unwrap();
      clear();
      const created = results.filter((result) => result.created).length;
      notify.success(`Sent to the library: ${created} new, ${results.length - created} updated.`);
    } catch (error) {
      notify.error(`Sending to the library failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<PlayArrowIcon />} onClick={() => void run()}
        disabled={unusable || ids.length > 1000 || processState.isLoading}
        title={selection.allMatching ? 'Select the rows to process (at most 1,000)' : undefined}>
        Process
      </Button>
      {!unusable && ids.length <= 5000 && <AnalysisReportButton ids={ids} size="small" />}
      <Button size="small" variant="outlined" startIcon={<LibraryAddIcon />} onClick={() => void toLibrary()}
        disabled={unusable || ids.length > 200 || sendState.isLoading}
        title={selection.allMatching ? 'Select the rows to send (at most 200)' : undefined}>
        Send to library
      </Button>
    </>
  );
}

const itemsBulk: BulkExtension = {
  omit: ['delete'],
  actions: ({ selection, pageRows, clear }) => (
    <>
      <ProcessSelected selection={selection} clear={clear} />
      <DeleteSelected selection={selection} pageRows={pageRows} clear={clear} />
    </>
  ),
};

/** Items by type, each type named as the type column and its filter name it (the field's labels, from the server). */
function TypeCounts({ meta }: { meta: ResourceMeta }) {
  const counts = useTypeCountsQuery();
  const kindField = meta.fields.find((field) => field.name === 'content_kind');
  const shown = (counts.data?.results ?? []).filter((entry) => entry.count > 0);
  if (shown.length === 0) return null;
  return (
    <Stack direction="row" useFlexGap sx={{ gap: 1, flexWrap: 'wrap' }} aria-label="Items by type" data-testid="type-counts">
      {shown.map((entry) => (
        <Chip key={entry.type} size="small" variant="outlined" label={`${choiceText(kindField, entry.type)} ${entry.count.toLocaleString('en-GB')}`} />
      ))}
    </Stack>
  );
}

function ItemsTab({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  const range = useCreatedRange();
  return (
    <Stack spacing={2}>
      {canWrite && (
        // Wrapped whole, each label on one line: squeezed into one row, the three buttons broke
        // their labels over four lines at 390 px.
        <Stack direction="row" useFlexGap sx={{ gap: 1, flexWrap: 'wrap', '& > *': { whiteSpace: 'nowrap' } }}>
          <Button variant="contained" startIcon={<BoltIcon />} component={RouterLink} to="/rawdata/quick-create">
            Quick collection
          </Button>
          <Button variant="outlined" startIcon={<AddIcon />} component={RouterLink} to="/rawdata/create">
            New raw data item
          </Button>
          <ListReportButton meta={meta} fixedParams={range.apiParams} />
        </Stack>
      )}
      <TypeCounts meta={meta} />
      <DataTable
        meta={meta}
        view={rawDataView}
        rowPath={(row) => itemEditPath(row.id)}
        fixedParams={range.apiParams}
        toolbar={<CreatedRange range={range} />}
        toolbarActive={(range.from ? 1 : 0) + (range.to ? 1 : 0)}
        exportControl={<ExportMenu meta={meta} fixedParams={range.apiParams} />}
        spreadsheetUpload={false}
        bulk={itemsBulk}
      />
    </Stack>
  );
}

function BucketsTab({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  return (
    <Stack spacing={2}>
      {canWrite && (
        <Box>
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/rawdata/buckets/create">
            New bucket
          </Button>
        </Box>
      )}
      <DataTable meta={meta} view={bucketsView} rowPath={(row) => bucketEditPath(row.id)} />
    </Stack>
  );
}

/** /rawdata (SPEC §2): ?tab=1 the items (the navigation's and launcher's "Raw data"), ?tab=2 the buckets. */
export function RawDataListPage() {
  const [params] = useSearchParams();
  const tab = params.get('tab') === '2' ? '2' : '1';
  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        {tab === '2' ? 'Buckets' : 'Raw data'}
      </Typography>
      <PageTabs tabs={TABS} value={tab} label="Raw data and buckets" idPrefix="rawdata">
        {tab === '2' ? (
          <ResourceMetaGate kind={bucketsView.kind}>{(meta) => <BucketsTab meta={meta} />}</ResourceMetaGate>
        ) : (
          <ResourceMetaGate kind={rawDataView.kind}>{(meta) => <ItemsTab meta={meta} />}</ResourceMetaGate>
        )}
      </PageTabs>
    </Stack>
  );
}

import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import LabelIcon from '@mui/icons-material/Label';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import type { BulkAction, BulkRefusedBody, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../api/api-error';
import {
  useBulkExportMutation,
  useBulkResourceMutation,
  useBulkUndoMutation,
  useResourceMeta,
  type BulkRequest,
  type ListParams,
  type RelatedRef,
  type ResourceRecord,
} from '../api/resources';
import { ConfirmDialog } from './ConfirmDialog';
import { formatTotal } from './field-format';
import { notify, truncate } from './notify';
import { pluralNoun, RecordPicker } from './RelationField';
import { recordName } from './resource-view';

/** Which rows are selected: some ids (across pages), or every row the list query matches. */
export interface RowSelection {
  ids: Set<string>;
  allMatching: boolean;
}

/**
 * What a feature changes in the selection bar of its table: engine actions it leaves out (e.g.
 * a delete that must go through its own call) and buttons of its own, given the selection.
 */
export interface BulkExtension {
  omit?: BulkAction[];
  /** Whether "select all matching" is offered (false where the feature's actions take ids only). */
  allMatching?: boolean;
  actions: (selected: { selection: RowSelection; pageRows: ResourceRecord[]; query: ListParams; clear: () => void }) => ReactNode;
}

const EMPTY: RowSelection = { ids: new Set(), allMatching: false };

/**
 * Row selection of a server-paginated table: ids picked on any page are kept while paging;
 * "all matching" means every row of the query. A new search or filter (`queryKey`) clears it.
 */
export function useRowSelection(queryKey: string, pageIds: string[]) {
  const [selection, setSelection] = useState<RowSelection>(EMPTY);
  const [key, setKey] = useState(queryKey);
  if (key !== queryKey) {
    // Adjusting state while rendering: the selection never outlives the query it was made in.
    setKey(queryKey);
    setSelection(EMPTY);
  }
  const model = useMemo<GridRowSelectionModel>(
    () => ({ type: 'include', ids: selection.allMatching ? new Set(pageIds) : selection.ids }),
    [selection, pageIds],
  );
  const onModelChange = useCallback(
    (next: GridRowSelectionModel) => {
      // The grid answers for the page it shows ('exclude' after its header checkbox): the
      // page's part of the selection is replaced, other pages' ids are kept.
      const onPage = pageIds.filter((id) => (next.type === 'include' ? next.ids.has(id) : !next.ids.has(id)));
      setSelection((previous) => {
        const ids = previous.allMatching ? new Set<string>() : new Set([...previous.ids].filter((id) => !pageIds.includes(id)));
        for (const id of onPage) ids.add(id);
        return { ids, allMatching: false };
      });
    },
    [pageIds],
  );
  return {
    selection,
    model,
    onModelChange,
    selectAllMatching: () => setSelection({ ids: new Set(), allMatching: true }),
    clear: () => setSelection(EMPTY),
  };
}

interface BulkActionBarProps {
  meta: ResourceMeta;
  selection: RowSelection;
  /** The rows of the page shown (their names go into messages). */
  pageRows: ResourceRecord[];
  /** Rows matching the list query, and whether that is an estimate. */
  total: number;
  totalIsEstimate: boolean;
  /** The list query (search, filters, ordering) that "all matching" means. */
  query: ListParams;
  onSelectAllMatching: () => void;
  onClear: () => void;
  extension?: BulkExtension;
}

const VISIBILITIES: Array<[string, string]> = [
  ['public', 'Public'],
  ['paywalled', 'Paywalled'],
  ['hidden', 'Hidden'],
];

const count = (n: number, noun: string, plural: string) => `${n.toLocaleString('en-GB')} ${n === 1 ? noun : plural}`;

/**
 * What can be done with the selected rows of a table (POST {resource}/bulk/): set visibility,
 * add to a list, add or remove keywords, export, delete (after a confirmation). Visibility,
 * keyword and list changes end in a toast with Undo. Shown to writers while rows are selected.
 */
export function BulkActionBar({ meta, selection, pageRows, total, totalIsEstimate, query, onSelectAllMatching, onClear, extension }: BulkActionBarProps) {
  const [runBulk, bulkState] = useBulkResourceMutation();
  const [runExport, exportState] = useBulkExportMutation();
  const [undo] = useBulkUndoMutation();
  const [menu, setMenu] = useState<{ name: 'visibility' | 'keywords' | 'export'; anchor: HTMLElement } | null>(null);
  const [dialog, setDialog] = useState<'add_to_list' | 'add_keywords' | 'remove_keywords' | 'delete' | null>(null);
  const [keywords, setKeywords] = useState<RelatedRef[]>([]);
  const [list, setList] = useState<RelatedRef | null>(null);
  const listsMeta = useResourceMeta('lists').meta;

  const noun = meta.label.toLowerCase();
  const nouns = pluralNoun(meta.label).toLowerCase();
  const selected = selection.allMatching ? total : selection.ids.size;
  const tooMany = selected > meta.bulk_max_rows;
  const names = useMemo(() => new Map(pageRows.map((row) => [row.id, recordName(meta, row)])), [pageRows, meta]);
  const pageSelected = !selection.allMatching && pageRows.length > 0 && pageRows.every((row) => selection.ids.has(row.id));
  const offers = (action: BulkAction) => meta.bulk_actions.includes(action) && !extension?.omit?.includes(action);
  const keywordField = meta.fields.find((field) => field.name === 'keywords');
  const listTargets = useMemo(
    () => [{ kind: 'lists', type: listsMeta?.type ?? 'List', label: listsMeta?.label ?? 'List', path: listsMeta?.path ?? '/lists' }],
    [listsMeta],
  );
  const listParams = useMemo(() => ({ kind: meta.list_kind ?? '' }), [meta.list_kind]);

  useEffect(() => {
    if (dialog === null) {
      setKeywords([]);
      setList(null);
    }
  }, [dialog]);

  const target = (): Pick<BulkRequest, 'ids' | 'all_matching'> =>
    selection.allMatching ? { all_matching: query } : { ids: [...selection.ids] };

  /** A refusal's rows by name where the page shows them. */
  const failure = (error: ApiError, what: string) => {
    const data = 'status' in error ? (error.data as Partial<BulkRefusedBody> | undefined) : undefined;
    if (data?.code === 'bulk_refused' && Array.isArray(data.rows)) {
      const reasons = data.rows.slice(0, 3).map((row) => `${truncate(names.get(row.id) ?? row.id, 60)}: ${row.detail}`);
      const more = data.rows.length > 3 ? ` (and ${data.rows.length - 3} more)` : '';
      notify.error(`${what} failed — ${data.detail} ${reasons.join('; ')}${more}`);
    } else {
      notify.error(`${what} failed: ${apiErrorMessage(error)}`);
    }
  };

  const run = async (body: Omit<BulkRequest, 'ids' | 'all_matching'>, what: string, done: (changed: number) => string) => {
    setMenu(null);
    try {
      const result = await runBulk({ path: meta.path, body: { ...body, ...target() } }).unwrap();
      setDialog(null);
      onClear();
      const message = result.changed.length === 0 ? `Nothing to change: the ${count(result.matched, noun, nouns)} already were as asked.` : done(result.changed.length);
      if (result.undo) {
        const undoPath = result.undo;
        notify.successWithAction(message, {
          label: 'Undo',
          onClick: () => {
            undo({ path: meta.path, undo: undoPath, ...(body.list ? { list: body.list } : {}) })
              .unwrap()
              .then((answer) => notify.success(`Undone: ${count(answer.restored.length, noun, nouns)} put back.`))
              .catch((error: ApiError) => failure(error, 'Undo'));
          },
        });
      } else if (result.changed.length === 0) {
        notify.info(message);
      } else {
        notify.success(message);
      }
    } catch (error) {
      failure(error as ApiError, what);
    }
  };

  const exportAs = async (format: 'xlsx' | 'csv') => {
    setMenu(null);
    try {
      const { filename } = await runExport({ path: meta.path, body: { action: 'export', format, ...target() }, fallbackName: `${meta.kind}.${format}` }).unwrap();
      notify.success(`Downloaded ${filename}.`);
    } catch (error) {
      failure(error as ApiError, 'Export');
    }
  };

  const busy = bulkState.isLoading || exportState.isLoading;
  const selectedText = selection.allMatching
    ? `All ${formatTotal(total, totalIsEstimate)} ${total === 1 ? noun : nouns} matching selected`
    : `${count(selected, noun, nouns)} selected`;

  return (
    <Paper
      variant="outlined"
      role="region"
      aria-label="Selected rows"
      data-testid="bulk-actions"
      sx={{ px: 2, py: 1, bgcolor: 'action.hover', borderColor: 'primary.light' }}
    >
      <Stack direction={{ xs: 'column', md: 'row' }} useFlexGap sx={{ gap: 1, alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
        <Stack direction="row" useFlexGap sx={{ gap: 1, alignItems: 'baseline', flexWrap: 'wrap', mr: { md: 'auto' } }}>
          <Typography sx={{ fontWeight: 600 }} aria-live="polite" data-testid="bulk-selected">
            {selectedText}
          </Typography>
          {pageSelected && total > selection.ids.size && extension?.allMatching !== false && (
            <Link component="button" type="button" onClick={onSelectAllMatching} sx={{ fontWeight: 600 }}>
              Select all {formatTotal(total, totalIsEstimate)} {nouns} matching
            </Link>
          )}
          {tooMany && (
            <Typography color="error" variant="body2">
              At most {meta.bulk_max_rows.toLocaleString('en-GB')} at a time: narrow the search or filters.
            </Typography>
          )}
        </Stack>
        <Stack direction="row" useFlexGap sx={{ gap: 1, flexWrap: 'wrap' }}>
          {offers('set_visibility') && (
            <Button size="small" variant="outlined" startIcon={<VisibilityIcon />} endIcon={<ArrowDropDownIcon />} disabled={busy || tooMany}
              onClick={(event) => setMenu({ name: 'visibility', anchor: event.currentTarget })}>
              Visibility
            </Button>
          )}
          {offers('add_to_list') && listsMeta && (
            <Button size="small" variant="outlined" startIcon={<PlaylistAddIcon />} disabled={busy || tooMany} onClick={() => setDialog('add_to_list')}>
              Add to list
            </Button>
          )}
          {offers('add_keywords') && keywordField?.relation && (
            <Button size="small" variant="outlined" startIcon={<LabelIcon />} endIcon={<ArrowDropDownIcon />} disabled={busy || tooMany}
              onClick={(event) => setMenu({ name: 'keywords', anchor: event.currentTarget })}>
              Keywords
            </Button>
          )}
          {offers('export') && (
            <Button size="small" variant="outlined" startIcon={<FileDownloadIcon />} endIcon={<ArrowDropDownIcon />} disabled={busy || tooMany}
              onClick={(event) => setMenu({ name: 'export', anchor: event.currentTarget })}>
              {exportState.isLoading ? 'Exporting…' : 'Export selected'}
            </Button>
          )}
          {offers('delete') && (
            <Button size="small" variant="outlined" color="error" startIcon={<DeleteIcon />} disabled={busy || tooMany} onClick={() => setDialog('delete')}>
              Delete
            </Button>
          )}
          {extension?.actions({ selection, pageRows, query, clear: onClear })}
          <Button size="small" startIcon={<CloseIcon />} onClick={onClear} disabled={busy}>
            Clear selection
          </Button>
        </Stack>
      </Stack>

      <Menu anchorEl={menu?.anchor} open={menu?.name === 'visibility'} onClose={() => setMenu(null)}>
        {VISIBILITIES.map(([value, label]) => (
          <MenuItem key={value} onClick={() => void run({ action: 'set_visibility', visibility: value }, 'Changing the visibility',
            (changed) => `${count(changed, noun, nouns)} set to ${label.toLowerCase()}.`)}>
            Make {label.toLowerCase()}
          </MenuItem>
        ))}
      </Menu>
      <Menu anchorEl={menu?.anchor} open={menu?.name === 'keywords'} onClose={() => setMenu(null)}>
        <MenuItem onClick={() => { setMenu(null); setDialog('add_keywords'); }}>Add keywords…</MenuItem>
        <MenuItem onClick={() => { setMenu(null); setDialog('remove_keywords'); }}>Remove keywords…</MenuItem>
      </Menu>
      <Menu anchorEl={menu?.anchor} open={menu?.name === 'export'} onClose={() => setMenu(null)}>
        <MenuItem onClick={() => void exportAs('xlsx')}>Excel (.xlsx)</MenuItem>
        <MenuItem onClick={() => void exportAs('csv')}>CSV (.csv)</MenuItem>
      </Menu>

      <Dialog open={dialog === 'add_keywords' || dialog === 'remove_keywords'} onClose={() => setDialog(null)} fullWidth maxWidth="sm">
        <DialogTitle>{dialog === 'remove_keywords' ? 'Remove keywords from' : 'Add keywords to'} {count(selected, noun, nouns)}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          {keywordField?.relation && (
            <RecordPicker multiple label="Keywords" targets={keywordField.relation.targets} value={keywords} onChange={setKeywords} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={keywords.length === 0 || busy}
            onClick={() => {
              const action = dialog === 'remove_keywords' ? 'remove_keywords' : 'add_keywords';
              const names = keywords.map((ref) => ref.display_name ?? '').join(', ');
              void run({ action, keywords: keywords.map((ref) => ref.id) }, action === 'add_keywords' ? 'Adding keywords' : 'Removing keywords',
                (changed) => `${action === 'add_keywords' ? 'Added' : 'Removed'} ${truncate(names, 100)} ${action === 'add_keywords' ? 'to' : 'from'} ${count(changed, noun, nouns)}.`);
            }}
          >
            {dialog === 'remove_keywords' ? 'Remove' : 'Add'}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={dialog === 'add_to_list'} onClose={() => setDialog(null)} fullWidth maxWidth="sm">
        <DialogTitle>Add {count(selected, noun, nouns)} to a list</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          <RecordPicker multiple={false} label="List" targets={listTargets} params={listParams} value={list} onChange={setList} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)}>Cancel</Button>
          <Button
            variant="contained"
            disabled={!list || busy}
            onClick={() => list && void run({ action: 'add_to_list', list: list.id }, 'Adding to the list',
              (changed) => `Added ${count(changed, noun, nouns)} to “${truncate(list.display_name ?? 'the list', 100)}”.`)}
          >
            Add
          </Button>
        </DialogActions>
      </Dialog>

      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete ${count(selected, noun, nouns)}?`}
        confirmLabel="Delete"
        danger
        busy={bulkState.isLoading}
        onCancel={() => setDialog(null)}
        onConfirm={() => void run({ action: 'delete' }, 'Deleting', (changed) => `Deleted ${count(changed, noun, nouns)}.`)}
      >
        {selection.allMatching ? `Every ${noun} matching the search and filters` : `The selected ${nouns}`} will be deleted for good, with
        their references in other records. This cannot be undone.
      </ConfirmDialog>
    </Paper>
  );
}

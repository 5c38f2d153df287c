import { useCallback, useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useGridApiRef } from '@mui/x-data-grid';
import { useLocation, useNavigate } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { useListResourceQuery, type ResourceRecord } from '../api/resources';
import { mentionCount, sourceCount, suggestionReviewPath, suggestionsPath, type Suggestion } from '../api/review';
import type { BulkExtension } from './BulkActionBar';
import { DataTable } from './DataTable';
import { KeyboardHint, useShortcutKeys, type Shortcut } from './KeyboardShortcuts';
import { notify } from './notify';
import { pluralNoun } from './RelationField';
import type { ResourceView } from './resource-view';
import { listParams, useListUrlState, type ListStateControl } from './use-list-url-state';
import { useReviewActions, type Decision } from './use-review-actions';

/** The `tab` of a reviewed resource's list page that shows its suggestions (SPEC §4: /organizations?tab=2). */
export const SUGGESTIONS_TAB = '2';

export const LIST_SHORTCUTS: Shortcut[] = [
  { key: 'j', label: 'j / k', does: 'next / previous' },
  { key: 'Enter', does: 'review' },
  { key: 'a', does: 'accept' },
  { key: 'r', does: 'reject' },
  { key: 'x', does: 'select' },
];

/** The column the keyboard focuses in a row (the name, a link to the review page). */
const FOCUS_FIELD = 'display_name';

/**
 * The view of a resource's suggestions: the same fields and labels as its records, at
 * suggested-entities/{segment}/, with how sure processing was of each, how often and where
 * each was found.
 */
export function suggestionsViewOf(view: ResourceView, meta: ResourceMeta): ResourceView {
  return {
    ...view,
    basePath: suggestionsPath(meta),
    title: `Suggested ${pluralNoun(meta.label).toLowerCase()}`,
    emptyText: `No suggested ${pluralNoun(meta.label).toLowerCase()} to review.`,
    columns: ['display_name', 'mentions', 'sources', 'confidence', 'created_at'],
    labels: {
      ...view.labels,
      display_name: view.labels?.['display_name'] ?? 'Name',
      confidence: 'Confidence',
      mentions: 'Mentions',
      sources: 'Sources',
      created_at: 'Suggested',
    },
    cells: { ...view.cells, confidence: confidenceText },
  };
}

/** A suggestion's confidence (0 to 1) as a percentage; nothing when processing did not say. */
export const confidenceText = (value: unknown): string => (typeof value === 'number' ? `${Math.round(value * 100)}%` : '');

/**
 * The suggestions' metadata: their own fields (the records' and `confidence`) and ordering at
 * their path, without the engine's bulk actions or filter values.
 */
export function suggestionsMetaOf(meta: ResourceMeta): ResourceMeta {
  const own = meta.suggestions;
  return { ...meta, ...(own ? { fields: own.fields, ordering: own.ordering } : {}), path: suggestionsPath(meta), bulk_actions: [], filters: [] };
}

/**
 * The suggestions list's state in the URL, its order the suggestions' own when the URL names
 * none (most confident first): the table shows it, and the review page's "next" follows it.
 */
export function useSuggestionsListState(meta: ResourceMeta): ListStateControl {
  const suggestionsMeta = useMemo(() => suggestionsMetaOf(meta), [meta]);
  const { state, update } = useListUrlState(suggestionsMeta);
  const ordering = state.ordering || (meta.suggestions?.default_ordering ?? '');
  return useMemo(() => ({ state: { ...state, ordering }, update }), [state, ordering, update]);
}

const DERIVED = {
  mentions: (row: ResourceRecord) => mentionCount(row as Suggestion),
  sources: (row: ResourceRecord) => sourceCount(row as Suggestion),
};

/** The review page of a row, carrying the list's search, ordering and page so "next" follows this list. */
export function reviewPathFromList(meta: ResourceMeta, id: string, listSearch: string): string {
  const params = new URLSearchParams(listSearch);
  params.delete('tab');
  const query = params.toString();
  return `${suggestionReviewPath(meta, id)}${query ? `?${query}` : ''}`;
}

/**
 * ?tab=2 of a reviewed resource's list page: its suggestions (name, confidence, mentions,
 * sources, suggested), most confident first unless ordered otherwise, searched and paged like
 * any list; the selection is accepted or rejected
 * in bulk; each row opens its review page. Keyboard: j/k move the focused row, Enter opens it,
 * a accepts it, r rejects it, x selects it — never while typing in the search box.
 */
export function SuggestionsTab({ meta, view }: { meta: ResourceMeta; view: ResourceView }) {
  const suggestionsMeta = useMemo(() => suggestionsMetaOf(meta), [meta]);
  const suggestionsView = useMemo(() => suggestionsViewOf(view, meta), [view, meta]);
  const location = useLocation();
  const navigate = useNavigate();
  const apiRef = useGridApiRef();
  const { decideOne, decideMany, busy } = useReviewActions(meta);
  // The same query as the table's (the same cache entry): the rows the keyboard moves through.
  const listState = useSuggestionsListState(meta);
  const { state } = listState;
  const params = useMemo(() => listParams(state), [state]);
  const list = useListResourceQuery({ path: suggestionsMeta.path, params });
  const rows = useMemo(() => list.currentData?.results ?? [], [list.currentData]);
  const [active, setActive] = useState<{ id: string; index: number } | null>(null);
  // After a decision the row leaves the list: the focus goes to the row that takes its place.
  const [refocus, setRefocus] = useState<{ index: number; decidedId: string } | null>(null);

  const pathOf = useCallback((row: ResourceRecord) => reviewPathFromList(meta, row.id, location.search), [meta, location.search]);

  const focusRow = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return;
      setActive({ id: row.id, index });
      apiRef.current?.scrollToIndexes({ rowIndex: index });
      apiRef.current?.setCellFocus(row.id, FOCUS_FIELD);
    },
    [rows, apiRef],
  );

  useEffect(() => {
    // Once the list has been read again without the decided row.
    if (refocus === null || list.isFetching || rows.some((row) => row.id === refocus.decidedId)) return;
    setRefocus(null);
    if (rows.length === 0) setActive(null);
    else focusRow(Math.min(refocus.index, rows.length - 1));
  }, [refocus, list.isFetching, rows, focusRow]);

  /** The row the keyboard acts on: the grid's focused row, else the one last moved to. */
  const current = (): { row: ResourceRecord; index: number } | null => {
    const focusedId = apiRef.current?.state.focus.cell?.id;
    const id = focusedId ?? active?.id;
    const index = rows.findIndex((row) => row.id === id);
    return index >= 0 ? { row: rows[index]!, index } : null;
  };

  const decideCurrent = async (decision: Decision) => {
    const target = current();
    if (!target) {
      notify.info('Move to a suggestion first (j / k).');
      return;
    }
    if (await decideOne(decision, target.row)) setRefocus({ index: target.index, decidedId: target.row.id });
  };

  useShortcutKeys({
    j: () => focusRow(Math.min((current()?.index ?? -1) + 1, rows.length - 1)),
    k: () => focusRow(Math.max((current()?.index ?? rows.length) - 1, 0)),
    a: () => {
      if (!busy) void decideCurrent('accept');
    },
    r: () => {
      if (!busy) void decideCurrent('reject');
    },
    x: () => {
      const target = current();
      if (target) apiRef.current?.selectRow(target.row.id, !apiRef.current.isRowSelected(target.row.id));
    },
    Enter: (event) => {
      // Enter on a button or link is theirs; on a focused cell the grid opens the row itself.
      if (event.target !== document.body) return false;
      const target = current();
      if (!target) return false;
      navigate(pathOf(target.row));
      return true;
    },
  });

  const bulk = useMemo<BulkExtension>(
    () => ({
      allMatching: false,
      actions: ({ selection, clear }) => {
        const run = async (decision: Decision) => {
          await decideMany(decision, [...selection.ids]);
          clear();
        };
        return (
          <>
            <Button size="small" variant="contained" startIcon={<CheckIcon />} disabled={busy} onClick={() => void run('accept')}>
              Accept
            </Button>
            <Button size="small" variant="outlined" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => void run('reject')}>
              Reject
            </Button>
          </>
        );
      },
    }),
    [busy, decideMany],
  );

  return (
    <Stack spacing={2}>
      <KeyboardHint shortcuts={LIST_SHORTCUTS} label="Keyboard shortcuts of the suggestions list" />
      <Box
        sx={{
          // The row the keyboard is on stands out even when the focus is elsewhere (e.g. after a toast).
          ...(active && {
            [`& .MuiDataGrid-row[data-id="${CSS.escape(active.id)}"]`]: { bgcolor: 'action.selected', boxShadow: (theme) => `inset 3px 0 0 ${theme.palette.primary.main}` },
          }),
        }}
      >
        <DataTable
          meta={suggestionsMeta}
          view={suggestionsView}
          tableKey={`${meta.kind}-suggestions`}
          rowPath={pathOf}
          exportControl={null}
          filterable={false}
          spreadsheetUpload={false}
          derivedColumns={DERIVED}
          apiRef={apiRef}
          bulk={bulk}
          listState={listState}
        />
      </Box>
    </Stack>
  );
}

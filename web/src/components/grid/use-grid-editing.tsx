import { useCallback, useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent, type MouseEvent, type ReactNode, type RefObject } from 'react';
import Box from '@mui/material/Box';
import type { GridApi, GridCellParams, GridColDef, GridRowParams, MuiEvent } from '@mui/x-data-grid';
import type { AccessLevel, FieldMeta, RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useLazyRelationOptionsQuery, useUpdateResourceMutation, type ResourceRecord } from '../../api/resources';
import type { FormValue, FormValues } from '../form-values';
import { notify, truncate } from '../notify';
import { refName } from '../RelationField';
import { fieldLabel, recordName, type ResourceView } from '../resource-view';
import { GridCellEditor, type EditorExit } from './GridCellEditor';
import { bodyOf, cellEditable, changedFields, formValueOf, pastedFormValue, recordValueOf } from './grid-values';
import { parseTsv, pastedNames } from './tsv';

/** One cell's new value: the form value (what the request sends) and the record value shown meanwhile. */
interface CellChange {
  row: ResourceRecord;
  field: FieldMeta;
  value: FormValue;
}

/** A change being saved or just saved: the record values shown until the list is read again. */
interface Pending {
  values: Record<string, unknown>;
  settled: boolean;
}

interface Editing {
  id: string;
  field: FieldMeta;
  anchor: HTMLElement;
  initial: FormValue;
  /** Started by typing: keys pressed before the editor has the focus are added to what it starts from. */
  typed: boolean;
}

/** The cells of one column chosen with Shift (arrow keys or click): from `anchor` to `end`. */
interface Range {
  field: string;
  anchor: string;
  end: string;
}

const cellKey = (id: string, field: string) => `${id}\u0000${field}`;

interface GridEditingOptions {
  meta: ResourceMeta;
  view: ResourceView;
  /** Whether the table offers editing at all (its page asks for it, the user may write the resource). */
  enabled: boolean;
  access: AccessLevel;
  rows: ResourceRecord[];
  apiRef: RefObject<GridApi | null>;
}

/**
 * Inline editing of a resource's table (docs/web.md "Editing in the table"): which cells may be
 * edited (the server's field metadata and the user's access), the editor of the active cell,
 * Shift-selected ranges in a column, fill-down (Ctrl+D), paste of a block of cells from a
 * spreadsheet, and the saving of it all: one PATCH per row with only the fields changed, shown
 * at once and rolled back when the server refuses, the server's message on the cell, Undo in
 * the toast.
 */
export function useGridEditing({ meta, view, enabled, access, rows, apiRef }: GridEditingOptions) {
  const fields = useMemo(() => new Map(meta.fields.filter((field) => enabled && cellEditable(field, access)).map((field) => [field.name, field])), [meta, enabled, access]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [range, setRange] = useState<Range | null>(null);
  const [pending, setPending] = useState<Record<string, Pending>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const suppressRowClick = useRef(false);
  const [update] = useUpdateResourceMutation();
  const [findOptions] = useLazyRelationOptionsQuery();

  // Values shown before the server answered are dropped once the list has been read again.
  useEffect(() => {
    setPending((current) => {
      const kept = Object.entries(current).filter(([, entry]) => !entry.settled);
      return kept.length === Object.keys(current).length ? current : Object.fromEntries(kept);
    });
  }, [rows]);

  const shownRows = useMemo(
    () => (Object.keys(pending).length === 0 ? rows : rows.map((row) => (pending[row.id] ? { ...row, ...pending[row.id]!.values } : row))),
    [rows, pending],
  );

  const rowIds = useMemo(() => shownRows.map((row) => row.id), [shownRows]);
  const rowById = useCallback((id: string) => shownRows.find((row) => row.id === id), [shownRows]);
  const rangeIds = useMemo(() => {
    if (!range) return new Set<string>();
    const from = rowIds.indexOf(range.anchor);
    const to = rowIds.indexOf(range.end);
    if (from < 0 || to < 0) return new Set<string>();
    return new Set(rowIds.slice(Math.min(from, to), Math.max(from, to) + 1));
  }, [range, rowIds]);

  const focusCell = useCallback(
    (id: string, field: string) => {
      const api = apiRef.current;
      if (!api) return;
      const rowIndex = rowIds.indexOf(id);
      const colIndex = api.getVisibleColumns().findIndex((column) => column.field === field);
      if (rowIndex >= 0 && colIndex >= 0) api.scrollToIndexes({ rowIndex, colIndex });
      api.setCellFocus(id, field);
      requestAnimationFrame(() => api.getCellElement(id, field)?.focus());
    },
    [apiRef, rowIds],
  );

  /** The cell `move` leads to from (id, field): down a row, or to the next editable column. */
  const moveFrom = useCallback(
    (id: string, field: string, move: 'down' | 'right' | 'left' | 'none') => {
      const api = apiRef.current;
      if (!api || move === 'none') return focusCell(id, field);
      if (move === 'down') {
        const next = rowIds[rowIds.indexOf(id) + 1];
        return focusCell(next ?? id, field);
      }
      const columns = api.getVisibleColumns().map((column) => column.field);
      const step = move === 'right' ? 1 : -1;
      for (let index = columns.indexOf(field) + step; index >= 0 && index < columns.length; index += step) {
        if (fields.has(columns[index]!)) return focusCell(id, columns[index]!);
      }
      focusCell(id, field);
    },
    [apiRef, rowIds, fields, focusCell],
  );

  /** Saves changes: one PATCH per row with the fields that differ, shown at once, Undo in the toast. */
  const save = useCallback(
    async (changes: CellChange[], what: string) => {
      const byRow = new Map<string, { row: ResourceRecord; fields: FieldMeta[]; values: FormValues; shown: Record<string, unknown> }>();
      for (const change of changes) {
        const entry = byRow.get(change.row.id) ?? { row: change.row, fields: [], values: {}, shown: {} };
        entry.fields.push(change.field);
        entry.values[change.field.name] = change.value;
        entry.shown[change.field.name] = recordValueOf(change.field, change.value);
        byRow.set(change.row.id, entry);
      }
      const requests = [...byRow.values()]
        .map((entry) => ({ ...entry, body: changedFields(entry.fields, entry.row, entry.values) }))
        .filter((entry) => Object.keys(entry.body).length > 0);
      if (requests.length === 0) return;
      setPending((current) => {
        const next = { ...current };
        for (const request of requests) {
          const shown = Object.fromEntries(Object.entries(request.shown).filter(([name]) => name in request.body));
          next[request.row.id] = { values: { ...next[request.row.id]?.values, ...shown }, settled: false };
        }
        return next;
      });
      const clear = (id: string, names: string[]) =>
        setErrors((current) => {
          const next = { ...current };
          for (const name of names) delete next[cellKey(id, name)];
          return next;
        });
      const results = await Promise.all(
        requests.map(async (request) => {
          const names = Object.keys(request.body);
          try {
            await update({ path: meta.path, id: request.row.id, body: request.body }).unwrap();
            clear(request.row.id, names);
            setPending((current) => (current[request.row.id] ? { ...current, [request.row.id]: { ...current[request.row.id]!, settled: true } } : current));
            return { request, ok: true as const };
          } catch (error) {
            // Rolled back: the row shows the stored values again, the server's message on each cell it refused.
            const refused = apiFieldErrors(error as ApiError);
            const general = apiErrorMessage(error as ApiError);
            setPending((current) => {
              const { [request.row.id]: _dropped, ...rest } = current;
              return rest;
            });
            setErrors((current) => {
              const next = { ...current };
              const others = Object.entries(refused).filter(([name]) => !names.includes(name)).flatMap(([, messages]) => messages);
              for (const name of names) {
                const messages = refused[name] ?? (others.length > 0 ? others : [general]);
                next[cellKey(request.row.id, name)] = messages.join(' ');
              }
              return next;
            });
            return { request, ok: false as const };
          }
        }),
      );
      const saved = results.filter((result) => result.ok).map((result) => result.request);
      const failed = results.length - saved.length;
      if (failed > 0) {
        notify.error(
          requests.length === 1
            ? `Could not save ${what}: see the marked cell.`
            : `Could not save ${failed} of ${requests.length} ${meta.label.toLowerCase()} rows: see the marked cells.`,
        );
      }
      if (saved.length === 0) return;
      const undo = async () => {
        const back = await Promise.all(
          saved.map(async (request) => {
            const old = Object.fromEntries(request.fields.filter((field) => field.name in request.body).map((field) => [field.name, formValueOf(field, request.row)]));
            const undoFields = request.fields.filter((field) => field.name in request.body);
            setPending((current) => ({ ...current, [request.row.id]: { values: Object.fromEntries(undoFields.map((field) => [field.name, request.row[field.name]])), settled: false } }));
            try {
              await update({ path: meta.path, id: request.row.id, body: bodyOf(undoFields, old) }).unwrap();
              setPending((current) => (current[request.row.id] ? { ...current, [request.row.id]: { ...current[request.row.id]!, settled: true } } : current));
              return true;
            } catch {
              setPending(({ [request.row.id]: _dropped, ...rest }) => rest);
              return false;
            }
          }),
        );
        const undone = back.filter(Boolean).length;
        if (undone === back.length) notify.success(`Undone: ${what} put back.`);
        else notify.error(`Could not undo ${back.length - undone} of ${back.length} rows.`);
      };
      const message =
        saved.length === 1 && saved[0]!.fields.length === 1
          ? `Saved ${what} of “${truncate(recordName(meta, saved[0]!.row), 100)}”.`
          : `Saved ${what} in ${saved.length} ${saved.length === 1 ? 'row' : 'rows'}.`;
      notify.successWithAction(message, { label: 'Undo', onClick: () => void undo() });
    },
    [meta, update],
  );

  const label = useCallback((name: string) => fieldLabel(view, name), [view]);

  const open = useCallback(
    (id: string, name: string, typed?: string) => {
      const field = fields.get(name);
      const row = rowById(id);
      const anchor = apiRef.current?.getCellElement(id, name);
      if (!field || !row || !anchor) return;
      setEditing((current) => {
        if (current && current.id === id && current.field.name === name) {
          // Keys that reach the cell while its editor is opening: typed ones are added, others hand the focus back.
          if (typed !== undefined && current.typed) return { ...current, initial: `${String(current.initial)}${typed}` };
          requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="cell-editor"] input:not([type=hidden]), [data-testid="cell-editor"] textarea')?.focus());
          return current;
        }
        return { id, field, anchor, initial: typed ?? formValueOf(field, row), typed: typed !== undefined };
      });
    },
    [fields, rowById, apiRef],
  );

  const onEditorExit = useCallback(
    (value: FormValue, exit: EditorExit) => {
      const current = editing;
      setEditing(null);
      if (!current) return;
      const row = rowById(current.id);
      if (exit.save && row) void save([{ row, field: current.field, value }], label(current.field.name));
      moveFrom(current.id, current.field.name, exit.save ? exit.move : 'none');
    },
    [editing, rowById, save, label, moveFrom],
  );

  /** The focused cell, as the grid keeps it. */
  const focused = useCallback((): { id: string; field: string } | null => {
    const cell = apiRef.current?.state.focus.cell;
    return cell ? { id: String(cell.id), field: cell.field } : null;
  }, [apiRef]);

  /** Ctrl+D: the first cell of the range (or the cell above the active one) copied down. */
  const fillDown = useCallback(
    (id: string, name: string) => {
      const field = fields.get(name);
      if (!field) return;
      const ids = range && range.field === name && rangeIds.size > 1 ? rowIds.filter((rowId) => rangeIds.has(rowId)) : [rowIds[rowIds.indexOf(id) - 1], id].filter((rowId): rowId is string => rowId !== undefined);
      const [source, ...targets] = ids.map(rowById).filter((row): row is ResourceRecord => row !== undefined);
      if (!source || targets.length === 0) return;
      const value = formValueOf(field, source);
      void save(targets.map((row) => ({ row, field, value })), label(name));
    },
    [fields, range, rangeIds, rowIds, rowById, save, label],
  );

  /** Pasted text into the table: a block from the active cell (or one value into every cell of the range). */
  const onPaste = useCallback(
    async (event: ClipboardEvent) => {
      if (fields.size === 0 || editing) return;
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, [contenteditable="true"]')) return;
      const start = range ? { id: rowIds.filter((rowId) => rangeIds.has(rowId))[0] ?? range.anchor, field: range.field } : focused();
      if (!start) return;
      const block = parseTsv(event.clipboardData.getData('text/plain'));
      if (block.length === 0) return;
      event.preventDefault();
      const columns = apiRef.current?.getVisibleColumns().map((column) => column.field) ?? [];
      const firstRow = rowIds.indexOf(start.id);
      const firstColumn = columns.indexOf(start.field);
      if (firstRow < 0 || firstColumn < 0) return;
      // One value into a range fills the range, as spreadsheets do.
      const single = block.length === 1 && block[0]!.length === 1;
      const lines = single && rangeIds.size > 1 ? rowIds.filter((rowId) => rangeIds.has(rowId)).map(() => block[0]!) : block;
      const changes: CellChange[] = [];
      const skipped = new Set<string>();
      let beyond = 0;
      let unknown = 0;
      for (const [lineIndex, line] of lines.entries()) {
        const row = rowById(rowIds[firstRow + lineIndex] ?? '');
        if (!row) {
          beyond += 1;
          continue;
        }
        for (const [cellIndex, text] of line.entries()) {
          const name = columns[firstColumn + cellIndex];
          const field = name ? fields.get(name) : undefined;
          if (!name || !field) {
            if (name) skipped.add(label(name));
            continue;
          }
          if (field.kind !== 'relation') {
            changes.push({ row, field, value: pastedFormValue(field, text) });
            continue;
          }
          const names = pastedNames(text);
          const refs: RelatedRef[] = [];
          const missing: string[] = [];
          for (const wanted of names) {
            const options = await findOptions({ targets: field.relation?.targets ?? [], search: wanted }, true).unwrap().catch(() => []);
            const found = options.find((option) => refName(option).trim().toLowerCase() === wanted.toLowerCase());
            if (found) refs.push({ id: found.id, display_name: found.display_name, kind: found.kind });
            else missing.push(wanted);
          }
          if (missing.length > 0) {
            setErrors((current) => ({ ...current, [cellKey(row.id, name)]: `Not found: ${missing.join(', ')}.` }));
            unknown += 1;
            continue;
          }
          changes.push({ row, field, value: field.relation?.many === false ? (refs[0] ?? null) : refs });
        }
      }
      if (skipped.size > 0) notify.warning(`Not pasted into ${[...skipped].join(', ')}: ${skipped.size === 1 ? 'it is' : 'they are'} not edited in the table.`);
      if (beyond > 0) notify.warning(`${beyond} pasted ${beyond === 1 ? 'row goes' : 'rows go'} past the last row of this page and ${beyond === 1 ? 'was' : 'were'} left out.`);
      if (unknown > 0) notify.warning(`Not pasted into ${unknown} ${unknown === 1 ? 'cell' : 'cells'}: a name matches no record (see the marked ${unknown === 1 ? 'cell' : 'cells'}).`);
      const what = new Set(changes.map((change) => label(change.field.name)));
      if (changes.length > 0) await save(changes, [...what].join(', '));
    },
    [fields, editing, range, rangeIds, rowIds, rowById, focused, apiRef, label, save, findOptions],
  );

  const onCellKeyDown = useCallback(
    (params: GridCellParams<ResourceRecord>, event: MuiEvent<KeyboardEvent<HTMLElement>>): boolean => {
      const id = String(params.id);
      const editable = fields.has(params.field);
      const ctrl = event.ctrlKey || event.metaKey;
      if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && editable) {
        const index = rowIds.indexOf(id);
        const next = rowIds[index + (event.key === 'ArrowDown' ? 1 : -1)];
        event.defaultMuiPrevented = true;
        event.preventDefault();
        if (next === undefined) return true;
        setRange((current) => ({ field: params.field, anchor: current && current.field === params.field ? current.anchor : id, end: next }));
        focusCell(next, params.field);
        return true;
      }
      if (ctrl && event.key.toLowerCase() === 'd' && editable) {
        event.defaultMuiPrevented = true;
        event.preventDefault();
        fillDown(id, params.field);
        return true;
      }
      if (event.key.startsWith('Arrow') || event.key === 'Tab') setRange(null);
      if (!editable) return false;
      if (event.key === 'Enter' || event.key === 'F2') {
        event.defaultMuiPrevented = true;
        event.preventDefault();
        open(id, params.field);
        return true;
      }
      const field = fields.get(params.field)!;
      const typing = event.key.length === 1 && !ctrl && !event.altKey && ['text', 'category', 'url', 'integer', 'decimal'].includes(field.kind);
      if (typing) {
        event.defaultMuiPrevented = true;
        event.preventDefault();
        open(id, params.field, event.key);
        return true;
      }
      if ((event.key === 'Delete' || event.key === 'Backspace') && !field.required) {
        event.defaultMuiPrevented = true;
        event.preventDefault();
        const row = rowById(id);
        const empty: FormValue = field.kind === 'relation' ? (field.relation?.many === false ? null : []) : field.kind === 'boolean' ? false : '';
        if (row) void save([{ row, field, value: empty }], label(params.field));
        return true;
      }
      return false;
    },
    [fields, rowIds, focusCell, fillDown, open, rowById, save, label],
  );

  const onCellClick = useCallback(
    (params: GridCellParams<ResourceRecord>, event: MuiEvent<MouseEvent<HTMLElement>>) => {
      const editable = fields.has(params.field);
      // A click on an editable cell makes it the active cell rather than opening the record.
      suppressRowClick.current = editable;
      if (!editable) return;
      const id = String(params.id);
      if (event.shiftKey) setRange((current) => ({ field: params.field, anchor: current && current.field === params.field ? current.anchor : (focused()?.id ?? id), end: id }));
      else setRange({ field: params.field, anchor: id, end: id });
    },
    [fields, focused],
  );

  const onCellDoubleClick = useCallback(
    (params: GridCellParams<ResourceRecord>) => {
      if (fields.has(params.field)) open(String(params.id), params.field);
    },
    [fields, open],
  );

  /** Whether the row click that follows a cell click should open the record. */
  const rowClickAllowed = useCallback((_params: GridRowParams<ResourceRecord>) => {
    const allowed = !suppressRowClick.current;
    suppressRowClick.current = false;
    return allowed;
  }, []);

  /** An editable column: marked for the eye, its cell showing the server's message when a change was refused. */
  const decorate = useCallback(
    (column: GridColDef<ResourceRecord>): GridColDef<ResourceRecord> => {
      if (!fields.has(column.field)) return column;
      const render = column.renderCell;
      return {
        ...column,
        renderCell: (params) => {
          const error = errors[cellKey(String(params.id), column.field)];
          const content: ReactNode = render ? render(params) : (params.formattedValue as ReactNode) ?? (params.value as ReactNode);
          if (!error) return content;
          return (
            <Box sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', minWidth: 0, height: '100%', lineHeight: 1.25 }}>
              <Box sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{content}</Box>
              <Box
                component="span"
                data-testid="cell-error"
                title={error}
                sx={{ color: 'error.main', fontSize: '0.75rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {error}
              </Box>
            </Box>
          );
        },
      };
    },
    [fields, errors],
  );

  const getCellClassName = useCallback(
    (params: GridCellParams<ResourceRecord>) => {
      if (!fields.has(params.field)) return '';
      const id = String(params.id);
      const classes = ['grid-editable'];
      if (range?.field === params.field && rangeIds.size > 1 && rangeIds.has(id)) classes.push('grid-range');
      if (errors[cellKey(id, params.field)]) classes.push('grid-cell-error');
      if (pending[id] && params.field in pending[id]!.values && !pending[id]!.settled) classes.push('grid-cell-saving');
      return classes.join(' ');
    },
    [fields, range, rangeIds, errors, pending],
  );

  const editor = editing ? (
    <GridCellEditor
      // Keys typed before the editor took the focus start it again with them.
      key={`${cellKey(editing.id, editing.field.name)}\u0000${editing.typed ? String(editing.initial) : ''}`} path={meta.path} field={editing.field} label={label(editing.field.name)} anchor={editing.anchor} initial={editing.initial} onExit={onEditorExit} />
  ) : null;

  return {
    active: fields.size > 0,
    rows: shownRows,
    decorate,
    getCellClassName,
    onCellKeyDown,
    onCellClick,
    onCellDoubleClick,
    rowClickAllowed,
    onPaste: (event: ClipboardEvent) => void onPaste(event),
    editor,
  };
}

/** The styles of editable cells, ranges, refused and saving cells. */
export const GRID_EDITING_SX = {
  '& .grid-editable': { cursor: 'cell' },
  '& .grid-range': { bgcolor: 'action.selected' },
  '& .grid-cell-error': { boxShadow: (theme: { palette: { error: { main: string } } }) => `inset 0 0 0 2px ${theme.palette.error.main}` },
  '& .grid-cell-saving': { color: 'text.secondary', fontStyle: 'italic' },
} as const;

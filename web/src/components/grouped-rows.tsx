import { useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import type { GridColDef, GridRowParams, GridValidRowModel } from '@mui/x-data-grid';
import type { FieldMeta } from '@intelnotes/server/contracts';
import { choiceText } from './field-format';
import { visibilityLabel } from './VisibilityChip';

/**
 * Rows grouped by one field of the page (docs/web.md "Grouping"): a header row before each
 * group — its value, the count of the page's rows in it, a button to fold it — spanning the
 * table. The grid is the community DataGrid, which has no row grouping of its own, so the
 * headers are rows of their own kind that columns render, selection skips and a click folds.
 */

const GROUP_ROW = '__group';

export interface GroupRow {
  id: string;
  [GROUP_ROW]: { key: string; label: string; count: number; collapsed: boolean };
}

export const isGroupRow = (row: unknown): row is GroupRow => typeof row === 'object' && row !== null && GROUP_ROW in row;

/** A row's group: its key and how it reads (related records by name, choices by label). */
function groupOf(field: FieldMeta | undefined, value: unknown): { key: string; label: string } {
  if (value === null || value === undefined || value === '') return { key: '', label: 'Not set' };
  if (typeof value === 'object' && 'id' in value) {
    const ref = value as { id: string; display_name?: string | null };
    return { key: ref.id, label: ref.display_name?.trim() || 'Unnamed' };
  }
  if (field?.kind === 'visibility') return { key: String(value), label: visibilityLabel(value) };
  if (field?.kind === 'boolean') return { key: String(value), label: value ? 'Yes' : 'No' };
  if (field?.kind === 'choice') return { key: String(value), label: choiceText(field, value) };
  return { key: String(value), label: String(value) };
}

/**
 * The page's rows with a header before each group (in the order groups first appear, which is
 * the list's when the field orders it), the rows of folded groups left out; what the grid
 * needs to show headers; null grouping leaves the rows as they are.
 */
export function useGroupedRows<Row extends GridValidRowModel & { id: string }>(rows: Row[], field: FieldMeta | undefined, fieldLabel: string) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((key: string) => {
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  const grouped = useMemo((): Array<Row | GroupRow> => {
    if (!field) return rows;
    const groups = new Map<string, { label: string; rows: Row[] }>();
    for (const row of rows) {
      const { key, label } = groupOf(field, row[field.name]);
      const group = groups.get(key) ?? { label, rows: [] };
      group.rows.push(row);
      groups.set(key, group);
    }
    return [...groups].flatMap(([key, group]) => {
      const folded = collapsed.has(key);
      const header: GroupRow = { id: `${GROUP_ROW}:${field.name}:${key}`, [GROUP_ROW]: { key, label: group.label, count: group.rows.length, collapsed: folded } };
      return [header, ...(folded ? [] : group.rows)];
    });
  }, [rows, field, collapsed]);

  /** The columns, with the header rendered across the table from the first one. */
  const withHeaders = useCallback(
    (columns: GridColDef<Row>[], span: number): GridColDef<Row | GroupRow>[] =>
      columns.map((column, index) => ({
        ...(column as GridColDef<Row | GroupRow>),
        colSpan: (value, row, ...rest) => (isGroupRow(row) ? (index === 0 ? span : 1) : typeof column.colSpan === 'function' ? column.colSpan(value, row as Row, ...(rest as [never, never])) : column.colSpan),
        valueGetter: (value, row, ...rest) => (isGroupRow(row) ? row[GROUP_ROW].label : column.valueGetter ? column.valueGetter(value as never, row as Row, ...(rest as [never, never])) : value),
        renderCell: (params) => {
          if (isGroupRow(params.row)) return index === 0 ? <GroupHeader group={params.row[GROUP_ROW]} field={fieldLabel} onToggle={toggle} /> : null;
          return column.renderCell ? column.renderCell(params as never) : params.formattedValue ?? params.value;
        },
      })),
    [fieldLabel, toggle],
  );

  return {
    rows: grouped,
    withHeaders,
    toggle,
    /** Grid props: headers are not selectable and look like headings. */
    isRowSelectable: (params: GridRowParams<Row | GroupRow>) => !isGroupRow(params.row),
    getRowClassName: (params: GridRowParams<Row | GroupRow>) => (isGroupRow(params.row) ? 'table-group-row' : ''),
  };
}

function GroupHeader({ group, field, onToggle }: { group: GroupRow[typeof GROUP_ROW]; field: string; onToggle: (key: string) => void }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      onToggle(group.key);
    }
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0, height: '100%' }}>
      <IconButton
        size="small"
        aria-expanded={!group.collapsed}
        aria-label={`${group.collapsed ? 'Show' : 'Hide'} ${field}: ${group.label} (${group.count})`}
        onClick={(event) => {
          event.stopPropagation();
          onToggle(group.key);
        }}
        onKeyDown={onKeyDown}
      >
        {group.collapsed ? <ChevronRightIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
      </IconButton>
      <Typography component="span" sx={{ fontWeight: 700 }} noWrap>
        {group.label}
      </Typography>
      <Typography component="span" color="text.secondary" variant="body2">
        {group.count === 1 ? '1 row' : `${group.count} rows`} on this page
      </Typography>
    </Box>
  );
}


import { useRef, useState, type ReactNode } from 'react';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { QueryConditionInput, ResourceMeta } from '@intelnotes/server/contracts';
import { useRecordNamesQuery } from '../../../api/resources';
import type { ResourceView } from '../../../components/resource-view';
import { ConditionDialog } from './ConditionDialog';
import { describeCondition, type QueryFilter } from './query-fields';
import { putCondition, replaceCondition } from './query-model';

interface ConditionChipsProps {
  meta: ResourceMeta;
  view: ResourceView;
  /** available-filters with their lookups; undefined while it loads. */
  filters: readonly QueryFilter[] | undefined;
  conditions: readonly QueryConditionInput[];
  onChange: (conditions: QueryConditionInput[]) => void;
  /** Chips shown before the conditions (the Operator's kind of record and search). */
  before?: ReactNode;
  /** Chips shown after them (the Operator's ordering and limit). */
  after?: ReactNode;
  disabled?: boolean;
}

/**
 * A query's conditions as chips, one each: a click (or Enter) edits it, its delete icon (or
 * Backspace/Delete) removes it, and "Add condition" adds one from the fields available-filters
 * offers with the lookups each allows.
 */
export function ConditionChips({ meta, view, filters, conditions, onChange, before, after, disabled = false }: ConditionChipsProps) {
  // The index of the condition edited; `conditions.length` adds one; null: no dialog.
  const [editing, setEditing] = useState<number | null>(null);
  // A removed chip takes the focus with it: it goes to "Add condition", so the keyboard stays in the query.
  const addButton = useRef<HTMLButtonElement>(null);
  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }} role="list" aria-label="Query conditions">
      {before}
      {conditions.map((condition, index) => (
        <ConditionChip
          key={`${condition.field}-${condition.op}-${index}`}
          meta={meta}
          view={view}
          filters={filters ?? []}
          condition={condition}
          disabled={disabled}
          onEdit={() => setEditing(index)}
          onRemove={() => {
            onChange(replaceCondition(conditions, index, null));
            addButton.current?.focus();
          }}
        />
      ))}
      {after}
      <Button
        ref={addButton}
        size="small"
        variant="outlined"
        startIcon={<AddIcon />}
        onClick={() => setEditing(conditions.length)}
        // Left enabled while an edit is checked: the focus a removed chip hands it must stay.
        disabled={!filters}
        sx={{ borderRadius: 4 }}
      >
        Add condition
      </Button>
      {editing !== null && filters && (
        <ConditionDialog
          meta={meta}
          view={view}
          filters={filters}
          initial={conditions[editing] ?? null}
          onClose={() => setEditing(null)}
          onSave={(condition) => {
            setEditing(null);
            onChange(putCondition(conditions, editing, condition));
          }}
        />
      )}
    </Stack>
  );
}

interface ConditionChipProps {
  meta: ResourceMeta;
  view: ResourceView;
  filters: readonly QueryFilter[];
  condition: QueryConditionInput;
  disabled: boolean;
  onEdit: () => void;
  onRemove: () => void;
}

function ConditionChip({ meta, view, filters, condition, disabled, onEdit, onRemove }: ConditionChipProps) {
  const named = useRecordNames(meta, filters, condition);
  const text = describeCondition(meta, view, filters, named);
  return (
    <Chip
      role="listitem"
      label={text}
      color="primary"
      variant="outlined"
      onClick={onEdit}
      onDelete={onRemove}
      disabled={disabled}
      aria-label={`${text}: edit, or press Delete to remove`}
      title={condition.text ? `From “${condition.text}”` : undefined}
      sx={{ maxWidth: '100%', bgcolor: 'background.paper', fontWeight: 500, '& .MuiChip-label': { overflow: 'hidden', textOverflow: 'ellipsis' } }}
    />
  );
}

/**
 * A relation condition read from a URL holds ids: those available-filters does not name (it
 * offers the 100 most used) are named by their records, as the caller may read them.
 */
function useRecordNames(meta: ResourceMeta, filters: readonly QueryFilter[], condition: QueryConditionInput): QueryConditionInput {
  const field = meta.fields.find((entry) => entry.name === condition.field);
  const target = field?.relation?.targets[0];
  const named = new Set(filters.find((filter) => filter.name === condition.field)?.values.filter((entry) => entry.label).map((entry) => String(entry.value)));
  const unnamed = condition.values.filter((value, index) => (condition.labels[index] ?? value) === value && !named.has(value));
  const names = useRecordNamesQuery({ path: target?.path ?? '', ids: unnamed }, { skip: !target || unnamed.length === 0 });
  const found = names.data;
  if (!found) return condition;
  return {
    ...condition,
    // A record the caller may not read (or one gone) is not named: it matches nothing for them.
    labels: condition.values.map((value, index) => (value in found ? (found[value] ?? 'Not available') : (condition.labels[index] ?? value))),
  };
}

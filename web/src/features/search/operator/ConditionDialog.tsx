import { useId, useState, type FormEvent } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ConditionOp, QueryConditionInput, RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { fieldLabel, type ResourceView } from '../../../components/resource-view';
import { RecordPicker } from '../../../components/RelationField';
import { filterOps, valueKind, valueLabel, type QueryFilter } from './query-fields';
import { comparesOne, conditionProblem, opWords, takesValues } from './query-model';

interface ConditionDialogProps {
  meta: ResourceMeta;
  view: ResourceView;
  /** The fields that may be tested (available-filters with their lookups). */
  filters: readonly QueryFilter[];
  /** The condition edited; none to add one. */
  initial: QueryConditionInput | null;
  onSave: (condition: QueryConditionInput) => void;
  onClose: () => void;
}

/** What the dialog edits: a field, an op and the values with their names. */
interface Draft {
  field: string;
  op: ConditionOp;
  values: string[];
  labels: string[];
  /** The typed text of a date or number, before it is split into values. */
  text: string;
}

function draftOf(initial: QueryConditionInput | null): Draft {
  if (initial) return { field: initial.field, op: initial.op, values: initial.values, labels: initial.labels, text: initial.values.join(', ') };
  return { field: '', op: 'is', values: [], labels: [], text: '' };
}

/**
 * Adds or edits one condition: the field (from available-filters), what it tests (the lookups
 * that field allows) and the values — records picked by name for relations, values among the
 * visible rows (or typed) for categories, Yes/No for flags, typed dates and numbers checked
 * before they are sent.
 */
export function ConditionDialog({ meta, view, filters, initial, onSave, onClose }: ConditionDialogProps) {
  const titleId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [problem, setProblem] = useState<string | null>(null);
  // In the order the record's form shows its fields.
  const position = (name: string) => {
    const index = meta.fields.findIndex((entry) => entry.name === name);
    return index === -1 ? meta.fields.length : index;
  };
  const offered = filters.filter((filter) => filterOps(filter).length > 0).sort((a, b) => position(a.name) - position(b.name));
  const filter = offered.find((entry) => entry.name === draft.field);
  const field = meta.fields.find((entry) => entry.name === draft.field);
  const kind = valueKind(field);
  const ops = filter ? filterOps(filter) : [];
  const typed = kind !== 'other';

  const change = (patch: Partial<Draft>) => {
    setProblem(null);
    setDraft((previous) => ({ ...previous, ...patch }));
  };
  const chooseField = (name: string) => {
    const next = offered.find((entry) => entry.name === name);
    change({ field: name, op: next ? (filterOps(next)[0] ?? 'is') : 'is', values: [], labels: [], text: '' });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = typed
      ? draft.text
          .split(',')
          .map((value) => value.trim())
          .filter((value) => value !== '')
      : draft.values;
    const condition: QueryConditionInput = {
      field: draft.field,
      op: draft.op,
      values: takesValues(draft.op) ? values : [],
      labels: takesValues(draft.op) ? (typed ? values : draft.labels) : [],
    };
    const found = conditionProblem(condition, kind);
    if (found) return setProblem(found);
    onSave(condition);
  };

  const valueInput = () => {
    if (!filter || !takesValues(draft.op)) return null;
    const label = comparesOne(draft.op) ? 'Value' : 'Values';
    if (typed) {
      return (
        <TextField
          label={label}
          value={draft.text}
          onChange={(event) => change({ text: event.target.value })}
          error={problem !== null}
          helperText={
            problem ??
            (kind === 'date'
              ? `A year, month or day: YYYY, YYYY-MM or YYYY-MM-DD${comparesOne(draft.op) ? '' : ' (several: separated by commas)'}`
              : comparesOne(draft.op)
                ? 'A number'
                : 'Numbers separated by commas')
          }
          slotProps={{ htmlInput: { inputMode: kind === 'number' ? 'decimal' : 'text', maxLength: 200 } }}
          required
          autoFocus
        />
      );
    }
    if (filter.type === 'relation' && field?.relation) {
      const refs: RelatedRef[] = draft.values.map((id, index) => ({
        id,
        display_name: draft.labels[index] ?? valueLabel(meta, filters, draft.field, id),
        kind: field.relation!.targets[0]?.kind ?? '',
      }));
      return (
        <RecordPicker
          multiple
          label={label}
          targets={field.relation.targets}
          value={refs}
          onChange={(next) => change({ values: next.map((ref) => ref.id), labels: next.map((ref) => ref.display_name ?? ref.id) })}
          error={problem ?? undefined}
          required
        />
      );
    }
    if (filter.type === 'boolean') {
      return (
        <TextField
          select
          label="Value"
          value={draft.values[0] ?? ''}
          onChange={(event) => change({ values: [event.target.value], labels: [event.target.value === 'true' ? 'Yes' : 'No'] })}
          error={problem !== null}
          helperText={problem ?? undefined}
          required
        >
          <MenuItem value="true">Yes</MenuItem>
          <MenuItem value="false">No</MenuItem>
        </TextField>
      );
    }
    // Categories and choices: the values found among the visible rows, or any typed value.
    const options = field?.choices ?? filter.values.map((entry) => String(entry.value));
    return (
      <Autocomplete<string, true, false, true>
        multiple
        freeSolo
        options={options}
        value={draft.values}
        onChange={(_event, next) => {
          const values = next.map((value) => String(value).trim()).filter((value) => value !== '');
          change({ values, labels: values.map((value) => valueLabel(meta, filters, draft.field, value)) });
        }}
        getOptionLabel={(value) => valueLabel(meta, filters, draft.field, value)}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label}
            error={problem !== null}
            helperText={problem ?? (field?.choices ? 'Pick one or more' : 'Pick or type one or more, Enter after each')}
          />
        )}
      />
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{initial ? 'Edit condition' : 'Add condition'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <TextField select label="Field" value={filter ? draft.field : ''} onChange={(event) => chooseField(event.target.value)} required>
              {offered.map((entry) => (
                <MenuItem key={entry.name} value={entry.name}>
                  {fieldLabel(view, entry.name)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Comparison"
              value={ops.includes(draft.op) ? draft.op : ''}
              onChange={(event) => change({ op: event.target.value as ConditionOp })}
              disabled={!filter}
              required
            >
              {ops.map((op) => (
                <MenuItem key={op} value={op}>
                  {opWords(op, kind, true)}
                </MenuItem>
              ))}
            </TextField>
            {valueInput()}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!filter}>
            {initial ? 'Save condition' : 'Add condition'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

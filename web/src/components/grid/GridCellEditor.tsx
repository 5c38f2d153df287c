import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FieldMeta, RelatedRef } from '@intelnotes/server/contracts';
import { useAvailableFiltersQuery } from '../../api/resources';
import { choiceMenuItems } from '../choice-menu-items';
import type { FormValue } from '../form-values';
import { IncompleteDateField } from '../IncompleteDateField';
import { NumberField } from '../NumberField';
import { RelationField } from '../RelationField';
import { VisibilityField } from '../VisibilityField';

/** How an edit ended: saved (and where the active cell goes next) or cancelled. */
export type EditorExit = { save: true; move: 'down' | 'right' | 'left' | 'none' } | { save: false };

interface GridCellEditorProps {
  /** The resource's API path (a category offers the values already used, as the form does). */
  path: string;
  field: FieldMeta;
  label: string;
  /** The cell being edited, which the editor opens under. */
  anchor: HTMLElement;
  /** The value it starts from (the record's, or the character typed to start editing). */
  initial: FormValue;
  onExit: (value: FormValue, exit: EditorExit) => void;
}

/** What Tab may move between inside the editor: inputs and the MUI selects, one radio per group. */
const TABBABLE =
  'input:not([type=hidden]):not([tabindex="-1"]):not([aria-hidden="true"]):not([type=radio]:not(:checked)), textarea, [role="combobox"][tabindex="0"]';

/**
 * The editor of one table cell: the same control the record's form uses for the field (text,
 * NumberField, IncompleteDateField, a choice, VisibilityField, RelationField), in a small panel
 * under the cell. Enter saves and moves down, Tab from the last control saves and moves right
 * (Shift+Tab from the first, left), Escape cancels; a click elsewhere saves. An Enter that a
 * control uses itself (picking an option, opening a menu) stays the control's. A choice opens
 * with its menu open and is saved as soon as one is picked.
 */
export function GridCellEditor({ path, field, label, anchor, initial, onExit }: GridCellEditorProps) {
  const id = useId();
  const [value, setValue] = useState<FormValue>(initial);
  const panel = useRef<HTMLDivElement>(null);
  const done = useRef(false);
  // The same request as the table's filters: answered from the cache.
  const categoryValues = useAvailableFiltersQuery(path, { skip: field.kind !== 'category' }).data?.filters;
  const exit = (next: EditorExit, chosen: FormValue = value) => {
    if (done.current) return;
    done.current = true;
    onExit(chosen, next);
  };

  useEffect(() => {
    // The checked radio of a visibility, else the first control; a typed character stays typed.
    const focusFirst = () => {
      const first = panel.current?.querySelector<HTMLElement>('input[type=radio]:checked') ?? panel.current?.querySelector<HTMLElement>(TABBABLE);
      first?.focus();
      if (first instanceof HTMLInputElement && typeof initial === 'string' && first.type === 'text') {
        const end = first.value.length;
        first.setSelectionRange(end, end);
      }
    };
    focusFirst();
    // The grid puts the focus back on its active cell when it renders it again just after.
    const frame = requestAnimationFrame(() => {
      if (!panel.current?.contains(document.activeElement)) focusFirst();
    });
    return () => cancelAnimationFrame(frame);
  }, [initial]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      exit({ save: false });
    } else if (event.key === 'Enter' && !(target instanceof HTMLTextAreaElement && event.shiftKey) && !target.closest('button')) {
      event.preventDefault();
      event.stopPropagation();
      exit({ save: true, move: 'down' });
    } else if (event.key === 'Tab') {
      const controls = [...(panel.current?.querySelectorAll<HTMLElement>(TABBABLE) ?? [])];
      const edge = event.shiftKey ? controls[0] : controls[controls.length - 1];
      if (edge === undefined || edge === target || edge.contains(target)) {
        event.preventDefault();
        event.stopPropagation();
        exit({ save: true, move: event.shiftKey ? 'left' : 'right' });
      }
    }
  };

  // Escape with no list of options open cancels at once (a picker would otherwise take it first to close a popup that shows nothing).
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && !document.querySelector('[role="listbox"]')) {
      event.preventDefault();
      event.stopPropagation();
      exit({ save: false });
    }
  };

  const text = typeof value === 'string' ? value : '';
  const control = () => {
    switch (field.kind) {
      case 'relation':
        return (
          <RelationField
            id={id}
            label={label}
            field={field}
            value={typeof value === 'object' ? (value as RelatedRef[] | RelatedRef | null) : null}
            onChange={setValue}
          />
        );
      case 'integer':
      case 'decimal':
        return <NumberField id={id} label={label} field={field} value={text} onChange={setValue} onCheck={() => undefined} />;
      case 'date':
      case 'incomplete_date':
        return <IncompleteDateField id={id} label={label} value={text} onChange={setValue} complete={field.kind === 'date'} />;
      case 'visibility':
        return <VisibilityField id={id} label={label} value={text} onChange={setValue} />;
      case 'boolean':
        return (
          <TextField
            id={id}
            label={label}
            select
            fullWidth
            value={value === true ? 'yes' : 'no'}
            onChange={(event) => exit({ save: true, move: 'none' }, event.target.value === 'yes')}
            slotProps={{ select: { defaultOpen: true } }}
          >
            <MenuItem value="yes">Yes</MenuItem>
            <MenuItem value="no">No</MenuItem>
          </TextField>
        );
      case 'choice':
        return (
          <TextField
            id={id}
            label={label}
            select
            fullWidth
            value={text}
            onChange={(event) => exit({ save: true, move: 'none' }, event.target.value)}
            slotProps={{ select: { defaultOpen: true } }}
          >
            {choiceMenuItems(field)}
          </TextField>
        );
      case 'category': {
        const options = (categoryValues?.find((filter) => filter.name === field.name)?.values ?? []).map((entry) => String(entry.value));
        return (
          <Autocomplete<string, false, false, true>
            id={id}
            freeSolo
            options={options}
            value={text}
            inputValue={text}
            onInputChange={(_event, next) => setValue(next)}
            onChange={(_event, next) => setValue(next ?? '')}
            renderInput={(params) => (
              <TextField
                {...params}
                label={label}
                fullWidth
                slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, maxLength: field.max_length ?? undefined } }}
              />
            )}
          />
        );
      }
      default:
        return (
          <TextField
            id={id}
            label={label}
            fullWidth
            value={text}
            multiline={field.multiline}
            maxRows={8}
            onChange={(event) => setValue(event.target.value)}
            slotProps={{ htmlInput: { maxLength: field.max_length ?? undefined, autoComplete: 'off' } }}
          />
        );
    }
  };

  const wide = field.kind === 'relation' || field.kind === 'visibility' || field.kind === 'date' || field.kind === 'incomplete_date' || field.multiline;
  return (
    <Popper
      open
      anchorEl={anchor}
      placement="bottom-start"
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      // Kept on the screen when the cell is partly scrolled out of the table (a phone).
      modifiers={[{ name: 'preventOverflow', options: { rootBoundary: 'viewport', boundary: document.body, padding: 8, altAxis: true, tether: false } }]}
    >
      <ClickAwayListener onClickAway={() => exit({ save: true, move: 'none' })}>
        <Paper
          ref={panel}
          elevation={8}
          role="dialog"
          aria-label={`Edit ${label}`}
          data-testid="cell-editor"
          onKeyDown={onKeyDown}
          onKeyDownCapture={onKeyDownCapture}
          sx={{ p: 1.5, width: { xs: 'calc(100vw - 32px)', sm: wide ? 480 : Math.max(anchor.offsetWidth, 280) }, maxWidth: 'calc(100vw - 32px)' }}
        >
          <Stack spacing={1}>
            {control()}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="caption" color="text.secondary" sx={{ flexGrow: 1 }}>
                Enter saves · Esc cancels
              </Typography>
              <Button size="small" tabIndex={-1} onClick={() => exit({ save: false })}>
                Cancel
              </Button>
              <Button size="small" variant="contained" tabIndex={-1} onClick={() => exit({ save: true, move: 'none' })}>
                Save
              </Button>
            </Stack>
          </Stack>
        </Paper>
      </ClickAwayListener>
    </Popper>
  );
}

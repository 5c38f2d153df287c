import { useEffect, useMemo, useState } from 'react';
import Autocomplete, { type AutocompleteRenderValueGetItemProps } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FieldMeta, RelatedRef } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../api/api-error';
import { useRelationOptionsQuery, type ListParams, type RelationOption, type RelationTarget } from '../api/resources';
import { SEARCH_PAUSE_MS } from './SearchField';

/** Text for matching as the server does: lower case, without accents. */
const simplified = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** A related record's name, or a placeholder for a record without one. */
export function refName(ref: Pick<RelatedRef, 'display_name'>): string {
  return ref.display_name?.trim() || 'Unnamed';
}

/** A label as a plural noun in a sentence: "Ledger entry" → "ledger entries", "Source URL" → "source URLs". */
export function pluralNoun(label: string): string {
  const words = label.split(/\s+/).map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
  const last = words.pop() ?? '';
  const plural =
    last === 'person'
      ? 'people'
      : /[^aeiou]y$/.test(last)
        ? `${last.slice(0, -1)}ies`
        : /(s|x|ch|sh)$/.test(last)
          ? `${last}es`
          : `${last}s`;
  return [...words, plural].join(' ');
}

/** "keywords", "organizations or ledger entries": what the targets are called in sentences. */
export function targetNouns(targets: RelationTarget[]): string {
  const nouns = targets.map((target) => pluralNoun(target.label));
  return nouns.length <= 1 ? (nouns[0] ?? 'records') : `${nouns.slice(0, -1).join(', ')} or ${nouns[nouns.length - 1]}`;
}

/**
 * The text searched for: what was typed, once typing pauses (SPEC §9, 500 ms); empty at once
 * when the input is cleared or a choice fills it.
 */
function usePausedSearch(): [string, string, (text: string, typed: boolean) => void] {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    if (typed.trim() === search) return;
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, search]);
  const update = (text: string, byTyping: boolean) => {
    setTyped(byTyping ? text : '');
    if (!byTyping || text.trim() === '') setSearch('');
  };
  return [typed, search, update];
}

interface RecordPickerProps {
  id?: string;
  label: string;
  targets: RelationTarget[];
  /** Extra list filters sent with every search (e.g. the kind of list). */
  params?: ListParams;
  error?: string;
  helperText?: string;
  required?: boolean;
  disabled?: boolean;
  size?: 'small' | 'medium';
  placeholder?: string;
  /** Ids of records not to offer (e.g. the lists a record is already in). */
  exclude?: string[];
}

interface ManyProps extends RecordPickerProps {
  multiple: true;
  value: RelatedRef[];
  onChange: (value: RelatedRef[]) => void;
}

interface OneProps extends RecordPickerProps {
  multiple: false;
  value: RelatedRef | null;
  onChange: (value: RelatedRef | null) => void;
  /** Empties the input after each choice (e.g. "Add to list", where the choice is acted on at once). */
  clearOnChoice?: boolean;
}

const withoutGroup = ({ id, display_name, kind }: RelatedRef): RelatedRef => ({ id, display_name, kind });

/**
 * Picks records of other resources: searches each target's list endpoint as the user types
 * (after a pause), groups the answers by target when there are several, and keeps the chosen
 * references (shown as chips when several may be chosen). Arrow keys move through the
 * options, Enter picks one, Backspace removes the last chip.
 */
export function RecordPicker(props: ManyProps | OneProps) {
  const { id, label, targets, params, error, helperText, required, disabled, size, placeholder, exclude } = props;
  const [open, setOpen] = useState(false);
  const [typed, search, setText] = usePausedSearch();
  const query = useRelationOptionsQuery({ targets, search, ...(params ? { params } : {}) }, { skip: !open || disabled });
  const waiting = query.isFetching || typed.trim() !== search;
  // Until the answer for what is typed arrives, the previous answer is narrowed to it here, so
  // what is offered (and what Enter picks) always matches the text in the box.
  const options = useMemo(() => {
    if (query.currentData && !waiting) return query.currentData;
    const words = simplified(typed).split(/\s+/).filter(Boolean);
    return (query.data ?? []).filter((option) => words.every((word) => simplified(refName(option)).includes(word)));
  }, [query.currentData, query.data, waiting, typed]);
  const nouns = targetNouns(targets);
  const grouped = targets.length > 1;
  const clearOnChoice = !props.multiple && props.clearOnChoice === true;

  const allExcluded = options.length > 0 && options.every((option) => exclude?.includes(option.id));
  const noOptionsText = query.error
    ? apiErrorMessage(query.error)
    : search
      ? `No ${allExcluded ? 'other ' : ''}${nouns} match “${search}”.`
      : allExcluded
        ? `No other ${nouns}.`
        : `No ${nouns} yet.`;

  return (
    <Autocomplete<RelatedRef, boolean, false, false>
      id={id}
      multiple={props.multiple}
      value={props.multiple ? props.value : clearOnChoice ? null : props.value}
      onChange={(_event, next) => {
        if (props.multiple) props.onChange(((next as RelatedRef[] | null) ?? []).map(withoutGroup));
        else props.onChange(next ? withoutGroup(next as RelatedRef) : null);
        if (clearOnChoice) setText('', false);
      }}
      // One record: the input shows its name, as the Autocomplete keeps it; several: what is typed.
      inputValue={props.multiple || clearOnChoice ? typed : undefined}
      onInputChange={(_event, text, reason) => setText(text, reason === 'input')}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => {
        setOpen(false);
        setText('', false);
      }}
      options={options}
      // The server has already filtered by the text typed.
      filterOptions={(found) => (exclude ? found.filter((option) => !exclude.includes(option.id)) : found)}
      filterSelectedOptions
      groupBy={grouped ? (option) => (option as RelationOption).group ?? '' : undefined}
      getOptionLabel={refName}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      autoHighlight
      disabled={disabled}
      loading={waiting}
      loadingText="Searching…"
      noOptionsText={noOptionsText}
      size={size}
      renderOption={({ key, ...optionProps }, option) => {
        const detail = (option as Partial<RelationOption>).detail;
        // The name names the option; the second line describes it.
        const detailId = `${optionProps.id ?? key}-detail`;
        return (
          <li key={key} {...optionProps} {...(detail ? { 'aria-label': refName(option), 'aria-describedby': detailId } : {})}>
            {detail ? (
              <Box sx={{ minWidth: 0 }}>
                <Box>{refName(option)}</Box>
                <Typography id={detailId} variant="body2" color="text.secondary" noWrap data-testid="option-detail">
                  {detail}
                </Typography>
              </Box>
            ) : (
              refName(option)
            )}
          </li>
        );
      }}
      // Several records are chips; one record is the input's text (with renderValue set, the input stays empty).
      renderValue={
        props.multiple
          ? (chosen, getItemProps) =>
              (chosen as RelatedRef[]).map((ref, index) => {
                const { key, ...itemProps } = getItemProps({ index }) as ReturnType<AutocompleteRenderValueGetItemProps<true>>;
                return <Chip key={key} label={refName(ref)} size="small" sx={{ maxWidth: '100%' }} {...itemProps} />;
              })
          : undefined
      }
      renderInput={(inputProps) => (
        <TextField
          {...inputProps}
          label={label}
          required={required}
          error={Boolean(error)}
          placeholder={placeholder ?? (props.multiple && props.value.length > 0 ? undefined : `Search ${nouns}`)}
          helperText={error ?? helperText}
          slotProps={{
            ...inputProps.slotProps,
            input: {
              ...inputProps.slotProps.input,
              endAdornment: (
                <>
                  {open && waiting ? <CircularProgress color="inherit" size={18} aria-label="Searching" /> : null}
                  {inputProps.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}

interface RelationFieldProps {
  id: string;
  label: string;
  field: FieldMeta;
  value: RelatedRef[] | RelatedRef | null;
  onChange: (value: RelatedRef[] | RelatedRef | null) => void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
}

/** A relation field of EntityForm: one or several records of the field's targets, per its metadata. */
export function RelationField({ id, label, field, value, onChange, error, required, disabled }: RelationFieldProps) {
  const targets = field.relation?.targets ?? [];
  const many = field.relation?.many ?? true;
  const hint = `Type to search ${targetNouns(targets)}${many ? '; choose as many as apply' : ''}.`;
  const common = { id, label, targets, error, required, disabled, helperText: hint };
  return many ? (
    <RecordPicker {...common} multiple value={Array.isArray(value) ? value : []} onChange={onChange} />
  ) : (
    <RecordPicker {...common} multiple={false} value={Array.isArray(value) ? null : value} onChange={onChange} />
  );
}

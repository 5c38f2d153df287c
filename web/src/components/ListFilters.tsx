import Autocomplete, { type AutocompleteRenderValueGetItemProps } from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import type { AvailableFilter } from '../api/resources';
import { fieldLabel, type ResourceView } from './resource-view';
import { visibilityLabel } from './VisibilityChip';
import { choiceText } from './field-format';

interface ListFiltersProps {
  meta: ResourceMeta;
  view: ResourceView;
  available: AvailableFilter[];
  selected: Record<string, string[]>;
  onChange: (filters: Record<string, string[]>) => void;
}

/**
 * The width a filter needs for its whole label (about 8 px a character at the field's size)
 * plus its end buttons: MUI clips a label to its field, and a long one ("Organizations and
 * ledger entries") read "Organizations and ledge…". On a phone every filter is a full row.
 */
const fitLabel = (label: string, buttons: number, least: number) => Math.max(least, Math.ceil(label.length * 8) + 28 + buttons * 28);

function valueLabel(meta: ResourceMeta, filterName: string, value: string): string {
  if (filterName === 'visibility') return visibilityLabel(value);
  return choiceText(meta.fields.find((field) => field.name === filterName), value);
}

/**
 * One control per filter of available-filters: a multi-select with counts for choice filters,
 * a searchable multi-select of names for relation filters (whose values are ids), Any / Yes /
 * No for boolean ones. Filters with nothing to choose from are left out.
 */
export function ListFilters({ meta, view, available, selected, onChange }: ListFiltersProps) {
  const set = (name: string, values: string[]) => {
    const next = { ...selected };
    if (values.length > 0) next[name] = values;
    else delete next[name];
    onChange(next);
  };
  const ordered = meta.filters
    .map((name) => available.find((filter) => filter.name === name))
    .filter((filter): filter is AvailableFilter => filter !== undefined);
  const active = Object.values(selected).some((values) => values.length > 0);

  return (
    <>
      {ordered.map((filter) => {
        const chosen = selected[filter.name] ?? [];
        const label = fieldLabel(view, filter.name);
        const counts = new Map(filter.values.map((entry) => [String(entry.value), entry.count]));

        if (filter.type === 'boolean') {
          const countOf = (value: string) => (counts.has(value) ? ` (${counts.get(value)})` : '');
          return (
            <TextField
              key={filter.name}
              select
              size="small"
              label={label}
              value={chosen[0] ?? ''}
              onChange={(event) => set(filter.name, event.target.value === '' ? [] : [event.target.value])}
              sx={{ minWidth: { xs: 0, sm: fitLabel(label, 1, 190) }, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
            >
              <MenuItem value="">Any</MenuItem>
              <MenuItem value="true">Yes{countOf('true')}</MenuItem>
              <MenuItem value="false">No{countOf('false')}</MenuItem>
            </TextField>
          );
        }

        // Values chosen in a shared link but absent here (none visible now) stay removable.
        const values = [...counts.keys(), ...chosen.filter((value) => !counts.has(value))];
        if (values.length === 0) return null;

        if (filter.type === 'relation') {
          const names = new Map(filter.values.map((entry) => [String(entry.value), entry.label?.trim() || 'Unnamed']));
          const nameOf = (value: string) => names.get(value) ?? 'Not available';
          return (
            <Autocomplete<string, true, false, false>
              key={filter.name}
              multiple
              size="small"
              options={values}
              value={chosen}
              onChange={(_event, next) => set(filter.name, next)}
              getOptionLabel={nameOf}
              disableCloseOnSelect
              limitTags={1}
              renderOption={({ key, ...optionProps }, value, { selected }) => (
                <li key={key} {...optionProps}>
                  <Checkbox checked={selected} size="small" sx={{ p: 0.5, mr: 1 }} tabIndex={-1} />
                  <ListItemText
                    primary={nameOf(value)}
                    secondary={String(counts.get(value) ?? 0)}
                    slotProps={{ secondary: { component: 'span', sx: { ml: 1 } } }}
                    sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', my: 0 }}
                  />
                </li>
              )}
              renderValue={(items, getItemProps) =>
                items.map((value, index) => {
                  const { key, ...itemProps } = getItemProps({ index }) as ReturnType<AutocompleteRenderValueGetItemProps<true>>;
                  return <Chip key={key} label={nameOf(value)} size="small" sx={{ maxWidth: 140 }} {...itemProps} />;
                })
              }
              renderInput={(params) => <TextField {...params} label={label} placeholder={chosen.length === 0 ? 'Any' : undefined} />}
              sx={{ minWidth: { xs: 0, sm: fitLabel(label, 2, 220) }, maxWidth: { sm: Math.max(320, fitLabel(label, 2, 220)) }, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
            />
          );
        }

        return (
          <TextField
            key={filter.name}
            select
            size="small"
            label={label}
            value={chosen}
            onChange={(event) => {
              const raw = event.target.value as unknown;
              set(filter.name, typeof raw === 'string' ? raw.split(',') : (raw as string[]));
            }}
            sx={{ minWidth: { xs: 0, sm: fitLabel(label, 1, 170) }, maxWidth: { sm: Math.max(280, fitLabel(label, 1, 170)) }, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
            slotProps={{
              select: {
                multiple: true,
                renderValue: (value) => (value as string[]).map((entry) => valueLabel(meta, filter.name, entry)).join(', '),
                MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } },
              },
            }}
          >
            {values.map((value) => (
              <MenuItem key={value} value={value} dense>
                <Checkbox checked={chosen.includes(value)} size="small" sx={{ p: 0.5, mr: 1 }} tabIndex={-1} />
                <ListItemText
                  primary={valueLabel(meta, filter.name, value)}
                  secondary={counts.has(value) ? `${counts.get(value)}` : '0'}
                  slotProps={{ secondary: { component: 'span', sx: { ml: 1 } } }}
                  sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', my: 0 }}
                />
              </MenuItem>
            ))}
          </TextField>
        );
      })}
      {active && (
        <Button size="small" startIcon={<FilterAltOffIcon />} onClick={() => onChange({})}>
          Clear filters
        </Button>
      )}
    </>
  );
}

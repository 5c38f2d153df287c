import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';

interface MultiValueFieldProps {
  id?: string;
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  error?: string;
  /** The value the error is about (zero-based), shown in red. */
  invalidIndex?: number;
  /** Keyboard shown on phones. */
  inputMode?: 'email' | 'tel' | 'url' | 'text';
  placeholder?: string;
  /** Marks the field as one that must be filled in. */
  required?: boolean;
  /** How a chip reads (e.g. a phone number in the international format); the value itself is kept. */
  formatValue?: (value: string) => string;
}

// Commas and semicolons separate values; phone numbers and URLs may contain neither unencoded.
const SEPARATORS = /[,;\n]/;

function addValues(current: string[], text: string): string[] {
  const added = text
    .split(SEPARATORS)
    .map((value) => value.trim())
    .filter((value) => value !== '' && !current.includes(value));
  return added.length === 0 ? current : [...current, ...new Set(added)];
}

/**
 * A list of strings (emails, phones, URLs, tags) as chips. Typing a value then Enter or a
 * comma adds it; so does leaving the field, so a typed value is never lost on save.
 * Backspace or a chip's delete button removes one.
 */
export function MultiValueField({
  id,
  label,
  values,
  onChange,
  error,
  invalidIndex,
  inputMode = 'text',
  placeholder,
  required,
  formatValue = (value) => value,
}: MultiValueFieldProps) {
  const [input, setInput] = useState('');

  return (
    <Autocomplete<string, true, false, true>
      id={id}
      multiple
      freeSolo
      options={[]}
      value={values}
      inputValue={input}
      onChange={(_event, next) => onChange(addValues([], next.join('\n')))}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input' && SEPARATORS.test(text)) {
          onChange(addValues(values, text));
          setInput('');
        } else {
          setInput(text);
        }
      }}
      onBlur={() => {
        if (input.trim() !== '') onChange(addValues(values, input));
        setInput('');
      }}
      renderValue={(items, getItemProps) =>
        items.map((item, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip
              key={key}
              label={formatValue(item)}
              size="small"
              color={index === invalidIndex ? 'error' : 'default'}
              sx={{ maxWidth: '100%' }}
              {...itemProps}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={Boolean(error)}
          placeholder={values.length === 0 ? placeholder : undefined}
          helperText={error ?? 'Enter or a comma adds a value.'}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, inputMode } }}
        />
      )}
    />
  );
}

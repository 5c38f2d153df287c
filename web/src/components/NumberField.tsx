import TextField from '@mui/material/TextField';
import type { FieldMeta } from '@intelnotes/server/contracts';
import { parseNumber } from './form-values';

// Four-digit numbers (years, most often) without a separator: 1000, but 10,000.
const NUMBER = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 10, useGrouping: 'min2' });

/** The accepted range in words: "between 0 and 100", "0 or more", "100 or less"; null when open. */
function range(field: Pick<FieldMeta, 'min' | 'max'>): string | null {
  const { min, max } = field;
  if (min !== null && max !== null) return `between ${NUMBER.format(min)} and ${NUMBER.format(max)}`;
  if (min !== null) return `${NUMBER.format(min)} or more`;
  if (max !== null) return `${NUMBER.format(max)} or less`;
  return null;
}

/** What the field takes, shown under it: "A whole number between 0 and 100." */
export function numberHint(field: Pick<FieldMeta, 'kind' | 'min' | 'max'>): string {
  const limits = range(field);
  const noun = field.kind === 'integer' ? 'A whole number' : 'A number';
  return `${noun}${limits ? ` ${limits}` : ''}.`;
}

/**
 * A message for a typed number the API would refuse (not a number, not whole, out of range),
 * or null. Checked before saving and when the field is left.
 */
export function numberProblem(field: Pick<FieldMeta, 'kind' | 'min' | 'max'>, text: string): string | null {
  if (text.trim() === '') return null;
  const value = parseNumber(text);
  const limits = range(field);
  if (value === null || (field.kind === 'integer' && !Number.isInteger(value))) {
    const example = field.kind === 'integer' ? 'e.g. 42' : 'e.g. 12.5';
    return `Enter ${field.kind === 'integer' ? 'a whole number' : 'a number'}${limits ? ` ${limits}` : ''}, ${example}.`;
  }
  if ((field.min !== null && value < field.min) || (field.max !== null && value > field.max)) {
    return `Enter a number ${limits}; ${NUMBER.format(value)} is ${field.min !== null && value < field.min ? 'too small' : 'too large'}.`;
  }
  return null;
}

interface NumberFieldProps {
  id: string;
  label: string;
  field: Pick<FieldMeta, 'kind' | 'min' | 'max'>;
  value: string;
  onChange: (value: string) => void;
  /** Called when the field is left, with the problem of its value (or null). */
  onCheck: (problem: string | null) => void;
  error?: string;
  required?: boolean;
}

/**
 * An integer or decimal input. A text input with a numeric keyboard rather than
 * type="number", so what was typed is kept as typed and a wrong value gets a clear message
 * instead of being silently emptied by the browser.
 */
export function NumberField({ id, label, field, value, onChange, onCheck, error, required }: NumberFieldProps) {
  const negative = field.min === null || field.min < 0;
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      required={required}
      fullWidth
      error={Boolean(error)}
      helperText={error ?? numberHint(field)}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => onCheck(numberProblem(field, value))}
      slotProps={{
        htmlInput: {
          // Phone keypads without a minus key would make negative numbers impossible to type.
          inputMode: negative ? 'text' : field.kind === 'integer' ? 'numeric' : 'decimal',
          autoComplete: 'off',
          'aria-invalid': Boolean(error),
        },
      }}
    />
  );
}

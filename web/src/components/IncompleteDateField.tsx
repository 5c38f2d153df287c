import { useId, useState } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { monthName } from './field-format';

/**
 * A date whose day, month or year may be unknown, as the API writes it: "2019", "2019-03",
 * "2019-03-15", "--03-15" (no year) or "--03". Edited as year, month and day, any of
 * which may be left empty; the field emits the API string ("" when all are empty).
 */
interface Parts {
  year: string;
  month: string;
  day: string;
}

const EMPTY: Parts = { year: '', month: '', day: '' };

export function partsOf(value: string): Parts {
  const text = value.trim();
  let match: RegExpExecArray | null;
  if ((match = /^--(\d{2})(?:-(\d{2}))?$/.exec(text))) return { year: '', month: match[1] ?? '', day: match[2] ?? '' };
  // Day without a month: never valid, but kept so the field shows what was chosen.
  if ((match = /^(\d{0,4})-{2,3}(\d{2})$/.exec(text))) return { year: match[1] ?? '', month: '', day: match[2] ?? '' };
  if ((match = /^(\d{0,4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(text))) {
    return { year: match[1] ?? '', month: match[2] ?? '', day: match[3] ?? '' };
  }
  return { ...EMPTY, year: text };
}

export function composeIncompleteDate({ year, month, day }: Parts): string {
  const y = year.trim();
  if (y === '' && month === '' && day === '') return '';
  if (y === '') return month === '' ? `---${day}` : day === '' ? `--${month}` : `--${month}-${day}`;
  if (month === '') return day === '' ? y : `${y}--${day}`;
  return day === '' ? `${y}-${month}` : `${y}-${month}-${day}`;
}

/** A message for a value the API would refuse, or null (checked before saving); `complete` asks for all three parts. */
export function incompleteDateProblem(value: string, complete = false): string | null {
  if (value === '') return null;
  const { year, month, day } = partsOf(value);
  if (year !== '' && !/^\d{4}$/.test(year)) return 'Enter the year with four digits, e.g. 2019.';
  if (complete && (year === '' || month === '' || day === '')) return 'Enter the day, month and year.';
  if (day !== '' && month === '') return 'Choose the month too, or clear the day.';
  if (year === '' && month === '') return 'Enter a year or a month.';
  if (year !== '' && month !== '' && day !== '') {
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    if (date.getUTCDate() !== Number(day)) return `${monthName(Number(month))} ${year} has no day ${Number(day)}.`;
  }
  return null;
}

interface IncompleteDateFieldProps {
  /** Given to the year input, the first of the three. */
  id?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Marks the field as one that must be filled in. */
  required?: boolean;
  /** A full calendar date: day, month and year are all needed (when any is given). */
  complete?: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Every date of every form is edited in these three boxes, complete dates too (`complete`). */
export function IncompleteDateField({ id, label, value, onChange, error, required, complete = false }: IncompleteDateFieldProps) {
  const helperId = useId();
  // The typed parts are kept while the year is half typed ("20"), which no API string can hold.
  const [parts, setParts] = useState<Parts>(() => partsOf(value));
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    if (value !== composeIncompleteDate(parts)) setParts(partsOf(value));
  }

  const change = (patch: Partial<Parts>) => {
    const next = { ...parts, ...patch };
    setParts(next);
    const composed = composeIncompleteDate(next);
    setShownValue(composed);
    onChange(composed);
  };

  const problem = error ?? null;
  return (
    <FormControl component="fieldset" error={Boolean(problem)} required={required} aria-describedby={helperId}>
      <FormLabel component="legend" sx={{ mb: 1 }}>
        {label}
      </FormLabel>
      <Box
        sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'minmax(0, 1fr) minmax(0, 1.7fr) minmax(0, 1fr)', sm: '7rem 10rem 7rem' } }}
      >
        <TextField
          id={id}
          label="Year"
          value={parts.year}
          onChange={(event) => change({ year: event.target.value.replace(/\D/g, '').slice(0, 4) })}
          error={Boolean(problem)}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 4 } }}
        />
        <TextField
          select
          label="Month"
          value={parts.month}
          onChange={(event) => change({ month: event.target.value })}
          error={Boolean(problem)}
        >
          <MenuItem value="">
            <em>Unknown</em>
          </MenuItem>
          {Array.from({ length: 12 }, (_, index) => (
            <MenuItem key={index} value={pad(index + 1)}>
              {monthName(index + 1)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Day"
          value={parts.day}
          onChange={(event) => change({ day: event.target.value })}
          error={Boolean(problem)}
        >
          <MenuItem value="">
            <em>Unknown</em>
          </MenuItem>
          {Array.from({ length: 31 }, (_, index) => (
            <MenuItem key={index} value={pad(index + 1)}>
              {index + 1}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <FormHelperText id={helperId}>
        {problem ??
          (complete ? 'Enter the day, month and year.' : 'Leave the parts you do not know empty: a year alone, a month and year, or a day and month.')}
      </FormHelperText>
    </FormControl>
  );
}

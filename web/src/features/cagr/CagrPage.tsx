import { useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import LinkIcon from '@mui/icons-material/Link';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';
import { notify } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import {
  dateAfterYears,
  formatForInput,
  growthPath,
  MAX_PERIODS,
  parseIsoDate,
  parseLocaleNumber,
  solveCagr,
  yearsBetween,
  type CagrInputs,
  type CagrOutcome,
  type CagrProblems,
  type CagrQuantity,
} from './cagr';
import { GrowthChart } from './GrowthChart';

/**
 * /cagr: the compound annual growth rate calculator. Three of start value, end value, growth
 * rate and duration (a number of periods, or two dates in years) give the fourth. Every input
 * is in the URL (start, end, rate in percent, periods, or by=dates with from and to), so a
 * calculation is shared by its link; numbers are typed and shown as the reader's locale writes
 * them. The arithmetic is cagr.ts.
 */

/** The reader's locale (the browser's); undefined lets Intl pick the same. */
const LOCALE = typeof navigator === 'undefined' ? undefined : navigator.language;

type NumberInput = 'start' | 'end' | 'rate' | 'periods';
type DateInput = 'from' | 'to';
type Texts = Record<NumberInput | DateInput, string>;
type Mode = 'periods' | 'dates';

const NUMBER_INPUTS: NumberInput[] = ['start', 'end', 'rate', 'periods'];
const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

const LABELS: Record<CagrQuantity, string> = { start: 'Start value', end: 'End value', rate: 'Growth rate', periods: 'Periods' };

/** The form as the URL gives it: plain numbers shown in the reader's notation, anything else as it is. */
function textsOf(params: URLSearchParams): Texts {
  const number = (name: NumberInput) => {
    const raw = params.get(name) ?? '';
    return PLAIN_NUMBER.test(raw) ? formatForInput(Number(raw), LOCALE) : raw;
  };
  return { start: number('start'), end: number('end'), rate: number('rate'), periods: number('periods'), from: params.get('from') ?? '', to: params.get('to') ?? '' };
}

function modeOf(params: URLSearchParams): Mode {
  return params.get('by') === 'dates' || params.has('from') || params.has('to') ? 'dates' : 'periods';
}

/** The URL of a form: numbers written plainly (what does not read as one, as typed, so its message shows for the link's reader too). */
function paramsOf(texts: Texts, mode: Mode): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of NUMBER_INPUTS) {
    if (name === 'periods' && mode === 'dates') continue;
    const text = texts[name].trim();
    if (text === '') continue;
    const value = parseLocaleNumber(text, LOCALE);
    out.set(name, value === null ? text : String(value));
  }
  if (mode === 'dates') {
    out.set('by', 'dates');
    if (texts.from) out.set('from', texts.from);
    if (texts.to) out.set('to', texts.to);
  }
  return out;
}

interface Reading {
  inputs: CagrInputs;
  /** Problems of the typed text itself (not a number, not a date), by input. */
  problems: Partial<Record<NumberInput | DateInput, string>>;
  from: [number, number, number] | null;
}

/** The typed form as the calculator's inputs; a value that cannot be read counts as given but wrong. */
function read(texts: Texts, mode: Mode): Reading {
  const problems: Reading['problems'] = {};
  const numberOf = (name: NumberInput): number | null => {
    const text = texts[name].trim();
    if (text === '') return null;
    const value = parseLocaleNumber(text, LOCALE);
    if (value === null) problems[name] = `Enter a number, e.g. ${formatForInput(name === 'rate' ? 7.5 : 1250.5, LOCALE)}.`;
    return value ?? Number.NaN;
  };
  const start = numberOf('start');
  const end = numberOf('end');
  const percent = numberOf('rate');
  let periods: number | null = null;
  let from: [number, number, number] | null = null;
  if (mode === 'periods') {
    periods = numberOf('periods');
  } else {
    from = texts.from ? parseIsoDate(texts.from) : null;
    const to = texts.to ? parseIsoDate(texts.to) : null;
    if (texts.from && !from) problems.from = 'Enter a date.';
    if (texts.to && !to) problems.to = 'Enter a date.';
    if (to && !texts.from) problems.from = 'Enter the start date too.';
    if (from && to) {
      periods = yearsBetween(from, to);
      if (periods === null) problems.to = 'The end date must be after the start date.';
    }
    // A date that cannot be read, or dates in the wrong order, make the duration given but wrong.
    if (problems.from || problems.to) periods = Number.NaN;
  }
  return { inputs: { start, end, rate: percent === null ? null : percent / 100, periods }, problems, from };
}

export function CagrPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  // The typed text is kept as typed (the URL holds plain numbers: "1." would read back as "1").
  // The form writes the URL by replacing its entry; any other move to a new entry (back,
  // forward, a link) reads the form again from the URL.
  const [form, setForm] = useState(() => ({ key: location.key, texts: textsOf(params), mode: modeOf(params) }));
  let { texts, mode } = form;
  if (form.key !== location.key) {
    if (navigationType !== 'REPLACE') {
      texts = textsOf(params);
      mode = modeOf(params);
    }
    setForm({ key: location.key, texts, mode });
  }

  const save = (nextTexts: Texts, nextMode: Mode) => {
    setForm((current) => ({ ...current, texts: nextTexts, mode: nextMode }));
    // Typing replaces the history entry instead of adding one per key.
    setParams(paramsOf(nextTexts, nextMode), { replace: true });
  };
  const change = (name: keyof Texts, value: string) => save({ ...texts, [name]: value }, mode);

  const reading = useMemo(() => read(texts, mode), [texts, mode]);
  const outcome = useMemo(() => solveCagr(reading.inputs), [reading]);
  const format = useMemo(() => formatters(), []);

  const problems: CagrProblems & Reading['problems'] = { ...(outcome.kind === 'invalid' ? outcome.problems : {}), ...reading.problems };
  // The duration's problem shows on the dates in date mode.
  if (mode === 'dates' && problems.periods && !problems.from && !problems.to) problems.to = `The dates must be at most ${MAX_PERIODS} years apart.`;
  const solved = outcome.kind === 'solved' ? outcome.solved : null;

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify.success('Link copied.');
    } catch {
      notify.error('Could not copy the link: copy it from the address bar.');
    }
  };

  const numberField = (name: NumberInput, extra: { adornment?: string; hint: string }) => (
    <TextField
      id={`cagr-${name}`}
      label={name === 'rate' ? 'Growth rate per period' : LABELS[name]}
      value={texts[name]}
      onChange={(event) => change(name, event.target.value)}
      error={Boolean(problems[name])}
      helperText={problems[name] ?? (solved === name ? 'Calculated below' : extra.hint)}
      placeholder={solved === name && outcome.kind === 'solved' ? plainResult(name, outcome.values[name], format) : undefined}
      fullWidth
      slotProps={{
        htmlInput: { inputMode: name === 'rate' ? 'text' : 'decimal', autoComplete: 'off' },
        input: extra.adornment ? { endAdornment: <InputAdornment position="end">{extra.adornment}</InputAdornment> } : undefined,
        formHelperText: { sx: solved === name && !problems[name] ? { color: 'primary.dark', fontWeight: 600 } : undefined },
      }}
    />
  );

  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Box>
        <PageHeading>CAGR calculator</PageHeading>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          Compound annual growth rate: fill in three values and leave empty the one to find.
        </Typography>
      </Box>

      <Paper variant="outlined" component="form" noValidate onSubmit={(event) => event.preventDefault()} aria-label="CAGR inputs" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          {numberField('start', { hint: 'The value at the start, above zero' })}
          {numberField('end', { hint: 'The value at the end, above zero' })}
          {numberField('rate', { adornment: '%', hint: 'Compound growth each period' })}
          <Stack spacing={1.5}>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={mode}
              onChange={(_event, next: Mode | null) => next && save(texts, next)}
              aria-label="Duration as"
            >
              <ToggleButton value="periods">Number of periods</ToggleButton>
              <ToggleButton value="dates">Start and end dates</ToggleButton>
            </ToggleButtonGroup>
            {mode === 'periods' ? (
              numberField('periods', { hint: 'Years, quarters… one rate per period' })
            ) : (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
                <TextField
                  id="cagr-from"
                  type="date"
                  label="Start date"
                  value={texts.from}
                  onChange={(event) => change('from', event.target.value)}
                  error={Boolean(problems.from)}
                  helperText={problems.from ?? ' '}
                  fullWidth
                  slotProps={{ inputLabel: { shrink: true } }}
                />
                <TextField
                  id="cagr-to"
                  type="date"
                  label="End date"
                  value={texts.to}
                  onChange={(event) => change('to', event.target.value)}
                  error={Boolean(problems.to)}
                  helperText={problems.to ?? (solved === 'periods' ? 'Calculated below' : ' ')}
                  fullWidth
                  slotProps={{
                    inputLabel: { shrink: true },
                    formHelperText: { sx: solved === 'periods' && !problems.to ? { color: 'primary.dark', fontWeight: 600 } : undefined },
                  }}
                />
              </Stack>
            )}
          </Stack>
        </Box>
        <Stack direction="row" spacing={1} sx={{ mt: 2.5, justifyContent: 'flex-end' }}>
          <Button startIcon={<RestartAltIcon />} onClick={() => save({ start: '', end: '', rate: '', periods: '', from: '', to: '' }, mode)}>
            Clear
          </Button>
          <Button variant="outlined" startIcon={<LinkIcon />} onClick={() => void copyLink()}>
            Copy link
          </Button>
        </Stack>
      </Paper>

      <Result outcome={outcome} mode={mode} from={reading.from} format={format} />
    </Stack>
  );
}

interface Formatters {
  value: (value: number) => string;
  axis: (value: number) => string;
  percent: (fraction: number) => string;
  periods: (count: number) => string;
  date: (iso: string) => string;
}

/** Numbers and dates as the reader's locale writes them. */
function formatters(): Formatters {
  const value = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
  const axis = new Intl.NumberFormat(LOCALE, { notation: 'compact', maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const periods = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
  const date = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    value: (number) => value.format(number),
    axis: (number) => axis.format(number),
    percent: (fraction) => percent.format(fraction),
    periods: (count) => periods.format(count),
    date: (iso) => date.format(new Date(`${iso}T00:00:00Z`)),
  };
}

/** A solved value as the empty field's placeholder shows it (the rate in percent, without the sign the field carries). */
function plainResult(name: CagrQuantity, value: number, format: Formatters): string {
  return name === 'rate' ? format.periods(value * 100) : name === 'periods' ? format.periods(value) : format.value(value);
}

function Result({ outcome, mode, from, format }: { outcome: CagrOutcome; mode: Mode; from: [number, number, number] | null; format: Formatters }) {
  if (outcome.kind === 'incomplete') {
    return (
      <Alert severity="info" role="status" data-testid="cagr-result">
        {outcome.message}
      </Alert>
    );
  }
  if (outcome.kind === 'invalid') {
    return (
      <Alert severity="warning" role="status" data-testid="cagr-result">
        Correct the values marked above to see the result.
      </Alert>
    );
  }
  const { solved, values } = outcome;
  const unit = mode === 'dates' ? 'years' : 'periods';
  const endDate = mode === 'dates' && from ? dateAfterYears(from, values.periods) : null;
  const headline: Record<CagrQuantity, { label: string; value: string }> = {
    rate: { label: 'Compound annual growth rate', value: format.percent(values.rate) },
    end: { label: 'End value', value: format.value(values.end) },
    start: { label: 'Start value', value: format.value(values.start) },
    periods: { label: mode === 'dates' ? 'Years' : 'Periods', value: format.periods(values.periods) },
  };
  const duration = `${format.periods(values.periods)} ${values.periods === 1 ? unit.slice(0, -1) : unit}`;
  const sentence: ReactNode = (
    <>
      {format.value(values.start)} {values.end >= values.start ? 'grows' : 'shrinks'} to {format.value(values.end)} in {duration}
      {endDate ? ` (until ${format.date(endDate)})` : ''} at {format.percent(values.rate)} a {mode === 'dates' ? 'year' : 'period'}.
    </>
  );
  const points = growthPath(values.start, values.rate, values.periods);
  const periodLabel = mode === 'dates' ? 'Year' : 'Period';
  const formatPeriod = (period: number) => (mode === 'dates' && from ? format.date(dateAfterYears(from, period)) : format.periods(period));

  return (
    <Paper variant="outlined" component="section" aria-labelledby="cagr-result-label" data-testid="cagr-result" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="cagr-result-label" variant="overline" color="text.secondary" sx={{ fontWeight: 700, letterSpacing: 1 }}>
        {headline[solved].label}
      </Typography>
      <Typography data-testid="cagr-answer" role="status" sx={{ fontSize: { xs: '2rem', sm: '2.5rem' }, fontWeight: 700, color: 'primary.dark', lineHeight: 1.2, overflowWrap: 'anywhere' }}>
        {headline[solved].value}
        {endDate && solved === 'periods' && (
          <Typography component="span" sx={{ fontSize: '1rem', fontWeight: 600, color: 'text.secondary', ml: 1.5 }}>
            until {format.date(endDate)}
          </Typography>
        )}
      </Typography>
      <Typography sx={{ mt: 1, mb: 2.5 }} data-testid="cagr-sentence">
        {sentence}
      </Typography>
      <GrowthChart
        points={points}
        formatValue={format.value}
        formatAxis={format.axis}
        formatPeriod={formatPeriod}
        periodLabel={periodLabel}
        summary={`Growth from ${format.value(values.start)} to ${format.value(values.end)} over ${duration}.`}
      />
    </Paper>
  );
}

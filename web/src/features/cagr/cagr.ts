/**
 * Compound annual growth rate: the pure arithmetic behind /cagr (CagrPage.tsx), apart from any
 * screen so it can be tested on its own.
 *
 *   end = start × (1 + rate)^periods
 *
 * Given three of start, end, rate and periods, `solveCagr` finds the fourth. The periods are
 * either typed as a number or measured between two dates in years (`yearsBetween`).
 */

/** The four quantities; `rate` is a fraction (0.07 for 7 %). */
export type CagrQuantity = 'start' | 'end' | 'rate' | 'periods';

/** The longest horizon accepted, in periods: far beyond any use, short of overflow. */
export const MAX_PERIODS = 1000;

export interface CagrInputs {
  /** Each value, or null when left empty. */
  start: number | null;
  end: number | null;
  rate: number | null;
  periods: number | null;
}

export type CagrProblems = Partial<Record<CagrQuantity, string>>;

export type CagrOutcome =
  /** Everything known: the missing quantity solved, all four given. */
  | { kind: 'solved'; solved: CagrQuantity; values: Record<CagrQuantity, number> }
  /** Not enough (or too much) given, or no computable answer: what to do, with no field at fault. */
  | { kind: 'incomplete'; message: string }
  /** Some values are wrong: a message per field at fault. */
  | { kind: 'invalid'; problems: CagrProblems };

const QUANTITIES: CagrQuantity[] = ['start', 'end', 'rate', 'periods'];

/** Problems of the given values themselves, whatever is solved. */
export function inputProblems(inputs: CagrInputs): CagrProblems {
  const problems: CagrProblems = {};
  if (inputs.start !== null && !(inputs.start > 0)) problems.start = 'The start value must be above zero.';
  if (inputs.end !== null && !(inputs.end > 0)) problems.end = 'The end value must be above zero.';
  if (inputs.rate !== null && !(inputs.rate > -1)) problems.rate = 'The growth rate must be above −100 %.';
  if (inputs.periods !== null) {
    if (!(inputs.periods > 0)) problems.periods = 'The number of periods must be above zero.';
    else if (inputs.periods > MAX_PERIODS) problems.periods = `The number of periods must be ${MAX_PERIODS} or fewer.`;
  }
  return problems;
}

/**
 * Solves for the one quantity left empty. Every value is checked first (a message per field);
 * then a combination no growth can give is refused on the field being solved's neighbours:
 * equal start and end with a rate other than 0 %, or a rate going the other way than the values.
 */
export function solveCagr(inputs: CagrInputs): CagrOutcome {
  const problems = inputProblems(inputs);
  if (Object.keys(problems).length > 0) return { kind: 'invalid', problems };
  const missing = QUANTITIES.filter((quantity) => inputs[quantity] === null);
  if (missing.length === 0) return { kind: 'incomplete', message: 'Leave one value empty: the calculator fills it in.' };
  if (missing.length > 1) return { kind: 'incomplete', message: 'Fill in three of the four values: the calculator finds the one left empty.' };
  const solved = missing[0]!;
  const { start, end, rate, periods } = inputs;

  let value: number;
  switch (solved) {
    case 'rate':
      value = (end! / start!) ** (1 / periods!) - 1;
      break;
    case 'end':
      value = start! * (1 + rate!) ** periods!;
      break;
    case 'start':
      value = end! / (1 + rate!) ** periods!;
      break;
    case 'periods': {
      if (rate === 0) {
        return { kind: 'invalid', problems: { rate: 'At 0 % growth the value never changes: enter a rate other than 0 %.' } };
      }
      if (start === end) {
        return { kind: 'invalid', problems: { end: 'The end value equals the start value: any growth other than 0 % moves away from it.' } };
      }
      value = Math.log(end! / start!) / Math.log(1 + rate!);
      if (value < 0) {
        const problem = rate! > 0
          ? 'A positive rate only grows: the end value must be above the start value.'
          : 'A negative rate only shrinks: the end value must be below the start value.';
        return { kind: 'invalid', problems: { end: problem } };
      }
      if (value > MAX_PERIODS) {
        return { kind: 'invalid', problems: { rate: `At this rate it takes more than ${MAX_PERIODS} periods: enter a larger rate.` } };
      }
      break;
    }
  }
  // Far-out values overflow (or underflow to 0) in floating point: no honest answer to show.
  if (!Number.isFinite(value) || (solved !== 'rate' && value <= 0)) {
    return { kind: 'incomplete', message: 'These values give a result too large or too small to compute.' };
  }
  return { kind: 'solved', solved, values: { start: start!, end: end!, rate: rate!, periods: periods!, [solved]: value } };
}

/** One point of the growth path: `period` from the start (fractional at the end), and the value then. */
export interface GrowthPoint {
  period: number;
  value: number;
}

/**
 * The value at each whole period from 0 to `periods`, and at `periods` itself when it is not
 * whole; at most `maxPoints` points (evenly spaced whole periods, first and last kept).
 */
export function growthPath(start: number, rate: number, periods: number, maxPoints = 60): GrowthPoint[] {
  const whole = Math.floor(periods);
  const step = Math.max(1, Math.ceil(whole / (maxPoints - 1)));
  const at = new Set<number>();
  for (let period = 0; period <= whole; period += step) at.add(period);
  at.add(periods);
  return [...at].sort((a, b) => a - b).map((period) => ({ period, value: start * (1 + rate) ** period }));
}

/** A calendar date as [year, month 1–12, day] from YYYY-MM-DD, or null when it is no such date. */
export function parseIsoDate(text: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return [year, month, day];
}

const DAY_MS = 86_400_000;
const utc = ([year, month, day]: [number, number, number]) => Date.UTC(year, month - 1, day);

/**
 * The years from one date to another: whole years by the calendar (anniversaries), then the
 * days left as a share of the year they fall in — 2020-01-01 → 2023-07-02 is 3.5 years, and a
 * leap day counts as a day of its year. Null when `to` is not after `from`.
 */
export function yearsBetween(from: [number, number, number], to: [number, number, number]): number | null {
  if (utc(to) <= utc(from)) return null;
  // An anniversary of 29 February falls on 1 March in a common year (Date.UTC rolls it over).
  const anniversary = (years: number) => Date.UTC(from[0] + years, from[1] - 1, from[2]);
  let whole = to[0] - from[0];
  if (anniversary(whole) > utc(to)) whole -= 1;
  const last = anniversary(whole);
  const next = anniversary(whole + 1);
  return whole + Math.round((utc(to) - last) / DAY_MS) / Math.round((next - last) / DAY_MS);
}

/** The date `years` after `from` (whole years by the calendar, the rest in days of that year), as YYYY-MM-DD. */
export function dateAfterYears(from: [number, number, number], years: number): string {
  const whole = Math.floor(years);
  const last = Date.UTC(from[0] + whole, from[1] - 1, from[2]);
  const next = Date.UTC(from[0] + whole + 1, from[1] - 1, from[2]);
  const days = Math.round(((years - whole) * (next - last)) / DAY_MS);
  return new Date(last + days * DAY_MS).toISOString().slice(0, 10);
}

/** The group and decimal separators of a locale ("1,234.5" in en, "1.234,5" in de). */
function separators(locale: string | undefined): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

/**
 * A number typed by a reader of `locale`: its group separators (and spaces) ignored, its decimal
 * separator read as the decimal point ("1.234,5" is 1234.5 in German). Null for anything that
 * is not a number. (URL parameters are plain numbers, read with `Number`, not this.)
 */
export function parseLocaleNumber(text: string, locale?: string): number | null {
  const { group, decimal } = separators(locale);
  let cleaned = text.trim().replace(/[\s\u00a0\u202f]/g, '').replace(/^\u2212/, '-');
  if (cleaned === '') return null;
  if (group.trim() !== '') cleaned = cleaned.split(group).join('');
  if (decimal !== '.') cleaned = cleaned.replace(decimal, '.');
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(cleaned) ? Number(cleaned) : null;
}

/** A number as the reader of `locale` types it: no grouping, their decimal separator. */
export function formatForInput(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 10 }).format(value);
}

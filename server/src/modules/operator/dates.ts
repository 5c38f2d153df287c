/**
 * Dates as questions say them ("after 2015", "in Q2 2024", "last quarter", "since March 2024",
 * "in the last 6 months") → a comparison with a period. Periods are incomplete dates
 * (YYYY, YYYY-MM, YYYY-MM-DD) as the list's date lookups read them: `gt=2015` is after the
 * end of 2015, `gte=2015` from its start. Relative dates count from `today` (UTC), which
 * callers inject so tests can fix it.
 */

/** A stretch of time from `start` to `end` (inclusive), each an incomplete date; `end` null = open (until now). */
export interface Period {
  start: string;
  end: string | null;
}

/** How a question compares with a period. */
export type DateComparison =
  | { kind: 'within'; period: Period }
  | { kind: 'after'; period: Period }
  | { kind: 'since'; period: Period }
  | { kind: 'before'; period: Period }
  | { kind: 'until'; period: Period }
  | { kind: 'between'; from: Period; to: Period };

export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_PATTERN = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

/** Ordinal words by their first three letters ("second" → 2, "2nd" → 2). */
export const ORDINALS: Record<string, number> = { fir: 1, '1st': 1, sec: 2, '2nd': 2, thi: 3, '3rd': 3, fou: 4, '4th': 4 };

const pad = (value: number) => String(value).padStart(2, '0');
const monthIndex = (word: string) => MONTHS.findIndex((month) => month.startsWith(word.slice(0, 3))) + 1;
const quarterPeriod = (year: number, quarter: number): Period => ({ start: `${year}-${pad(quarter * 3 - 2)}`, end: `${year}-${pad(quarter * 3)}` });
const single = (value: string): Period => ({ start: value, end: value });
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A calendar date `amount` units before today (UTC). */
function shifted(today: Date, unit: string, amount: number): Date {
  const date = new Date(today.getTime());
  if (unit.startsWith('day')) date.setUTCDate(date.getUTCDate() - amount);
  else if (unit.startsWith('week')) date.setUTCDate(date.getUTCDate() - 7 * amount);
  else if (unit.startsWith('month')) date.setUTCMonth(date.getUTCMonth() - amount);
  else if (unit.startsWith('quarter')) date.setUTCMonth(date.getUTCMonth() - 3 * amount);
  else date.setUTCFullYear(date.getUTCFullYear() - amount);
  return date;
}

/** The regular expression of a point in time (a period), as source text for sticky matching. */
const POINT = [
  String.raw`(?:q([1-4])|(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter)\s*(?:of\s+)?('?\d{2,4})`,
  String.raw`(\d{4})\s*q([1-4])`,
  String.raw`(\d{4})-(\d{2})(?:-(\d{2}))?`,
  String.raw`(\d{1,2})(?:st|nd|rd|th)?\s+(${MONTH_PATTERN})\.?,?\s+(\d{4})`,
  String.raw`(${MONTH_PATTERN})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})`,
  String.raw`(${MONTH_PATTERN})\.?(?:\s+(?:of\s+)?(\d{4}))?`,
  String.raw`(?:the\s+)?(\d{2,4})'?s`,
  String.raw`(\d{4})`,
  String.raw`(?:(?:the\s+)?(?:start|beginning)\s+of\s+)?(this|last|previous|past|current|next)\s+(year|quarter|month|week)`,
  String.raw`(today|yesterday)`,
  String.raw`(?:h([12])|(?:the\s+)?(first|second|1st|2nd)\s+half)\s*(?:of\s+)?('?\d{2,4})`,
].map((source) => `(?:${source})`);

// A point ends a word; a year may be followed by "-" and another ("2015-2018").
const POINT_RE = new RegExp(`(?:${POINT.join('|')})(?!\\w|-(?!\\d{4}(?!\\w)))`, 'y');

/** The period a point in time names, read at `at` of `text` (lower case), or null. */
export function readPoint(text: string, at: number, today: Date): { period: Period; end: number } | null {
  POINT_RE.lastIndex = at;
  const match = POINT_RE.exec(text);
  if (!match) return null;
  const m = match;
  const year = today.getUTCFullYear();
  const fullYear = (raw: string) => {
    const digits = raw.replace("'", '');
    if (digits.length === 4) return Number(digits);
    return digits.length === 2 ? (Number(digits) + 2000 > year ? 1900 : 2000) + Number(digits) : NaN;
  };
  let period: Period | null = null;
  if (m[1] || m[2]) period = quarterPeriod(fullYear(m[3]!), m[1] ? Number(m[1]) : ORDINALS[m[2]!.slice(0, 3)]!);
  else if (m[4]) period = quarterPeriod(Number(m[4]), Number(m[5]));
  else if (m[6]) {
    const month = Number(m[7]);
    const day = m[8] ? Number(m[8]) : null;
    if (month < 1 || month > 12 || (day !== null && (day < 1 || day > 31))) return null;
    period = single(day === null ? `${m[6]}-${m[7]}` : `${m[6]}-${m[7]}-${m[8]}`);
  } else if (m[9]) period = single(`${m[11]}-${pad(monthIndex(m[10]!))}-${pad(Number(m[9]))}`);
  else if (m[12]) period = single(`${m[14]}-${pad(monthIndex(m[12]))}-${pad(Number(m[13]))}`);
  else if (m[15]) {
    const month = monthIndex(m[15]);
    // A month without a year is the last one that has begun ("since March" in January: last year's).
    const monthYear = m[16] ? Number(m[16]) : month > today.getUTCMonth() + 1 ? year - 1 : year;
    period = single(`${monthYear}-${pad(month)}`);
  } else if (m[17]) {
    const decade = m[17].length === 4 ? Number(m[17]) : fullYear(m[17]);
    if (decade % 10 !== 0) return null;
    period = { start: String(decade), end: String(decade + 9) };
  } else if (m[18]) period = single(m[18]);
  else if (m[19]) period = relativePeriod(m[19], m[20]!, today);
  else if (m[21]) period = single(isoDay(m[21] === 'today' ? today : shifted(today, 'day', 1)));
  else if (m[22] || m[23]) {
    // "H1 2021", "the second half of 2020": two quarters.
    const half = m[22] ? Number(m[22]) : ORDINALS[m[23]!.slice(0, 3)]!;
    const halfYear = fullYear(m[24]!);
    period = { start: `${halfYear}-${pad(half * 6 - 5)}`, end: `${halfYear}-${pad(half * 6)}` };
  }
  if (!period) return null;
  const startYear = Number(period.start.slice(0, 4));
  if (!(startYear >= 1000 && startYear <= 9999)) return null;
  return { period, end: at + match[0].length };
}

/** "this year", "last quarter", "next month"…: the calendar period. */
function relativePeriod(which: string, unit: string, today: Date): Period {
  const step = which === 'last' || which === 'previous' || which === 'past' ? -1 : which === 'next' ? 1 : 0;
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth() + 1;
  if (unit === 'year') return single(String(year + step));
  if (unit === 'quarter') {
    const index = year * 4 + Math.floor((month - 1) / 3) + step;
    return quarterPeriod(Math.floor(index / 4), (index % 4) + 1);
  }
  if (unit === 'month') {
    const index = year * 12 + (month - 1) + step;
    return single(`${Math.floor(index / 12)}-${pad((index % 12) + 1)}`);
  }
  const start = new Date(today.getTime());
  start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7) + 7 * step);
  const end = new Date(start.getTime());
  end.setUTCDate(end.getUTCDate() + 6);
  return { start: isoDay(start), end: isoDay(end) };
}

const ROLLING_RE = new RegExp(
  String.raw`(?:(?:in|within|during|over|for)\s+)?(?:the\s+)?(?:last|past|previous)\s+(\d{1,3}|${Object.keys(NUMBER_WORDS).join('|')})?\s*(days?|weeks?|months?|quarters?|years?)(?![\w-])`,
  'y',
);
const LEAD_RE = /(in|during|from|of|for|since|after|before|until|till|through|up\s+to|between|as\s+of|starting(?:\s+(?:in|from))?|prior\s+to|later\s+than|earlier\s+than|no\s+later\s+than)\s+/y;
const RELATIVE_START_RE = /^(?:this|last|previous|past|current|next|today|yesterday)\b/;
/** A point that is a date on its own, without a preposition. */
const BARE_POINT_RE = /^(?:(?:18|19|20)\d{2}|q[1-4].*|h[12].*|(?:the\s+)?(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:quarter|half).*)$/;
const RANGE_JOIN_RE = /\s*(?:and|to|until|till|through|-|–)\s*/y;

/**
 * A date comparison at `at` of `text` (lower case): an optional preposition and a point, a
 * range ("between 2010 and 2015", "from 2019 to 2021") or a rolling window ("in the last 6
 * months"). `bare`: a point without a preposition counts ("founded 2015").
 */
export function readDateComparison(text: string, at: number, today: Date, bare: boolean): { comparison: DateComparison; end: number } | null {
  ROLLING_RE.lastIndex = at;
  const rolling = ROLLING_RE.exec(text);
  // "last year" / "last quarter" without a number (and without "in the") are calendar periods.
  if (rolling && (rolling[1] || /^(?:in|within|during|over|for)\s|^the\s/.test(rolling[0]) || /s$/.test(rolling[2]!))) {
    const amount = rolling[1] ? (NUMBER_WORDS[rolling[1]] ?? Number(rolling[1])) : 1;
    return { comparison: { kind: 'since', period: { start: isoDay(shifted(today, rolling[2]!, amount)), end: null } }, end: at + rolling[0].length };
  }
  LEAD_RE.lastIndex = at;
  const lead = LEAD_RE.exec(text);
  const word = lead?.[1]!.replace(/\s+/g, ' ') ?? null;
  const pointAt = lead ? at + lead[0].length : at;
  const first = readPoint(text, pointAt, today) ?? readRelativeWithThe(text, pointAt, today);
  if (!first) return null;
  // Without a preposition only a relative period ("last quarter", "this year"), a year of the last
  // two centuries or a named quarter or half ("ledger 2017", "2015-2018", "H1 2021") says it is a date.
  if (!lead && !bare && !RELATIVE_START_RE.test(text.slice(at, first.end)) && !BARE_POINT_RE.test(text.slice(at, first.end))) return null;
  if (word === null || word === 'between' || word === 'from' || word === 'in' || word === 'for') {
    RANGE_JOIN_RE.lastIndex = first.end;
    const join = RANGE_JOIN_RE.exec(text);
    // "between 2010 and 2015", "from 2019 to 2021", "2015-2018", "in 2015 to 2018".
    const joins = word === 'between' ? /and/ : word === 'from' ? /./ : /to|-|–|through|until|till/;
    const second = join && joins.test(join[0]) ? readPoint(text, first.end + join[0].length, today) : null;
    if (second) return { comparison: { kind: 'between', from: first.period, to: second.period }, end: second.end };
    if (word === 'between') return null;
  }
  const kind: DateComparison['kind'] =
    word === null || ['in', 'during', 'from', 'of', 'for'].includes(word)
      ? 'within'
      : ['after', 'later than'].includes(word)
        ? 'after'
        : ['since', 'as of'].includes(word) || word.startsWith('starting')
          ? 'since'
          : ['before', 'prior to', 'earlier than'].includes(word)
            ? 'before'
            : 'until';
  return { comparison: { kind, period: first.period } as DateComparison, end: first.end };
}

/** "the last quarter" after a preposition ("in the last quarter"): the calendar period. */
function readRelativeWithThe(text: string, at: number, today: Date): { period: Period; end: number } | null {
  const match = /the\s+(?=(?:this|last|previous|past|current|next)\s+(?:year|quarter|month|week)\b)/y;
  match.lastIndex = at;
  const the = match.exec(text);
  return the ? readPoint(text, at + the[0].length, today) : null;
}

/** The comparison as lookups on an incomplete-date field: [lookup, value] pairs. */
export function dateLookups(comparison: DateComparison): Array<['gt' | 'gte' | 'lt' | 'lte', string]> {
  switch (comparison.kind) {
    case 'within':
      return comparison.period.end === null ? [['gte', comparison.period.start]] : [['gte', comparison.period.start], ['lte', comparison.period.end]];
    case 'since':
      return [['gte', comparison.period.start]];
    case 'after':
      return [['gt', comparison.period.end ?? comparison.period.start]];
    case 'before':
      return [['lt', comparison.period.start]];
    case 'until':
      return [['lte', comparison.period.end ?? comparison.period.start]];
    case 'between':
      return [['gte', comparison.from.start], ['lte', comparison.to.end ?? comparison.to.start]];
  }
}

/** Year and quarter of an incomplete date's start ("2024-05" → 2024, 2) or end ("2024" → 2024, 4). */
function yearQuarter(value: string, edge: 'start' | 'end'): { year: number; quarter: number } {
  const year = Number(value.slice(0, 4));
  const month = value.length >= 7 ? Number(value.slice(5, 7)) : edge === 'start' ? 1 : 12;
  return { year, quarter: Math.floor((month - 1) / 3) + 1 };
}

/**
 * The comparison as ledger entries' year and quarter: a period within one year is exact
 * (the year, and its quarters unless all four); across years it is read by year, and
 * `approximate` says quarters were left out.
 */
export function ledgerDateLookups(comparison: DateComparison): { year: Array<['is' | 'gt' | 'gte' | 'lt' | 'lte', string]>; quarters: string[]; approximate: boolean } {
  let from: { year: number; quarter: number } | null = null;
  let to: { year: number; quarter: number } | null = null;
  switch (comparison.kind) {
    case 'within':
      from = yearQuarter(comparison.period.start, 'start');
      to = comparison.period.end === null ? null : yearQuarter(comparison.period.end, 'end');
      break;
    case 'since':
      from = yearQuarter(comparison.period.start, 'start');
      break;
    case 'after': {
      const end = yearQuarter(comparison.period.end ?? comparison.period.start, 'end');
      from = end.quarter === 4 ? { year: end.year + 1, quarter: 1 } : { year: end.year, quarter: end.quarter + 1 };
      break;
    }
    case 'before': {
      const start = yearQuarter(comparison.period.start, 'start');
      to = start.quarter === 1 ? { year: start.year - 1, quarter: 4 } : { year: start.year, quarter: start.quarter - 1 };
      break;
    }
    case 'until':
      to = yearQuarter(comparison.period.end ?? comparison.period.start, 'end');
      break;
    case 'between':
      from = yearQuarter(comparison.from.start, 'start');
      to = yearQuarter(comparison.to.end ?? comparison.to.start, 'end');
      break;
  }
  if (from && to && from.year === to.year) {
    const quarters = [];
    for (let quarter = from.quarter; quarter <= to.quarter; quarter++) quarters.push(`Q${quarter}`);
    return { year: [['is', String(from.year)]], quarters: quarters.length === 4 ? [] : quarters, approximate: false };
  }
  const year: Array<['gte' | 'lte', string]> = [];
  if (from) year.push(['gte', String(from.year)]);
  if (to) year.push(['lte', String(to.year)]);
  return { year, quarters: [], approximate: (from !== null && from.quarter !== 1) || (to !== null && to.quarter !== 4) };
}

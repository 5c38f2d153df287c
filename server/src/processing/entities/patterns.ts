/**
 * Mentions with a fixed shape: money, dates, e-mail addresses, URLs and
 * phone numbers. Every regular expression here either matches literal
 * alternatives or a single character class run, never a nested repetition,
 * and e-mails are found from their "@" outwards, so the work is linear in
 * the text.
 */
import currencyCodes from 'currency-codes';
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';

export interface Span {
  start: number;
  end: number;
}

export interface MoneySpan extends Span {
  amount: number;
  currency: string;
}

export interface DateSpan extends Span {
  date: { year: number; quarter?: number; month?: number; day?: number };
  /** How a money period names it ("Q2 2024", "2023", "March 2024", "FY2024", "H1 2024"). */
  label: string;
}

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6,
  july: 7, jul: 7, august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11,
  nov: 11, december: 12, dec: 12,
};
const MONTH_NAMES = ['', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// Capitalized only: "may 2024" in running text is rarely the month.
const MONTH = '(January|February|March|April|May|June|July|August|September|October|November|December|Jan\\.?|Feb\\.?|Mar\\.?|Apr\\.?|Jun\\.?|Jul\\.?|Aug\\.?|Sept?\\.?|Oct\\.?|Nov\\.?|Dec\\.?)';
const ORDINAL_QUARTER: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };

const monthNumber = (name: string): number => MONTHS[name.toLowerCase().replace('.', '')] ?? 0;
const fullYear = (text: string): number => {
  const digits = text.replace(/\D/g, '');
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits);
};
const validDay = (year: number, month: number, day: number): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();

interface DateRule {
  pattern: RegExp;
  read(match: RegExpMatchArray): DateSpan['date'] | undefined;
  label(date: DateSpan['date'], match: RegExpMatchArray): string;
}

const YEAR = '((?:19|20)\\d{2})';
const dayLabel = (date: DateSpan['date']) => `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;

// Most specific first: a full date wins over the month and year inside it.
const DATE_RULES: DateRule[] = [
  {
    pattern: new RegExp(`\\b${YEAR}-(\\d{2})-(\\d{2})\\b`, 'g'),
    read: (m) => {
      const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
      return validDay(year, month, day) ? { year, month, day } : undefined;
    },
    label: dayLabel,
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.? ${MONTH},? ${YEAR}\\b`, 'g'),
    read: (m) => {
      const [year, month, day] = [Number(m[3]), monthNumber(m[2]!), Number(m[1])];
      return validDay(year, month, day) ? { year, month, day } : undefined;
    },
    label: dayLabel,
  },
  {
    pattern: new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? ${YEAR}\\b`, 'g'),
    read: (m) => {
      const [year, month, day] = [Number(m[3]), monthNumber(m[1]!), Number(m[2])];
      return validDay(year, month, day) ? { year, month, day } : undefined;
    },
    label: dayLabel,
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2})\\.(\\d{1,2})\\.${YEAR}\\b`, 'g'),
    read: (m) => {
      const [year, month, day] = [Number(m[3]), Number(m[2]), Number(m[1])];
      return validDay(year, month, day) ? { year, month, day } : undefined;
    },
    label: dayLabel,
  },
  {
    pattern: /\b(Q[1-4]) ?(?:FY ?)?((?:19|20)\d{2}|'\d{2})\b/g,
    read: (m) => ({ year: fullYear(m[2]!), quarter: Number(m[1]![1]) }),
    label: (date) => `Q${date.quarter} ${date.year}`,
  },
  {
    pattern: /\b([1-4])Q ?((?:19|20)\d{2}|\d{2})\b/g,
    read: (m) => ({ year: fullYear(m[2]!), quarter: Number(m[1]) }),
    label: (date) => `Q${date.quarter} ${date.year}`,
  },
  {
    pattern: /\b(first|second|third|fourth|1st|2nd|3rd|4th)[ -]quarter(?: of)?(?: fiscal)? ((?:19|20)\d{2})\b/gi,
    read: (m) => ({ year: Number(m[2]), quarter: ORDINAL_QUARTER[m[1]!.toLowerCase()] }),
    label: (date) => `Q${date.quarter} ${date.year}`,
  },
  {
    pattern: /\b(H[12]) ?((?:19|20)\d{2})\b/g,
    read: (m) => ({ year: Number(m[2]) }),
    label: (date, m) => `${m[1]} ${date.year}`,
  },
  {
    pattern: /\b(?:FY ?|fiscal (?:year )?)((?:19|20)\d{2})\b/gi,
    read: (m) => ({ year: Number(m[1]) }),
    label: (date) => `FY${date.year}`,
  },
  {
    pattern: new RegExp(`\\b${MONTH},? ${YEAR}\\b`, 'g'),
    read: (m) => ({ year: Number(m[2]), month: monthNumber(m[1]!) }),
    label: (date) => `${MONTH_NAMES[date.month ?? 0]} ${date.year}`,
  },
  {
    // A bare year; not inside a longer number or code ("2024-001", "12024").
    pattern: /(?<![\p{L}\p{N}$€£.,\-/])((?:19|20)\d{2})(?![\p{L}\p{N}]|[.,]\d|-\d)/gu,
    read: (m) => ({ year: Number(m[1]) }),
    label: (date) => String(date.year),
  },
];

/**
 * Which characters of the text some span already covers: an overlap check
 * reads only the characters of the span asked about, so checking every match
 * stays linear in the text however many matches there are.
 */
export class Coverage {
  private readonly covered: Uint8Array;

  constructor(length: number, spans: Span[] = []) {
    this.covered = new Uint8Array(length + 1);
    for (const span of spans) this.mark(span);
  }

  mark(span: Span): void {
    this.covered.fill(1, span.start, span.end);
  }

  overlaps(start: number, end: number): boolean {
    for (let index = start; index < end; index++) if (this.covered[index]) return true;
    return false;
  }
}

export function findDates(text: string, taken: Span[] = []): DateSpan[] {
  const dates: DateSpan[] = [];
  const coverage = new Coverage(text.length, taken);
  for (const rule of DATE_RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (coverage.overlaps(start, end)) continue;
      const date = rule.read(match);
      if (!date || date.year < 1900 || date.year > 2099) continue;
      const found = { start, end, date, label: rule.label(date, match) };
      dates.push(found);
      coverage.mark(found);
    }
  }
  return dates.sort((a, b) => a.start - b.start);
}

const SYMBOLS: Record<string, string> = {
  US$: 'USD', A$: 'AUD', AU$: 'AUD', C$: 'CAD', CA$: 'CAD', HK$: 'HKD', S$: 'SGD', NZ$: 'NZD', R$: 'BRL', MX$: 'MXN',
  $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₦': 'NGN', '₪': 'ILS',
  Fr: 'CHF', 'Rs': 'INR', 'Rs.': 'INR',
};
const WORDS: Record<string, string> = {
  dollar: 'USD', dollars: 'USD', 'us dollar': 'USD', 'us dollars': 'USD', 'u.s. dollars': 'USD', euro: 'EUR', euros: 'EUR',
  pound: 'GBP', pounds: 'GBP', 'pounds sterling': 'GBP', sterling: 'GBP', yen: 'JPY', yuan: 'CNY', renminbi: 'CNY',
  rupee: 'INR', rupees: 'INR', franc: 'CHF', francs: 'CHF', 'swiss franc': 'CHF', 'swiss francs': 'CHF', won: 'KRW',
  rouble: 'RUB', roubles: 'RUB', ruble: 'RUB', rubles: 'RUB', lira: 'TRY', real: 'BRL', reais: 'BRL', krona: 'SEK',
  kronor: 'SEK', zloty: 'PLN', zlotys: 'PLN', rand: 'ZAR', naira: 'NGN', shekel: 'ILS', shekels: 'ILS', dirham: 'AED',
  dirhams: 'AED', riyal: 'SAR', riyals: 'SAR', pesos: 'MXN', 'canadian dollars': 'CAD', 'australian dollars': 'AUD',
  'hong kong dollars': 'HKD', 'singapore dollars': 'SGD',
};
const MULTIPLIERS: Record<string, number> = {
  k: 1e3, thousand: 1e3, tsd: 1e3, m: 1e6, mn: 1e6, mln: 1e6, mio: 1e6, million: 1e6, millions: 1e6,
  b: 1e9, bn: 1e9, bln: 1e9, billion: 1e9, billions: 1e9, mrd: 1e9, tn: 1e12, trillion: 1e12, crore: 1e7, lakh: 1e5,
};

const NUMBER = /\d+(?:[.,]\d+)*/g;
// Before the number: a symbol or an ISO code, then at most one space. Read on a short slice.
const PREFIX = /(US\$|AU\$|A\$|CA\$|C\$|HK\$|S\$|NZ\$|R\$|MX\$|Rs\.?|\$|€|£|¥|₹|₩|₽|₺|₦|₪|\b[A-Z]{3}) ?$/;
const MULTIPLIER = /[ -]?(thousand|millions?|billions?|trillion|crore|lakh|mln|bln|mio|mrd|tsd|mn|bn|tn|k|m|b)(?![\p{L}\p{N}])\.?/iuy;
const SUFFIX_WORD = /,? ?(u\.s\. dollars|us dollars?|swiss francs?|pounds sterling|canadian dollars|australian dollars|hong kong dollars|singapore dollars|dollars?|euros?|pounds?|sterling|yen|yuan|renminbi|rupees?|francs?|won|roubles?|rubles?|lira|reais|kronor|krona|zlotys?|rand|naira|shekels?|dirhams?|riyals?|pesos)(?![\p{L}])/iuy;
const SUFFIX_CODE = / ?(US\$|\$|€|£|¥|[A-Z]{3})(?![\p{L}\p{N}])/uy;

export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && currencyCodes.code(code) !== undefined && !['XXX', 'XTS'].includes(code);
}

/** "1,250,000" → 1250000; "2,3" (before "Mio") → 2.3; "1.500" before EUR → 1500. */
function parseAmount(digits: string, scaled: boolean, codeAfter: boolean): number {
  const commas = digits.split(',').length - 1;
  const periods = digits.split('.').length - 1;
  let normalized = digits;
  if (commas > 0 && periods > 0) {
    normalized = digits.lastIndexOf(',') > digits.lastIndexOf('.') ? digits.replace(/\./g, '').replace(',', '.') : digits.replace(/,/g, '');
  } else if (commas > 0) {
    const groups = digits.split(',').slice(1);
    normalized = commas === 1 && (groups[0]!.length !== 3 || scaled) ? digits.replace(',', '.') : digits.replace(/,/g, '');
  } else if (periods > 1 || (periods === 1 && !scaled && codeAfter && digits.split('.')[1]!.length === 3)) {
    normalized = digits.replace(/\./g, '');
  }
  return Number(normalized);
}

export function findMoney(text: string): MoneySpan[] {
  const found: MoneySpan[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const numberStart = match.index;
    let end = numberStart + match[0].length;
    // Not the tail of a longer code or word ("A320", "COVID-19").
    const previous = text[numberStart - 1] ?? '';
    if (/[\p{L}\p{N}]/u.test(previous) && !/[$€£¥₹₩₽₺₦₪]/u.test(previous)) {
      const before = text.slice(Math.max(0, numberStart - 4), numberStart);
      if (!/(?:US|AU|CA|HK|NZ|MX|[ACSR])\$$|[A-Z]{3}$/.test(before)) continue;
    }
    let start = numberStart;
    let currency: string | undefined;
    const prefix = PREFIX.exec(text.slice(Math.max(0, numberStart - 5), numberStart));
    if (prefix) {
      const sign = prefix[1]!;
      const code = SYMBOLS[sign] ?? (isCurrencyCode(sign) ? sign : undefined);
      if (code) {
        currency = code;
        start = numberStart - prefix[0].length;
      }
    }
    let multiplier = 1;
    MULTIPLIER.lastIndex = end;
    const scale = MULTIPLIER.exec(text);
    if (scale) {
      const unit = scale[1]!.toLowerCase();
      // A bare "m"/"b" only counts right after the number ("$5m"), not as the next word.
      const glued = !/^[ -]/.test(scale[0]);
      if (unit.length > 1 || glued) {
        multiplier = MULTIPLIERS[unit] ?? 1;
        end = scale.index + scale[0].length;
        if (text[end - 1] === '.' && !/^(mio|mrd|mln|bln|tsd)$/.test(unit)) end--;
      }
    }
    let codeAfter = false;
    if (!currency) {
      SUFFIX_WORD.lastIndex = end;
      const word = SUFFIX_WORD.exec(text);
      if (word) {
        currency = WORDS[word[1]!.toLowerCase()];
        end = word.index + word[0].length;
      } else {
        SUFFIX_CODE.lastIndex = end;
        const code = SUFFIX_CODE.exec(text);
        const sign = code?.[1];
        const resolved = sign ? (SYMBOLS[sign] ?? (isCurrencyCode(sign) ? sign : undefined)) : undefined;
        if (code && resolved) {
          currency = resolved;
          codeAfter = true;
          end = code.index + code[0].length;
        }
      }
    }
    if (!currency) continue;
    const amount = parseAmount(match[0], multiplier !== 1, codeAfter) * multiplier;
    if (!Number.isFinite(amount)) continue;
    found.push({ start, end, amount: Math.round(amount * 100) / 100, currency });
  }
  return found;
}

/** "per year", "a month", "annually": a recurring period right after an amount. */
const RECURRING = /,? ?(?:per|a|an|each|every) (year|annum|month|quarter|week|day)\b|,? ?(annually|yearly|monthly|quarterly|weekly|daily)\b/iy;
const RECURRING_NAMES: Record<string, string> = {
  year: 'per year', annum: 'per year', annually: 'per year', yearly: 'per year', month: 'per month', monthly: 'per month',
  quarter: 'per quarter', quarterly: 'per quarter', week: 'per week', weekly: 'per week', day: 'per day', daily: 'per day',
};
/** Words allowed between an amount and the date that is its period ("in the second quarter of 2023"). */
const PERIOD_BRIDGE = /^,? ?(?:in|for|during|over|of|through|by|at|as of)(?: the)?(?: fiscal(?: year)?)? ?$/i;

/** dates: sorted by start, as findDates returns them. */
export function moneyPeriod(text: string, money: Span, dates: DateSpan[], sentenceEnd: number): string | undefined {
  RECURRING.lastIndex = money.end;
  const recurring = RECURRING.exec(text);
  if (recurring && recurring.index + recurring[0].length <= sentenceEnd) {
    return RECURRING_NAMES[(recurring[1] ?? recurring[2])!.toLowerCase()];
  }
  // Dates are sorted by start: the first one at or after the amount's end.
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (dates[middle]!.start < money.end) low = middle + 1;
    else high = middle;
  }
  const candidate = dates[low];
  const next = candidate && candidate.start - money.end <= 30 && candidate.end <= sentenceEnd ? candidate : undefined;
  if (next && PERIOD_BRIDGE.test(text.slice(money.end, next.start))) return next.label;
  return undefined;
}

const EMAIL_LOCAL = /[A-Za-z0-9._%+-]/;
const EMAIL_DOMAIN = /[A-Za-z0-9.-]/;

export function findEmails(text: string): Array<Span & { normalized: string }> {
  const found: Array<Span & { normalized: string }> = [];
  let at = text.indexOf('@');
  let consumedTo = 0;
  while (at !== -1) {
    let start = at;
    while (start > consumedTo && at - start < 64 && EMAIL_LOCAL.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && end - at < 255 && EMAIL_DOMAIN.test(text[end]!)) end++;
    while (end > at + 1 && /[.-]/.test(text[end - 1]!)) end--;
    while (start < at && text[start] === '.') start++;
    const domain = text.slice(at + 1, end);
    if (start < at && /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(domain) && !domain.includes('..')) {
      found.push({ start, end, normalized: text.slice(start, end).toLowerCase() });
      consumedTo = end;
    }
    at = text.indexOf('@', Math.max(at + 1, end));
  }
  return found;
}

const URL_START = /\b(?:https?:\/\/|www\.)/gi;
const URL_STOP = /[\s<>"'`{}|\\^\u00A0]/;

export function normalizeUrl(raw: string): string | undefined {
  try {
    const url = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
    if (!url.hostname.includes('.')) return undefined;
    url.hash = '';
    const href = url.href;
    return url.pathname === '/' && !url.search ? href.replace(/\/$/, '') : href;
  } catch {
    return undefined;
  }
}

export function findUrls(text: string): Array<Span & { normalized: string }> {
  const found: Array<Span & { normalized: string }> = [];
  let resumeAt = 0;
  for (const match of text.matchAll(URL_START)) {
    if (match.index < resumeAt) continue;
    let end = match.index + match[0].length;
    while (end < text.length && end - match.index < 2048 && !URL_STOP.test(text[end]!)) end++;
    // Sentence punctuation after a link is not part of it; a closing bracket only when unopened.
    while (end > match.index) {
      const last = text[end - 1]!;
      const body = text.slice(match.index, end);
      if (/[.,;:!?'"]/.test(last)) end--;
      else if (last === ')' && (body.match(/\(/g)?.length ?? 0) < (body.match(/\)/g)?.length ?? 0)) end--;
      else break;
    }
    resumeAt = end;
    const normalized = normalizeUrl(text.slice(match.index, end));
    if (normalized) found.push({ start: match.index, end, normalized });
  }
  return found;
}

// A stretch that could be a phone number: an optional "+" or "(", a digit, 5 to 24 digits or
// separators, a digit. Bounded, so each start point costs at most 26 characters.
const PHONE_STRETCH = /(?:\+|\(|\b)\d[\d ().\-/]{5,24}\d/g;

export function findPhones(text: string, taken: Span[], defaultCountry?: CountryCode): Array<Span & { normalized: string }> {
  const found: Array<Span & { normalized: string }> = [];
  const coverage = new Coverage(text.length, taken);
  for (const match of text.matchAll(PHONE_STRETCH)) {
    const start = match.index;
    const end = start + match[0].length;
    if (coverage.overlaps(start, end)) continue;
    const local = match[0];
    if (!local.startsWith('+') && !local.startsWith('00') && !defaultCountry) continue;
    for (const number of findPhoneNumbersInText(local, defaultCountry ? { defaultCountry } : undefined)) {
      if (!number.number.isValid()) continue;
      found.push({ start: start + number.startsAt, end: start + number.endsAt, normalized: number.number.number });
    }
  }
  return found;
}

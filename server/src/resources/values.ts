// Normalization of user-entered contact values (emails, phones, URLs, names, dates)
// for organizations and people, plus keys used for duplicate detection.
// Every export is total: bad input of any type yields { ok: false } (or a neutral
// value), never an exception, so callers can run these over imported rows blindly.

// The "max" metadata is used because we rely on isValid() to decide between storing
// E.164 and keeping the user's text verbatim. The default ("min") metadata only checks
// number length, so it would rewrite many mistyped numbers into wrong-but-plausible
// E.164 values; the extra ~100 KB only matters in browsers, not on the server.
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import validator from 'validator';

/** One refused value of a list, by its position (0-based) in the list sent. */
export interface ItemError {
  index: number;
  message: string;
}

/** A failure may name the item of a list it is about (`item`); `message` then says "Item 2: …". */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; item?: ItemError };

/** How an item's error reads in a field's messages: "Item 2: Enter a valid email address." */
export const itemMessage = (item: ItemError): string => `Item ${item.index + 1}: ${item.message}`;

/** A list field's failure at one of its items. */
export const itemFailure = (index: number, message: string): Parsed<never> => {
  const item = { index, message };
  return { ok: false, message: itemMessage(item), item };
};

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

// ---------------------------------------------------------------------------
// Email

const EMAIL_MESSAGE = 'Enter a valid email address.';
const EMAIL_MAX_LENGTH = 254;
// Bounds the regex work on pasted garbage; a display name plus address never needs more.
const EMAIL_INPUT_MAX_LENGTH = 1000;

export function parseEmail(input: unknown): Parsed<string> {
  if (typeof input !== 'string') return fail(EMAIL_MESSAGE);
  let text = input.normalize('NFC').trim();
  if (text === '' || text.length > EMAIL_INPUT_MAX_LENGTH) return fail(EMAIL_MESSAGE);

  // Copying from a mail client yields `Name <addr>`; keep only the address.
  if (text.includes('<') || text.includes('>')) {
    const match = /^[^<>]*<([^<>]*)>$/.exec(text);
    if (!match) return fail(EMAIL_MESSAGE);
    text = (match[1] ?? '').trim();
  }
  // Copying a link yields a mailto: URI.
  text = text.replace(/^mailto:/i, '');

  const at = text.lastIndexOf('@');
  if (at <= 0) return fail(EMAIL_MESSAGE);
  // Domains are case-insensitive; local parts may legally be case-sensitive, so only the domain is folded.
  const address = text.slice(0, at) + '@' + text.slice(at + 1).toLowerCase();

  if (address.length > EMAIL_MAX_LENGTH) return fail('An email address can be at most 254 characters.');
  if (!validator.isEmail(address, { require_tld: true, allow_display_name: false, allow_ip_domain: false })) {
    return fail(EMAIL_MESSAGE);
  }
  return ok(address);
}

// ---------------------------------------------------------------------------
// Phone

const PHONE_MESSAGE = 'Enter a valid phone number.';
const PHONE_INPUT_MAX_LENGTH = 100;
// Trailing extension in its common spellings: "ext. 12", "ext12", "x12", "#12", ";ext=12", "extension 12".
const PHONE_EXTENSION = /^(.*?)\s*[,;]?\s*(?:extension|ext\.?=?|x|#)\s*:?\s*(\d{1,10})$/i;
// What we are willing to keep verbatim when the number cannot be validated.
const PHONE_FALLBACK_CHARS = /^\+?[\d\s\-()./]+$/;

export function parsePhone(input: unknown, defaultCountry?: string): Parsed<string> {
  if (typeof input !== 'string') return fail(PHONE_MESSAGE);
  // NFKC folds full-width digits and plus signs typed with East Asian input methods.
  const text = input.normalize('NFKC').trim();
  if (text === '' || text.length > PHONE_INPUT_MAX_LENGTH) return fail(PHONE_MESSAGE);

  const extMatch = PHONE_EXTENSION.exec(text);
  const extension = extMatch ? extMatch[2] : undefined;
  // "00" is the international prefix almost everywhere, but libphonenumber only honours
  // the default country's own prefix (011 in the US), so rewrite it explicitly.
  const main = (extMatch ? (extMatch[1] ?? '') : text).trim().replace(/^00/, '+');
  const suffix = extension ? ` ext ${extension}` : '';

  const country = toCountryCode(defaultCountry);
  const parsed = parsePhoneNumberFromString(main, { defaultCountry: country, extract: false });
  if (parsed?.isValid()) return ok(parsed.number + suffix);

  // Unverifiable numbers (no country known, new ranges, internal lines) are kept in a
  // lightly cleaned form rather than rejected, so no contact data is lost on import.
  if (!PHONE_FALLBACK_CHARS.test(main)) return fail(PHONE_MESSAGE);
  const digitCount = main.replace(/\D/g, '').length;
  if (digitCount < 5 || digitCount > 20) return fail(PHONE_MESSAGE);
  const cleaned = main
    .replace(/[./]/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .trim();
  return ok(cleaned + suffix);
}

function toCountryCode(value: unknown): CountryCode | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toUpperCase();
  // An unsupported default is a caller mistake, not a user one; parse as if none was given.
  return isSupportedCountry(code) ? code : undefined;
}

// ---------------------------------------------------------------------------
// URL

const URL_MESSAGE = 'Enter a valid web address.';
const URL_MAX_LENGTH = 2048;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function parseUrl(input: unknown): Parsed<string> {
  if (typeof input !== 'string') return fail(URL_MESSAGE);
  const text = input.trim();
  if (text === '') return fail(URL_MESSAGE);
  if (text.length > URL_MAX_LENGTH) return fail('A web address can be at most 2048 characters.');

  const withScheme = addDefaultScheme(text);
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return fail(URL_MESSAGE);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail('Enter a web address starting with http:// or https://.');
  }
  // Usually an email address typed into a URL field; storing credentials is never wanted either.
  if (url.username !== '' || url.password !== '') return fail(URL_MESSAGE);
  if (!isAcceptableHost(url.hostname, rawHost(withScheme))) return fail(URL_MESSAGE);
  if (url.href.length > URL_MAX_LENGTH) return fail('A web address can be at most 2048 characters.');
  return ok(url.href);
}

function addDefaultScheme(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  if (text.startsWith('//')) return `https:${text}`;
  // "mailto:x" or "javascript:x" carry a scheme that must be rejected, not hidden behind
  // https://. "example.com:8080/x" and "localhost:3000" are hosts with ports, so a dotted
  // prefix or one followed only by digits is read as a host.
  if (/^[a-z][a-z0-9+-]*:(?!\d+(?:[/?#]|$))/i.test(text)) return text;
  return `https://${text}`;
}

// Host as typed, needed because WHATWG silently turns "1234" or "0x7f.1" into IPv4 addresses.
function rawHost(text: string): string {
  const afterScheme = text.replace(/^[a-z][a-z0-9+.-]*:\/*/i, '');
  const authority = afterScheme.split(/[/?#\\]/, 1)[0] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  return hostPort.replace(/:\d*$/, '').toLowerCase();
}

function isAcceptableHost(hostname: string, typedHost: string): boolean {
  if (hostname.startsWith('[')) return true; // IPv6 literal, already validated by URL
  if (IPV4.test(hostname)) return IPV4.test(typedHost);
  const labels = hostname.replace(/\.$/, '').split('.');
  // Single-label hosts (intranet names, "localhost", typos like "acme") are not useful as stored links.
  if (labels.length < 2) return false;
  if (!labels.every((label) => HOST_LABEL.test(label))) return false;
  return !/^\d+$/.test(labels[labels.length - 1] ?? '');
}

export function normalizeUrlForMatch(url: string): string {
  if (typeof url !== 'string') return '';
  const parsed = parseUrl(url);
  let key: string;
  if (parsed.ok) {
    const u = new URL(parsed.value);
    key = u.host + u.pathname;
  } else {
    // Still produce a usable key for legacy values that no longer pass validation.
    key = url.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[?#].*$/s, '');
  }
  // The whole key is lower-cased, path included: most sites people link to for companies
  // and profiles (LinkedIn, X, GitHub, ...) treat paths case-insensitively, and a missed
  // duplicate costs more than a rare false match that a human reviews anyway.
  return key
    .toLowerCase()
    .replace(/^www\.(?=[^/:]*\.)/, '')
    .replace(/^([^/]*?)\.(?=\/|:|$)/, '$1')
    .replace(/\/+$/, '');
}

// ---------------------------------------------------------------------------
// Names

// Letters that NFKD does not decompose but that people routinely transliterate.
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ħ: 'h',
};

// Tokens after punctuation handling: "L.L.C." -> "llc", while "S. A." or "A/S" -> "s a", "a s".
const LEGAL_SUFFIXES: readonly string[][] = [
  'inc', 'incorporated', 'llc', 'ltd', 'limited', 'gmbh', 'mbh', 'ag', 'sa', 'sarl', 'srl', 'bv', 'nv', 'plc',
  'corp', 'corporation', 'co', 'company', 'lp', 'llp', 'lllp', 'pllc', 'pc', 'pty', 'pte', 'oy', 'oyj', 'ab',
  'as', 'asa', 'aps', 'kk', 'spa', 'sas', 'sl', 'ltda', 'ug', 'kg', 'kgaa', 'se', 'bhd', 'sdn', 'sro',
  's a', 's p a', 'l l c', 's a s', 's r l', 's a r l', 'b v', 'n v', 'a s', 'and co', 'and company',
]
  .map((suffix) => suffix.split(' '))
  .sort((a, b) => b.length - a.length);

export function normalizeName(name: string): string {
  if (typeof name !== 'string') return '';
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, (mark) => (isGenericDiacritic(mark) ? '' : mark))
    .toLowerCase()
    .replace(/[ßæœøđðłþıħ]/g, (ch) => LETTER_FOLDS[ch] ?? ch)
    .replace(/&/g, ' and ')
    // Dots and apostrophes join ("L.L.C." -> "llc", "McDonald's" -> "mcdonalds"); other
    // punctuation separates words ("Coca-Cola" -> "coca cola").
    .replace(/[.'’‘`´]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim()
    .normalize('NFC');
  if (folded === '') return '';

  const tokens = folded.split(' ');
  let stripped = true;
  while (stripped) {
    stripped = false;
    for (const suffix of LEGAL_SUFFIXES) {
      // Keep at least one token so a name that is only a suffix ("Inc") still has a key.
      if (tokens.length > suffix.length && endsWith(tokens, suffix)) {
        tokens.length -= suffix.length;
        stripped = true;
        break;
      }
    }
  }
  return tokens.join(' ');
}

// Only the generic combining-diacritic blocks: marks in other scripts (Indic vowel
// signs, kana voicing marks) are part of the letter and must stay.
const GENERIC_DIACRITIC_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [0x0300, 0x036f], [0x1ab0, 0x1aff], [0x1dc0, 0x1dff], [0x20d0, 0x20ff], [0xfe20, 0xfe2f],
];

function isGenericDiacritic(mark: string): boolean {
  const code = mark.codePointAt(0) ?? 0;
  return GENERIC_DIACRITIC_BLOCKS.some(([from, to]) => code >= from && code <= to);
}

function endsWith(tokens: string[], suffix: string[]): boolean {
  const offset = tokens.length - suffix.length;
  return suffix.every((token, i) => tokens[offset + i] === token);
}

// ---------------------------------------------------------------------------
// Incomplete dates

export interface IncompleteDate {
  date: string;
  incomplete_day: boolean;
  incomplete_month: boolean;
  incomplete_year: boolean;
}

const DATE_MESSAGE = 'Enter a date as YYYY, YYYY-MM or YYYY-MM-DD.';
// Year 4 is a leap year, so a birthday of --02-29 is storable.
const PLACEHOLDER_YEAR = 4;

interface DateParts {
  year: number | null;
  month: number | null;
  day: number | null;
}

export function parseIncompleteDate(input: unknown): Parsed<IncompleteDate | null> {
  if (input === null || input === undefined) return ok(null);
  if (typeof input === 'string') return partsToDate(partsFromString(input));
  if (input instanceof Date) return partsToDate(partsFromDate(input));
  if (typeof input === 'object' && !Array.isArray(input)) return partsToDate(readSafely(() => partsFromObject(input)));
  return fail(DATE_MESSAGE);
}

// Objects come from request bodies or ORM rows; a throwing getter or proxy must not escape.
function readSafely<T>(read: () => Parsed<T>): Parsed<T> {
  try {
    return read();
  } catch {
    return fail(DATE_MESSAGE);
  }
}

function partsFromString(input: string): Parsed<DateParts | null> {
  const text = input.trim();
  if (text === '') return ok(null);
  const n = (s: string | undefined): number => Number(s);
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})$/.exec(text))) return ok({ year: n(m[1]), month: null, day: null });
  if ((m = /^(\d{4})-(\d{2})$/.exec(text))) return ok({ year: n(m[1]), month: n(m[2]), day: null });
  if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text))) return ok({ year: n(m[1]), month: n(m[2]), day: n(m[3]) });
  if ((m = /^--(\d{2})-(\d{2})$/.exec(text))) return ok({ year: null, month: n(m[1]), day: n(m[2]) });
  if ((m = /^--(\d{2})$/.exec(text))) return ok({ year: null, month: n(m[1]), day: null });
  return fail(DATE_MESSAGE);
}

function partsFromDate(date: Date): Parsed<DateParts | null> {
  if (Number.isNaN(date.getTime())) return fail(DATE_MESSAGE);
  return ok({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}

// The stored shape: a full date plus flags marking which parts are placeholders.
function partsFromObject(input: object): Parsed<DateParts | null> {
  const record = input as Record<string, unknown>;
  const flags = {
    year: record.incomplete_year,
    month: record.incomplete_month,
    day: record.incomplete_day,
  };
  for (const flag of Object.values(flags)) {
    if (flag !== undefined && flag !== null && typeof flag !== 'boolean') return fail(DATE_MESSAGE);
  }
  const raw = record.date;
  let full: Parsed<DateParts | null>;
  if (raw === null || raw === undefined) return ok(null);
  if (raw instanceof Date) {
    full = partsFromDate(raw);
  } else if (typeof raw === 'string') {
    const text = raw.trim();
    if (text === '') return ok(null);
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!m) return fail(DATE_MESSAGE);
    full = ok({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
  } else {
    return fail(DATE_MESSAGE);
  }
  if (!full.ok || full.value === null) return full;
  return ok({
    year: flags.year === true ? null : full.value.year,
    month: flags.month === true ? null : full.value.month,
    day: flags.day === true ? null : full.value.day,
  });
}

function partsToDate(parts: Parsed<DateParts | null>): Parsed<IncompleteDate | null> {
  if (!parts.ok) return parts;
  if (parts.value === null) return ok(null);
  const { year, month, day } = parts.value;
  if (year === null && month === null) return fail('Enter at least a year or a month.');
  if (month === null && day !== null) return fail('A date with a day also needs a month.');
  if (year !== null && (year < 1 || year > 9999)) return fail('Enter a year between 0001 and 9999.');
  if (month !== null && (month < 1 || month > 12)) return fail('Enter a month between 01 and 12.');
  const y = year ?? PLACEHOLDER_YEAR;
  const m = month ?? 1;
  if (day !== null && (day < 1 || day > daysInMonth(y, m))) return fail('Enter a day that exists in that month.');
  return ok({
    date: `${pad(y, 4)}-${pad(m, 2)}-${pad(day ?? 1, 2)}`,
    incomplete_day: day === null,
    incomplete_month: month === null,
    incomplete_year: year === null,
  });
}

export function formatIncompleteDate(value: {
  date: string | Date | null;
  incomplete_day: boolean;
  incomplete_month: boolean;
  incomplete_year: boolean;
}): string | null {
  try {
    return formatDateValue(value);
  } catch {
    return null; // see readSafely
  }
}

function formatDateValue(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  let year: number;
  let month: number;
  let day: number;
  const raw = record.date;
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return null;
    year = raw.getUTCFullYear();
    month = raw.getUTCMonth() + 1;
    day = raw.getUTCDate();
  } else if (typeof raw === 'string') {
    // Tolerates a time part in case a driver hands back a timestamp string.
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(raw.trim());
    if (!m) return null;
    year = Number(m[1]);
    month = Number(m[2]);
    day = Number(m[3]);
  } else {
    return null;
  }
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31) return null;

  const knownYear = record.incomplete_year !== true;
  const knownMonth = record.incomplete_month !== true;
  // A day without its month means nothing, so it is dropped rather than shown.
  const knownDay = knownMonth && record.incomplete_day !== true;
  const monthDay = knownMonth ? `-${pad(month, 2)}${knownDay ? `-${pad(day, 2)}` : ''}` : '';
  if (knownYear) return pad(year, 4) + monthDay;
  return knownMonth ? `-${monthDay}` : null;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_RE.test(value);

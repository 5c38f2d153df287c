/** Display formats for record values on the list and the detail page. */
import type { FieldMeta } from '@intelnotes/server/contracts';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

const MONTHS = Array.from({ length: 12 }, (_, index) =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, index, 1))),
);

export function monthName(month: number): string {
  return MONTHS[month - 1] ?? String(month);
}

/**
 * An incomplete date as words: "2019", "March 2019", "15 March 2019", "15 March", "March".
 * Anything unexpected is shown as the API sent it.
 */
export function formatIncompleteDate(value: string): string {
  const match = /^(\d{4}|-)-?(\d{2})?(?:-(\d{2}))?$/.exec(value);
  if (!match) return value;
  const [, yearPart, monthPart, dayPart] = match;
  const year = yearPart === '-' ? null : yearPart;
  const month = monthPart ? monthName(Number(monthPart)) : null;
  const day = dayPart ? String(Number(dayPart)) : null;
  return [day, month, year].filter((part) => part !== null).join(' ') || value;
}

/** A calendar date (YYYY-MM-DD) as "15 March 2019". */
export function formatDate(value: string): string {
  return formatIncompleteDate(value.slice(0, 10));
}

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp in the reader's time zone, e.g. "15 Mar 2019, 14:05". */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : DATE_TIME.format(date);
}

/** A choice as it reads to people: its label when the values are codes. */
export function choiceText(field: Pick<FieldMeta, 'choice_labels'> | undefined, value: unknown): string {
  return field?.choice_labels?.[String(value)] ?? String(value);
}

/**
 * A phone number in the international format ("+44 20 7946 0958", "+1 212 555 0100 ext. 12"),
 * however it was typed; a number without a country code that cannot be read stays as stored.
 */
export function formatPhone(value: string): string {
  const phone = parsePhoneNumberFromString(value);
  return phone?.isPossible() ? phone.formatInternational() : value;
}

/** The href that dials a phone number: the tel: URI of a readable number, else its digits. */
export function phoneHref(value: string): string {
  const phone = parsePhoneNumberFromString(value);
  return phone?.isPossible() ? phone.getURI() : `tel:${value.replace(/[^\d+]/g, '')}`;
}

/** One item of a list field as text: phone numbers formatted, the rest as stored. */
export function formatItem(kind: FieldMeta['kind'] | undefined, value: unknown): string {
  return kind === 'phones' ? formatPhone(String(value)) : String(value);
}

/** A single value of a field as text: Yes/No for booleans, words for dates, a date and time for timestamps. */
export function formatScalar(kind: FieldMeta['kind'] | undefined, value: unknown): string {
  switch (kind) {
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'incomplete_date':
      return formatIncompleteDate(String(value));
    case 'date':
      return formatDate(String(value));
    case 'datetime':
      return formatDateTime(String(value));
    default:
      return String(value);
  }
}

/**
 * A list's total as shown under the table: exact ("3,044"), or an estimate rounded to two
 * significant figures and said to be one ("about 3,000").
 */
export function formatTotal(count: number, estimate = false): string {
  if (!estimate || count < 100) return `${estimate ? 'about ' : ''}${count.toLocaleString('en-GB')}`;
  const step = 10 ** (Math.floor(Math.log10(count)) - 1);
  return `about ${(Math.round(count / step) * step).toLocaleString('en-GB')}`;
}

import type { FieldMeta } from '@intelnotes/server/contracts';
import type { ResourceRecord } from '../api/resources';

/** A field's value while it is edited: text, a switch, or a list of strings. */
export type FormValue = string | boolean | string[];
export type FormValues = Record<string, FormValue>;

export const LIST_KINDS = ['emails', 'phones', 'urls', 'strings'];

/** The form's starting values: the record's, or each field's default for a new record. */
export function initialValues(fields: FieldMeta[], record?: ResourceRecord): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const kind = field.kind;
    const raw = record ? record[field.name] : field.default;
    if (kind === 'boolean') values[field.name] = Boolean(raw);
    else if (LIST_KINDS.includes(kind)) values[field.name] = Array.isArray(raw) ? raw.map(String) : [];
    else values[field.name] = raw === null || raw === undefined ? '' : String(raw);
  }
  return values;
}

/** A form value as the API takes it: empty text is null. */
function apiValue(value: FormValue): unknown {
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  return value;
}

const same = (a: FormValue | undefined, b: FormValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** The request body: only the fields whose value differs from where the form started. */
export function changedBody(fields: FieldMeta[], initial: FormValues, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined || same(value, initial[field.name])) continue;
    // Text that only gained or lost surrounding spaces is not a change the API would keep.
    if (typeof value === 'string' && typeof initial[field.name] === 'string' && value.trim() === (initial[field.name] as string).trim()) continue;
    body[field.name] = apiValue(value);
  }
  return body;
}

export function isEmptyValue(value: FormValue | undefined): boolean {
  if (value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

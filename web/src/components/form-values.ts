import type { FieldMeta, RelatedRef } from '@intelnotes/server/contracts';
import type { ResourceRecord } from '../api/resources';

/**
 * A field's value while it is edited: text (numbers too, as typed), a switch, a list of
 * strings, or the related records of a relation (many, or one or none).
 */
export type FormValue = string | boolean | string[] | RelatedRef[] | RelatedRef | null;
export type FormValues = Record<string, FormValue>;

export const LIST_KINDS = ['emails', 'phones', 'urls', 'strings'];

/** A related record as the API may send it: a reference, or (rarely) a bare id. */
function asRef(value: unknown, kind: string): RelatedRef | null {
  if (typeof value === 'string' && value !== '') return { id: value, display_name: null, kind };
  if (value !== null && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
    const ref = value as { id: string; display_name?: unknown; kind?: unknown };
    return {
      id: ref.id,
      display_name: typeof ref.display_name === 'string' ? ref.display_name : null,
      kind: typeof ref.kind === 'string' ? ref.kind : kind,
    };
  }
  return null;
}

/** A relation field's value as references: a list for `many`, else one or null. */
export function relationValue(field: FieldMeta, raw: unknown): RelatedRef[] | RelatedRef | null {
  const kind = field.relation?.targets[0]?.kind ?? '';
  if (field.relation?.many ?? true) {
    return (Array.isArray(raw) ? raw : []).map((item) => asRef(item, kind)).filter((ref): ref is RelatedRef => ref !== null);
  }
  return asRef(raw, kind);
}

/** The form's starting values: the record's, or each field's default for a new record. */
export function initialValues(fields: FieldMeta[], record?: ResourceRecord): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const kind = field.kind;
    const raw = record ? record[field.name] : field.default;
    if (kind === 'boolean') values[field.name] = Boolean(raw);
    else if (kind === 'relation') values[field.name] = relationValue(field, raw);
    else if (LIST_KINDS.includes(kind)) values[field.name] = Array.isArray(raw) ? raw.map(String) : [];
    else values[field.name] = raw === null || raw === undefined ? '' : String(raw);
  }
  return values;
}

const isRef = (value: unknown): value is RelatedRef => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A number as typed ("12.5", " 42 ") → the number, or null for anything else. */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : null;
}

/** A form value as the API takes it: empty text is null, numbers are numbers, related records their ids. */
function apiValue(field: FieldMeta, value: FormValue): unknown {
  if (field.kind === 'relation') {
    if (Array.isArray(value)) return value.map((item) => (isRef(item) ? item.id : item));
    return isRef(value) ? value.id : null;
  }
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    if (field.kind === 'integer' || field.kind === 'decimal') return parseNumber(value) ?? value;
    return value;
  }
  return value;
}

/** What a value is compared by: related records by id (their names may be presented differently). */
function comparable(value: FormValue | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => (isRef(item) ? item.id : item));
  if (isRef(value)) return value.id;
  return value;
}

const same = (a: FormValue | undefined, b: FormValue | undefined) => JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));

/** The request body: only the fields whose value differs from where the form started. */
export function changedBody(fields: FieldMeta[], initial: FormValues, values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined || same(value, initial[field.name])) continue;
    // Text that only gained or lost surrounding spaces is not a change the API would keep.
    if (typeof value === 'string' && typeof initial[field.name] === 'string' && value.trim() === (initial[field.name] as string).trim()) continue;
    body[field.name] = apiValue(field, value);
  }
  return body;
}

export function isEmptyValue(value: FormValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

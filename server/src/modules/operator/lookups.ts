/**
 * Which comparisons a list accepts on each field of a resource (operator contract, section A):
 * declared filters take is / not / empty, comparable fields (numbers and incomplete dates
 * a resource orders by) gt / gte / lt / lte / empty, and array fields (emails, phones,
 * URLs) empty. Fields the caller may not read accept none.
 */
import { atLeast } from '../../auth/access.ts';
import type { AccessLevel } from '../../contracts.ts';
import type { FieldType } from '../../resources/fields.ts';
import { filterNames } from '../../resources/list-query.ts';
import type { Resource } from '../../resources/resource.ts';

export const LOOKUPS = ['is', 'not', 'gt', 'gte', 'lt', 'lte', 'empty'] as const;
export type Lookup = (typeof LOOKUPS)[number];

const COMPARABLE_KINDS = ['integer', 'decimal', 'incomplete_date'];
const ARRAY_KINDS = ['emails', 'phones', 'urls'];

export const isComparable = (resource: Resource, name: string, field: FieldType) =>
  COMPARABLE_KINDS.includes(field.kind) && resource.ordering.includes(name);

/** Field → the lookups its list accepts from a caller at `access` (fields without any are absent). */
export function fieldLookups(resource: Resource, access: AccessLevel): Map<string, Lookup[]> {
  const filters = filterNames(resource);
  const lookups = new Map<string, Lookup[]>();
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.readAccess && !atLeast(access, field.readAccess)) continue;
    const allowed = new Set<Lookup>();
    if (filters.includes(name)) ['is', 'not', 'empty'].forEach((lookup) => allowed.add(lookup as Lookup));
    if (isComparable(resource, name, field)) ['gt', 'gte', 'lt', 'lte', 'empty'].forEach((lookup) => allowed.add(lookup as Lookup));
    if (ARRAY_KINDS.includes(field.kind)) allowed.add('empty');
    if (allowed.size > 0) lookups.set(name, LOOKUPS.filter((lookup) => allowed.has(lookup)));
  }
  return lookups;
}

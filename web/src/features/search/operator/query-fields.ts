import type { AvailableFilter, ConditionOp, FieldMeta, Lookup, QueryConditionInput, ResourceMeta } from '@intelnotes/server/contracts';
import { choiceText } from '../../../components/field-format';
import { fieldLabel, type ResourceView } from '../../../components/resource-view';
import { visibilityLabel } from '../../../components/VisibilityChip';
import { conditionText, opsOf } from './query-model';

/**
 * A field a query may test, as GET {path}/available-filters/ offers it: its values among the
 * visible rows (with names for relations) and the lookups it allows.
 */
export type QueryFilter = AvailableFilter;

/** How a field's comparisons read: dates ("after"), numbers ("more than") or neither. */
export type ValueKind = 'date' | 'number' | 'other';

export function valueKind(field: Pick<FieldMeta, 'kind'> | undefined): ValueKind {
  if (field?.kind === 'incomplete_date' || field?.kind === 'date' || field?.kind === 'datetime') return 'date';
  if (field?.kind === 'integer' || field?.kind === 'decimal') return 'number';
  return 'other';
}

/** The lookups a field allows, from available-filters (null: not a field this caller may test). */
export function filterLookups(filters: readonly QueryFilter[], field: string): readonly Lookup[] | undefined {
  return filters.find((filter) => filter.name === field)?.lookups;
}

/** The ops a filter offers in the condition dialog. */
export function filterOps(filter: QueryFilter): ConditionOp[] {
  return opsOf(filter.lookups);
}

/** How one value of a field reads: a relation's record name, a choice's label, Yes/No, or the value. */
export function valueLabel(meta: ResourceMeta, filters: readonly QueryFilter[], field: string, value: string): string {
  if (field === 'visibility') return visibilityLabel(value);
  const filter = filters.find((entry) => entry.name === field);
  if (filter?.type === 'boolean') return value === 'true' ? 'Yes' : value === 'false' ? 'No' : value;
  const known = filter?.values.find((entry) => String(entry.value) === value);
  if (known?.label) return known.label;
  return choiceText(meta.fields.find((entry) => entry.name === field), value);
}

/**
 * A condition as its chip reads it. Labels the answer brought (names the server resolved) are
 * kept; values read from a URL are named from available-filters where they are among its values.
 */
export function describeCondition(meta: ResourceMeta, view: ResourceView, filters: readonly QueryFilter[], condition: QueryConditionInput): string {
  const field = meta.fields.find((entry) => entry.name === condition.field);
  const labels = condition.values.map((value, index) => {
    const given = condition.labels[index];
    return given !== undefined && given !== value ? given : valueLabel(meta, filters, condition.field, value);
  });
  return conditionText({ ...condition, labels }, fieldLabel(view, condition.field), valueKind(field));
}

/**
 * The resource's link filters (GET resources/ `links`: "people linked to X", "investors") as
 * relation fields a query may test: their chips are named, edited with a record picker and
 * removed like any relation's. The server checks who may use them.
 */
export function withLinkFilters(meta: ResourceMeta, filters: readonly QueryFilter[] | undefined): { meta: ResourceMeta; filters: readonly QueryFilter[] | undefined } {
  const links = (meta.links ?? []).filter((link) => !meta.fields.some((field) => field.name === link.name));
  if (links.length === 0) return { meta, filters };
  const template = meta.fields[0]!;
  const fields: FieldMeta[] = links.map((link) => ({
    ...template,
    name: link.name,
    kind: 'relation',
    choices: null,
    choice_labels: null,
    filterable: true,
    orderable: false,
    read_access: meta.read_access,
    relation: { many: true, targets: link.targets },
  }));
  return {
    meta: { ...meta, fields: [...meta.fields, ...fields] },
    filters: filters && [...filters, ...links.map((link): QueryFilter => ({ name: link.name, type: 'relation', lookups: ['is', 'not'], values: [] }))],
  };
}

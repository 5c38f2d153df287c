import type { AccessLevel, FieldMeta } from '@intelnotes/server/contracts';
import type { ResourceRecord } from '../../api/resources';
import { changedBody, initialValues, type FormValue, type FormValues } from '../form-values';
import { VISIBILITY_OPTIONS } from '../VisibilityChip';
import { canWriteField } from '../resource-view';

/**
 * The kinds a table cell edits in place, each with the form's own control (GridCellEditor).
 * List fields (e-mails, phones, URLs) and JSON objects are edited on the record's page.
 */
export const GRID_KINDS: ReadonlySet<FieldMeta['kind']> = new Set([
  'text', 'category', 'url', 'integer', 'decimal', 'date', 'incomplete_date', 'choice', 'visibility', 'boolean', 'relation',
]);

/**
 * Whether a user at `access` may change the field in a table cell: the server says whether an
 * update may set it at all (`editable`: not read-only, not immutable) and who may (`write_access`).
 */
export function cellEditable(field: FieldMeta | undefined, access: AccessLevel): field is FieldMeta {
  return field !== undefined && field.editable && GRID_KINDS.has(field.kind) && canWriteField(field, access);
}

/** A record's value of one field as the form holds it (text, a switch, related records). */
export function formValueOf(field: FieldMeta, row: ResourceRecord): FormValue {
  return initialValues([field], row)[field.name] ?? null;
}

/** The request body for `values` (form values of `fields`): only what differs from `row`. */
export function changedFields(fields: FieldMeta[], row: ResourceRecord, values: FormValues): Record<string, unknown> {
  return changedBody(fields, initialValues(fields, row), values);
}

/** The request body setting `fields` to `values`, whatever they were (an undo). */
export function bodyOf(fields: FieldMeta[], values: FormValues): Record<string, unknown> {
  return changedBody(fields, {}, values);
}

/**
 * A form value as the record holds it, for showing a change before the server answers: related
 * records as references (their names shown), empty text as nothing.
 */
export function recordValueOf(field: FieldMeta, value: FormValue): unknown {
  if (field.kind === 'relation') return value;
  const body = bodyOf([field], { [field.name]: value });
  return body[field.name] ?? null;
}

const simplified = (text: string) => text.trim().toLowerCase();

/**
 * Text pasted from a spreadsheet as the form value of `field`: a choice by its value or its
 * label, a visibility by its label, yes/no for a switch. What cannot be read is kept as typed,
 * so the server's message about it shows on the cell. Relations are resolved by name elsewhere.
 */
export function pastedFormValue(field: FieldMeta, text: string): FormValue {
  const typed = text.trim();
  if (field.kind === 'boolean') return ['yes', 'true', '1', 'x', 'y', 'on'].includes(simplified(typed));
  if (field.kind === 'choice') {
    const found = (field.choices ?? []).find(
      (choice) => simplified(choice) === simplified(typed) || simplified(field.choice_labels?.[choice] ?? '') === simplified(typed),
    );
    return found ?? typed;
  }
  if (field.kind === 'visibility') {
    return VISIBILITY_OPTIONS.find((option) => simplified(option.value) === simplified(typed) || simplified(option.label) === simplified(typed))?.value ?? typed;
  }
  return typed;
}

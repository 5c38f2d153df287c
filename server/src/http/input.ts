/**
 * Field-by-field checks for request bodies whose shape the route schema has
 * already validated: every problem is collected, then one 400 names them all
 * (`errors` maps each field to its messages), so a form can show them at once.
 */
import { parseUrl } from '../resources/values.ts';
import { badRequest, type FieldErrors } from '../resources/errors.ts';

export class FieldProblems {
  readonly errors: FieldErrors = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  /** A required field left out of the body (the schema lets it pass, so this answer names it with the rest). */
  missing(field: string): '' {
    this.add(field, 'This field is required.');
    return '';
  }

  /** Throws the 400 when any problem was found. */
  throwIfAny(): void {
    const first = Object.entries(this.errors)[0];
    if (first) throw badRequest(`${first[0]}: ${first[1][0]}`, this.errors);
  }
}

const length = (text: string) => Array.from(text).length;

/** Trimmed text that must not be empty. */
export function requiredText(problems: FieldProblems, field: string, value: string, max: number): string {
  const text = value.trim();
  if (text === '') problems.add(field, 'This field may not be blank.');
  else if (length(text) > max) problems.add(field, `Ensure this field has no more than ${max} characters.`);
  return text;
}

/** Trimmed text, or null when empty or null. */
export function optionalText(problems: FieldProblems, field: string, value: string | null, max: number): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (length(text) > max) problems.add(field, `Ensure this field has no more than ${max} characters.`);
  return text;
}

/** An http(s) web address in canonical form, or null when empty or null. */
export function optionalUrl(problems: FieldProblems, field: string, value: string | null): string | null {
  if (value === null || value.trim() === '') return null;
  const parsed = parseUrl(value);
  if (parsed.ok) return parsed.value;
  problems.add(field, parsed.message);
  return null;
}

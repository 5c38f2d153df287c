/**
 * Field types of the resource engine. A field knows its database columns,
 * how to turn API input into column values (or a field error), how to present
 * a row, and its JSON schema for OpenAPI. Entities combine these; they never
 * hand-write parsing or serialization.
 */
import { Type, type TSchema } from 'typebox';
import type { AccessLevel, FieldMeta, FieldSection } from '../contracts.ts';
import {
  formatIncompleteDate,
  isUuid,
  itemFailure,
  normalizeUrlForMatch,
  parseEmail,
  parseIncompleteDate,
  parsePhone,
  parseUrl,
  type Parsed,
} from './values.ts';
import { markdownProblem } from './markdown.ts';

export const VISIBILITIES = ['hidden', 'paywalled', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

type Row = Record<string, unknown>;

/** What kind of input a field is, for forms and tables built from metadata. */
export type FieldKind = FieldMeta['kind'];

export interface FieldType {
  kind: FieldKind;
  /** Maximum length of text, when limited. */
  maxLength?: number;
  /** Long text (notes, about) rather than a single line. */
  multiline?: boolean;
  /** Columns written for this field, by column name. */
  columns(name: string): string[];
  /** API input → column values; `undefined` input never reaches here. */
  parse(input: unknown, name: string): Parsed<Record<string, unknown>>;
  /** Row → the API value. */
  present(row: Row, name: string): unknown;
  /** JSON schema of the API value (input and output). */
  schema: TSchema;
  /** Column value for new rows when the field is not sent (null when absent). */
  defaultValue?: unknown;
  /** How the field can be filtered and offered in available-filters. */
  filter?: 'choice' | 'boolean';
  /** Value column used for ordering and filtering (defaults to the field name). */
  sortColumn?(name: string): string;
  /** Whether the field is an array of strings (spreadsheets split cells on ; and newlines). */
  multiple?: boolean;
  /** The choices of an enum field. */
  choices?: readonly string[];
  /** How choices read to people, when a value is a code (e.g. OrganizationsList → Organizations list). */
  choiceLabels?: Record<string, string>;
  /** Plain-language hint shown in errors and docs. */
  description?: string;
  /** Smallest and largest value of a number field. */
  min?: number;
  max?: number;
  /** A value must be given on create (and cannot be cleared). */
  required?: boolean;
  /** Set on create; a PATCH that changes it is refused. */
  immutable?: boolean;
  /** Set by the server (e.g. a slug from beforeSave): presented, and ignored when sent like `id`. */
  readOnly?: boolean;
  /** Who may read the field (records omit it for others); everyone who reads the record by default. */
  readAccess?: AccessLevel;
  /** Who may write the field; the resource's writeAccess by default. */
  writeAccess?: AccessLevel;
  /** SQL type the column values are cast to (e.g. uuid[]), when not text-like. */
  columnCast?: string;
  /** For relation fields: the resource kinds pointed at, one or many, and what a deleted target does. */
  relation?: RelationSpec;
  /** A curators' flag rather than information about the record (detail pages show it to writers only). */
  internal?: boolean;
  /** Where forms group the field, when not derived from its kind (see fieldSection). */
  section?: FieldSection;
}

export interface RelationSpec {
  targets: string[];
  many: boolean;
  /**
   * 'remove' drops the reference (default); 'cascade' deletes the referencing row too;
   * 'restrict' refuses to delete a target still referenced (409), e.g. a section with facts.
   */
  onDelete: 'remove' | 'cascade' | 'restrict';
  /** The heading of the records holding this field on a target's page (e.g. 'Library entries as author'). */
  inverseLabel?: string;
  /**
   * False: a target's related records (GET {path}/{id}/related/) leave this relation's holders
   * out, where the target's page shows them its own way (notes, in the record's activity).
   */
  backlinks?: false;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });
const single = (name: string, value: unknown) => ok({ [name]: value });
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

export function text(options: { max?: number; required?: boolean; multiline?: boolean } = {}): FieldType {
  const max = options.max ?? 500;
  return {
    kind: 'text',
    maxLength: max,
    multiline: options.multiline ?? false,
    columns: (name) => [name],
    schema: nullable(Type.String({ maxLength: max })),
    parse: (input, name) => {
      if (input === null) return options.required ? fail('This field is required.') : single(name, null);
      if (typeof input !== 'string') return fail('Must be text.');
      const value = options.multiline ? input.trim() : input.trim().replace(/\s+/g, ' ');
      if (value === '') return options.required ? fail('This field may not be blank.') : single(name, null);
      if (value.length > max) return fail(`Ensure this field has no more than ${max} characters.`);
      return single(name, value);
    },
    present: (row, name) => row[name] ?? null,
  };
}

/**
 * Multiline text in light Markdown (bold, italic, http(s)/mailto links — markdown.ts): stored
 * as written, refused (a field error) with raw HTML, images or other link targets.
 */
export function markdown(options: { max?: number; required?: boolean } = {}): FieldType {
  const field = text({ ...options, multiline: true });
  return {
    ...field,
    description: 'Light Markdown: **bold**, *italic*, [links](https://…); no HTML',
    parse: (input, name) => {
      const parsed = field.parse(input, name);
      if (!parsed.ok || typeof parsed.value[name] !== 'string') return parsed;
      const problem = markdownProblem(parsed.value[name]);
      return problem ? fail(problem) : parsed;
    },
  };
}

/** Free text with its distinct values offered as a filter (e.g. a city). */
export function category(options: { max?: number } = {}): FieldType {
  return { ...text(options), kind: 'category', filter: 'choice' };
}

/** One of `values`. With a default (e.g. a quarter's Q1) the field always holds a value: clearing it is refused. */
export function choice<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number] | null; labels?: Partial<Record<T[number], string>> } = {},
): FieldType {
  const alwaysSet = options.default !== undefined && options.default !== null;
  const union = Type.Union(values.map((value) => Type.Literal(value)));
  return {
    kind: 'choice',
    columns: (name) => [name],
    schema: alwaysSet ? union : nullable(union),
    choices: values,
    ...(options.labels ? { choiceLabels: options.labels as Record<string, string> } : {}),
    filter: 'choice',
    defaultValue: options.default ?? null,
    parse: (input, name) => {
      if (input === null || input === '') return alwaysSet ? fail(`Choose one of: ${values.join(', ')}.`) : single(name, null);
      const match = values.find((value) => typeof input === 'string' && value.toLowerCase() === input.trim().toLowerCase());
      return match === undefined ? fail(`Must be one of: ${values.join(', ')}.`) : single(name, match);
    },
    present: (row, name) => row[name] ?? null,
  };
}

export function visibility(defaultValue: Visibility): FieldType {
  return {
    ...choice(VISIBILITIES, { default: defaultValue }),
    kind: 'visibility',
    schema: Type.Union(VISIBILITIES.map((value) => Type.Literal(value))),
    parse: (input, name) => {
      const match = VISIBILITIES.find((value) => typeof input === 'string' && value === input.trim().toLowerCase());
      return match === undefined ? fail(`Must be one of: ${VISIBILITIES.join(', ')}.`) : single(name, match);
    },
  };
}

const TRUE_WORDS = ['true', '1', 'yes', 'y', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'n', 'off', ''];

/** True or false; with a null default, also unknown (null), e.g. whether a domain has mail servers before anyone looked. */
export function boolean(defaultValue: boolean | null = false): FieldType {
  const unknown = defaultValue === null;
  return {
    kind: 'boolean',
    columns: (name) => [name],
    schema: unknown ? nullable(Type.Boolean()) : Type.Boolean(),
    defaultValue,
    filter: 'boolean',
    parse: (input, name) => {
      if (typeof input === 'boolean') return single(name, input);
      if (typeof input === 'string' || typeof input === 'number') {
        const word = String(input).trim().toLowerCase();
        if (TRUE_WORDS.includes(word)) return single(name, true);
        if (FALSE_WORDS.includes(word)) return single(name, false);
      }
      if (input === null) return single(name, defaultValue);
      return fail('Must be true or false.');
    },
    present: (row, name) => (unknown && (row[name] === null || row[name] === undefined) ? null : Boolean(row[name])),
  };
}

/**
 * A moment (timestamptz), presented as an ISO 8601 date-time in UTC. Usually set by the server
 * (`readOnly(datetime())`: when an address was confirmed, when a domain was enriched).
 */
export function datetime(): FieldType {
  return {
    kind: 'datetime',
    columns: (name) => [name],
    schema: nullable(Type.String({ format: 'date-time' })),
    parse: (input, name) => {
      if (input === null || input === '') return single(name, null);
      if (typeof input !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(input.trim())) {
        return fail('Enter a date and time as an ISO 8601 date-time with its offset, e.g. 2026-01-31T09:30:00Z.');
      }
      const value = new Date(input.trim());
      return Number.isNaN(value.getTime()) ? fail('Enter a real date and time.') : single(name, value.toISOString());
    },
    present: (row, name) => {
      const value = row[name];
      if (value === null || value === undefined) return null;
      return (value instanceof Date ? value : new Date(String(value))).toISOString();
    },
  };
}

/** A calendar date, YYYY-MM-DD. */
export function date(): FieldType {
  return {
    kind: 'date',
    columns: (name) => [name],
    schema: nullable(Type.String({ format: 'date' })),
    parse: (input, name) => {
      if (input === null || input === '') return single(name, null);
      const parsed = parseIncompleteDate(input);
      if (!parsed.ok) return parsed;
      if (parsed.value && (parsed.value.incomplete_day || parsed.value.incomplete_month || parsed.value.incomplete_year)) {
        return fail('Enter a full date as YYYY-MM-DD.');
      }
      return single(name, parsed.value?.date ?? null);
    },
    present: (row, name) => isoDate(row[name]),
  };
}

/**
 * A date whose day, month or year may be unknown: stored as a date with
 * placeholders plus three flags, returned as e.g. "2019-03" with the flags.
 */
export function incompleteDate(): FieldType {
  const flags = (name: string) => [`${name}_incomplete_day`, `${name}_incomplete_month`, `${name}_incomplete_year`];
  return {
    kind: 'incomplete_date',
    columns: (name) => [name, ...flags(name)],
    schema: nullable(Type.String({ description: 'YYYY, YYYY-MM, YYYY-MM-DD, --MM-DD or --MM' })),
    parse: (input, name) => {
      const parsed = parseIncompleteDate(input);
      if (!parsed.ok) return parsed;
      const value = parsed.value;
      const [day, month, year] = flags(name) as [string, string, string];
      return ok({
        [name]: value?.date ?? null,
        [day]: value?.incomplete_day ?? false,
        [month]: value?.incomplete_month ?? false,
        [year]: value?.incomplete_year ?? false,
      });
    },
    present: (row, name) =>
      formatIncompleteDate({
        date: (isoDate(row[name]) as string | null) ?? null,
        incomplete_day: Boolean(row[`${name}_incomplete_day`]),
        incomplete_month: Boolean(row[`${name}_incomplete_month`]),
        incomplete_year: Boolean(row[`${name}_incomplete_year`]),
      }),
  };
}

/** The three flags of an incomplete date are also returned as fields of their own. */
export function incompleteDateFlags(name: string): string[] {
  return [`${name}_incomplete_day`, `${name}_incomplete_month`, `${name}_incomplete_year`];
}

function isoDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

/** A list of strings each parsed by `item`; duplicates are dropped. */
function list(
  kind: FieldKind,
  item: (input: unknown) => Parsed<string>,
  options: { max: number; keyColumn?: { name: string; key: (value: string) => string } },
): FieldType {
  return {
    kind,
    columns: (name) => [name, ...(options.keyColumn ? [options.keyColumn.name] : [])],
    schema: Type.Array(Type.String(), { maxItems: options.max }),
    multiple: true,
    defaultValue: [],
    parse: (input, name) => {
      if (input === null) return ok({ [name]: [], ...(options.keyColumn ? { [options.keyColumn.name]: [] } : {}) });
      if (!Array.isArray(input)) return fail('Must be a list.');
      if (input.length > options.max) return fail(`Ensure this list has no more than ${options.max} items.`);
      const values: string[] = [];
      for (const [index, raw] of input.entries()) {
        if (raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
        const parsed = item(raw);
        if (!parsed.ok) return itemFailure(index, parsed.message);
        if (!values.includes(parsed.value)) values.push(parsed.value);
      }
      const keyed = options.keyColumn;
      return ok({ [name]: values, ...(keyed ? { [keyed.name]: [...new Set(values.map(keyed.key))] } : {}) });
    },
    present: (row, name) => (row[name] as string[] | null) ?? [],
  };
}

export const emails = (max = 50) => list('emails', parseEmail, { max });
export const phones = (max = 50) => list('phones', (input) => parsePhone(input), { max });
/** URLs, with match keys kept in `url_keys` for duplicate detection. */
export const urls = (max = 50) => list('urls', parseUrl, { max, keyColumn: { name: 'url_keys', key: normalizeUrlForMatch } });
export const strings = (max = 200) =>
  list('strings', (input) => (typeof input === 'string' && input.length <= 500 ? ok(input.trim()) : fail('Must be text of at most 500 characters.')), { max });

/**
 * One web address (e.g. a link to a document), normalized like urls().
 * With `keyColumn`, its match key is kept there (e.g. url_keys) for
 * duplicate detection on import.
 */
export function url(options: { keyColumn?: string } = {}): FieldType {
  const keyed = (key: string | null) => (options.keyColumn ? { [options.keyColumn]: key === null ? [] : [key] } : {});
  return {
    kind: 'url',
    maxLength: 2048,
    columns: (name) => [name, ...(options.keyColumn ? [options.keyColumn] : [])],
    schema: nullable(Type.String({ maxLength: 2048 })),
    parse: (input, name) => {
      if (input === null || (typeof input === 'string' && input.trim() === '')) return ok({ [name]: null, ...keyed(null) });
      const parsed = parseUrl(input);
      if (!parsed.ok) return parsed;
      return ok({ [name]: parsed.value, ...keyed(normalizeUrlForMatch(parsed.value)) });
    },
    present: (row, name) => row[name] ?? null,
  };
}

/** A JSON object (e.g. suggested_fields), at most `maxBytes` when serialized. */
export function object(maxBytes = 65_536): FieldType {
  return {
    kind: 'object',
    columns: (name) => [name],
    schema: Type.Record(Type.String(), Type.Unknown()),
    defaultValue: {},
    parse: (input, name) => {
      if (input === null) return single(name, {});
      if (typeof input !== 'object' || Array.isArray(input)) return fail('Must be an object.');
      if (JSON.stringify(input).length > maxBytes) return fail(`Must be at most ${maxBytes} bytes of JSON.`);
      return single(name, input);
    },
    present: (row, name) => row[name] ?? {},
  };
}

/** A whole number between min and max; `big`: a bigint column (e.g. a file's size in bytes). */
export function integer(options: { min?: number; max?: number; default?: number | null; big?: boolean } = {}): FieldType {
  const field = number('integer', { ...options, scale: 0 });
  return options.big ? { ...field, columnCast: 'bigint' } : field;
}

/** A decimal number between min and max with at most `scale` decimal places (e.g. a percentage). */
export function decimal(options: { min?: number; max?: number; scale?: number } = {}): FieldType {
  return number('decimal', { ...options, scale: options.scale ?? 4 });
}

function number(kind: 'integer' | 'decimal', options: { min?: number; max?: number; scale: number; default?: number | null }): FieldType {
  const { min, max, scale } = options;
  return {
    kind,
    columns: (name) => [name],
    schema: nullable(kind === 'integer' ? Type.Integer({ minimum: min, maximum: max }) : Type.Number({ minimum: min, maximum: max })),
    defaultValue: options.default ?? null,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
    parse: (input, name) => {
      if (input === null || (typeof input === 'string' && input.trim() === '')) return single(name, null);
      const value = typeof input === 'number' ? input : typeof input === 'string' && /^-?\d+(\.\d+)?$/.test(input.trim()) ? Number(input) : NaN;
      if (!Number.isFinite(value)) return fail(kind === 'integer' ? 'Must be a whole number.' : 'Must be a number.');
      if (kind === 'integer' && !Number.isInteger(value)) return fail('Must be a whole number.');
      if (kind === 'decimal' && Math.round(value * 10 ** scale) / 10 ** scale !== value) {
        return fail(`Use at most ${scale} decimal places.`);
      }
      if (min !== undefined && value < min) return fail(`Must be at least ${min}.`);
      if (max !== undefined && value > max) return fail(`Must be at most ${max}.`);
      return single(name, value);
    },
    // numeric columns arrive as strings from the drivers.
    present: (row, name) => (row[name] === null || row[name] === undefined ? null : Number(row[name])),
  };
}

/**
 * A reference to records of other resources (by kind), stored as uuid[] (many)
 * or uuid (one). Input: ids, or objects with an id (what GET returns); output:
 * {id, display_name, kind} of the targets the caller may see. The service
 * checks that the ids exist; deleting or merging a target updates the column.
 */
export function relation(
  target: string | string[],
  options: { many?: boolean; max?: number; required?: boolean; onDelete?: RelationSpec['onDelete']; immutable?: boolean; inverseLabel?: string; backlinks?: false } = {},
): FieldType {
  const many = options.many ?? true;
  const max = options.max ?? 500;
  const targets = Array.isArray(target) ? target : [target];
  const idOf = (raw: unknown): string | null => {
    const value = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { id?: unknown }).id : raw;
    return typeof value === 'string' && isUuid(value.trim()) ? value.trim().toLowerCase() : null;
  };
  return {
    kind: 'relation',
    columns: (name) => [name],
    columnCast: many ? 'uuid[]' : 'uuid',
    relation: {
      targets, many, onDelete: options.onDelete ?? 'remove',
      ...(options.inverseLabel ? { inverseLabel: options.inverseLabel } : {}),
      ...(options.backlinks === false ? { backlinks: false as const } : {}),
    },
    multiple: many,
    required: options.required ?? false,
    immutable: options.immutable ?? false,
    defaultValue: many ? [] : null,
    schema: many
      ? Type.Array(Type.Union([Type.String({ format: 'uuid' }), Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: true })]), { maxItems: max })
      : nullable(Type.Union([Type.String({ format: 'uuid' }), Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: true })])),
    parse: (input, name) => {
      if (!many) {
        if (input === null || input === '') return options.required ? fail('This field is required.') : single(name, null);
        const value = idOf(input);
        return value ? single(name, value) : fail('Must be the id of a record.');
      }
      if (input === null) return options.required ? fail('This field is required.') : single(name, []);
      if (!Array.isArray(input)) return fail('Must be a list of record ids.');
      if (input.length > max) return fail(`Ensure this list has no more than ${max} items.`);
      const values: string[] = [];
      for (const [index, raw] of input.entries()) {
        const value = idOf(raw);
        if (!value) return itemFailure(index, 'Must be the id of a record.');
        if (!values.includes(value)) values.push(value);
      }
      if (options.required && values.length === 0) return fail('Choose at least one.');
      return single(name, values);
    },
    // Ids; the service replaces them with references the caller may see.
    present: (row, name) => row[name] ?? (many ? [] : null),
  };
}

/** A field only some audiences may read (and write): e.g. admin notes, a paywall link. */
export function restricted(field: FieldType, access: { read: AccessLevel; write?: AccessLevel }): FieldType {
  return { ...field, readAccess: access.read, ...(access.write ? { writeAccess: access.write } : {}) };
}

/** A curators' flag such as show_on_dashboard or is_fav: kept with visibility and sharing, not shown to readers. */
export function flag(defaultValue = false): FieldType {
  return { ...boolean(defaultValue), internal: true };
}

/** The field in a form section other than the one its kind gives it (e.g. an address's city under contact). */
export function inSection(section: FieldSection, field: FieldType): FieldType {
  return { ...field, section };
}

/**
 * Where forms group a field: its declared section; else visibility and curators' flags under
 * sharing, the record's names and required fields under identity, emails, phones and links
 * under contact, dates under dates, and everything else under details.
 */
export function fieldSection(field: FieldType, name: string, names: readonly string[]): FieldSection {
  if (field.section) return field.section;
  if (field.kind === 'visibility' || field.internal) return 'sharing';
  if (names.includes(name) || field.required) return 'identity';
  if (field.kind === 'emails' || field.kind === 'phones' || field.kind === 'urls') return 'contact';
  if (field.kind === 'date' || field.kind === 'incomplete_date' || field.kind === 'datetime') return 'dates';
  return 'details';
}

/** A field set on create that cannot change afterwards (e.g. a list's kind). */
export function immutable(field: FieldType): FieldType {
  return { ...field, immutable: true };
}

/** A value the server sets (e.g. a list's slug, derived from its name): returned, never taken from input. */
export function readOnly(field: FieldType): FieldType {
  return { ...field, readOnly: true };
}

/** A field that must be given on create and cannot be cleared. */
export function required(field: FieldType): FieldType {
  const parse: FieldType['parse'] = (input, name) => {
    if (input === null || (typeof input === 'string' && input.trim() === '')) return fail('This field is required.');
    return field.parse(input, name);
  };
  return { ...field, required: true, parse };
}

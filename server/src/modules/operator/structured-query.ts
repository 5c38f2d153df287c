/**
 * The Operator's structured query (docs/operator.md): an entity type, full-text words,
 * conditions with an operator, an ordering and a limit — checked against the resource's
 * declaration (fields, filters, ordering, lookups) and turned into the list endpoint's
 * query parameters. It never becomes SQL of its own: running it is a list call, where
 * visibility and row-level security apply as everywhere.
 */
import {
  CONDITION_OPS, OPERATOR_ENTITIES, type AccessLevel, type ConditionOp, type OperatorEntity, type QueryCondition, type QueryOrdering,
  type StructuredQuery,
} from '../../contracts.ts';
import { fieldError } from '../../resources/errors.ts';
import type { FieldType } from '../../resources/fields.ts';
import {
  fieldLookups, linkFilters, lookupParameter, MAX_LIMIT, MAX_SEARCH_LENGTH, MEMBERSHIP_FIELD, membershipFilters, orderingNames, parseListQuery, rangedTimestamps,
  type Lookup,
} from '../../resources/list-query.ts';
import type { Resource } from '../../resources/resource.ts';
import { isUuid, parseIncompleteDate } from '../../resources/values.ts';
import { ledgerEntries } from '../ledger/ledger.resource.ts';
import { library } from '../library/library.resource.ts';
import { lists } from '../lists/lists.resource.ts';
import { organizations } from '../organizations/organizations.resource.ts';
import { people } from '../people/people.resource.ts';

export const DEFAULT_OPERATOR_LIMIT = 25;
/** Values of one is / not condition. */
export const MAX_CONDITION_VALUES = 50;
export const MAX_CONDITIONS = 30;

export const lookupOf = (op: ConditionOp): Lookup => (op === 'not_empty' ? 'empty' : op);
const TIMESTAMPS = ['created_at', 'updated_at'];
/**
 * The list parameter of a condition: the field's lookup (`f`, `f__gt` …), or for a timestamp its
 * range (`created_at` gte → `created_at_after`, lt → `created_at_before`).
 */
export const paramOf = (field: string, op: ConditionOp): string =>
  TIMESTAMPS.includes(field) ? `${field}_${op === 'gte' ? 'after' : 'before'}` : lookupParameter(field, lookupOf(op));

/**
 * What a reader may ask of each field of a resource: the list's lookups (fieldLookups), the
 * timestamps' ranges (from: gte, until: lt) and list membership (is / not) where the list takes them.
 */
export function operatorLookups(resource: Resource, access: AccessLevel): Record<string, Lookup[]> {
  const lookups = fieldLookups(resource, access);
  for (const timestamp of rangedTimestamps(resource)) lookups[timestamp] = ['gte', 'lt'];
  if (membershipFilters(resource).size > 0) lookups[MEMBERSHIP_FIELD] = ['is', 'not'];
  // Links through other records (people on deals with an organization, investors): ids of records.
  for (const { name } of linkFilters(resource, access).values()) lookups[name] = ['is', 'not'];
  return lookups;
}
/**
 * The declarations the Operator's language is written for (vocabulary.ts names their words): its
 * parsing depends on their fields alone, so it reads them here rather than from an engine.
 */
const OPERATOR_RESOURCES: Record<OperatorEntity, Resource> = { organizations, people, ledger_entries: ledgerEntries, library, lists };
export const operatorResource = (entity: OperatorEntity): Resource => OPERATOR_RESOURCES[entity];

/** The list endpoint's path and query parameters for a query (values joined with commas). */
export function listRequest(query: StructuredQuery): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  if (query.search) params['search'] = query.search;
  for (const condition of query.conditions) {
    params[condition.param] = condition.op === 'empty' ? 'true' : condition.op === 'not_empty' ? 'false' : condition.values.join(',');
  }
  if (query.ordering.length > 0) params['ordering'] = query.ordering.map((term) => `${term.descending ? '-' : ''}${term.field}`).join(',');
  params['limit'] = String(query.limit);
  return { path: `${operatorResource(query.entity).path}/`, params };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A structured query sent by a client (chips edited by hand) or a model, checked field by
 * field: a 400 names the path of the first thing wrong (e.g. `query.conditions[1].op`).
 * Labels default to the values; relation labels are looked up by the caller (the service),
 * among records the caller may see.
 */
export function checkStructuredQuery(input: unknown, access: AccessLevel, path = 'query'): StructuredQuery {
  if (!isObject(input)) throw fieldError(path, 'Must be an object with entity, search, conditions, ordering and limit.');
  const unknownKey = Object.keys(input).find((key) => !['entity', 'search', 'conditions', 'ordering', 'limit'].includes(key));
  if (unknownKey) throw fieldError(`${path}.${unknownKey}`, 'Unknown key.');

  const entity = input['entity'];
  if (typeof entity !== 'string' || !(OPERATOR_ENTITIES as readonly string[]).includes(entity)) {
    throw fieldError(`${path}.entity`, `Must be one of: ${OPERATOR_ENTITIES.join(', ')}.`);
  }
  const resource = operatorResource(entity as OperatorEntity);

  const search = input['search'] ?? null;
  if (search !== null && typeof search !== 'string') throw fieldError(`${path}.search`, 'Must be text or null.');
  const searchText = search?.trim().replace(/\s+/g, ' ') || null;
  if (searchText && searchText.length > MAX_SEARCH_LENGTH) throw fieldError(`${path}.search`, `Ensure this has no more than ${MAX_SEARCH_LENGTH} characters.`);

  const conditionsInput = input['conditions'] ?? [];
  if (!Array.isArray(conditionsInput)) throw fieldError(`${path}.conditions`, 'Must be a list.');
  if (conditionsInput.length > MAX_CONDITIONS) throw fieldError(`${path}.conditions`, `Ensure this list has no more than ${MAX_CONDITIONS} conditions.`);
  const lookups = operatorLookups(resource, access);
  const conditions: QueryCondition[] = [];
  for (const [index, raw] of conditionsInput.entries()) {
    const condition = checkCondition(resource, lookups, raw, `${path}.conditions[${index}]`);
    const earlier = conditions.findIndex((other) => other.param === condition.param);
    if (earlier >= 0) {
      throw fieldError(`${path}.conditions[${index}]`, `conditions[${earlier}] already sets ${condition.param}; put the values in one condition.`);
    }
    conditions.push(condition);
  }

  const orderingInput = input['ordering'] ?? [];
  if (!Array.isArray(orderingInput)) throw fieldError(`${path}.ordering`, 'Must be a list.');
  const orderable = orderingNames(resource);
  const ordering: QueryOrdering[] = orderingInput.map((term, index) => {
    const at = `${path}.ordering[${index}]`;
    if (!isObject(term)) throw fieldError(at, 'Must be an object with field and descending.');
    if (typeof term['field'] !== 'string' || !orderable.includes(term['field'])) {
      throw fieldError(`${at}.field`, `Order by one of: ${orderable.join(', ')}.`);
    }
    if (term['descending'] !== undefined && typeof term['descending'] !== 'boolean') throw fieldError(`${at}.descending`, 'Must be true or false.');
    return { field: term['field'], descending: term['descending'] === true };
  });

  const limit = input['limit'] ?? DEFAULT_OPERATOR_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw fieldError(`${path}.limit`, `Must be a whole number from 1 to ${MAX_LIMIT}.`);
  }

  const query: StructuredQuery = { entity: entity as OperatorEntity, search: searchText, conditions, ordering, limit };
  if (searchText && !resource.search) throw fieldError(`${path}.search`, 'This list cannot be searched.');
  // The list endpoint's own parser has the last word: what it would refuse is refused here.
  try {
    parseListQuery(resource, listRequest(query).params, access);
  } catch (error) {
    const parameter = (error as { errors?: Record<string, string[]> }).errors;
    const [name, messages] = Object.entries(parameter ?? {})[0] ?? [];
    if (!name) throw error;
    const index = conditions.findIndex((condition) => condition.param === name);
    throw fieldError(index >= 0 ? `${path}.conditions[${index}].values` : `${path}.${name === 'ordering' ? 'ordering' : name}`, messages![0]!);
  }
  return query;
}

function checkCondition(resource: Resource, lookups: Record<string, Lookup[]>, raw: unknown, at: string): QueryCondition {
  if (!isObject(raw)) throw fieldError(at, 'Must be an object with field, op and values.');
  const unknownKey = Object.keys(raw).find((key) => !['field', 'op', 'values', 'labels', 'param', 'text'].includes(key));
  if (unknownKey) throw fieldError(`${at}.${unknownKey}`, 'Unknown key.');
  const name = raw['field'];
  const allowed = typeof name === 'string' && Object.hasOwn(lookups, name) ? lookups[name] : undefined;
  if (typeof name !== 'string' || !allowed) {
    throw fieldError(`${at}.field`, `Unknown field. Use one of: ${Object.keys(lookups).join(', ')}.`);
  }
  const op = raw['op'];
  if (typeof op !== 'string' || !(CONDITION_OPS as readonly string[]).includes(op)) throw fieldError(`${at}.op`, `Must be one of: ${CONDITION_OPS.join(', ')}.`);
  const ops = CONDITION_OPS.filter((one) => allowed.includes(lookupOf(one)));
  if (!ops.includes(op as ConditionOp)) throw fieldError(`${at}.op`, `${name} allows: ${ops.join(', ')}.`);
  // Membership and timestamps are filters of the list, not fields of the record.
  const field: FieldType | null = resource.fields[name] ?? null;

  const valuesInput = raw['values'] ?? [];
  if (!Array.isArray(valuesInput) || valuesInput.some((value) => typeof value !== 'string' && typeof value !== 'number')) {
    throw fieldError(`${at}.values`, 'Must be a list of text values.');
  }
  const rawValues = valuesInput.map((value) => String(value).trim());
  const emptiness = op === 'empty' || op === 'not_empty';
  const compare = ['gt', 'gte', 'lt', 'lte'].includes(op);
  if (emptiness && rawValues.length > 0) throw fieldError(`${at}.values`, `${op} takes no values.`);
  if (compare && rawValues.length !== 1) throw fieldError(`${at}.values`, `${op} takes exactly one value.`);
  if (!emptiness && !compare && (rawValues.length === 0 || rawValues.length > MAX_CONDITION_VALUES)) {
    throw fieldError(`${at}.values`, `Give 1 to ${MAX_CONDITION_VALUES} values.`);
  }
  const values = rawValues.map((value, index) => {
    const checked = field ? checkValue(field, value, compare) : checkFilterValue(resource, name, value);
    if (typeof checked !== 'string') throw fieldError(`${at}.values[${index}]`, checked.problem);
    return checked;
  });

  const labelsInput = raw['labels'];
  let labels = values;
  if (labelsInput !== undefined) {
    if (!Array.isArray(labelsInput) || labelsInput.some((label) => typeof label !== 'string') || labelsInput.length !== values.length) {
      throw fieldError(`${at}.labels`, 'Must be a list of text, one label per value.');
    }
    labels = labelsInput.map((label, index) => (label as string).trim() || values[index]!);
  }
  const text = raw['text'];
  if (text !== undefined && typeof text !== 'string') throw fieldError(`${at}.text`, 'Must be text.');
  const unique = values.flatMap((value, index) => (values.indexOf(value) === index ? [index] : []));
  return {
    field: name, op: op as ConditionOp, values: unique.map((index) => values[index]!), labels: unique.map((index) => labels[index]!),
    param: paramOf(name, op as ConditionOp), text: text ?? '',
  };
}

/** A value of a filter that is no field: a list's id (membership), a record's (a link), or a day (a timestamp's range). */
function checkFilterValue(resource: Resource, name: string, value: string): string | { problem: string } {
  if (name === MEMBERSHIP_FIELD) return isUuid(value) ? value.toLowerCase() : { problem: 'Must be the id of a list.' };
  if (resource.links?.[name]) return isUuid(value) ? value.toLowerCase() : { problem: 'Must be the id of a record.' };
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && parseIncompleteDate(value).ok ? value : { problem: 'Must be a date: YYYY-MM-DD.' };
}

/** A value the field can hold in this comparison (canonical spelling), or the problem with it. */
function checkValue(field: FieldType, value: string, compare: boolean): string | { problem: string } {
  if (value === '') return { problem: 'Must not be empty.' };
  if (value.includes(',')) return { problem: 'Must not contain a comma (the list parameter separates values with commas).' };
  if (field.relation) return isUuid(value) ? value.toLowerCase() : { problem: 'Must be the id of a record.' };
  if (field.filter === 'boolean') {
    const word = value.toLowerCase();
    return word === 'true' || word === 'false' ? word : { problem: 'Must be true or false.' };
  }
  if (field.choices) {
    const match = field.choices.find((choice) => choice.toLowerCase() === value.toLowerCase());
    return match ?? { problem: `Must be one of: ${field.choices.join(', ')}.` };
  }
  if (field.kind === 'integer') return /^-?\d{1,9}$/.test(value) ? value : { problem: 'Must be a whole number (at most 9 digits).' };
  if (field.kind === 'decimal') return /^-?\d{1,15}(\.\d+)?$/.test(value) ? value : { problem: 'Must be a number.' };
  if (field.kind === 'incomplete_date' && compare) {
    const parsed = /^\d{4}(-\d{2}(-\d{2})?)?$/.test(value) ? parseIncompleteDate(value) : null;
    return parsed?.ok ? value : { problem: 'Must be a date: YYYY, YYYY-MM or YYYY-MM-DD.' };
  }
  if (field.maxLength && value.length > field.maxLength) return { problem: `Ensure this has no more than ${field.maxLength} characters.` };
  return value;
}

import type { ConditionOp, Lookup, QueryConditionInput, QueryOrdering, StructuredQueryInput } from '@intelnotes/server/contracts';

/**
 * The Operator's structured query (POST ai-assistant/queries/nlp-to-query and …/validate,
 * docs/operator.md; its types are the server's contracts) and how its conditions become a
 * list's query parameters and back: the Operator's chips and /organizations/subquery's URL are
 * the same conditions, written by the engine's fixed parameter names (is → `f`, not → `f__not`,
 * gt → `f__gt`, …, empty → `f__empty=true|false`). The page holds conditions as validate takes
 * them (QueryConditionInput): those built by hand or read from a URL have no `param` or `text`.
 */

/**
 * The list lookup of each op, keyed by every op in the order the condition dialog offers them:
 * `empty` and `not_empty` share the `__empty` lookup (true / false).
 */
const LOOKUP_OF: Record<ConditionOp, Lookup> = { is: 'is', not: 'not', gt: 'gt', gte: 'gte', lt: 'lt', lte: 'lte', empty: 'empty', not_empty: 'empty' };

/** Rows a query may ask for: the server's MAX_LIMIT (server/src/contracts.ts). */
export const MAX_LIMIT = 100;

/** List parameters that are not conditions: paging, ordering, search, the export format, the page's tab. */
export const CONTROL_PARAMS = ['page', 'page_size', 'ordering', 'search', 'limit', 'offset', 'format', 'tab'] as const;

/** Whether an op takes values (the emptiness tests take none). */
export const takesValues = (op: ConditionOp): boolean => op !== 'empty' && op !== 'not_empty';

/** Whether an op compares with one value (gt, gte, lt, lte) rather than matching any of several. */
export const comparesOne = (op: ConditionOp): boolean => op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte';

/** The ops a field allows, given its lookups: `empty` offers both "is empty" and "has a value". */
export function opsOf(lookups: readonly Lookup[]): ConditionOp[] {
  return (Object.keys(LOOKUP_OF) as ConditionOp[]).filter((op) => lookups.includes(LOOKUP_OF[op]));
}

/** The list parameter of a condition: its name and its value (values joined with commas). */
export function conditionParam(condition: Pick<QueryConditionInput, 'field' | 'op' | 'values'>): [string, string] {
  const { field, op } = condition;
  if (op === 'empty' || op === 'not_empty') return [`${field}__empty`, op === 'empty' ? 'true' : 'false'];
  return [op === 'is' ? field : `${field}__${op}`, condition.values.join(',')];
}

/** The list parameters of a query's conditions. */
export function conditionParams(conditions: readonly Pick<QueryConditionInput, 'field' | 'op' | 'values'>[]): Record<string, string> {
  return Object.fromEntries(conditions.map(conditionParam));
}

/** The values of a parameter: comma-separated, empty ones dropped. */
const splitValues = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** Reads one list parameter as a condition, given each field's lookups; null when it is none. */
export function paramCondition(name: string, value: string, lookupsOf: (field: string) => readonly Lookup[] | undefined): QueryConditionInput | null {
  const split = name.lastIndexOf('__');
  const [field, written] = split > 0 ? [name.slice(0, split), name.slice(split + 2)] : [name, 'is'];
  const allowed = lookupsOf(field);
  // A suffix is a condition only as one of the lookups the field allows.
  const lookup = allowed?.find((entry) => entry === written);
  if (!lookup) return null;
  if (lookup === 'empty') {
    if (value !== 'true' && value !== 'false') return null;
    return { field, op: value === 'true' ? 'empty' : 'not_empty', values: [], labels: [] };
  }
  const values = splitValues(value);
  if (values.length === 0 || (comparesOne(lookup) && values.length !== 1)) return null;
  return { field, op: lookup, values, labels: values };
}

/**
 * The conditions of a URL's list parameters (paging, ordering and search left out), in the
 * URL's order; `ignored` names the parameters that are not a condition this list allows.
 */
export function conditionsFromParams(
  params: URLSearchParams,
  lookupsOf: (field: string) => readonly Lookup[] | undefined,
): { conditions: QueryConditionInput[]; ignored: string[] } {
  const conditions: QueryConditionInput[] = [];
  const ignored: string[] = [];
  for (const [name, value] of params) {
    if ((CONTROL_PARAMS as readonly string[]).includes(name)) continue;
    const condition = paramCondition(name, value, lookupsOf);
    if (condition) conditions.push(condition);
    else ignored.push(name);
  }
  return { conditions, ignored };
}

/**
 * A URL's parameters with its conditions replaced: the control parameters it had are kept
 * (except the page, since the rows change), the conditions follow in their order.
 */
export function withConditions(params: URLSearchParams, conditions: readonly QueryConditionInput[]): URLSearchParams {
  const next = new URLSearchParams();
  for (const [name, value] of params) {
    if ((CONTROL_PARAMS as readonly string[]).includes(name) && name !== 'page') next.append(name, value);
  }
  for (const [name, value] of Object.entries(conditionParams(conditions))) next.set(name, value);
  return next;
}

/** A condition replaced, added (index = length) or removed (condition null), the others as they were. */
export function replaceCondition(conditions: readonly QueryConditionInput[], index: number, condition: QueryConditionInput | null): QueryConditionInput[] {
  const next = [...conditions];
  if (condition === null) next.splice(index, 1);
  else next.splice(index, 1, condition);
  return next;
}

/**
 * A condition saved at `index` (length: added), where the list takes one value per parameter:
 * a condition on a parameter another already sets joins it instead — "is"/"is not" values are
 * added to the earlier one's, any other test replaces it.
 */
export function putCondition(conditions: readonly QueryConditionInput[], index: number, condition: QueryConditionInput): QueryConditionInput[] {
  const [param] = conditionParam(condition);
  const other = conditions.findIndex((entry, at) => at !== index && conditionParam(entry)[0] === param);
  if (other === -1) return replaceCondition(conditions, index, condition);
  const earlier = conditions[other]!;
  let joined = condition;
  if (condition.op === 'is' || condition.op === 'not') {
    const values = [...earlier.values];
    const labels = earlier.values.map((value, at) => earlier.labels[at] ?? value);
    condition.values.forEach((value, at) => {
      if (values.includes(value)) return;
      values.push(value);
      labels.push(condition.labels[at] ?? value);
    });
    joined = { ...earlier, values, labels };
  }
  const next = replaceCondition(conditions, other, joined);
  return index < conditions.length ? replaceCondition(next, index, null) : next;
}

/** The `ordering` parameter of a query's ordering ("-founding_date,name_inc"). */
export function orderingParam(ordering: readonly QueryOrdering[]): string {
  return ordering.map((term) => `${term.descending ? '-' : ''}${term.field}`).join(',');
}

/** A query's ordering from an `ordering` parameter. */
export function orderingFromParam(param: string): QueryOrdering[] {
  return splitValues(param).map((term) => ({ field: term.replace(/^-/, ''), descending: term.startsWith('-') }));
}

/**
 * /organizations/subquery's URL for an Operator answer: its conditions, search and ordering,
 * without the limit (the page has its own paging).
 */
export function subqueryPath(query: StructuredQueryInput): string {
  const params = new URLSearchParams(conditionParams(query.conditions));
  if (query.search) params.set('search', query.search);
  if (query.ordering.length > 0) params.set('ordering', orderingParam(query.ordering));
  const search = params.toString();
  return `/organizations/subquery${search ? `?${search}` : ''}`;
}

/**
 * A resource list's URL for an Operator answer, when the list page can show all of it: its
 * list pages filter by equality (`is`) on their declared filters only, so a query with any
 * other condition has no list URL (null) — it would show more than the answer.
 */
export function listPagePath(query: StructuredQueryInput, listPath: string, filters: readonly string[]): string | null {
  if (query.conditions.some((condition) => condition.op !== 'is' || !filters.includes(condition.field))) return null;
  const [path = listPath, existing = ''] = listPath.split('?');
  const params = new URLSearchParams(existing);
  for (const [name, value] of Object.entries(conditionParams(query.conditions))) params.set(name, value);
  if (query.search) params.set('search', query.search);
  if (query.ordering.length > 0) params.set('ordering', orderingParam(query.ordering));
  return `${path}?${params.toString()}`;
}

/** How an op reads in a chip, for a field holding dates, numbers or anything else. */
export function opWords(op: ConditionOp, kind: 'date' | 'number' | 'other', many: boolean): string {
  switch (op) {
    case 'is':
      return many ? 'is any of' : 'is';
    case 'not':
      return many ? 'is none of' : 'is not';
    case 'gt':
      return kind === 'date' ? 'after' : 'more than';
    case 'gte':
      return kind === 'date' ? 'from' : 'at least';
    case 'lt':
      return kind === 'date' ? 'before' : 'less than';
    case 'lte':
      return kind === 'date' ? 'until' : 'at most';
    case 'empty':
      return 'is empty';
    case 'not_empty':
      return 'has a value';
  }
}

/** A condition in words: "HQ city is Berlin", "Founding date after 2015", "Emails is empty". */
export function conditionText(condition: Pick<QueryConditionInput, 'op' | 'values' | 'labels'>, fieldLabel: string, kind: 'date' | 'number' | 'other'): string {
  const words = opWords(condition.op, kind, condition.values.length > 1);
  if (!takesValues(condition.op)) return `${fieldLabel} ${words}`;
  const labels = condition.values.map((value, index) => condition.labels[index] ?? value);
  return `${fieldLabel} ${words} ${labels.join(', ')}`;
}

/** An incomplete date as the list accepts it: YYYY, YYYY-MM or YYYY-MM-DD, a real one. */
export function isIncompleteDate(value: string): boolean {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!match) return false;
  const [, year, month, day] = match;
  if (month === undefined) return true;
  if (Number(month) < 1 || Number(month) > 12) return false;
  if (day === undefined) return true;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/** Why a condition's values cannot be sent, or null: one value to compare, dates and numbers well formed. */
export function conditionProblem(condition: Pick<QueryConditionInput, 'op' | 'values'>, kind: 'date' | 'number' | 'other'): string | null {
  if (!takesValues(condition.op)) return null;
  const values = condition.values.map((value) => value.trim()).filter((value) => value !== '');
  if (values.length === 0) return 'Give a value.';
  if (comparesOne(condition.op) && values.length > 1) return 'Give one value to compare with.';
  if (kind === 'date' && !values.every(isIncompleteDate)) return 'Give a date as YYYY, YYYY-MM or YYYY-MM-DD.';
  if (kind === 'number' && !values.every((value) => /^-?\d+(\.\d+)?$/.test(value))) return 'Give a number, e.g. 5000000 or 2.5.';
  return null;
}

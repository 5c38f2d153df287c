/**
 * A structured query said back in plain English ("Organizations headquartered in Berlin,
 * founded after 2015, newest first."), so the asker can check what was understood.
 */
import type { QueryCondition, StructuredQuery } from '../../contracts.ts';
import { operatorResource } from './structured-query.ts';

type Phrases = Partial<Record<QueryCondition['op'], string>>;

/** How conditions on some fields read; `{v}` is the values ("Berlin or Paris"). Others read generically. */
const PHRASES: Record<string, Phrases> = {
  hq_city: { is: 'headquartered in {v}', not: 'not headquartered in {v}', empty: 'without a headquarters city', not_empty: 'with a headquarters city' },
  current_address_city: { is: 'living in {v}', not: 'not living in {v}', empty: 'without a city', not_empty: 'with a city' },
  passport_country: { is: 'with a passport from {v}', not: 'without a passport from {v}' },
  keywords: { is: 'tagged {v}', not: 'not tagged {v}', empty: 'without keywords', not_empty: 'with keywords' },
  founding_date: { gt: 'founded after {v}', gte: 'founded in or after {v}', lt: 'founded before {v}', lte: 'founded in or before {v}', empty: 'without a founding date', not_empty: 'with a founding date' },
  birth_date: { gt: 'born after {v}', gte: 'born in or after {v}', lt: 'born before {v}', lte: 'born in or before {v}' },
  met_event_date: { gt: 'met after {v}', gte: 'met in or after {v}', lt: 'met before {v}', lte: 'met in or before {v}' },
  publish_date: { gt: 'published after {v}', gte: 'published in or after {v}', lt: 'published before {v}', lte: 'published in or before {v}', empty: 'without a publishing date' },
  year: { is: 'in {v}', not: 'not in {v}', gt: 'after {v}', gte: 'in or after {v}', lt: 'before {v}', lte: 'in or before {v}' },
  quarter: { is: 'in {v}', not: 'not in {v}' },
  authors: { is: 'by {v}', not: 'not by {v}', empty: 'without authors', not_empty: 'with authors' },
  assets: { is: 'about {v}', not: 'not about {v}' },
  organizations: { is: 'for {v}', not: 'not for {v}' },
  people: { is: 'for {v}', not: 'not for {v}' },
  geos: { is: 'in {v}', not: 'not in {v}' },
  amount: { gt: 'over {v}', gte: 'of at least {v}', lt: 'under {v}', lte: 'of at most {v}', empty: 'without an amount', not_empty: 'with an amount' },
  currency: { is: 'in {v}', not: 'not in {v}' },
  type: { is: 'of type {v}', not: 'not of type {v}' },
  publisher: { is: 'published by {v}', not: 'not published by {v}' },
  visibility: { is: '{v}', not: 'not {v}' },
  gender: { is: 'of gender {v}', not: 'not of gender {v}' },
  emails: { empty: 'without an email', not_empty: 'with an email' },
  created_at: { gte: 'added from {v}', lt: 'added before {v}' },
  updated_at: { gte: 'updated from {v}', lt: 'updated before {v}' },
  lists: { is: 'in the list {v}', not: 'not in the list {v}' },
  kind: { is: 'of {v}', not: 'not of {v}' },
  linked_organizations: { is: 'on ledger entries with {v}', not: 'on no ledger entry with {v}' },
  linked_people: { is: 'on ledger entries with {v}', not: 'on no ledger entry with {v}' },
  investors: { is: '{v} invested in', not: '{v} did not invest in' },
  invested_in: { is: 'that invested in {v}', not: 'that did not invest in {v}' },
  ownership_type: { is: 'of ownership {v}', not: 'not of ownership {v}' },
  phones: { empty: 'without a phone', not_empty: 'with a phone' },
  associated_urls: { empty: 'without a website', not_empty: 'with a website' },
};

const GENERIC: Record<QueryCondition['op'], string> = {
  is: '{f} is {v}', not: '{f} is not {v}', gt: '{f} above {v}', gte: '{f} at least {v}', lt: '{f} below {v}', lte: '{f} at most {v}',
  empty: 'without {f}', not_empty: 'with {f}',
};

const ORDER_NAMES: Record<string, [string, string]> = {
  created_at: ['first added first', 'most recently added first'],
  updated_at: ['least recently updated first', 'most recently updated first'],
  display_name: ['alphabetically', 'in reverse alphabetical order'],
  amount: ['smallest amount first', 'largest amount first'],
  founding_date: ['oldest founding first', 'newest founding first'],
  publish_date: ['oldest first', 'newest first'],
  year: ['oldest first', 'newest first'],
  birth_date: ['oldest first', 'youngest first'],
};

const readable = (field: string) => field.replaceAll('_', ' ');
const joined = (labels: string[], word: string) =>
  labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} ${word} ${labels[labels.length - 1]}`;

/** Flags read as what they mean, not as true / false. */
const FLAGS: Record<string, [string, string]> = {
  is_fav: ['marked favourite', 'not marked favourite'],
  show_on_dashboard: ['shown on the dashboard', 'not shown on the dashboard'],
};

export function describeCondition(condition: QueryCondition): string {
  const flag = FLAGS[condition.field];
  if (flag && (condition.op === 'is' || condition.op === 'not') && condition.values.length === 1) {
    return flag[(condition.values[0] === 'true') === (condition.op === 'is') ? 0 : 1];
  }
  const template = PHRASES[condition.field]?.[condition.op] ?? GENERIC[condition.op];
  const quoted = condition.field === 'keywords' || condition.field === 'type' ? condition.labels.map((label) => `“${label}”`) : condition.labels;
  return template.replace('{f}', readable(condition.field)).replace('{v}', joined(quoted, condition.op === 'not' ? 'nor' : 'or'));
}

/** Verbs of date fields, for a period read as one ("founded in 2019", "published from 2019 to 2021"). */
const DATE_VERBS: Record<string, string> = { founding_date: 'founded', birth_date: 'born', met_event_date: 'met', publish_date: 'published', amount: 'amount' };

/** The conditions said one by one, except a from–to pair on one field and a ledger year with its quarters, said together. */
function describeConditions(conditions: QueryCondition[]): string[] {
  const parts: string[] = [];
  const said = new Set<QueryCondition>();
  for (const condition of conditions) {
    if (said.has(condition)) continue;
    const sameField = (op: QueryCondition['op']) => conditions.find((other) => other.field === condition.field && other.op === op && !said.has(other));
    const from = condition.op === 'gte' ? condition : undefined;
    const to = from ? sameField('lte') : undefined;
    if (from && to) {
      said.add(from).add(to);
      const verb = DATE_VERBS[condition.field] ?? readable(condition.field);
      const [start, end] = [from.labels[0]!, to.labels[0]!];
      parts.push(condition.field === 'amount' ? `with an amount from ${start} to ${end}` : start === end ? `${verb} in ${start}` : `${verb} from ${start} to ${end}`);
      continue;
    }
    const quarter = condition.field === 'year' && condition.op === 'is' && condition.values.length === 1
      ? conditions.find((other) => other.field === 'quarter' && other.op === 'is')
      : undefined;
    if (quarter) {
      said.add(condition).add(quarter);
      parts.push(`in ${joined(quarter.labels, 'or')} ${condition.labels[0]}`);
      continue;
    }
    said.add(condition);
    parts.push(describeCondition(condition));
  }
  return parts;
}

export function explain(query: StructuredQuery, notes: string[] = []): string {
  const resource = operatorResource(query.entity);
  // "Public or paywalled organizations …": a visibility reads as an adjective.
  const visibility = query.conditions.find((condition) => condition.field === 'visibility' && condition.op === 'is');
  const parts = describeConditions(query.conditions.filter((condition) => condition !== visibility));
  if (query.search) parts.push(`matching “${query.search}”`);
  const ordering = query.ordering.filter((term, index) => !(term.field === 'quarter' && index > 0));
  const order = ordering.map((term) => ORDER_NAMES[term.field]?.[term.descending ? 1 : 0] ?? `by ${readable(term.field)}${term.descending ? ', descending' : ''}`).join(', then ');
  const plural = (resource.plural ?? `${resource.label}s`).toLowerCase();
  const noun = visibility ? `${joined(visibility.labels, 'or')} ${plural}` : plural;
  const head = query.limit === 25 ? noun : `the first ${query.limit} ${noun}`;
  const sentence = `${head}${parts.length > 0 ? ` ${parts.join(', ')}` : ''}${order ? `, ${order}` : ''}.`;
  return [sentence.charAt(0).toUpperCase() + sentence.slice(1), ...notes].join(' ');
}

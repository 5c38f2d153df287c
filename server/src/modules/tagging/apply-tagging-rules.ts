/**
 * Tagging rules applied on save: a beforeSave hook that adds the keywords of
 * every enabled rule of the tenant matching the record's text to the record's
 * keywords (never removing any). It runs when a record is created and when an
 * edit changes one of the text fields it scans — so a keyword someone removed
 * by hand is not added straight back by an unrelated edit.
 *
 * Scanned: the record's text and category fields (single-line and multiline)
 * that every reader of the record may read (fields restricted to some
 * audiences, like admin notes, are left out: a keyword must not reveal them).
 * Limits: the first MAX_SCANNED_CHARS characters of that text, and the
 * MAX_RULES most recently changed enabled rules.
 */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../../db/client.ts';
import type { Resource, SaveContext } from '../../resources/resource.ts';
import { ruleMatches, type RuleSpec } from './matcher.ts';

/** Characters of a record's text scanned (about 200 kB). */
export const MAX_SCANNED_CHARS = 200_000;
/** Enabled rules applied per save. */
export const MAX_RULES = 500;

/** Kinds never tagged by rules: rules themselves, and lists, whose keywords are what they give their items. */
const NOT_TAGGED = new Set(['tagging_rules', 'lists']);

/** The fields whose text the rules read. */
export function scannedFields(resource: Resource): string[] {
  return Object.entries(resource.fields)
    .filter(([, field]) => (field.kind === 'text' || field.kind === 'category') && !field.readAccess)
    .map(([name]) => name);
}

/** Whether rules tag this resource: it has keywords (of the keyword kind) and text to scan. */
export function isTaggable(resource: Resource): boolean {
  const keywords = resource.fields['keywords'];
  return !NOT_TAGGED.has(resource.kind) && Boolean(keywords?.relation?.many && keywords.relation.targets.includes('keyword')) && scannedFields(resource).length > 0;
}

/** The text a rule scans: the scanned fields, one per line, cut at the limit. */
export function scannedText(resource: Resource, record: Record<string, unknown>): string {
  const parts = scannedFields(resource)
    .map((name) => record[name])
    .filter((value): value is string => typeof value === 'string' && value !== '');
  return parts.join('\n').slice(0, MAX_SCANNED_CHARS);
}

interface StoredRule extends RuleSpec {
  keywords: string[];
}

// One read per transaction: an import saves many records in one.
const rulesByTx = new WeakMap<Tx, Promise<StoredRule[]>>();

function enabledRules(tx: Tx): Promise<StoredRule[]> {
  let rules = rulesByTx.get(tx);
  if (!rules) {
    rules = query<StoredRule>(
      tx,
      sql`SELECT pattern, match_type, case_sensitive, keywords::text[] AS keywords FROM tagging_rules
          WHERE enabled AND cardinality(keywords) > 0
          ORDER BY updated_at DESC, id LIMIT ${MAX_RULES}`,
    );
    rulesByTx.set(tx, rules);
  }
  return rules;
}

/** Keyword ids of the rules matching `text`; a rule that no longer compiles is skipped. */
export function matchingKeywords(rules: StoredRule[], text: string): string[] {
  const found = new Set<string>();
  if (text === '') return [];
  for (const rule of rules) {
    if (rule.keywords.every((keyword) => found.has(keyword))) continue;
    let matched = false;
    try {
      matched = ruleMatches(rule, text);
    } catch {
      matched = false;
    }
    if (matched) for (const keyword of rule.keywords) found.add(keyword);
  }
  return [...found];
}

export async function applyTaggingRules({ tx, resource, record, input, current }: SaveContext): Promise<Record<string, unknown> | void> {
  const fields = scannedFields(resource);
  if (current && !fields.some((name) => name in input && input[name] !== current[name])) return;
  const text = scannedText(resource, record);
  if (text === '') return;
  const added = matchingKeywords(await enabledRules(tx), text);
  const keywords = ((record['keywords'] as string[] | null) ?? []).map(String);
  const missing = added.filter((keyword) => !keywords.includes(keyword));
  if (missing.length === 0) return;
  return { keywords: [...keywords, ...missing] };
}

/** Adds the hook to every resource rules tag (once; the declarations stay as their owners wrote them). */
export function withTaggingRules(resources: Resource[]): Resource[] {
  for (const resource of resources) {
    if (!isTaggable(resource)) continue;
    const hooks = resource.beforeSave ?? [];
    if (!hooks.includes(applyTaggingRules)) resource.beforeSave = [...hooks, applyTaggingRules];
  }
  return resources;
}

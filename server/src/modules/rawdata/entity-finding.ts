/**
 * The tenant's side of entity extraction (docs/processing.md): the tenant's own knowledge base
 * is the first gazetteer, so a name it already holds is found (even without the cues the rules
 * need) and linked to its record rather than suggested anew; the tenant's learnt model joins
 * the rules. The extractor itself (processing/entities) knows no database.
 *
 * The gazetteer is built per text from the names the text could hold: the keys of its
 * capitalized word runs are looked up in the organizations', people's and cities' name keys
 * (GIN indexes), so a tenant of millions of records costs a few index probes per item, not a
 * load of every name. Keywords, terminology and geos are few per tenant and taken whole.
 */
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { EngineContext } from '../../resources/context.ts';
import { normalizeName } from '../../resources/values.ts';
import { buildGazetteer, extractEntities, type ExternalEntity, type GazetteerEntry, type LedgerCandidate, type Mention } from '../../processing/entities/index.ts';
import { loadTenantModel } from './entity-model.ts';

/** Longest run of words looked up as one name. */
const MAX_NAME_WORDS = 6;
/** Most candidate keys looked up per text (a long document's runs beyond this are found by the rules alone). */
const MAX_CANDIDATE_KEYS = 20_000;
/** Keywords, terminology and geos taken into the gazetteer at most (per table). */
const MAX_VOCABULARY = 20_000;
/** How alike a name must be to a record's (pg_trgm similarity) to be linked to it without an exact key. */
export const LINK_SIMILARITY = 0.8;

/** A gazetteer entry's record: the resource kind it belongs to. */
export type RecordKind = 'organizations' | 'people' | 'geos' | 'cities' | 'keyword' | 'terminology';

export interface LinkedEntity {
  type: Mention['type'];
  /** The name or value as first written, and normalized (the grouping key). */
  text: string;
  normalized: string;
  mentions: Mention[];
  /** The existing record it names, when one was found. */
  record: { kind: RecordKind; id: string } | null;
  /** The suggestion made of it (or joined), when it names no record. */
  suggestion?: { kind: 'organizations' | 'people'; id: string };
}

export interface Findings {
  entities: LinkedEntity[];
  ledger: LedgerCandidate[];
}

export interface FoundEntities {
  mentions: Mention[];
  ledger: LedgerCandidate[];
  /** Links what the gazetteer did not to records of the same e-mail or a very similar name. */
  link(ctx: EngineContext): Promise<Findings>;
}

export interface FindOptions {
  /** What the optional extractors found in the text (docs/processing.md "Optional extractors"). */
  external?: ExternalEntity[];
}

/** Runs the extractor over `text` with the tenant's gazetteer and model. */
export async function findEntities(ctx: EngineContext, text: string, options: FindOptions = {}): Promise<FoundEntities> {
  const entries = await gazetteerEntries(ctx, candidateKeys(text));
  const kinds = new Map(entries.map((entry) => [entry.id, entry.kind]));
  const model = await loadTenantModel(ctx);
  const { mentions, ledger } = extractEntities(text, { gazetteer: buildGazetteer(entries.map((entry) => entry.entry)), ...(model ? { model } : {}), external: options.external ?? [] });
  return {
    mentions,
    ledger,
    link: async (linkCtx) => ({ entities: await linkEntities(linkCtx, groupMentions(mentions), kinds), ledger }),
  };
}

/** The keys (normalizeName) of every run of capitalized words in the text, and of its parts. */
export function candidateKeys(text: string): string[] {
  const keys = new Set<string>();
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}.'’&-]*/gu)];
  let run: string[] = [];
  const flush = () => {
    for (let start = 0; start < run.length; start += 1) {
      for (let end = start + 1; end <= Math.min(run.length, start + MAX_NAME_WORDS); end += 1) {
        const key = normalizeName(run.slice(start, end).join(' '));
        if (key.length >= 2) keys.add(key);
        if (keys.size >= MAX_CANDIDATE_KEYS) return;
      }
    }
    run = [];
  };
  for (let i = 0; i < words.length && keys.size < MAX_CANDIDATE_KEYS; i += 1) {
    const word = words[i]![0];
    const previous = words[i - 1];
    // A run ends at sentence punctuation or a line break between two words.
    const gap = previous ? text.slice(previous.index! + previous[0].length, words[i]!.index) : '';
    if (/[.!?;:\n()[\]"“”]/.test(gap)) flush();
    if (/^\p{Lu}/u.test(word) || /^\p{N}/u.test(word)) run.push(word);
    else flush();
  }
  flush();
  return [...keys];
}

interface KindedEntry {
  id: string;
  kind: RecordKind;
  entry: GazetteerEntry;
}

async function gazetteerEntries(ctx: EngineContext, keys: string[]): Promise<KindedEntry[]> {
  const entries: KindedEntry[] = [];
  const add = (kind: RecordKind, type: GazetteerEntry['type'], rows: Array<{ id: string; names: string[] }>) => {
    for (const row of rows) {
      const names = row.names.filter((name) => typeof name === 'string' && name.trim() !== '');
      if (names.length > 0) entries.push({ id: row.id, kind, entry: { id: row.id, type, names } });
    }
  };
  const keyArray = sql`${`{${keys.map((key) => `"${key.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`}::text[]`;
  if (keys.length > 0) {
    add('organizations', 'ORG', await query(ctx.tx, sql`
      SELECT id, array_remove(ARRAY[name_inc, name_dba], NULL) AS names FROM organizations
      WHERE status = 'active' AND name_keys && ${keyArray}`));
    add('people', 'PER', await query(ctx.tx, sql`
      SELECT id, array_remove(ARRAY[nullif(concat_ws(' ', name_given, name_family), ''), name_legal, name_nickname], NULL) AS names FROM people
      WHERE status = 'active' AND name_keys && ${keyArray}`));
    add('cities', 'GEO', await query(ctx.tx, sql`SELECT id, ARRAY[name] AS names FROM cities WHERE name_keys && ${keyArray} LIMIT ${MAX_VOCABULARY}`));
  }
  add('geos', 'GEO', await query(ctx.tx, sql`SELECT id, ARRAY[name] AS names FROM geos ORDER BY name LIMIT ${MAX_VOCABULARY}`));
  add('keyword', 'KEYWORD', await query(ctx.tx, sql`SELECT id, ARRAY[name] AS names FROM keywords ORDER BY name LIMIT ${MAX_VOCABULARY}`));
  add('terminology', 'KEYWORD', await query(ctx.tx, sql`SELECT id, ARRAY[term] AS names FROM terminology ORDER BY term LIMIT ${MAX_VOCABULARY}`));
  return entries;
}

/** One entity per type and normalized value, its mentions in text order. */
export function groupMentions(mentions: Mention[]): LinkedEntity[] {
  const groups = new Map<string, LinkedEntity>();
  for (const mention of [...mentions].sort((a, b) => a.start - b.start)) {
    const normalized = entityKey(mention);
    if (!normalized) continue;
    const key = `${mention.type}\u0000${normalized}\u0000${mention.gazetteerId ?? ''}`;
    const group = groups.get(key);
    if (group) group.mentions.push(mention);
    else groups.set(key, { type: mention.type, text: mention.text.trim(), normalized, mentions: [mention], record: null });
  }
  return [...groups.values()];
}

function entityKey(mention: Mention): string {
  if (mention.type === 'PER' || mention.type === 'ORG' || mention.type === 'GEO' || mention.type === 'KEYWORD') {
    return normalizeName(mention.normalized ?? mention.text);
  }
  return (mention.normalized ?? mention.text).trim().toLowerCase();
}

/**
 * The record each entity names: the gazetteer's match; else, for people and organizations,
 * a record holding an e-mail written in the same sentence, or one whose name is very like it.
 */
async function linkEntities(ctx: EngineContext, entities: LinkedEntity[], kinds: Map<string, RecordKind>): Promise<LinkedEntity[]> {
  const emailsBySentence = new Map<number, string[]>();
  for (const entity of entities) {
    if (entity.type !== 'EMAIL') continue;
    for (const mention of entity.mentions) emailsBySentence.set(mention.sentence.start, [...(emailsBySentence.get(mention.sentence.start) ?? []), entity.normalized]);
  }
  for (const entity of entities) {
    const matched = entity.mentions.find((mention) => mention.gazetteerId && kinds.has(mention.gazetteerId));
    if (matched) {
      entity.record = { kind: kinds.get(matched.gazetteerId!)!, id: matched.gazetteerId! };
      continue;
    }
    if (entity.type !== 'PER' && entity.type !== 'ORG') continue;
    const table = entity.type === 'PER' ? sql`people` : sql`organizations`;
    const kind: RecordKind = entity.type === 'PER' ? 'people' : 'organizations';
    const emails = [...new Set(entity.mentions.flatMap((mention) => emailsBySentence.get(mention.sentence.start) ?? []))];
    if (emails.length > 0) {
      const [byEmail] = await query<{ id: string }>(ctx.tx, sql`
        SELECT id FROM ${table} WHERE status = 'active' AND emails && ${`{${emails.map((email) => `"${email.replaceAll('"', '')}"`).join(',')}}`}::text[]
        ORDER BY updated_at DESC LIMIT 1`);
      if (byEmail) {
        entity.record = { kind, id: byEmail.id };
        continue;
      }
    }
    const [similar] = await query<{ id: string }>(ctx.tx, sql`
      SELECT id FROM ${table}
      WHERE status = 'active' AND search_name % search_text(${entity.text}) AND similarity(search_name, search_text(${entity.text})) >= ${LINK_SIMILARITY}
      ORDER BY similarity(search_name, search_text(${entity.text})) DESC LIMIT 1`);
    if (similar) entity.record = { kind, id: similar.id };
  }
  return entities;
}

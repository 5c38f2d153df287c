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
import { normalizeName, normalizeUrlForMatch } from '../../resources/values.ts';
import { buildGazetteer, extractEntities, type GazetteerEntry, type LedgerCandidate, type Mention } from '../../processing/entities/index.ts';
import { loadTenantModel } from './entity-model.ts';

/** Longest run of words looked up as one name. */
const MAX_NAME_WORDS = 6;
/** Most candidate keys looked up per text (a long document's runs beyond this are found by the rules alone). */
const MAX_CANDIDATE_KEYS = 20_000;
/** Keywords, terminology and geos taken into the gazetteer at most (per table). */
const MAX_VOCABULARY = 20_000;
/** How alike a name must be to a record's (pg_trgm similarity) to be linked to it without an exact key. */
export const LINK_SIMILARITY = 0.8;
/**
 * How much of a name must be found in a record's name (pg_trgm word_similarity) for a shared
 * e-mail or URL to link them: the address says which record the sentence is about, the name
 * must still be that record's ("Jane Doe, jane@acme.example" is not John Roe of the same sentence).
 */
export const LINK_CONTACT_NAME = 0.5;
/** Path segments of a URL kept as keys of their own (host, host/a, host/a/b, …). */
const MAX_URL_DEPTH = 8;

/** What linked a name to a record. */
export type LinkEvidence = 'name' | 'email' | 'url' | 'similar';

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
  /** How the record was found: the gazetteer (its name or an alias), a shared e-mail or URL, a very similar name. */
  linkedBy?: LinkEvidence;
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
  /** Links what the gazetteer did not to records of the same e-mail or URL, or a very similar name. */
  link(ctx: EngineContext): Promise<Findings>;
}

export interface FindOptions {
  /** The address the item came from (its source URL): a record with that site's URL is a candidate for every name in it. */
  sourceUrl?: string | null;
}

/** Runs the extractor over `text` with the tenant's gazetteer and model. */
export async function findEntities(ctx: EngineContext, text: string, options: FindOptions = {}): Promise<FoundEntities> {
  const entries = await gazetteerEntries(ctx, candidateKeys(text));
  const kinds = new Map(entries.map((entry) => [entry.id, entry.kind]));
  const model = await loadTenantModel(ctx);
  const { mentions, ledger } = extractEntities(text, { gazetteer: buildGazetteer(entries.map((entry) => entry.entry)), ...(model ? { model } : {}) });
  return {
    mentions,
    ledger,
    link: async (linkCtx) => ({ entities: await linkEntities(linkCtx, groupMentions(mentions), kinds, options.sourceUrl ?? null), ledger }),
  };
}

/** The item's source URL (raw_data.source → source_urls), for FindOptions.sourceUrl. */
export async function itemSourceUrl(ctx: EngineContext, itemId: string): Promise<string | null> {
  const [row] = await query<{ url: string | null }>(ctx.tx, sql`SELECT s.url FROM raw_data r JOIN source_urls s ON s.id = r.source WHERE r.id = ${itemId}`);
  return row?.url ?? null;
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
 * The match keys a URL found in a text stands for: its own (host and path, as url_keys hold
 * them: normalizeUrlForMatch) and those of the pages above it, down to the host — a record
 * usually keeps a site's home page ("acme.example"), a text links a page of it
 * ("acme.example/news/2024/results").
 */
export function urlMatchKeys(url: string): string[] {
  const key = normalizeUrlForMatch(url);
  if (!key) return [];
  const [host, ...path] = key.split('/');
  if (!host) return [];
  const keys = [host];
  for (let depth = 1; depth <= Math.min(path.length, MAX_URL_DEPTH); depth += 1) keys.push([host, ...path.slice(0, depth)].join('/'));
  if (path.length > MAX_URL_DEPTH) keys.push(key);
  return keys;
}

/** A name to link and the contact details around it. */
interface Unlinked {
  entity: LinkedEntity;
  emails: string[];
  urls: string[];
}

/**
 * The record each entity names: the gazetteer's match; else, for people and organizations,
 * a record holding an e-mail or URL written in the same sentence (or the item's source URL)
 * whose name the name is found in, or one whose name is very like it. One query per kind for
 * all the names of the item, each name getting its best match.
 */
async function linkEntities(ctx: EngineContext, entities: LinkedEntity[], kinds: Map<string, RecordKind>, sourceUrl: string | null): Promise<LinkedEntity[]> {
  const emailsBySentence = new Map<number, Set<string>>();
  const urlsBySentence = new Map<number, Set<string>>();
  const addTo = (map: Map<number, Set<string>>, sentence: number, values: string[]) => {
    const set = map.get(sentence) ?? new Set<string>();
    for (const value of values) set.add(value);
    map.set(sentence, set);
  };
  for (const entity of entities) {
    if (entity.type !== 'EMAIL' && entity.type !== 'URL') continue;
    const values = entity.type === 'EMAIL' ? [entity.normalized] : urlMatchKeys(entity.mentions[0]!.normalized ?? entity.text);
    for (const mention of entity.mentions) addTo(entity.type === 'EMAIL' ? emailsBySentence : urlsBySentence, mention.sentence.start, values);
  }
  const sourceKeys = sourceUrl ? urlMatchKeys(sourceUrl) : [];
  const unlinked: Record<'PER' | 'ORG', Unlinked[]> = { PER: [], ORG: [] };
  for (const entity of entities) {
    const matched = entity.mentions.find((mention) => mention.gazetteerId && kinds.has(mention.gazetteerId));
    if (matched) {
      entity.record = { kind: kinds.get(matched.gazetteerId!)!, id: matched.gazetteerId! };
      entity.linkedBy = 'name';
      continue;
    }
    if (entity.type !== 'PER' && entity.type !== 'ORG') continue;
    const around = (map: Map<number, Set<string>>) => [...new Set(entity.mentions.flatMap((mention) => [...(map.get(mention.sentence.start) ?? [])]))];
    unlinked[entity.type].push({ entity, emails: around(emailsBySentence), urls: [...new Set([...around(urlsBySentence), ...sourceKeys])] });
  }
  for (const [type, names] of Object.entries(unlinked) as Array<['PER' | 'ORG', Unlinked[]]>) {
    if (names.length === 0) continue;
    const kind: RecordKind = type === 'PER' ? 'people' : 'organizations';
    for (const match of await bestMatches(ctx, kind, names)) {
      const { entity } = names[match.i]!;
      entity.record = { kind, id: match.id };
      entity.linkedBy = match.via;
    }
  }
  return entities;
}

/**
 * For each name, its best record in one statement: one holding an e-mail of the name's sentences
 * (the most recently updated), else one holding one of its URL keys whose name holds the name (the
 * most alike), else the record whose name is most alike when at least LINK_SIMILARITY.
 */
async function bestMatches(ctx: EngineContext, kind: 'people' | 'organizations', names: Unlinked[]): Promise<Array<{ i: number; id: string; via: LinkEvidence }>> {
  const table = sql.identifier(kind);
  const rows = JSON.stringify(names.map((name, i) => ({ i, name: name.entity.text, emails: name.emails, urls: name.urls })));
  return query<{ i: number; id: string; via: LinkEvidence }>(ctx.tx, sql`
    SELECT n.i, best.id, best.via
    FROM jsonb_to_recordset(${rows}::jsonb) AS n(i integer, name text, emails text[], urls text[])
    CROSS JOIN LATERAL (SELECT search_text(n.name) AS key) k
    CROSS JOIN LATERAL (
      SELECT c.id, c.via FROM (
        (SELECT r.id, 1 AS rank, 'email' AS via FROM ${table} r
          WHERE cardinality(n.emails) > 0 AND r.status = 'active' AND r.emails && n.emails
          ORDER BY r.updated_at DESC LIMIT 1)
        UNION ALL
        (SELECT r.id, 2, 'url' FROM ${table} r
          WHERE cardinality(n.urls) > 0 AND r.status = 'active' AND r.url_keys && n.urls AND word_similarity(k.key, r.search_name) >= ${LINK_CONTACT_NAME}
          ORDER BY word_similarity(k.key, r.search_name) DESC, r.updated_at DESC LIMIT 1)
        UNION ALL
        (SELECT r.id, 3, 'similar' FROM ${table} r
          WHERE r.status = 'active' AND r.search_name % k.key AND similarity(r.search_name, k.key) >= ${LINK_SIMILARITY}
          ORDER BY similarity(r.search_name, k.key) DESC LIMIT 1)
      ) c ORDER BY c.rank LIMIT 1
    ) best`);
}

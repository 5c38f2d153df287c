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
import {
  buildGazetteer,
  extractEntities,
  foldName,
  normalizeOrganizationName,
  normalizePersonName,
  RULE_THRESHOLD,
  type ExternalEntity,
  type GazetteerEntry,
  type LedgerCandidate,
  type Mention,
} from '../../processing/entities/index.ts';
import { freshModel, type TenantModels } from './entity-model.ts';

/** Longest run of words looked up as one name. */
const MAX_NAME_WORDS = 6;
/** Most candidate keys looked up per text (a long document's runs beyond this are found by the rules alone). */
const MAX_CANDIDATE_KEYS = 20_000;
/** Keywords, terminology and geos taken into the gazetteer at most (per table). */
const MAX_VOCABULARY = 20_000;
/**
 * How alike (pg_trgm similarity) a record's name must be to a name for the record to be
 * considered at all without a shared e-mail or URL; whether it is the same name is then decided
 * word by word (sameOrganization, samePerson).
 */
export const LINK_SIMILARITY = 0.4;
/** Candidate records per name and kind of evidence. */
const CANDIDATES_PER_EVIDENCE = 5;
/** Path segments of a URL kept as keys of their own (host, host/a, host/a/b, …). */
const MAX_URL_DEPTH = 8;

/**
 * What linked a name to a record: the gazetteer (its name or an alias), a shared e-mail or URL,
 * the same name written otherwise, a short form of a name linked in the same item.
 */
export type LinkEvidence = 'name' | 'email' | 'url' | 'similar' | 'short';

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
  /** How the record was found. */
  linkedBy?: LinkEvidence;
  /** The suggestion made of it (or joined), when it names no record. */
  suggestion?: { kind: 'organizations' | 'people'; id: string };
}

export interface Findings {
  entities: LinkedEntity[];
  ledger: LedgerCandidate[];
  /** The tenant's threshold (settings' suggestion_min_confidence): nothing less sure is suggested. */
  minConfidence: number;
}

export interface FoundEntities {
  mentions: Mention[];
  ledger: LedgerCandidate[];
  minConfidence: number;
  /** Links what the gazetteer did not: by a shared e-mail or URL, the same name written otherwise, a short form (linkEntities). */
  link(ctx: EngineContext): Promise<Findings>;
}

export interface FindOptions {
  /** What the optional extractors found in the text (docs/processing.md "Optional extractors"). */
  external?: ExternalEntity[];
  /** The address the item came from (its source URL): a record with that site's URL is a candidate for every name in it. */
  sourceUrl?: string | null;
  /** The engine's recent tenant models (processing); without it the model is read afresh. */
  models?: TenantModels;
}

/** Runs the extractor over `text` with the tenant's gazetteer and model. */
export async function findEntities(ctx: EngineContext, text: string, options: FindOptions = {}): Promise<FoundEntities> {
  const entries = await gazetteerEntries(ctx, candidateKeys(text));
  const kinds = new Map(entries.map((entry) => [entry.id, entry.kind]));
  const model = options.models ? await options.models.load(ctx) : await freshModel(ctx);
  const minConfidence = await suggestionThreshold(ctx);
  // Below the extractor's own floor a threshold asks for its less sure names too; above it they are read and not suggested.
  const { mentions, ledger } = extractEntities(text, {
    gazetteer: buildGazetteer(entries.map((entry) => entry.entry)),
    ...(model ? { model } : {}),
    external: options.external ?? [],
    minConfidence: Math.min(minConfidence, RULE_THRESHOLD),
  });
  return {
    mentions,
    ledger,
    minConfidence,
    link: async (linkCtx) => ({ entities: await linkEntities(linkCtx, groupMentions(mentions), kinds, options.sourceUrl ?? null), ledger, minConfidence }),
  };
}

/** The tenant's suggestion threshold (docs/processing.md "Confidence"). */
async function suggestionThreshold(ctx: EngineContext): Promise<number> {
  const [row] = await query<{ threshold: number }>(ctx.tx, sql`SELECT suggestion_min_confidence AS threshold FROM tenants WHERE id = ${ctx.actor.tenantId}`);
  return row ? Number(row.threshold) : RULE_THRESHOLD;
}

/** The item's source URL (raw_data.source → source_urls), for FindOptions.sourceUrl. */
export async function itemSourceUrl(ctx: EngineContext, itemId: string): Promise<string | null> {
  const [row] = await query<{ url: string | null }>(ctx.tx, sql`SELECT s.url FROM raw_data r JOIN source_urls s ON s.id = r.source WHERE r.id = ${itemId}`);
  return row?.url ?? null;
}

/** The keys (normalizeName) of every run of capitalized words in the text, and of its parts. */
export function candidateKeys(text: string): string[] {
  const keys = new Set<string>();
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
  // The words one at a time (not all of a long text's matches in an array: 300,000 of them for a book).
  let previousEnd = -1;
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}.'’&-]*|&/gu)) {
    if (keys.size >= MAX_CANDIDATE_KEYS) break;
    const word = match[0];
    // A run ends at sentence punctuation or a line break between two words.
    const gap = previousEnd >= 0 ? text.slice(previousEnd, match.index) : '';
    previousEnd = match.index + word.length;
    if (/[.!?;:\n()[\]"“”]/.test(gap)) flush();
    // "&" joins a name's words ("Grenfeld & Marsh").
    if (/^\p{Lu}/u.test(word) || /^\p{N}/u.test(word) || (word === '&' && run.length > 0)) run.push(word);
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
      SELECT id, array_remove(ARRAY[name_inc, name_dba], NULL) || name_keys AS names FROM organizations
      WHERE status = 'active' AND name_keys && ${keyArray}`));
    add('people', 'PER', await query(ctx.tx, sql`
      SELECT id, array_remove(ARRAY[nullif(concat_ws(' ', name_given, name_family), ''), name_legal, name_nickname], NULL) || name_keys AS names FROM people
      WHERE status = 'active' AND name_keys && ${keyArray}`));
    add('cities', 'GEO', await query(ctx.tx, sql`SELECT id, ARRAY[name] AS names FROM cities WHERE name_keys && ${keyArray} LIMIT ${MAX_VOCABULARY}`));
  }
  add('geos', 'GEO', await query(ctx.tx, sql`SELECT id, ARRAY[name] AS names FROM geos ORDER BY name LIMIT ${MAX_VOCABULARY}`));
  add('keyword', 'KEYWORD', await query(ctx.tx, sql`SELECT id, ARRAY[name] AS names FROM keywords ORDER BY name LIMIT ${MAX_VOCABULARY}`));
  add('terminology', 'KEYWORD', await query(ctx.tx, sql`SELECT id, ARRAY[term] AS names FROM terminology ORDER BY term LIMIT ${MAX_VOCABULARY}`));
  return entries;
}

/**
 * One entity per type and normalized value, its mentions in text order. The extractor gives a
 * name's short forms and repeats the full name's key ("Orion Freight" after "Orion Freight
 * Holdings"), so they join it; the entity is named by its longest mention.
 */
export function groupMentions(mentions: Mention[]): LinkedEntity[] {
  const groups = new Map<string, LinkedEntity>();
  for (const mention of [...mentions].sort((a, b) => a.start - b.start)) {
    const normalized = entityKey(mention);
    if (!normalized) continue;
    const key = `${mention.type}\u0000${normalized}\u0000${mention.gazetteerId ?? ''}`;
    const group = groups.get(key);
    if (!group) groups.set(key, { type: mention.type, text: mention.text.trim(), normalized, mentions: [mention], record: null });
    else {
      group.mentions.push(mention);
      if (mention.text.trim().length > group.text.length) group.text = mention.text.trim();
    }
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
 * The record each entity names: the gazetteer's match; else, for people and organizations, a
 * record holding an e-mail or URL written in the same sentence (or the item's source URL) when
 * the name fits that record's (fitsContact), else a record of the same name written otherwise
 * (sameName) — all the names of the item in one query per kind; finally a short form of a name
 * linked in the same item ("Ingrid" after "Ingrid Solberg", "Corvane" after "Corvane Logistics").
 */
async function linkEntities(ctx: EngineContext, entities: LinkedEntity[], kinds: Map<string, RecordKind>, sourceUrl: string | null): Promise<LinkedEntity[]> {
  const emailsBySentence = new Map<number, Set<string>>();
  const urlsBySentence = new Map<number, Set<string>>();
  // An e-mail's domain is a site too, for organizations ("maria@oriel-freight.example" beside "Oriel").
  const domainsBySentence = new Map<number, Set<string>>();
  const addTo = (map: Map<number, Set<string>>, sentence: number, values: string[]) => {
    const set = map.get(sentence) ?? new Set<string>();
    for (const value of values) set.add(value);
    map.set(sentence, set);
  };
  for (const entity of entities) {
    if (entity.type !== 'EMAIL' && entity.type !== 'URL') continue;
    const values = entity.type === 'EMAIL' ? [entity.normalized] : urlMatchKeys(entity.mentions[0]!.normalized ?? entity.text);
    const domain = entity.type === 'EMAIL' ? entity.normalized.split('@')[1] : undefined;
    for (const mention of entity.mentions) {
      addTo(entity.type === 'EMAIL' ? emailsBySentence : urlsBySentence, mention.sentence.start, values);
      if (domain) addTo(domainsBySentence, mention.sentence.start, urlMatchKeys(`https://${domain}`));
    }
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
    const urls = [...around(urlsBySentence), ...(entity.type === 'ORG' ? around(domainsBySentence) : []), ...sourceKeys];
    unlinked[entity.type].push({ entity, emails: around(emailsBySentence), urls: [...new Set(urls)] });
  }
  for (const [type, names] of Object.entries(unlinked) as Array<['PER' | 'ORG', Unlinked[]]>) {
    if (names.length === 0) continue;
    const kind = type === 'PER' ? 'people' : 'organizations';
    const candidates = await candidatesOf(ctx, kind, names);
    names.forEach(({ entity }, i) => {
      const best = (candidates.get(i) ?? []).find((candidate) =>
        candidate.via === 'similar' ? sameName(entity, candidate.names) : fitsContact(entity, candidate.names),
      );
      if (best) {
        entity.record = { kind, id: best.id };
        entity.linkedBy = best.via;
      }
    });
  }
  linkShortForms(entities);
  return entities;
}

/** A record's names as linking compares them: an organization's legal and trading names; a person's parts. */
export type RecordNames = { names: string[] } | { given: string | null; family: string | null; nickname: string | null; legal: string | null };

interface Candidate {
  id: string;
  via: 'email' | 'url' | 'similar';
  names: RecordNames;
}

/**
 * For each name, in one statement, the records it may name, best first: those holding an e-mail
 * of the name's sentences (the most recently updated first), those holding one of its URL keys
 * (the longest key shared first: a profile page says more than a site), those whose name is at
 * least LINK_SIMILARITY alike (the most alike first).
 */
async function candidatesOf(ctx: EngineContext, kind: 'people' | 'organizations', names: Unlinked[]): Promise<Map<number, Candidate[]>> {
  const table = sql.identifier(kind);
  const fields = kind === 'organizations'
    ? sql`jsonb_build_object('names', array_remove(ARRAY[r.name_inc, r.name_dba], NULL))`
    : sql`jsonb_build_object('given', r.name_given, 'family', r.name_family, 'nickname', r.name_nickname, 'legal', r.name_legal)`;
  // A person's name without titles ("Dr", "Ms"): the record's search name holds none.
  const nameOf = (entity: LinkedEntity) => (entity.type === 'PER' ? normalizePersonName(entity.text) || entity.text : entity.text);
  const rows = JSON.stringify(names.map((name, i) => ({ i, name: nameOf(name.entity), emails: name.emails, urls: name.urls })));
  const found = await query<{ i: number; id: string; via: Candidate['via']; names: RecordNames }>(ctx.tx, sql`
    SELECT n.i, c.id, c.via, c.names
    FROM jsonb_to_recordset(${rows}::jsonb) AS n(i integer, name text, emails text[], urls text[])
    CROSS JOIN LATERAL (SELECT search_text(n.name) AS key) k
    CROSS JOIN LATERAL (
      (SELECT r.id, 1 AS rank, 'email' AS via, ${fields} AS names, 0::real AS score FROM ${table} r
        WHERE cardinality(n.emails) > 0 AND r.status = 'active' AND r.emails && n.emails
        ORDER BY r.updated_at DESC LIMIT ${CANDIDATES_PER_EVIDENCE})
      UNION ALL
      (SELECT r.id, 2, 'url', ${fields}, (SELECT max(length(u))::real FROM unnest(r.url_keys) u WHERE u = ANY (n.urls)) AS score FROM ${table} r
        WHERE cardinality(n.urls) > 0 AND r.status = 'active' AND r.url_keys && n.urls
        ORDER BY score DESC, r.updated_at DESC LIMIT ${CANDIDATES_PER_EVIDENCE})
      UNION ALL
      (SELECT r.id, 3, 'similar', ${fields}, similarity(r.search_name, k.key) AS score FROM ${table} r
        WHERE r.status = 'active' AND r.search_name % k.key AND similarity(r.search_name, k.key) >= ${LINK_SIMILARITY}
        ORDER BY score DESC LIMIT ${CANDIDATES_PER_EVIDENCE})
    ) c
    ORDER BY n.i, c.rank, c.score DESC`);
  const byName = new Map<number, Candidate[]>();
  for (const row of found) byName.set(row.i, [...(byName.get(row.i) ?? []), { id: row.id, via: row.via, names: row.names }]);
  return byName;
}

const foldedWords = (name: string | null | undefined) => (name ? foldName(name).split(' ').filter(Boolean) : []);
/** Words that do not tell one organization from another ("Halden Energy Group" is Halden Energy). */
const GENERIC_ORGANIZATION_WORDS = new Set(['group', 'holding', 'holdings', 'company', 'companies', 'international', 'intl', 'global', 'worldwide', 'and', 'of', 'the', 'co']);
/** First words many unrelated organizations share: the second word must match too. */
const SHARED_FIRST_WORDS = new Set([
  'new', 'first', 'national', 'united', 'general', 'royal', 'global', 'international', 'north', 'south', 'east', 'west', 'central',
  'northern', 'southern', 'eastern', 'western', 'american', 'european', 'british', 'asian', 'african', 'pacific', 'atlantic', 'nordic', 'st', 'saint',
]);

/** An organization's name as words: without "the" and legal forms, as name keys are ("Vesterhavn Shipping A/S" → vesterhavn shipping). */
const organizationWords = (name: string) => normalizeName(normalizeOrganizationName(name)).split(' ').filter(Boolean);

interface PersonParts {
  given: string[];
  family: string[];
  nickname: string[];
}

function personParts(names: RecordNames): PersonParts[] {
  if ('names' in names) return [];
  const parts: PersonParts[] = [];
  if (names.family) parts.push({ given: foldedWords(names.given), family: foldedWords(names.family), nickname: foldedWords(names.nickname) });
  // A legal name is read as given names and a family name.
  const legal = foldedWords(names.legal);
  if (legal.length >= 2) parts.push({ given: legal.slice(0, -1), family: legal.slice(-1), nickname: [] });
  return parts;
}

/** One edit apart (a letter added, dropped or changed): "Whitcomb" and "Whitcombe". */
function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** A written first name fits a record's: the same, its nickname, or its initial. */
function givenFits(written: string, person: PersonParts): boolean {
  const given = person.given[0];
  if (!given) return false;
  return written === given || person.nickname.includes(written) || (written.length === 1 && given.startsWith(written));
}

/**
 * With no shared e-mail or URL, a name links to a record only when it is that record's name
 * written otherwise — never a near-miss ("Brightline Analytica" is not Brightline Analytics,
 * "Christophe Vandenberghe" not Christopher, "Lotte Dekkers" not Lotte Dekker).
 * Organizations: the same words but for generic ones (group, holdings, international…) and
 * spacing ("Nord Ferry" / "NordFerry"). People: the record's whole family name at the end,
 * after a first name that fits (the same, the nickname or the initial), middle names and
 * initials allowed ("Samuel J. Okonkwo" is Samuel Okonkwo; "Gustavo Lima" is not Gustavo
 * Pereira Lima, "Katarzyna Nowak-Lis" not Katarzyna Nowak).
 */
export function sameName(entity: Pick<LinkedEntity, 'type' | 'text'>, names: RecordNames): boolean {
  if (entity.type === 'ORG') {
    if (!('names' in names)) return false;
    const written = organizationWords(entity.text);
    const distinct = (list: string[]) => list.filter((word) => !GENERIC_ORGANIZATION_WORDS.has(word)).sort().join(' ');
    return names.names.some((name) => {
      const recorded = organizationWords(name);
      const key = distinct(written);
      return (key !== '' && key === distinct(recorded)) || written.join('') === recorded.join('');
    });
  }
  const written = foldedWords(normalizePersonName(entity.text));
  return personParts(names).some((person) => {
    const family = person.family;
    if (family.length === 0 || written.length <= family.length) return false;
    const tail = written.slice(-family.length);
    return tail.join(' ') === family.join(' ') && givenFits(written[0]!, person);
  });
}

/**
 * With a shared e-mail or URL, the address says which record the sentence is about; the name
 * must still be that record's ("Jane Doe, jane@acme.example" does not make John Roe of the same
 * sentence Jane Doe; the URL of Ferrowind's site does not make a partner named beside it
 * Ferrowind). Organizations: the same first word (two for a first word many share: "North",
 * "National"…), or the record's initials ("QRI"). People: the family name (whole, or one letter
 * off: "Whitcomb"), and a first name that fits or none; a single word may also be the first name
 * or the nickname ("Priya, priya.v@…").
 */
export function fitsContact(entity: Pick<LinkedEntity, 'type' | 'text'>, names: RecordNames): boolean {
  if (entity.type === 'ORG') {
    if (!('names' in names)) return false;
    const written = organizationWords(entity.text);
    if (written.length === 0) return false;
    const acronym = /^\p{Lu}{2,6}$/u.test(entity.text.trim()) ? written[0] : null;
    return names.names.some((name) => {
      const recorded = organizationWords(name);
      if (recorded.length === 0) return false;
      if (acronym && acronym === recorded.filter((word) => !GENERIC_ORGANIZATION_WORDS.has(word) || word === 'international').map((word) => word[0]).join('')) return true;
      const span = SHARED_FIRST_WORDS.has(recorded[0]!) ? 2 : 1;
      return written.length >= span && written.slice(0, span).join(' ') === recorded.slice(0, span).join(' ');
    });
  }
  const written = foldedWords(normalizePersonName(entity.text));
  if (written.length === 0) return false;
  return personParts(names).some((person) => {
    if (person.family.length === 0) return false;
    const last = written.at(-1)!;
    const familyLast = person.family.at(-1)!;
    if (written.length === 1) return last === familyLast || givenFits(last, person) || (person.given.length > 0 && last === person.given[0]);
    const familyFits = person.family.every((word) => written.includes(word)) || person.family.includes(last) || (last.length >= 5 && oneEditApart(last, familyLast));
    return familyFits && givenFits(written[0]!, person);
  });
}

/**
 * A short form of a name linked in the same item names the same record: one word that is the
 * first or last word of exactly one person named in full in the item ("Ingrid", "Ms Solberg"
 * after "Ingrid Solberg"), the first words of exactly one organization ("Corvane" after "Corvane
 * Logistics") — when that one is linked. Two full names that could own it (Anna Wieczorek and
 * Anna Nowak) leave it alone.
 */
function linkShortForms(entities: LinkedEntity[]): void {
  for (const type of ['PER', 'ORG'] as const) {
    const named = entities
      .filter((entity) => entity.type === type)
      .map((entity) => ({ entity, words: type === 'PER' ? foldedWords(normalizePersonName(entity.text)) : organizationWords(entity.text) }));
    for (const { entity, words: written } of named) {
      if (entity.record || written.length === 0) continue;
      if (type === 'PER' ? written.length !== 1 : written.length === 1 && SHARED_FIRST_WORDS.has(written[0]!)) continue;
      const owners = new Map<string, LinkedEntity>();
      for (const other of named) {
        if (other.words.length <= written.length) continue;
        const fits = type === 'PER'
          ? other.words[0] === written[0] || other.words.at(-1) === written[0]
          : other.words.slice(0, written.length).join(' ') === written.join(' ');
        if (fits) owners.set(other.entity.record?.id ?? `unlinked:${other.entity.normalized}`, other.entity);
      }
      const [owner, ...others] = [...owners.values()];
      if (!owner?.record || others.length > 0) continue;
      entity.record = owner.record;
      entity.linkedBy = 'short';
    }
  }
}

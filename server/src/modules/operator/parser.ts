/**
 * The Operator's built-in parser: a question in plain English → a structured query, with no
 * network and no model (docs/operator.md lists what it understands). It reads the question
 * left to right; at each place it tries its phrasings (a date, a place, "tagged …", "without
 * an email", "newest first", "top 10" …) and keeps the words none of them used, which the
 * answer reports as not understood. Names go through a `Resolver` (the caller's visible
 * records in the app, a fake in tests); relative dates count from an injected `today`.
 */
import { atLeast } from '../../auth/access.ts';
import {
  OPERATOR_ENTITIES, type AccessLevel, type ConditionOp, type OperatorEntity, type QueryCondition, type QueryOrdering, type StructuredQuery,
} from '../../contracts.ts';
import { MAX_LIMIT, type Lookup } from '../../resources/list-query.ts';
import { CURRENCIES } from '../ledger/investments.resource.ts';
import { readDateComparison, dateLookups, ledgerDateLookups, ORDINALS, type DateComparison } from './dates.ts';
import type { NamedKind, Resolver } from './resolver.ts';
import { DEFAULT_OPERATOR_LIMIT, operatorLookups, operatorResource, paramOf } from './structured-query.ts';
import { datePeriod, MEMBERSHIP_FIELD } from '../../resources/list-query.ts';
import {
  countryCode, countryOf, CURRENCY_NAMES as KNOWN_CURRENCY_NAMES, currencyNamesOf, digitsForNumberWords, CURRENCY_SIGN_PATTERN, CURRENCY_SIGNS, editDistance, isPeopleDemonym, NATIONALITY_PATTERN, OWNERSHIP_SYNONYMS, singulars, subjectWordFor,
} from './words.ts';
import {
  ENTITY_WORDS, FIELD_NOUNS, FILLER, LIBRARY_TYPE_PATTERN, LIST_KIND_WORDS, libraryTypeOf, STOP_WORDS, VISIBILITY_PATTERN, VISIBILITY_WORDS,
} from './vocabulary.ts';

export interface ParseOptions {
  resolver: Resolver;
  /** The day relative dates count from (UTC). */
  today: Date;
  /** The caller's audience: "hidden" is understood only by those who may read hidden records. */
  access: AccessLevel;
}

export interface ParseResult {
  /** Null when the question names no entity type. */
  query: StructuredQuery | null;
  /** Words and phrases of the question that were not used. */
  notUnderstood: string[];
  /** Why some of them were not used (e.g. no keyword of that name). */
  notes: string[];
  /** Words read as another (a misspelt subject, a value in the tenant's spelling). */
  corrections: Array<{ written: string; read: string }>;
}

/** One value of a list as written: its text (original spelling) and where it is. */
interface Written {
  text: string;
  start: number;
  end: number;
}

const ENTITY_RE = new RegExp(
  OPERATOR_ENTITIES.map((entity) => `(?<${entity}>\\b(?:${ENTITY_WORDS[entity]})\\b)`).join('|') + `|(?<type>\\b(?:${LIBRARY_TYPE_PATTERN})\\b)`,
  'g',
);

const LIST_KIND_PATTERN = LIST_KIND_WORDS.map(([words]) => words).join('|');
/** Lists of a kind as the subject: "people lists", "which organization lists", "lists of deals". */
const LISTS_SUBJECT_RE = new RegExp(String.raw`\b(?:${LIST_KIND_PATTERN})\s+(?:lists|collections|watchlists|shortlists)\b|\b(?:lists|collections)\s+(?:of|for|with)\s+(?:${LIST_KIND_PATTERN})\b`);

/** The entity type a question is about: the first entity word, else the first library type word. */
export function detectEntity(lower: string): OperatorEntity | null {
  if (LISTS_SUBJECT_RE.test(lower)) return 'lists';
  let byType: OperatorEntity | null = null;
  for (const match of lower.matchAll(ENTITY_RE)) {
    const entity = OPERATOR_ENTITIES.find((one) => match.groups?.[one] !== undefined);
    if (entity) return entity;
    byType ??= 'library';
  }
  return byType;
}

/** Lower case with every character kept at its place, so positions in it are positions in the question. */
const lowerInPlace = (text: string) => [...text].map((char) => (char.toLowerCase().length === char.length ? char.toLowerCase() : char)).join('');

const WORD_RE = /[^\s,;:?!()"“”]+/y;
const QUOTED_RE = /["“]([^"“”]{1,200})["”]/y;
const LIST_JOIN_RE = /\s*(?:,\s*(?:(?:or|and)\s+)?|\s+or\s+|\s*\/\s*|\s*&\s*(?=\S))/y;

/** Currencies in words: the usual names, then every other currency's English name. */
const CURRENCY_NAMES: Array<[string, string]> = [...KNOWN_CURRENCY_NAMES, ...currencyNamesOf(CURRENCIES)];
const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, mn: 1e6, mio: 1e6, million: 1e6, millions: 1e6, b: 1e9, bn: 1e9, billion: 1e9, billions: 1e9, t: 1e12, tn: 1e12, trillion: 1e12 };
const CURRENCY_WORDS: Array<[RegExp, string]> = [[/^bucks$/, 'USD'], ...CURRENCY_NAMES.map(([names, code]): [RegExp, string] => [new RegExp(`^(?:${names})$`), code])];
const CURRENCY_NAME_PATTERN = CURRENCY_NAMES.map(([names]) => `(?:${names})`).join('|');
/** An amount with a sign before it ("R$1bn", "$5M"): money, so a ledger entry's. */
const MONEY_SIGN = String.raw`(?:${CURRENCY_SIGN_PATTERN})\s*\d`;
/** ISO 4217 codes written before or after an amount, leaving out those that are English words ("all", "top", "try"). */
const CODES = CURRENCIES.map((code) => code.toLowerCase()).filter((code) => !['all', 'top', 'try', 'cup', 'mop'].includes(code)).join('|');
const MONEY = String.raw`(${CURRENCY_SIGN_PATTERN}|(?:${CODES})\s*)?\s*(\d+(?:[.,]\d+)*)\s*(k|thousand|mm|mn|mio|millions?|m|bn|billions?|b|tn|trillion|t)?(?![\w])(?:\s*(bucks|${CURRENCY_NAME_PATTERN}|(?:${CODES}))(?![\w]))?`;

/** Date verbs per entity → the date field they name ("founded" → founding_date). */
const DATE_VERBS: Record<OperatorEntity, Array<[RegExp, string]>> = {
  organizations: [[/^(?:founded|established|incorporated|started|formed|launched)$/, 'founding_date']],
  people: [[/^(?:born)$/, 'birth_date'], [/^(?:met|seen|encountered)$/, 'met_event_date']],
  ledger_entries: [[/^(?:dated|recorded|booked|reported)$/, 'year']],
  library: [[/^(?:published|released|dated|issued|written|out|posted|aired|came\s+out|come\s+out|appeared)$/, 'publish_date']],
  lists: [],
};
/** The date a bare date ("from 2023", "last quarter") is about, when the entity has one. */
const DEFAULT_DATE: Record<OperatorEntity, string | null> = { organizations: 'founding_date', people: null, ledger_entries: 'year', library: 'publish_date', lists: null };

/** The field "newest" and "oldest" order by. */
const NEWEST: Record<OperatorEntity, string[]> = { organizations: ['founding_date'], people: ['created_at'], ledger_entries: ['year', 'quarter'], library: ['publish_date'], lists: ['created_at'] };

/** The city field that says an entity's country when it has no country field (organizations: the headquarters). */
const COUNTRY_CITY: Partial<Record<OperatorEntity, string>> = { organizations: 'hq_city' };

/** Where "in X" (and "from X") can point, per entity, in the order tried. */
type PlaceTarget = { category: string; asTyped?: boolean } | { relation: string; kind: NamedKind } | { keyword: true };
const PLACES: Record<OperatorEntity, PlaceTarget[]> = {
  organizations: [{ category: 'hq_city' }, { keyword: true }, { category: 'hq_city', asTyped: true }],
  people: [{ category: 'current_address_city' }, { category: 'passport_country' }, { keyword: true }, { category: 'current_address_city', asTyped: true }],
  ledger_entries: [{ relation: 'geos', kind: 'geos' }, { keyword: true }],
  library: [{ category: 'publisher' }, { keyword: true }],
  lists: [],
};
/** "for X", "by X", "about X" / "mentioning X": the relations tried, in order. */
const FOR_TARGETS: Record<OperatorEntity, Array<{ relation: string; kind: NamedKind }>> = {
  organizations: [],
  people: [],
  ledger_entries: [{ relation: 'organizations', kind: 'organizations' }, { relation: 'people', kind: 'people' }, { relation: 'geos', kind: 'geos' }],
  library: [{ relation: 'assets', kind: 'organizations' }],
  lists: [],
};
const BY_TARGETS: Record<OperatorEntity, Array<{ relation: string; kind: NamedKind }>> = {
  organizations: [],
  people: [],
  ledger_entries: [{ relation: 'people', kind: 'people' }, { relation: 'organizations', kind: 'organizations' }],
  library: [{ relation: 'authors', kind: 'people' }],
  lists: [],
};

/**
 * "linked to X", "connected with X", "associated with X": the engine's link filters (resource.ts
 * `links`) through the records both are on, tried in order by the kind X names.
 */
const LINKED_TARGETS: Record<OperatorEntity, Array<{ relation: string; kind: NamedKind }>> = {
  organizations: [{ relation: 'linked_people', kind: 'people' }],
  people: [{ relation: 'linked_organizations', kind: 'organizations' }],
  ledger_entries: [{ relation: 'organizations', kind: 'organizations' }, { relation: 'people', kind: 'people' }],
  library: [{ relation: 'assets', kind: 'organizations' }, { relation: 'authors', kind: 'people' }],
  lists: [],
};
/** "Northwind invested in", "invested in by Jane Doe": the investors (link filter `investors`), an organization or a person. */
const INVESTOR_TARGETS: Array<{ relation: string; kind: NamedKind }> = [{ relation: 'investors', kind: 'organizations' }, { relation: 'investors', kind: 'people' }];
/** "that invested in Acme": stakes in deals of an organization (link filter `invested_in`). */
const INVESTED_IN_TARGETS: Array<{ relation: string; kind: NamedKind }> = [{ relation: 'invested_in', kind: 'organizations' }];

/** How the records a name may point at are called in notes ("No person named …"). */
const RECORD_NOUNS: Record<NamedKind, string> = { keyword: 'keyword', organizations: 'organization', people: 'person', geos: 'country or region' };

/** The entity each kind of list holds. */
const LIST_KINDS: Record<string, OperatorEntity> = { OrganizationsList: 'organizations', PeopleList: 'people', LedgerList: 'ledger_entries', LibraryList: 'library' };
const KIND_OF_ENTITY = Object.fromEntries(Object.entries(LIST_KINDS).map(([kind, entity]) => [entity, kind])) as Partial<Record<OperatorEntity, string>>;
/** The id no list has: membership of a list the caller cannot see, which nothing answers. */
export const NO_LIST = '00000000-0000-0000-0000-000000000000';
const LIST_WORD_RE = /["”]?\s+lists?\b/gi;

/**
 * A list named before a word "list" ("members of the Key Investors list"): the longest run of
 * words ending there that names a list the caller may see, of any kind.
 */
async function namedListIn(question: string, resolver: Resolver) {
  for (const match of question.matchAll(LIST_WORD_RE)) {
    const words = question.slice(0, match.index).split(/[,;:?!()]/).pop()!.replace(/["“]/g, ' ').trim().split(/\s+/).filter(Boolean);
    for (let from = 0; from < words.length && from < 8; from++) {
      const name = words.slice(from).join(' ');
      if (/^(?:the|our|my|a|an|in|on|of|from)$/i.test(words[from]!)) continue;
      const list = await resolver.list(name, Object.keys(LIST_KINDS));
      if (list) return list;
    }
  }
  return null;
}

/**
 * A list named in capitals without the word "list" ("who is in Key Investors?", "Founders to Meet
 * members"): each run of capitalized words (with "of", "to", "the", "and", "for" or "&" inside)
 * and the runs left after dropping its first words, as the name of a list the caller may see.
 */
async function namedListByCapitals(question: string, resolver: Resolver) {
  const words = question.split(/[\s,;:?!()"“”]+/).filter(Boolean);
  const runs: string[][] = [];
  const run: string[] = [];
  for (const [index, word] of words.entries()) {
    const capital = /^[\p{Lu}\p{N}]/u.test(word);
    const joiner = /^(?:of|to|the|and|for|&)$/i.test(word) && run.length > 0 && /^[\p{Lu}\p{N}]/u.test(words[index + 1] ?? '');
    if (capital || joiner) run.push(word);
    else if (run.length > 0) runs.push(run.splice(0));
  }
  if (run.length > 0) runs.push(run);
  for (const found of runs.slice(0, 4)) {
    for (let from = 0; from < found.length && from < 3; from++) {
      const list = await resolver.list(found.slice(from).join(' '), Object.keys(LIST_KINDS));
      if (list) return list;
    }
  }
  return null;
}

/**
 * The subject of a question that names none by an entity word, from words only one kind of
 * record has: an ownership type ("non-profits", "cooperatives in Berlin") is an organization's;
 * a people's demonym ("Brazilians living in São Paulo") a person's; a currency or an amount
 * of money ("entries in Brazilian reais above R$1bn", "euro deals") a ledger entry's.
 */
export function entityOfWords(lower: string): OperatorEntity | null {
  const words = lower.split(/[\s,;:?!()"“”]+/).filter(Boolean);
  const phrases = [...words, ...words.slice(1).map((word, index) => `${words[index]} ${word}`)];
  const ownership = (phrase: string) => OWNERSHIP_SYNONYMS.some(([re]) => re.test(phrase) || singulars(phrase).some((one) => re.test(one)));
  // "public", "state" or "listed" alone may be a visibility or anything's; "private", a plural or a form of company is an ownership type.
  if (phrases.some((phrase) => !/^(?:public|publicly|state|government|listed|quoted|sovereign)$/.test(phrase) && ownership(phrase))) return 'organizations';
  if (words.some(isPeopleDemonym)) return 'people';
  if (new RegExp(`(?:^|\\s)(?:${CURRENCY_NAME_PATTERN})(?=$|[\\s,;:?!])`).test(lower) || new RegExp(MONEY_SIGN).test(lower)) return 'ledger_entries';
  return null;
}

export async function parseQuestion(asked: string, options: ParseOptions): Promise<ParseResult> {
  // Typographic apostrophes read as plain ones ("don’t"); the same length, so places are kept.
  let question = digitsForNumberWords(asked.replace(/[’‘]/g, "'"));
  const corrections: ParseResult['corrections'] = [];
  // A misspelt subject ("peple", "orgnaisations") is read as the word it is closest to, and said.
  question = question.replace(/[\p{L}]+/gu, (word, offset: number) => {
    if (offset > 0 && /^\p{Lu}/u.test(word)) return word;
    // A word the parser reads itself ("lives", "list") is no misspelt subject.
    if (STOP_WORDS.has(word.toLowerCase()) || FILLER.has(word.toLowerCase())) return word;
    const read = subjectWordFor(word);
    if (!read) return word;
    corrections.push({ written: word, read });
    return read;
  });
  const lower = lowerInPlace(question);
  let entity = detectEntity(lower);
  if (!entity) {
    // "members of the Key Investors list": the list says what its members are.
    const list = await namedListIn(question, options.resolver);
    if (list) entity = LIST_KINDS[list.kind]!;
  }
  entity ??= entityOfWords(lower) ?? (await entityOfTenantValues(lower, options.resolver));
  if (!entity) {
    // "who is in Key Investors?": a list named without the word "list".
    const list = await namedListByCapitals(question, options.resolver);
    if (list) entity = LIST_KINDS[list.kind]!;
  }
  if (!entity) {
    // "whats on watchlist europe": a list named in lower case, without the word "list".
    const list = await namedListByWords(lower, options.resolver);
    if (list) entity = LIST_KINDS[list.kind]!;
  }
  // "everything Emily Carter wrote", "what has Jane Doe written?": what people write is in the library.
  if (!entity && /\b(?:wrote|written|authored|penned)\b/.test(lower)) entity = 'library';
  // "what do we have from NZZ?": a publisher the tenant's library holds.
  if (!entity && (await publisherNamed(question, options.resolver))) entity = 'library';
  // "internal targets list": a list nobody may show the caller is asked among lists (none answers).
  if (!entity && /\blists?\b/.test(lower)) entity = 'lists';
  // "who is linked to Acme?", "who invested in PayFlux?": only people are asked about as who.
  if (!entity && /(?:^|[\s,;:])(?:who|whom)\b/.test(lower)) entity = 'people';
  // "investments by Initech" are stakes in deals; "what did Northwind invest in?" asks for the organizations of those deals.
  if (!entity && /\binvestments?\b/.test(lower)) entity = 'ledger_entries';
  if (!entity && /\binvest(?:ed|s|ing)?\b/.test(lower)) entity = 'organizations';
  if (!entity) return { query: null, notUnderstood: [], notes: [], corrections };
  const result = await new QuestionParser(question, lower, entity, options).parse();
  return { ...result, corrections: [...corrections, ...result.corrections] };
}

/** Runs of one to four words (not starting or ending with a filler or stop word) that name a list the caller may see. */
async function namedListByWords(lower: string, resolver: Resolver) {
  const words = lower.split(/[\s,;:?!()"“”]+/).filter(Boolean);
  const plain = (word: string) => !FILLER.has(word) && !STOP_WORDS.has(word);
  let asked = 0;
  for (let length = Math.min(4, words.length); length >= 1; length--) {
    for (let from = 0; from + length <= words.length; from++) {
      const run = words.slice(from, from + length);
      if (!plain(run[0]!) || !plain(run[run.length - 1]!) || run.join(' ').length < 4) continue;
      if (++asked > 40) return null;
      const list = await resolver.list(run.join(' '), Object.keys(LIST_KINDS));
      if (list) return list;
    }
  }
  return null;
}

/** A publisher of library entries named after "from" or "by" ("what do we have from NZZ?"). */
async function publisherNamed(question: string, resolver: Resolver): Promise<boolean> {
  for (const match of question.matchAll(/\b(?:from|by)\s+(?:the\s+)?([^,;:?!()"“”]{2,60})/gi)) {
    const words = match[1]!.trim().split(/\s+/);
    for (let length = Math.min(4, words.length); length >= 1; length--) {
      if (await resolver.categoryValue('library', 'publisher', words.slice(0, length).join(' '))) return true;
    }
  }
  return false;
}

/**
 * The subject from the tenant's own values of a field only one kind of record has: a word (or
 * its singular) that is a stored ownership type ("private ones in London", "mutuals").
 */
async function entityOfTenantValues(lower: string, resolver: Resolver): Promise<OperatorEntity | null> {
  const words = lower.split(/[\s,;:?!()"“”]+/).filter((word) => word.length > 2 && !FILLER.has(word) && !STOP_WORDS.has(word) && !/^\d/.test(word));
  for (const word of words.slice(0, 12)) {
    for (const spelling of [word, ...singulars(word)]) {
      if (await resolver.categoryValue('organizations', 'ownership_type', spelling)) return 'organizations';
    }
  }
  return null;
}

class QuestionParser {
  private pos = 0;
  private readonly conditions: QueryCondition[] = [];
  private readonly searchParts: string[] = [];
  private ordering: QueryOrdering[] = [];
  private limit: number | null = null;
  private readonly notUnderstood: string[] = [];
  private readonly notes: string[] = [];
  private readonly corrections: ParseResult['corrections'] = [];
  /** Whether the subject was named in the singular ("the oldest organization"): a superlative then asks for one. */
  private singular = false;
  /** A date verb whose date comes later ("founded in Berlin in 2015"): the field the next bare date is about, and the verb's words. */
  private pendingDate: { field: string; text: string } | null = null;
  /** The word a limit came with ("the first 5", "the last 10"): which end of the records added they are. */
  private limitFrom: 'first' | 'last' | null = null;
  /** Whether an ordering came from a superlative ("oldest", "largest"), which ranks only records with a value. */
  private superlative = false;
  /** The word "newest" / "oldest" (and their kin) an ordering came from, which "we added" turns to when records were added. */
  private newestWord: 'newest' | 'oldest' | null = null;
  /** Words not used yet, gathered into a phrase until something ends it. */
  private unknown: Written | null = null;
  /** A "not" / "excluding" waiting for the phrase it negates, and where it was written. */
  private negation: Written | null = null;
  private readonly lookups: Record<string, Lookup[]>;
  /**
   * What the last phrase with values did with them, for a value that follows on its own after a
   * "not" ("tagged AI but not crypto", "in Berlin but not Paris").
   */
  private lastValues: ((values: Written[], negated: boolean, text: string) => Promise<void>) | null = null;
  private readonly rules: Array<() => Promise<boolean> | boolean>;

  constructor(
    private readonly question: string,
    private readonly lower: string,
    private readonly entity: OperatorEntity,
    private readonly options: ParseOptions,
  ) {
    this.lookups = operatorLookups(operatorResource(entity), options.access);
    this.rules = [
      () => this.entityWords(),
      () => this.listKinds(),
      () => this.quoted(),
      () => this.limitWords(),
      () => this.sorting(),
      () => this.negationWord(),
      () => this.listMembership(),
      () => this.emptiness(),
      () => this.addedOrder(),
      () => this.fieldIs(),
      () => this.tagged(),
      () => this.dates(),
      () => this.quarterOfAnyYear(),
      () => this.amounts(),
      () => this.currencyWords(),
      () => this.nationality(),
      () => this.visibilityWords(),
      () => this.libraryTypes(),
      () => this.peopleWords(),
      () => this.favourites(),
      () => this.investing(),
      () => this.linkedBeforeVerb(),
      () => this.authoredBeforeVerb(),
      () => this.possessive(),
      () => this.relations(),
      () => this.places(),
      () => this.searchWords(),
      () => this.listByName(),
    ];
  }

  async parse(): Promise<ParseResult> {
    while (this.skipSpace() < this.lower.length) {
      if (/[,;:?!().]/.test(this.lower[this.pos]!)) {
        this.pos++;
        await this.endPhrase();
        continue;
      }
      if (this.unknown) {
        // Unused words before a phrasing are a phrase of their own, read before the phrasing (a
        // pending "not" is theirs: "but not crypto founded after 2015"). A dry run tells
        // whether a phrasing starts here; its effects are undone.
        const state = this.saved();
        const starts = await this.applyRule();
        this.restore(state);
        if (starts) await this.endPhrase();
      }
      if (await this.applyRule()) continue;
      const word = this.readWord();
      if (!word) {
        // A character no word holds (a quote left open): skipped, and it ends a phrase.
        this.pos++;
        await this.endPhrase();
        continue;
      }
      if (FILLER.has(word.text.toLowerCase()) && !this.unknown) continue;
      if (FILLER.has(word.text.toLowerCase())) {
        await this.endPhrase();
        continue;
      }
      this.unknown = this.unknown ? { ...this.unknown, end: word.end, text: this.question.slice(this.unknown.start, word.end) } : word;
    }
    await this.endPhrase();
    if (this.negation) this.notUnderstood.push(this.negation.text);
    // "born in Paris" with no date after: a birthplace, which no field holds.
    if (this.pendingDate) this.notUnderstood.push(this.pendingDate.text);
    // "the oldest organization": ranked by a value, so only records that have one; one when the subject is singular.
    const ranked = this.ordering[0]?.field;
    if (this.superlative && ranked && !this.conditions.some((condition) => condition.field === ranked)) this.add(ranked, 'not_empty', [], [], '');
    if (this.superlative && this.singular && this.limit === null) this.limit = 1;

    const query: StructuredQuery = {
      entity: this.entity,
      search: this.searchParts.length > 0 ? this.searchParts.join(' ').slice(0, 200) : null,
      conditions: this.conditions,
      ordering: this.ordering,
      limit: this.limit ?? DEFAULT_OPERATOR_LIMIT,
    };
    return { query, notUnderstood: [...new Set(this.notUnderstood)], notes: this.notes, corrections: this.corrections };
  }

  /** Tries the phrasings at the current place; the first that reads something wins. */
  private async applyRule(): Promise<boolean> {
    const before = this.skipSpace();
    for (const rule of this.rules) {
      if (await rule()) return true;
      this.pos = before;
    }
    return false;
  }

  /** Everything a phrasing may change, to undo a dry run. */
  private saved() {
    return {
      pos: this.pos, conditions: structuredClone(this.conditions), searchParts: [...this.searchParts], ordering: this.ordering,
      limit: this.limit, notUnderstood: [...this.notUnderstood], notes: [...this.notes], negation: this.negation, lastValues: this.lastValues,
      corrections: [...this.corrections], singular: this.singular, superlative: this.superlative, limitFrom: this.limitFrom, newestWord: this.newestWord,
      pendingDate: this.pendingDate,
    };
  }

  private restore(state: ReturnType<QuestionParser['saved']>): void {
    this.pos = state.pos;
    this.conditions.splice(0, this.conditions.length, ...state.conditions);
    this.searchParts.splice(0, this.searchParts.length, ...state.searchParts);
    this.ordering = state.ordering;
    this.limit = state.limit;
    this.notUnderstood.splice(0, this.notUnderstood.length, ...state.notUnderstood);
    this.notes.splice(0, this.notes.length, ...state.notes);
    this.negation = state.negation;
    this.lastValues = state.lastValues;
    this.corrections.splice(0, this.corrections.length, ...state.corrections);
    this.singular = state.singular;
    this.superlative = state.superlative;
    this.newestWord = state.newestWord;
    this.limitFrom = state.limitFrom;
    this.pendingDate = state.pendingDate;
  }

  // Reading

  private skipSpace(): number {
    while (this.pos < this.lower.length && /\s/.test(this.lower[this.pos]!)) this.pos++;
    return this.pos;
  }

  /** A sticky match at the current place (after spaces) that ends at a word boundary; moves past it. */
  private at(re: RegExp): RegExpExecArray | null {
    this.skipSpace();
    const sticky = new RegExp(re.source, 'y');
    sticky.lastIndex = this.pos;
    const match = sticky.exec(this.lower);
    if (!match) return null;
    const end = this.pos + match[0].length;
    if (/[\p{L}\p{N}]/u.test(this.lower[end] ?? '') && /[\p{L}\p{N}]$/u.test(match[0])) return null;
    this.pos = end;
    return match;
  }

  private readWord(): Written | null {
    this.skipSpace();
    WORD_RE.lastIndex = this.pos;
    const match = WORD_RE.exec(this.question);
    if (!match) return null;
    // A sentence's full stop is not part of its last word (but "Inc." keeps its own).
    const text = match[0].length > 1 && match[0].endsWith('.') && this.pos + match[0].length === this.question.trimEnd().length ? match[0].slice(0, -1) : match[0];
    const word = { text, start: this.pos, end: this.pos + text.length };
    this.pos = word.end;
    return word;
  }

  private peekWord(): string | null {
    const saved = this.pos;
    const word = this.readWord();
    this.pos = saved;
    return word?.text.toLowerCase() ?? null;
  }

  /**
   * A name or value: words up to a stop word or punctuation, or a quoted text. Entity words end
   * it too ("fintech companies"), unless the value may be one ("whose type is report").
   */
  private readValue(entityWordsEnd = true): Written | null {
    this.skipSpace();
    QUOTED_RE.lastIndex = this.pos;
    const quoted = QUOTED_RE.exec(this.question);
    if (quoted) {
      const start = this.pos;
      this.pos += quoted[0].length;
      return { text: quoted[1]!.trim(), start, end: this.pos };
    }
    let value: Written | null = null;
    // "the EU", "the Financial Times": an article is not part of the name looked up.
    this.at(/the\s+(?=\S)/);
    for (;;) {
      const saved = this.pos;
      const next = this.peekWord();
      if (next === null || next === 'or' || STOP_WORDS.has(next) || (entityWordsEnd && this.isEntityWord())) {
        this.pos = saved;
        break;
      }
      const word = this.readWord()!;
      value = value ? { text: this.question.slice(value.start, word.end), start: value.start, end: word.end } : word;
    }
    return value;
  }

  private isEntityWordAt(at: number): boolean {
    const saved = this.pos;
    this.pos = at;
    const found = this.isEntityWord();
    this.pos = saved;
    return found;
  }

  private isEntityWord(): boolean {
    const saved = this.pos;
    const found = this.at(new RegExp(`(?:${Object.values(ENTITY_WORDS).join('|')}|${LIBRARY_TYPE_PATTERN})`)) !== null;
    this.pos = saved;
    return found;
  }

  /** Values joined by commas, "or" and slashes ("Berlin or Paris", "fintech, crypto or AI"). */
  private readValues(entityWordsEnd = true): Written[] {
    const values: Written[] = [];
    for (;;) {
      const value = this.readValue(entityWordsEnd);
      if (!value) break;
      values.push(value);
      const saved = this.pos;
      LIST_JOIN_RE.lastIndex = this.pos;
      const join = LIST_JOIN_RE.exec(this.lower);
      if (!join) break;
      this.pos += join[0].length;
      const next = this.peekWord();
      if (next === null || STOP_WORDS.has(next) || (entityWordsEnd && this.isEntityWord())) {
        this.pos = saved;
        break;
      }
    }
    return values;
  }

  private textFrom(start: number): string {
    return this.question.slice(start, this.pos).trim();
  }

  // Results

  private allows(field: string, op: ConditionOp): boolean {
    const lookup = op === 'not_empty' ? 'empty' : op;
    return Object.hasOwn(this.lookups, field) && this.lookups[field]!.includes(lookup);
  }

  /** Adds a condition; an is / not on a field already there takes the new values too (any of them). */
  private add(field: string, op: ConditionOp, values: string[], labels: string[], text: string): boolean {
    if (!this.allows(field, op)) return false;
    const param = paramOf(field, op);
    const existing = this.conditions.find((condition) => condition.param === param);
    if (existing && (op === 'is' || op === 'not')) {
      values.forEach((value, index) => {
        if (existing.values.includes(value)) return;
        existing.values.push(value);
        existing.labels.push(labels[index]!);
      });
      if (!existing.text.includes(text)) existing.text = `${existing.text}; ${text}`;
      return true;
    }
    const condition: QueryCondition = { field, op, values: op === 'empty' || op === 'not_empty' ? [] : values, labels: op === 'empty' || op === 'not_empty' ? [] : labels, param, text };
    if (existing) this.conditions.splice(this.conditions.indexOf(existing), 1, condition);
    else this.conditions.push(condition);
    return true;
  }

  /** Takes a pending "not": whether the phrase being read is negated, and the text from the "not" on. */
  private takeNegation(start: number): { negated: boolean; start: number } {
    const negation = this.negation;
    this.negation = null;
    return negation ? { negated: true, start: negation.start } : { negated: false, start };
  }

  private async endPhrase(): Promise<void> {
    const phrase = this.unknown;
    this.unknown = null;
    if (!phrase) return;
    if (this.negation && this.lastValues) {
      const { start } = this.takeNegation(phrase.start);
      await this.lastValues([phrase], true, this.question.slice(start, phrase.end).trim());
      return;
    }
    const negated = this.negation !== null;
    const text = negated ? this.question.slice(this.negation!.start, phrase.end).trim() : phrase.text;
    const op: ConditionOp = negated ? 'not' : 'is';
    const done = () => {
      this.negation = null;
      return undefined;
    };
    // Words before a phrase ("fintech companies") may be a keyword's name, a list's ("Top Fintech
    // 2024 companies"), one of the tenant's values of a field ("private companies", "London
    // firms") or a related record's name ("zenith payments deals"). Keyword-style questions
    // ("fintech london private") are read as the longest runs of words that are one of these.
    if (await this.phraseValue(phrase.text, op, text)) return done();
    const words = [...phrase.text.matchAll(/\S+/g)].map((match) => ({ text: match[0], start: phrase.start + match.index, end: phrase.start + match.index + match[0].length }));
    if (words.length < 2) {
      this.notUnderstood.push(phrase.text);
      return;
    }
    let used = false;
    let unused = null as Written | null;
    for (let from = 0; from < words.length;) {
      let to = words.length;
      for (; to > from; to--) {
        const part = this.question.slice(words[from]!.start, words[to - 1]!.end);
        if (await this.phraseValue(part, op, negated ? text : part, to - from === 1 && part.length >= 5)) break;
      }
      if (to > from) {
        used = true;
        if (unused) this.notUnderstood.push(unused.text);
        unused = null;
        from = to;
        continue;
      }
      const word = words[from]!;
      unused = unused ? { ...unused, end: word.end, text: this.question.slice(unused.start, word.end) } : word;
      from++;
    }
    if (unused) this.notUnderstood.push(unused.text);
    if (used) done();
  }

  /** A phrase as a keyword, a list, a stored value of a category field, or a related record named so (not a look-alike unless `similar`). */
  private async phraseValue(written: string, op: ConditionOp, text: string, similar = true): Promise<boolean> {
    if (this.allows('keywords', op)) {
      const keyword = await this.resolveKeyword(written);
      if (keyword && this.add('keywords', op, [keyword.id], [keyword.name], text)) return true;
    }
    if (await this.listCondition(written, op, text)) return true;
    if (await this.anyCategoryValue(written, op, text, similar)) return true;
    // "zenith payments deals", "acme robotics people": a record the entity relates or links to, by its name (no look-alike).
    if (written.length < 4 || STOP_WORDS.has(written.toLowerCase())) return false;
    const targets = this.entity === 'ledger_entries' ? FOR_TARGETS.ledger_entries : this.entity === 'library' ? [...FOR_TARGETS.library, ...BY_TARGETS.library] : LINKED_TARGETS[this.entity];
    for (const target of targets.filter((one) => this.allows(one.relation, op))) {
      const record = await this.options.resolver.record(target.kind, written);
      if (record) return this.add(target.relation, op, [record.id], [record.name], text);
    }
    return false;
  }

  /** The entity's category fields a reader may filter by (cities, countries, ownership types, publishers). */
  private categoryFields(): string[] {
    const resource = operatorResource(this.entity);
    return Object.keys(this.lookups).filter((field) => resource.fields[field]?.kind === 'category');
  }

  /**
   * A phrase that is one of the tenant's stored values of a category field, as written, as a
   * singular, under another name of an ownership type, or (said as a correction) misspelt.
   */
  private async anyCategoryValue(written: string, op: ConditionOp, text: string, similarToo = true): Promise<boolean> {
    const fields = this.categoryFields().filter((field) => this.allows(field, op));
    const plain = written.toLowerCase().trim();
    const spellings = [written, ...singulars(written)];
    const other = OWNERSHIP_SYNONYMS.find(([re]) => re.test(plain) || singulars(plain).some((one) => re.test(one)))?.[1] ?? [];
    for (const field of fields) {
      for (const spelling of [...spellings, ...(field === 'ownership_type' ? other : [])]) {
        const stored = await this.options.resolver.categoryValue(this.entity, field, spelling);
        if (stored) return this.add(field, op, [stored], [stored], text);
      }
    }
    if (written.length < 4 || !similarToo) return false;
    for (const field of fields) {
      const similar = await this.options.resolver.similarValue(this.entity, field, written);
      // Only a look-alike of every word written ("fintech london" is not London).
      if (similar && wordsAlike(written, similar)) {
        this.corrections.push({ written, read: similar });
        return this.add(field, op, [similar], [similar], text);
      }
    }
    return false;
  }

  /** A list of the entity's kind named so: its members (`lists`). */
  private async listCondition(name: string, op: ConditionOp, text: string): Promise<boolean> {
    if (!this.allows(MEMBERSHIP_FIELD, op)) return false;
    const kind = KIND_OF_ENTITY[this.entity];
    if (!kind) return false;
    const list = await this.options.resolver.list(name, [kind]);
    return list !== null && this.add(MEMBERSHIP_FIELD, op, [list.id], [list.name], text);
  }

  /** "in the Top Fintech 2024 list", "on the Mega Deals list", "members of the Key Investors list". */
  private async listMembership(): Promise<boolean> {
    const start = this.skipSpace();
    const match = this.at(/(?:(?:members?|items?|entries|part)\s+of|in|on|from|of)\s+(?:the\s+|our\s+|my\s+)?/);
    if (!match) return false;
    const value = this.readValue(false);
    if (!value || !this.at(/lists?\b/)) return false;
    const { negated, start: from } = this.takeNegation(start);
    const text = this.question.slice(from, this.pos).trim();
    if (await this.listCondition(value.text, negated ? 'not' : 'is', text)) return true;
    // A list asked for by name that the caller cannot see (or nobody has) has no members for them:
    // the answer is empty, said in a note — the same whether it is hidden from them or does not exist.
    if (!negated && this.add(MEMBERSHIP_FIELD, 'is', [NO_LIST], [value.text], text)) {
      this.notes.push(`No list of ${(operatorResource(this.entity).plural ?? this.entity).toLowerCase()} named “${value.text}” is visible to you: nothing is in it for you.`);
      return true;
    }
    this.notUnderstood.push(text);
    this.notes.push(`No list of ${(operatorResource(this.entity).plural ?? this.entity).toLowerCase()} named “${value.text}” was found.`);
    return true;
  }

  /** Currencies in words: "CHF deals", "in US dollars", "euro deals", "not in sterling". */
  private currencyWords(): boolean {
    if (this.entity !== 'ledger_entries' || !this.allows('currency', 'is')) return false;
    const start = this.skipSpace();
    this.at(/(?:in|(?:denominated|paid|priced|valued|quoted|booked|settled|raised)\s+in)\s+/);
    const match = this.at(new RegExp(`(${CURRENCY_NAMES.map(([words]) => `(?:${words})`).join('|')})(?:-denominated)?(?:\\s+amounts?)?`));
    // A sign on its own ("€ deals", "deals in £"): its currency.
    const sign = match ? null : this.at(new RegExp(`(${CURRENCY_SIGN_PATTERN})(?=\\s|$)`));
    if (!match && !sign) return false;
    const currency = sign ? CURRENCY_SIGNS[sign[1]!] : CURRENCY_NAMES.find(([words]) => new RegExp(`^(?:${words})$`).test(match![1]!.replace(/\s+/g, ' ')))?.[1];
    if (!currency) return false;
    const { negated, start: from } = this.takeNegation(start);
    return this.add('currency', negated ? 'not' : 'is', [currency], [currency], this.question.slice(from, this.pos).trim());
  }

  /** Nationality and country adjectives: "British people", "French passport holders", "with a Swiss passport". */
  private async nationality(): Promise<boolean> {
    const start = this.skipSpace();
    this.at(/(?:with|holding|having)\s+(?:an?\s+)?/);
    const match = this.at(new RegExp(`(${NATIONALITY_PATTERN})(?:-(?:born|based|headquartered|registered))?(?:\\s+(?:nationality|citizenship|passports?|nationals?|citizens?)\\b)?`));
    if (!match) return false;
    const names = countryOf(match[1]!);
    if (!names) return false;
    const { negated, start: from } = this.takeNegation(start);
    const text = this.question.slice(from, this.pos).trim();
    const op: ConditionOp = negated ? 'not' : 'is';
    if (this.entity === 'people' && this.allows('passport_country', op)) {
      for (const name of names) {
        const stored = await this.options.resolver.categoryValue('people', 'passport_country', name);
        if (stored) return this.add('passport_country', op, [stored], [stored], text);
      }
      return this.add('passport_country', op, [names[0]!], [names[0]!], text);
    }
    if (this.entity === 'ledger_entries' && this.allows('geos', op)) {
      for (const name of names) {
        const geo = await this.options.resolver.record('geos', name);
        if (geo) return this.add('geos', op, [geo.id], [geo.name], text);
      }
    }
    if (await this.countryCities(names, op, text)) return true;
    this.notUnderstood.push(text);
    this.notes.push(`${operatorResource(this.entity).plural ?? this.entity} have no country to filter by; name their cities instead (e.g. “in Berlin or Munich”).`);
    return true;
  }

  /**
   * A country for a resource that has a city and no country (organizations: "German companies",
   * "firms in Switzerland"): the city is any of the tenant's cities in that country (GeoNames').
   * With none, the condition is the country as a city, which no row holds: the answer is empty, as true.
   */
  private async countryCities(names: string[], op: ConditionOp, text: string): Promise<boolean> {
    const field = COUNTRY_CITY[this.entity];
    const code = countryCode(names);
    if (!field || !code || !this.allows(field, op)) return false;
    const cities = await this.options.resolver.citiesIn(this.entity, field, code);
    if (cities.length === 0) {
      this.notes.push(`No ${(operatorResource(this.entity).plural ?? this.entity).toLowerCase()} were found in a city of ${names[0]}.`);
      return this.add(field, op, [names[0]!], [names[0]!], text);
    }
    return this.add(field, op, cities, cities, text);
  }

  // Phrasings

  private entityWords(): boolean {
    // "women" and "men" name people of a gender: the gender phrasing reads them.
    if (this.entity === 'people' && this.peopleWords()) return true;
    const match = this.at(new RegExp(ENTITY_WORDS[this.entity]));
    if (match && !this.singular) this.singular = /^(?:organi[sz]ation|org|company|firm|startup|business|corporation|institution|enterprise|person|individual|contact|woman|man|female|male|deal|transaction|entry|item|record|document|publication|piece|writing)$/.test(match[0].split(/\s+/).pop()!);
    return match !== null;
  }

  /** For lists as the subject: the kind of record they hold ("people lists", "lists of organizations") → `kind`. */
  private listKinds(): boolean {
    if (this.entity !== 'lists') return false;
    const start = this.skipSpace();
    const match = this.at(new RegExp(String.raw`(?:(?:of|for|with|holding|containing|contain|contains|includ(?:e|es|ing)|hold|holds|have|has)\s+)?(${LIST_KIND_PATTERN})(?:\s+(?:lists?|collections?|watchlists?|shortlists?))?`));
    if (!match) return false;
    const kind = LIST_KIND_WORDS.find(([words]) => new RegExp(`^(?:${words})$`).test(match[1]!.replace(/\s+/g, ' ')))?.[1];
    if (!kind) return false;
    const { negated, start: from } = this.takeNegation(start);
    const label = (operatorResource(LIST_KINDS[kind]!).plural ?? LIST_KINDS[kind]!).toLowerCase();
    return this.add('kind', negated ? 'not' : 'is', [kind], [label], this.question.slice(from, this.pos).trim());
  }

  /** Lists as the subject, one named: "the internal targets list" → lists whose name has those words (none, when the caller may not see it). */
  private listByName(): boolean {
    if (this.entity !== 'lists') return false;
    const start = this.skipSpace();
    const value = this.readValue();
    if (!value || value.text.split(/\s+/).every((word) => FILLER.has(word.toLowerCase())) || !this.at(/lists?\b/)) {
      this.pos = start;
      return false;
    }
    this.searchParts.push(value.text);
    return true;
  }

  private quoted(): boolean {
    const start = this.skipSpace();
    QUOTED_RE.lastIndex = start;
    const quoted = QUOTED_RE.exec(this.question);
    if (!quoted) return false;
    this.pos = start + quoted[0].length;
    this.searchParts.push(quoted[1]!.trim());
    return true;
  }

  private limitWords(): boolean {
    const match = this.at(/(?:top|first|last|limit(?:ed)?(?:\s+to)?|only|max(?:imum)?|at\s+most)\s+(\d{1,6})(?=\s|$|[,.;?!])(?!\s+(?:days?|weeks?|months?|quarters?|years?)\b)|(\d{1,3})(?=\s+(?:(?:most\s+)?(?:newest|oldest|latest|earliest|largest|biggest|smallest|recent(?:ly)?|youngest)\b|(?:\w+\s+)?(?:organi[sz]ations?|compan(?:y|ies)|people|persons?|ledger|library|entries|reports?|podcasts?|articles?|books?|papers?|results?)\b))/);
    if (!match) return false;
    const requested = Number(match[1] ?? match[2]);
    if (requested < 1) return false;
    this.limitFrom = /^first/.test(match[0]) ? 'first' : /^last/.test(match[0]) ? 'last' : null;
    this.limit = Math.min(requested, MAX_LIMIT);
    if (requested > MAX_LIMIT) this.notes.push(`At most ${MAX_LIMIT} results are shown at once; the limit is ${MAX_LIMIT}.`);
    return true;
  }

  private sorting(): boolean {
    // "biggest deals first", "newest organizations on top": the ordering's end, said after the subject.
    if (this.ordering.length > 0 && this.at(/(?:first|on\s+top|at\s+the\s+top)(?=\s*$|\s*[,.;?!])/)) return true;
    const dated = this.at(/(?:the\s+)?(most\s+recently|most\s+recent|latest|newest|oldest|earliest|least\s+recently|first)\s+(founded|established|incorporated|born|published|released|added|created|updated|modified|changed|edited)\b/);
    // "which company was founded first?", "who was born last": the verb before its end.
    const reversed = dated ? null : this.at(/(founded|established|incorporated|born|published|released)\s+(most\s+recently|first|last|earliest|latest|(?:the\s+)?(?:earliest|latest|most\s+recently))(?!\s+(?:\d+\s+)?(?:days?|weeks?|months?|quarters?|years?|decades?|century)\b)/);
    if (dated || reversed) {
      const [which, verb] = dated ? [dated[1], dated[2]] : [reversed![2], reversed![1]];
      const field = /added|created/.test(verb!) ? 'created_at' : /updated|modified|changed|edited/.test(verb!) ? 'updated_at' : DATE_VERBS[this.entity].find(([re]) => re.test(verb!))?.[1];
      if (!field) return false;
      this.ordering = [{ field, descending: !/oldest|earliest|least|first/.test(which!) }];
      this.superlative = !['created_at', 'updated_at'].includes(field);
      return true;
    }
    const match = this.at(/(?:(?:sorted|ordered|sort|order|ranked|arranged)\s+(?:by\s+)?)?(?:(most\s+recently|recently|newly|latest|last)\s+(added|created|updated|changed|modified|edited)(?:\s+first)?|(added|created|updated|changed|modified|edited)\s+(?:most\s+)?recently|(newest|latest|most\s+recent|recent|youngest)(?:\s+first|\s+ones)?|(oldest|earliest|eldest|least\s+recent)(?:\s+first|\s+ones)?|(largest|biggest|highest|most\s+valuable|most\s+expensive|priciest)(?:\s+(?:amounts?|first))?|(smallest|lowest|least\s+valuable|cheapest|least\s+expensive)(?:\s+(?:amounts?|first))?|(alphabetically|alphabetical(?:\s+order)?|a\s*-\s*z|a\s+to\s+z)|(reverse\s+alphabetical(?:ly|\s+order)?|z\s*-\s*a|z\s+to\s+a))/);
    // "last updated before 2024", "first added in 2019": the date of that timestamp, which the dates phrasing reads.
    if (match && (match[1] || match[3]) && readDateComparison(this.lower, this.skipSpace(), this.options.today, true)) return false;
    if (match) {
      const [, recently, action, actionFirst, newest, oldest, largest, smallest, alphabetical, reverse] = match;
      if (recently || actionFirst) this.ordering = [{ field: /added|created/.test(action ?? actionFirst!) ? 'created_at' : 'updated_at', descending: true }];
      else if (newest) this.ordering = this.newestOrdering(true, newest);
      else if (oldest) this.ordering = this.newestOrdering(false, oldest);
      if (newest || oldest) this.newestWord = newest ? 'newest' : 'oldest';
      else if (largest || smallest) {
        if (!('amount' in operatorResource(this.entity).fields)) return false;
        this.ordering = [{ field: 'amount', descending: Boolean(largest) }];
      } else if (alphabetical) this.ordering = [{ field: 'display_name', descending: false }];
      else if (reverse) this.ordering = [{ field: 'display_name', descending: true }];
      // A superlative ranks by a value the records hold (not when they were added).
      // "newest first" only sorts; "the newest", "largest deals" rank by the value.
      this.superlative = Boolean(newest || oldest || largest || smallest) && !/\b(?:first|ones)$/.test(match[0]) && !['created_at', 'updated_at'].includes(this.ordering[0]?.field ?? '');
      return true;
    }
    // "sorted by founding date", "by name": only a field's noun after "by" is an ordering ("by Amelia Hart" is not).
    const byField = this.at(/(?:(?:sorted|ordered|sort|order|ranked)\s+)?by\s+/);
    if (!byField) return false;
    const field = this.fieldNoun();
    if (!field) return false;
    const orderable = operatorResource(this.entity).ordering.includes(field) || ['display_name', 'created_at', 'updated_at'].includes(field);
    if (!orderable) return false;
    const direction = this.at(/(desc(?:ending)?|newest\s+first|largest\s+first|highest\s+first|z\s*-\s*a)|(asc(?:ending)?|oldest\s+first|smallest\s+first|lowest\s+first|a\s*-\s*z)/);
    this.ordering = [{ field, descending: direction ? Boolean(direction[1]) : field === 'amount' }];
    return true;
  }

  /**
   * "the first 5 organizations we added", "the last 10 people that were imported": when records
   * were added, with no date after it, orders by it (the first: earliest added). Records are all
   * added by someone, so without "first" or "last" the words ask for nothing more.
   */
  private addedOrder(): boolean {
    const match = this.at(/(?:(?:that|which|who)\s+)?(?:(?:we|i|you|they|someone|somebody)\s+(?:have\s+|had\s+|just\s+|last\s+)?|(?:were|was|have\s+been|has\s+been|got|being)\s+)?(?:(?:last|recently|most\s+recently)\s+)?(added|created|imported|entered|recorded|updated|modified|changed|edited|touched)/);
    // "added last month", "created in 2019": a date, which the dates phrasing reads.
    if (!match || this.negation || readDateComparison(this.lower, this.skipSpace(), this.options.today, true)) return false;
    const which = this.at(/(first|last)(?!\s+(?:\d+\s+)?(?:days?|weeks?|months?|quarters?|years?|night|time)\b)/);
    const field = /^(?:updated|modified|changed|edited|touched)$/.test(match[1]!) ? 'updated_at' : 'created_at';
    // "the 3 newest library entries we added", "the latest people we imported": newest by when added, not by the entity's own date.
    if (this.newestWord !== null && this.ordering.length > 0) {
      this.ordering = [{ field, descending: this.newestWord === 'newest' }];
      this.superlative = false;
      return true;
    }
    const from = which?.[1] ?? this.limitFrom;
    if (from && this.ordering.length === 0) this.ordering = [{ field, descending: from === 'last' }];
    // "last 10 orgs updated", "recently updated": when records last changed, newest first.
    else if (field === 'updated_at' && this.ordering.length === 0 && /last|recently/.test(match[0])) this.ordering = [{ field, descending: true }];
    return true;
  }

  private newestOrdering(descending: boolean, word: string): QueryOrdering[] {
    // People's age: the youngest were born last, the oldest first.
    if (this.entity === 'people' && /young|eldest|oldest/.test(word)) return [{ field: 'birth_date', descending: /young/.test(word) }];
    return NEWEST[this.entity].map((field) => ({ field, descending }));
  }

  /** A field's noun at the current place ("email", "founding date"), as the field's name. */
  private fieldNoun(): string | null {
    for (const [words, field] of FIELD_NOUNS[this.entity]) {
      const saved = this.pos;
      if (this.at(new RegExp(`(?:an?\\s+|any\\s+|the\\s+|some\\s+)?(?:${words})`))) return field;
      this.pos = saved;
    }
    return null;
  }

  private async negationWord(): Promise<boolean> {
    const start = this.skipSpace();
    // "non-profits", "non-profit organizations": a word of its own (an ownership type), not "not profits".
    const hyphenated = /^non-[\p{L}-]+/u.exec(this.lower.slice(start))?.[0];
    if (hyphenated && OWNERSHIP_SYNONYMS.some(([re]) => re.test(hyphenated) || singulars(hyphenated).some((one) => re.test(one)))) return false;
    if (!this.at(/(?:(?:(?:that|which|who)\s+)?(?:(?:is|are|was|were|do|does|did)\s+not|isn'?t|aren'?t|wasn'?t|weren'?t|don'?t|doesn'?t|didn'?t|never)|(?:nobody|no\s+one|no-one)(?:\s+(?:has|have|had))?|not|non(?=-)|excluding|exclude|except(?:\s+for)?|but\s+not|other\s+than|apart\s+from|outside(?:\s+of)?)\s*-?\s*(?=\S)/)) return false;
    const outside = /^outside/.test(this.lower.slice(start));
    this.negation = { text: this.textFrom(start), start, end: this.pos };
    // "outside Berlin" is "not in Berlin": the place comes right after.
    if (outside) return this.places(true);
    return true;
  }

  private emptiness(): boolean {
    const start = this.skipSpace();
    if (this.at(/untagged|without\s+(?:any\s+)?(?:keywords?|tags?)(?!\s+(?:named|called))/)) {
      return this.add('keywords', 'empty', [], [], this.textFrom(start));
    }
    const empty = this.at(/(?:without|with\s+no|with\s+an?\s+empty|missing|lacking|no|(?:that|which|who)\s+(?:have|has|had)\s+no|(?:having|has|have)\s+no|(?:that|which|who)\s+(?:don'?t|doesn'?t|do\s+not|does\s+not)\s+have)\s+/);
    const filled = empty ? null : this.at(/(?:with|having|(?:that|which|who)\s+(?:have|has)|has|have)\s+(?=(?:an?|any|some|at\s+least\s+one)\s+|\S)/);
    if (!empty && !filled) return false;
    this.at(/at\s+least\s+one\s+/);
    const field = this.fieldNoun();
    if (!field || field === 'display_name') return false;
    // "with keyword fintech" names a keyword: the tagged phrasing reads it.
    if (filled && field === 'keywords' && this.peekWord() && !STOP_WORDS.has(this.peekWord()!)) return false;
    const { negated, start: from } = this.takeNegation(start);
    const op: ConditionOp = Boolean(empty) !== negated ? 'empty' : 'not_empty';
    const fields = [field];
    // "with an email and a website": each field named has (or lacks) a value.
    for (;;) {
      const saved = this.pos;
      const next = this.at(/(?:,\s*(?:and\s+|or\s+)?|(?:and|or)\s+)/) ? this.fieldNoun() : null;
      if (!next || next === 'display_name') {
        this.pos = saved;
        break;
      }
      fields.push(next);
    }
    const text = this.question.slice(from, this.pos).trim();
    for (const one of fields) {
      if (this.add(one, op, [], [], text)) continue;
      this.notes.push(`${operatorResource(this.entity).plural ?? operatorResource(this.entity).label} cannot be filtered by whether they have ${one.replaceAll('_', ' ')}.`);
      this.notUnderstood.push(text);
    }
    return true;
  }

  /** "whose city is Berlin", "with type report", "where the publisher is McKinsey", "whose founding year is 2015". */
  private async fieldIs(): Promise<boolean> {
    const start = this.skipSpace();
    this.at(/(?:whose|where|with|having)\s+/);
    this.at(/(?:the|its|their)\s+/);
    const field = this.fieldNoun();
    if (!field || field === 'display_name') return false;
    const verb = this.at(/(?:(isn'?t|aren'?t|wasn'?t)|(?:is|are|was|=|:|equals?|of)\s*(not\s+)?)\s*/);
    if (!verb) return false;
    const verbNot = Boolean(verb[1] || verb[2]);
    const resource = operatorResource(this.entity);
    const definition = resource.fields[field]!;
    const negation = this.takeNegation(start);
    const negated = negation.negated !== verbNot;
    // "whose ownership type is unknown", "where the city is not set": no value.
    const none = this.at(/(?:unknown|not\s+known|empty|blank|missing|none|null|not\s+set|unset|unspecified|not\s+specified|n\/a)(?=$|[\s,;:?!.])/);
    // "whose city is not set", "isn't known": the "not" was the verb's.
    const notSet = none || !verbNot ? null : this.at(/(?:set|known|specified|given|filled(?:\s+in)?|recorded|entered)(?=$|[\s,;:?!.])/);
    if (none || notSet) {
      const text = this.question.slice(negation.start, this.pos).trim();
      const empty = notSet ? !negation.negated : !negated;
      if (!this.add(field, empty ? 'empty' : 'not_empty', [], [], text)) this.notUnderstood.push(text);
      return true;
    }
    if (definition.kind === 'incomplete_date') {
      const read = readDateComparison(this.lower, this.skipSpace(), this.options.today, true);
      if (!read || negated) return false;
      this.pos = read.end;
      const text = this.question.slice(negation.start, this.pos).trim();
      for (const [lookup, value] of dateLookups(read.comparison)) this.add(field, lookup, [value], [value], text);
      return true;
    }
    const values = this.readValues(false);
    if (values.length === 0) return false;
    const text = this.question.slice(negation.start, this.pos).trim();
    const op: ConditionOp = negated ? 'not' : 'is';
    for (const value of values) {
      let used = false;
      if (field === 'keywords') used = await this.keywordCondition(value, op, text);
      else if (definition.relation) {
        const kinds = definition.relation.targets.filter((target): target is NamedKind => ['organizations', 'people', 'geos'].includes(target));
        used = await this.relationCondition(value, kinds.map((kind) => ({ relation: field, kind })), op, text);
      } else if (definition.kind === 'category') used = await this.categoryCondition(value, field, op, text, /city/.test(field));
      else if (definition.choices) {
        const wanted = value.text.toLowerCase();
        const choice = (field === 'type' ? libraryTypeOf(wanted) : null)
          ?? definition.choices.find((one) => one.toLowerCase() === wanted || (field === 'gender' && one.toLowerCase() === wanted[0]));
        const label = field === 'gender' ? (choice === 'F' ? 'female' : 'male') : choice;
        used = choice !== undefined && choice !== null && this.add(field, op, [choice], [label!], text);
      } else if (definition.kind === 'integer' && /^\d{1,9}$/.test(value.text)) used = this.add(field, op, [value.text], [value.text], text);
      if (!used) {
        this.notUnderstood.push(value.text);
        this.notes.push(`“${value.text}” is not a ${field.replaceAll('_', ' ')} that was found.`);
      }
    }
    return true;
  }

  private async tagged(): Promise<boolean> {
    const start = this.skipSpace();
    if (!this.at(/(?:tagged|labell?ed|categori[sz]ed)(?:\s+(?:with|as))?|with\s+(?:the\s+)?(?:keywords?|tags?)|(?:keywords?|tags?)(?:\s+(?:named|called|of))?/)) return false;
    const values = this.readValues();
    if (values.length === 0) return false;
    const { negated, start: from } = this.takeNegation(start);
    this.lastValues = (more, negatedMore, text) => this.keywordValues(more, negatedMore, text);
    await this.keywordValues(values, negated, this.question.slice(from, this.pos).trim());
    return true;
  }

  private async keywordValues(values: Written[], negated: boolean, text: string): Promise<void> {
    const ids: string[] = [];
    const names: string[] = [];
    for (const value of values) {
      const keyword = (await this.resolveKeyword(value.text)) ?? (await this.similarRecord('keyword', value.text));
      if (keyword) {
        ids.push(keyword.id);
        names.push(keyword.name);
      } else {
        this.notUnderstood.push(value.text);
        this.notes.push(`No keyword “${value.text}” was found.`);
      }
    }
    if (ids.length > 0 && !this.add('keywords', negated ? 'not' : 'is', ids, names, text)) {
      // Never dropped in silence: a list of records not filtered by keywords would answer more than was asked.
      this.notUnderstood.push(text);
      this.notes.push(`${operatorResource(this.entity).plural ?? this.entity} cannot be filtered by keywords.`);
    }
  }

  /** A keyword by its name, or by the singular of a plural ("batteries" → "battery"). */
  private async resolveKeyword(text: string) {
    const resolver = this.options.resolver;
    const exact = await resolver.record('keyword', text);
    if (exact || !/s$/i.test(text)) return exact;
    const singulars = [text.replace(/ies$/i, 'y'), text.replace(/es$/i, ''), text.replace(/s$/i, '')];
    for (const singular of [...new Set(singulars)].filter((one) => one !== text)) {
      const found = await resolver.record('keyword', singular);
      if (found) return found;
    }
    return null;
  }

  private dates(): boolean {
    const start = this.skipSpace();
    const verbMatch = this.at(/(?:(?:last|first|most\s+recently)\s+(?=(?:added|imported|entered|created|updated|modified|changed|edited)\b))?(founded|established|incorporated|started|created|formed|launched|born|met|seen|encountered|published|released|dated|issued|written|posted|aired|came\s+out|come\s+out|appeared|recorded|booked|reported|added|imported|entered|updated|modified|changed|edited|touched)\s*/);
    const verb = verbMatch?.[1] ?? null;
    // When a record was added or last changed are its own timestamps, whatever the entity.
    const timestamp = verb === null ? null : /^(?:added|imported|entered|created)$/.test(verb) ? 'created_at' : /^(?:updated|modified|changed|edited|touched)$/.test(verb) ? 'updated_at' : null;
    const pending = verb === null ? this.pendingDate : null;
    const field = timestamp ?? (verb ? (DATE_VERBS[this.entity].find(([re]) => re.test(verb))?.[1] ?? null) : (pending?.field ?? DEFAULT_DATE[this.entity]));
    // A bare year right after words not understood is part of them ("Top Fintech 2024", a list's name).
    if (verb === null && this.unknown && /^(?:\d|[qh][1-4]\b)/.test(this.lower.slice(this.skipSpace()))) return false;
    const read = readDateComparison(this.lower, this.skipSpace(), this.options.today, verb !== null);
    if (!read && verb && field && field !== 'birth_date' && !this.pendingDate && /^(?:in|at)\s/.test(this.lower.slice(this.pos))) {
      // "founded in Berlin in 2015": the verb's date comes after the place ("born in Paris" is a birthplace, which no field holds).
      this.pendingDate = { field, text: this.textFrom(start) };
      return true;
    }
    if (!read) return false;
    if (pending) this.pendingDate = null;
    this.pos = read.end;
    const { negated, start: from } = this.takeNegation(start);
    const text = this.question.slice(from, this.pos).trim();
    if (!field) {
      this.notUnderstood.push(text);
      this.notes.push(this.entity === 'people'
        ? `Say which date of people you mean: “born …” or “met …”.`
        : `${operatorResource(this.entity).plural} have no date to compare with “${text}”.`);
      return true;
    }
    // "not founded after 2010" is founded in or before 2010; a period ("not in 2019") would be two ranges, which a list cannot OR.
    const flipped = { after: 'until', until: 'after', before: 'since', since: 'before' } as const;
    const comparison: DateComparison | null = !negated ? read.comparison
      : read.comparison.kind in flipped ? { ...read.comparison, kind: flipped[read.comparison.kind as keyof typeof flipped] } as DateComparison : null;
    if (!comparison) {
      this.notUnderstood.push(text);
      this.notes.push(`A period cannot be negated; use “before” or “after” instead of “${text}”.`);
      return true;
    }
    read.comparison = comparison;
    if (field === 'year') return this.ledgerDates(read.comparison, text);
    if (timestamp) {
      // A timestamp's range: from the first day of a period (gte, gt after it), until the first day of one (lt, lte after it).
      for (const [lookup, value] of dateLookups(read.comparison)) {
        const period = datePeriod(value);
        if (!period) continue;
        const day = lookup === 'gt' || lookup === 'lte' ? period.next : period.start;
        this.add(timestamp, lookup === 'gt' || lookup === 'gte' ? 'gte' : 'lt', [day], [day], text);
      }
      return true;
    }
    for (const [lookup, value] of dateLookups(read.comparison)) this.add(field, lookup, [value], [value], text);
    return true;
  }

  /** "Q4 ledger entries", "deals of the second quarter": a quarter of any year (ledger entries' `quarter`). */
  private quarterOfAnyYear(): boolean {
    if (!this.allows('quarter', 'is')) return false;
    const start = this.skipSpace();
    const match = this.at(/(?:(?:in|of|during|for)\s+)?(?:the\s+)?(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter)(?:\s*(?:,|or|and|\/)\s*(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)(?:\s+quarter)?))?/);
    if (!match) return false;
    const quarter = (digit?: string, word?: string) => (digit ? `Q${digit}` : word ? `Q${ORDINALS[word.slice(0, 3)]}` : null);
    const quarters = [quarter(match[1], match[2]), quarter(match[3], match[4])].filter((one): one is string => one !== null);
    const { negated, start: from } = this.takeNegation(start);
    return this.add('quarter', negated ? 'not' : 'is', quarters, quarters, this.question.slice(from, this.pos).trim());
  }

  private ledgerDates(comparison: DateComparison, text: string): boolean {
    const { year, quarters, approximate } = ledgerDateLookups(comparison);
    for (const [lookup, value] of year) this.add('year', lookup, [value], [value], text);
    if (quarters.length > 0) this.add('quarter', 'is', quarters, quarters, text);
    if (approximate) this.notes.push(`Ledger entries are dated by year and quarter; “${text}” is read by whole years.`);
    return true;
  }

  private amounts(): boolean {
    if (this.entity !== 'ledger_entries') return false;
    const start = this.skipSpace();
    const between = this.at(new RegExp(String.raw`(?:amounts?\s+|worth\s+|valued\s+)?between\s+${MONEY}\s+and\s+${MONEY}`));
    // "USD 500k to USD 2m", "$1m-$5m": a range of amounts.
    const range = between ? null : this.at(new RegExp(String.raw`(?:amounts?\s+|worth\s+|valued\s+(?:at\s+)?)?${MONEY}\s*(?:to|-|–)\s*${MONEY}`));
    // "£1bn+", "$5m or more", "€1m and under".
    const open = between || range ? null : this.at(new RegExp(String.raw`${MONEY}\s*(\+|(?:or|and)\s+(?:more|above|over|higher|larger|bigger|up)|plus)|${MONEY}\s*((?:or|and)\s+(?:less|below|under|lower|smaller))`));
    if (range || open) {
      const amounts = range ? [money(range.slice(1, 5)), money(range.slice(5, 9))] : [money(open![5] ? open!.slice(1, 5) : open!.slice(6, 10))];
      if (amounts.some((amount) => amount === null) || !amounts.some((amount) => amount!.explicit) || amounts.every((amount) => amount!.value < 10_000 && !amount!.currency)) {
        this.pos = start;
        return false;
      }
      const text = this.textFrom(start);
      const { negated } = this.takeNegation(start);
      const rounded = (amount: number) => String(Math.round(amount * 100) / 100);
      if (range) {
        this.add('amount', negated ? 'lt' : 'gte', [rounded(amounts[0]!.value)], [amounts[0]!.written], text);
        this.add('amount', negated ? 'gt' : 'lte', [rounded(amounts[1]!.value)], [amounts[1]!.written], text);
      } else {
        const lookup: ConditionOp = open![5] ? (negated ? 'lt' : 'gte') : (negated ? 'gt' : 'lte');
        this.add('amount', lookup, [rounded(amounts[0]!.value)], [amounts[0]!.written], text);
      }
      const currency = amounts.map((amount) => amount!.currency).find(Boolean);
      if (currency) this.add('currency', 'is', [currency], [currency], text);
      return true;
    }
    const compare = between ? null : this.at(new RegExp(String.raw`(?:amounts?\s+|worth\s+|valued\s+(?:at\s+)?)?(over|above|more\s+than|(?:greater|larger|bigger|higher)\s+than|exceeding|at\s+least|from|under|below|less\s+than|(?:smaller|lower)\s+than|at\s+most|up\s+to|>=|<=|>|<)\s*${MONEY}`));
    if (!between && !compare) return false;
    const text = this.textFrom(start);
    const amounts = between ? [money(between.slice(1, 5)), money(between.slice(5, 9))] : [money(compare!.slice(2, 6))];
    // A bare number after "over" or "between" is an amount only with a currency or a multiplier, or beyond a year.
    if (amounts.some((amount) => amount === null) || amounts.every((amount) => !amount!.explicit && amount!.value < 10_000)) return false;
    if (!('amount' in operatorResource(this.entity).fields)) {
      this.notUnderstood.push(text);
      this.notes.push('Ledger entries have no amount to compare with.');
      return true;
    }
    const { negated } = this.takeNegation(start);
    const currency = amounts.map((amount) => amount!.currency).find(Boolean);
    const value = (amount: number) => String(Math.round(amount * 100) / 100);
    if (between) {
      this.add('amount', negated ? 'lt' : 'gte', [value(amounts[0]!.value)], [amounts[0]!.written], text);
      this.add('amount', negated ? 'gt' : 'lte', [value(amounts[1]!.value)], [amounts[1]!.written], text);
    } else {
      const word = compare![1]!.replace(/\s+/g, ' ');
      const lookups: Record<string, Lookup> = { over: 'gt', above: 'gt', 'more than': 'gt', 'greater than': 'gt', 'larger than': 'gt', 'bigger than': 'gt', 'higher than': 'gt', 'smaller than': 'lt', 'lower than': 'lt', exceeding: 'gt', '>': 'gt', 'at least': 'gte', from: 'gte', '>=': 'gte', under: 'lt', below: 'lt', 'less than': 'lt', '<': 'lt', 'at most': 'lte', 'up to': 'lte', '<=': 'lte' };
      const opposite: Record<string, ConditionOp> = { gt: 'lte', gte: 'lt', lt: 'gte', lte: 'gt' };
      const lookup = lookups[word]! as ConditionOp;
      this.add('amount', negated ? opposite[lookup]! : lookup, [value(amounts[0]!.value)], [amounts[0]!.written], text);
    }
    if (currency) this.add('currency', 'is', [currency], [currency], text);
    return true;
  }

  private async visibilityWords(): Promise<boolean> {
    const start = this.skipSpace();
    const match = this.at(new RegExp(`(?:${VISIBILITY_PATTERN})(?:\\s*(?:,|or|and|/)\\s*(?:${VISIBILITY_PATTERN}))*`));
    if (!match) return false;
    // "private or public companies", "public or state-owned": beside an ownership type, "public" is one too.
    if (match[0] === 'public' && this.allows('ownership_type', 'is')) {
      const before = /(?:^|\s)([\p{L}-]+)\s*(?:,|\bor\b|\band\b|\/)\s*$/u.exec(this.lower.slice(0, start))?.[1];
      const after = /^\s*(?:,|\bor\b|\band\b|\/)\s*(?:(?:state|government|govt|privately|publicly)[\s-])?([\p{L}-]+)/u.exec(this.lower.slice(this.pos))?.[1];
      const ownershipBefore = before !== undefined && this.conditions.some((condition) => condition.field === 'ownership_type');
      if (ownershipBefore || (after !== undefined && (await this.isOwnershipWord(after)))) {
        const { negated, start: from } = this.takeNegation(start);
        if (await this.anyCategoryValue('public', negated ? 'not' : 'is', this.question.slice(from, this.pos).trim(), false)) return true;
        this.pos = start + match[0].length;
      }
    }
    const { negated, start: from } = this.takeNegation(start);
    const values: string[] = [];
    for (const word of match[0].split(/\s*(?:,|\bor\b|\band\b|\/)\s*/)) {
      const visibility = VISIBILITY_WORDS.find(([words]) => new RegExp(`^(?:${words})$`).test(word))?.[1];
      if (!visibility) continue;
      // Asked as it was: the list shows a reader no hidden record, and the note says why (never a broader answer).
      if (visibility === 'hidden' && !atLeast(this.options.access, 'research')) this.notes.push('Hidden records are seen by the research team only: none is shown to you.');
      if (!values.includes(visibility)) values.push(visibility);
    }
    if (values.length > 0) this.add('visibility', negated ? 'not' : 'is', values, values, this.question.slice(from, this.pos).trim());
    return true;
  }

  /** A word that names an ownership type: another name of one, or a value the tenant stores. */
  private async isOwnershipWord(word: string): Promise<boolean> {
    const plain = word.toLowerCase();
    if (OWNERSHIP_SYNONYMS.some(([re]) => re.test(plain) || singulars(plain).some((one) => re.test(one)))) return true;
    return (await this.options.resolver.categoryValue('organizations', 'ownership_type', word)) !== null;
  }

  private libraryTypes(): boolean {
    if (this.entity !== 'library') return false;
    const start = this.skipSpace();
    // "a podcast or a book": articles between the values.
    const match = this.at(new RegExp(`(?:an?\\s+)?(?:${LIBRARY_TYPE_PATTERN})(?:\\s*(?:,|or|and|/|&)\\s*(?:an?\\s+)?(?:${LIBRARY_TYPE_PATTERN}))*`));
    if (!match) return false;
    const { negated, start: from } = this.takeNegation(start);
    const types = [...new Set(match[0].split(/\s*(?:,|\bor\b|\band\b|\/|&)\s*/).map((word) => libraryTypeOf(word.replace(/^an?\s+/, ''))).filter((type) => type !== null))];
    this.add('type', negated ? 'not' : 'is', types, types, this.question.slice(from, this.pos).trim());
    return true;
  }

  private peopleWords(): boolean {
    if (this.entity !== 'people') return false;
    const start = this.skipSpace();
    const match = this.at(/(females?|males?|women|men|woman|man)/);
    if (!match) return false;
    const { negated, start: from } = this.takeNegation(start);
    const gender = /^(?:females?|wom[ae]n)$/.test(match[1]!) ? 'F' : 'M';
    return this.add('gender', negated ? 'not' : 'is', [gender], [gender === 'F' ? 'female' : 'male'], this.question.slice(from, this.pos).trim());
  }

  private favourites(): boolean {
    const start = this.skipSpace();
    const favourite = this.at(/(?:marked\s+(?:as\s+)?)?(?:favou?rites?|favou?red|starred)/);
    const dashboard = favourite ? null : this.at(/(?:shown\s+)?on\s+(?:the\s+)?dashboard/);
    if (!favourite && !dashboard) return false;
    const { negated, start: from } = this.takeNegation(start);
    const field = favourite ? 'is_fav' : 'show_on_dashboard';
    const value = negated ? 'false' : 'true';
    return this.add(field, 'is', [value], [value], this.question.slice(from, this.pos).trim());
  }

  /** "for Acme", "by Amelia Hart", "about lithium", "mentioning Jane Doe", "published by McKinsey". */
  private async relations(): Promise<boolean> {
    const start = this.skipSpace();
    const match = this.at(/(published\s+by|(?:written|authored|created|produced)\s+by|by)\s+|(for)\s+|(about|on|regarding|concerning|covering|re)\s+|(mentioning|mentions?|involv(?:ing|es?)|includ(?:ing|es?)|featur(?:ing|es?)|concerns?|naming|citing|referencing|with)\s+|((?:(?:that|which|who)\s+(?:is\s+|are\s+|was\s+|were\s+)?)?(?:(?:(?:involved|participating|named|listed|appearing)\s+)?(?:in|on)\s+(?:the\s+)?(?:deals?|transactions?|ledger\s+entries)\s+(?:with|involving|of|for)|(?:related|linked|connected|associated|tied|affiliated|involved)\s+(?:to|with|in)|(?:with\s+)?(?:ties|links|connections|relationships?)\s+(?:to|with)|(?:works?|worked|working|deals?|dealt|dealing)\s+with))\s+/);
    if (!match) return false;
    const [, by, forWord, about, , linked] = match;
    const values = this.readValues();
    if (values.length === 0) return false;
    const { negated, start: from } = this.takeNegation(start);
    const text = this.question.slice(from, this.pos).trim();
    const op: ConditionOp = negated ? 'not' : 'is';
    const publishedBy = by?.startsWith('published');
    const targets = publishedBy ? [] : by ? BY_TARGETS[this.entity] : linked ? LINKED_TARGETS[this.entity] : FOR_TARGETS[this.entity];
    // "with X" names a related record or nothing ("with an email" is emptiness, read before).
    if (match[4]?.startsWith('with') && targets.length === 0) return false;
    const unresolved: Written[] = [];
    for (const value of values) {
      // "what's on Watchlist Europe": a list of the entity's kind.
      if ((about || match[4]?.startsWith('includ')) && (await this.listCondition(value.text, op, text))) continue;
      if (about && (await this.keywordCondition(value, op, text))) continue;
      if (await this.relationCondition(value, targets, op, text)) continue;
      if (by && this.entity === 'library' && (await this.categoryCondition(value, 'publisher', op, text))) continue;
      if (!about && !forWord && !by && !linked && (await this.keywordCondition(value, op, text))) continue;
      unresolved.push(value);
    }
    for (const value of unresolved) {
      // "about lithium" with no such keyword or record: its words are searched. "with a good ESG
      // score", "linked to X" where nothing links: not understood, never a text search that reads like an answer.
      if ((about || /^(?:mention|naming|citing|referenc|featur|includ)/.test(match[4] ?? '')) && !negated && operatorResource(this.entity).search) {
        this.searchParts.push(value.text);
        continue;
      }
      this.notUnderstood.push(value.text);
      const nouns = [...new Set([
        ...targets.map((target) => RECORD_NOUNS[target.kind]),
        ...(by && this.entity === 'library' ? ['publisher'] : []),
      ])];
      this.notes.push(nouns.length > 0
        ? `No ${nouns.join(' or ')} named “${value.text}” was found.`
        : `“${text}” cannot be used to filter ${(operatorResource(this.entity).plural ?? this.entity).toLowerCase()}.`);
    }
    return true;
  }

  /**
   * Investments, through the engine's link filters: "(which deals) did Northwind Capital invest
   * in", "Jane Doe has invested in", "invested in by / backed by X" name the investors; "that
   * invested in Acme", "investing in Acme" the organization whose deals they hold stakes in.
   */
  private async investing(): Promise<boolean> {
    const start = this.skipSpace();
    const verb = String.raw`(?:invest(?:ed|s)?|put\s+money|(?:holds?|held|has|have|had|owns?|owned|took|takes?|bought)\s+(?:an?\s+|some\s+)?(?:stakes?|shares?|equity|positions?|interests?|piece)|(?:backed|funded|financed)(?=\s*(?:$|[,;:?!.])))`;
    const byInvestor = this.at(/(?:(?:that|which|who)\s+(?:were\s+|was\s+|have\s+been\s+|has\s+been\s+)?)?(?:(?:invested\s+in|backed|funded|financed)\s+by|investments?\s+(?:made\s+|held\s+)?(?:by|of|from))\s+/);
    let targets = INVESTOR_TARGETS;
    let values: Written[] = [];
    if (byInvestor) values = this.readValues();
    else if (this.at(/(?:(?:that|which|who)\s+(?:have\s+|has\s+|had\s+|did\s+)?)?(?:invested|invests?|investing|put(?:s|ting)?\s+money|(?:hold|holds|held|have|has|had|own|owns|owned|took|take|takes|bought)\s+(?:an?\s+|some\s+)?(?:stakes?|shares?|equity|positions?|interests?)|(?:are|is|were|was)\s+investors?|investors)\s+in(?:to)?\s+/)) {
      targets = INVESTED_IN_TARGETS;
      values = this.readValues();
    } else {
      // The investor named before the verb: "did Northwind Capital invest in", "Jane Doe has backed".
      return this.nameBeforeVerb(start, String.raw`(?:(?:did|has|have|had|do|does)\s+)?`, String.raw`(?:(?:has|have|had|did)\s+)?${verb}(?:\s+in(?:to)?)?`, targets);
    }
    if (values.length === 0) return false;
    const { negated, start: from } = this.takeNegation(start);
    const text = this.question.slice(from, this.pos).trim();
    const op: ConditionOp = negated ? 'not' : 'is';
    let used = false;
    for (const value of values) {
      if (await this.relationCondition(value, targets, op, text)) {
        used = true;
        continue;
      }
      this.notUnderstood.push(value.text);
      this.notes.push(targets.some((target) => this.allows(target.relation, op))
        ? `No organization or person named “${value.text}” was found.`
        : `“${text}” cannot be used to filter ${(operatorResource(this.entity).plural ?? this.entity).toLowerCase()}.`);
    }
    return used || values.length > 0;
  }

  /**
   * A record named before the verb that links it: "(which deals) was Jane Doe involved in",
   * "(organizations) Jane Doe is connected to", "(deals) where Acme took part" — through the
   * entity's relation to it (ledger entries' parties, the link filters of people and organizations).
   */
  private async linkedBeforeVerb(): Promise<boolean> {
    const start = this.skipSpace();
    const targets = this.entity === 'ledger_entries' ? FOR_TARGETS.ledger_entries : this.entity === 'library' ? [...FOR_TARGETS.library, ...BY_TARGETS.library] : LINKED_TARGETS[this.entity];
    return this.nameBeforeVerb(
      start,
      String.raw`(?:(?:did|has|have|had|do|does|is|was|were|are|where|in\s+which)\s+)?`,
      String.raw`(?:(?:is|was|were|are|has\s+been|have\s+been|got)\s+)?(?:(?:involved|connected|linked|related|associated|affiliated|tied)(?:\s+(?:in|to|with))?|took\s+part(?:\s+in)?|participated(?:\s+in)?|(?:was|is)\s+a\s+party(?:\s+to)?|appears?|appeared)`,
      targets,
    );
  }

  /** "(everything) Emily Carter wrote", "what has Jane Doe written": library entries by that author. */
  private async authoredBeforeVerb(): Promise<boolean> {
    if (this.entity !== 'library') return false;
    return this.nameBeforeVerb(
      this.skipSpace(),
      String.raw`(?:(?:did|has|have|had)\s+)?`,
      String.raw`(?:(?:has|have|had|did)\s+)?(?:wrote|write|written|authored|author|penned|published)`,
      BY_TARGETS.library,
    );
  }

  /**
   * A name between a lead (`did`, `was` …) and a verb after it, read among `targets`. A name
   * nobody has is not read here: its words are left to the other phrasings (and reported if none
   * reads them).
   */
  private async nameBeforeVerb(start: number, lead: string, verb: string, targets: Array<{ relation: string; kind: NamedKind }>): Promise<boolean> {
    const named = new RegExp(String.raw`${lead}(["“]?[^\s,;:?!"“”][^,;:?!]{0,80}?["”]?)\s+${verb}(?=$|[\s,;:?!.])`, 'y');
    named.lastIndex = start;
    const found = named.exec(this.lower);
    if (!found) return false;
    const nameStart = start + found[0].indexOf(found[1]!);
    const name = this.question.slice(nameStart, nameStart + found[1]!.length).replace(/^["“]|["”]$/g, '').trim();
    const first = name.split(/\s+/)[0]!.toLowerCase();
    if (FILLER.has(first) || STOP_WORDS.has(first) || this.isEntityWordAt(nameStart)) return false;
    this.pos = start + found[0].length;
    const value = { text: name, start: nameStart, end: nameStart + found[1]!.length };
    if (!(await this.relationCondition(value, targets, this.negation ? 'not' : 'is', this.textFrom(this.negation?.start ?? start)))) return false;
    this.negation = null;
    return true;
  }

  /** "Jane Doe's deals", "Emily Carter's articles", "Acme Robotics' contacts": the record whose they are, through the entity's relation to it. */
  private async possessive(): Promise<boolean> {
    const start = this.skipSpace();
    const found = /^([^\s,;:?!"“”'][^,;:?!"“”]{0,60}?)(?:'s|(?<=s)')(?=\s)/.exec(this.lower.slice(start));
    if (!found) return false;
    const end = start + found[0].length;
    const name = this.question.slice(start, start + found[1]!.length);
    if (FILLER.has(name.toLowerCase()) || !this.isEntityWordAt(end + (/^\s*/.exec(this.lower.slice(end))?.[0].length ?? 0))) return false;
    const targets = this.entity === 'library' ? [...BY_TARGETS.library, ...FOR_TARGETS.library] : this.entity === 'ledger_entries' ? FOR_TARGETS.ledger_entries : LINKED_TARGETS[this.entity];
    this.pos = end;
    const { negated, start: from } = this.takeNegation(start);
    return this.relationCondition({ text: name, start, end }, targets, negated ? 'not' : 'is', this.question.slice(from, end).trim());
  }

  private async keywordCondition(value: Written, op: ConditionOp, text: string): Promise<boolean> {
    if (!this.allows('keywords', op)) return false;
    const keyword = await this.resolveKeyword(value.text);
    return keyword !== null && this.add('keywords', op, [keyword.id], [keyword.name], text);
  }

  /** A related record by its name, else (said as a correction) by a name like it ("Acme Robotcs"). */
  private async relationCondition(value: Written, targets: Array<{ relation: string; kind: NamedKind }>, op: ConditionOp, text: string): Promise<boolean> {
    const allowed = targets.filter((target) => this.allows(target.relation, op));
    for (const target of allowed) {
      const record = await this.options.resolver.record(target.kind, value.text);
      if (record) return this.add(target.relation, op, [record.id], [record.name], text);
    }
    for (const target of allowed) {
      const record = await this.similarRecord(target.kind, value.text);
      if (record) return this.add(target.relation, op, [record.id], [record.name], text);
    }
    return false;
  }

  /** A record whose name is like the text (a typo), said as a correction; only for names of four letters or more. */
  private async similarRecord(kind: NamedKind, text: string) {
    if (text.replace(/\s/g, '').length < 4) return null;
    const record = await this.options.resolver.similarRecord(kind, text);
    // A look-alike only when every word written is like a word of its name: "Acme Robotcs" is
    // Acme Robotics Ltd, "acme robotics series b" is not (it names something else).
    if (!record || !wordsAlike(text, record.name)) return null;
    this.corrections.push({ written: text, read: record.name });
    return record;
  }

  private async categoryCondition(value: Written, field: string, op: ConditionOp, text: string, asTyped = false): Promise<boolean> {
    if (!this.allows(field, op)) return false;
    const stored = await this.options.resolver.categoryValue(this.entity, field, value.text);
    // A capitalized name no visible record holds is still most likely a city ("in Springfield").
    const written = asTyped && /^\p{Lu}/u.test(value.text) ? value.text : null;
    const chosen = stored ?? written;
    return chosen !== null && this.add(field, op, [chosen], [chosen], text);
  }

  /** A stored value like the one written ("Londn" → London), said as a correction. */
  private async similarCondition(value: Written, field: string, op: ConditionOp, text: string): Promise<boolean> {
    if (!this.allows(field, op) || value.text.length < 4) return false;
    const similar = await this.options.resolver.similarValue(this.entity, field, value.text);
    if (!similar || !wordsAlike(value.text, similar) || !this.add(field, op, [similar], [similar], text)) return false;
    this.corrections.push({ written: value.text, read: similar });
    return true;
  }

  /** "in Berlin", "based in Paris or London", "from Germany", "not in Berlin", "outside Berlin". */
  private async places(afterOutside = false): Promise<boolean> {
    const start = this.skipSpace();
    if (!afterOutside && !this.at(/(?:(?:headquartered|hq'?d|hq'?ed|hq|based|located|living|lives?|residing|resides?|registered|situated)\s+)?(?:in|from)\s+/)) return false;
    const values = this.readValues();
    if (values.length === 0) return false;
    const { negated, start: from } = this.takeNegation(start);
    this.lastValues = (more, negatedMore, text) => this.placeValues(more, negatedMore, text);
    await this.placeValues(values, negated, this.question.slice(from, this.pos).trim());
    return true;
  }

  private async placeValues(values: Written[], negated: boolean, text: string): Promise<void> {
    const op: ConditionOp = negated ? 'not' : 'is';
    for (const value of values) {
      let used = false;
      // "in Germany" for organizations: a country, when no row holds it as a city, is its cities.
      const country = COUNTRY_CITY[this.entity] && /^\p{Lu}/u.test(value.text) ? [value.text, ...(countryOf(value.text) ?? [])] : null;
      if (country && countryCode(country) && !(await this.options.resolver.categoryValue(this.entity, COUNTRY_CITY[this.entity]!, value.text))) {
        used = await this.countryCities(country, op, text);
        if (used) continue;
      }
      for (const target of PLACES[this.entity]) {
        // "people in Key Investors": a list of the entity's kind, before a misspelt or unknown city.
        if ('category' in target && target.asTyped) used = (await this.listCondition(value.text, op, text)) || (await this.similarCondition(value, target.category, op, text));
        if (used) break;
        if ('category' in target) used = await this.categoryCondition(value, target.category, op, text, target.asTyped);
        else if ('relation' in target) used = await this.relationCondition(value, [target], op, text);
        else used = await this.keywordCondition(value, op, text);
        if (used) break;
      }
      // "what's in Required Reading?": a list of the entity's kind.
      if (!used) used = await this.listCondition(value.text, op, text);
      if (!used) {
        this.notUnderstood.push(value.text);
        this.notes.push(`No place named “${value.text}” was found.`);
      }
    }
  }

  private searchWords(): boolean {
    const start = this.skipSpace();
    if (!this.at(/(?:named|called|titled|containing|matching|with\s+the\s+words?|with\s+text|search(?:ing)?\s+for|look(?:ing)?\s+for)\s+/)) return false;
    const values = this.readValues();
    if (values.length === 0) {
      this.pos = start;
      return false;
    }
    this.searchParts.push(...values.map((value) => value.text));
    return true;
  }
}

/** Whether each word of `written` (of three letters or more) is within a few edits of a word of `name`. */
function wordsAlike(written: string, name: string): boolean {
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const named = fold(name);
  return fold(written).filter((word) => word.length >= 3).every((word) =>
    named.some((one) => one.startsWith(word) || (one.length >= 3 && word.startsWith(one)) || editDistance(one, word) <= Math.max(1, Math.floor(word.length / 3))));
}

/** An amount as written ("$5M", "2 million euros", "1.5bn"): its value, currency, and whether a currency or multiplier said it was money. */
function money(parts: Array<string | undefined>): { value: number; currency: string | null; written: string; explicit: boolean } | null {
  const [prefix, digits, multiplier, suffix] = parts;
  if (!digits) return null;
  // "1,500,000" and "1.5": commas group thousands unless a single comma is followed by one or two digits.
  const normalized = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(digits) ? digits.replaceAll(',', '') : /^\d+,\d{1,2}$/.test(digits) ? digits.replace(',', '.') : digits.replaceAll(',', '');
  if (!/^\d+(\.\d+)?$/.test(normalized)) return null;
  const value = Number(normalized) * (multiplier ? MULTIPLIERS[multiplier.toLowerCase()]! : 1);
  const sign = prefix?.trim().toLowerCase();
  const currencyOf = (word: string | undefined): string | null => {
    if (!word) return null;
    if (CURRENCY_SIGNS[word]) return CURRENCY_SIGNS[word]!;
    const named = CURRENCY_WORDS.find(([re]) => re.test(word.replace(/\s+/g, ' ')))?.[1];
    if (named) return named;
    return CURRENCIES.includes(word.toUpperCase()) ? word.toUpperCase() : null;
  };
  const currency = currencyOf(sign) ?? currencyOf(suffix?.toLowerCase());
  const written = `${prefix?.trim().toUpperCase() ?? ''}${prefix && /^[a-z]/i.test(prefix) ? ' ' : ''}${digits}${multiplier ?? ''}${suffix ? ` ${suffix}` : ''}`;
  return { value, currency, written, explicit: Boolean(currency || multiplier) };
}

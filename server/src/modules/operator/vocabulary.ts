/**
 * The words the Operator's parser knows: entity types, library types, the nouns of fields
 * (for "without an email", "sorted by founding date"), visibility words, filler words, and
 * the words that end a name ("in Berlin founded after 2015": "founded" ends "Berlin").
 */
import { LIBRARY_TYPES } from '../library/library.resource.ts';
import type { OperatorEntity } from '../../contracts.ts';

type LibraryType = (typeof LIBRARY_TYPES)[number];

/** Words naming each entity type (regular expression sources, lower case). */
export const ENTITY_WORDS: Record<OperatorEntity, string> = {
  ledger_entries: String.raw`ledger(?:\s+(?:entries|entry|items?|records?|data|lines?))?|data\s+points?|transactions?|deals?`,
  library: String.raw`library(?:\s+(?:entries|entry|items?|records?|documents?))?|documents|publications?|sources|pieces?|writings?`,
  organizations: String.raw`organi[sz]ations?|orgs?|compan(?:y|ies)|cos|firms?|startups?|businesses|business|corporations?|institutions?|enterprises?`,
  people: String.raw`people|ppl|folks|persons?|individuals?|contacts?|women|men|females?|males?|everyone|everybody|anyone|anybody|(?:passport\s+)?holders|nationals|citizens`,
  // Lists as the subject ("show all lists", "people lists"): detectEntity reads them only where no list is named.
  lists: String.raw`lists|collections`,
};

/** Kinds of list by the words of the entity their items are ("organization lists", "lists of people"). */
export const LIST_KIND_WORDS: Array<[string, string]> = [
  [String.raw`organi[sz]ations?|orgs?|compan(?:y|ies)|firms?|startups?|business(?:es)?|corporations?|institutions?`, 'OrganizationsList'],
  [String.raw`people|persons?|individuals?|contacts?|investors?`, 'PeopleList'],
  [String.raw`ledger(?:\s+(?:entries|entry))?|deals?|transactions?`, 'LedgerList'],
  [String.raw`library(?:\s+(?:entries|entry))?|documents?|reports?|publications?|reading`, 'LibraryList'],
];

/** Library types by the words that name them (plural or singular). */
export const LIBRARY_TYPE_WORDS: Array<[string, LibraryType]> = [
  [String.raw`reports?`, 'Report'],
  [String.raw`podcasts?|episodes?`, 'Podcast'],
  [String.raw`articles?|news\s+articles?|news`, 'Article'],
  [String.raw`books?`, 'Book'],
  [String.raw`papers?|research\s+papers?|studies|study|literature`, 'Literature/Paper'],
  [String.raw`decks?|memos?|presentations?|slides?|slide\s+decks?`, 'Deck/Memo/Presentation'],
  [String.raw`documentar(?:y|ies)|films?`, 'Documentary'],
  [String.raw`essays?|whitepapers?|white\s+papers?|opinions?|opinion\s+pieces?|blog\s+posts?|posts?|thoughts`, 'Essay/Thoughts/Whitepaper/Opinion/Post'],
  [String.raw`events?`, 'Event'],
  [String.raw`filings?`, 'Filing'],
  [String.raw`graphics?|charts?|infographics?`, 'Graphic'],
  [String.raw`quotes?|quotations?`, 'Quote'],
  [String.raw`interviews?|profiles?|bios?|biograph(?:y|ies)|obituar(?:y|ies)`, 'Bio/Obituary/Profile/Interview'],
  [String.raw`databases?|rankings?|datasets?`, 'Database/List/Ranking'],
  [String.raw`notes`, 'Documents/Notes'],
];
export const LIBRARY_TYPE_PATTERN = LIBRARY_TYPE_WORDS.map(([words]) => words).join('|');

export function libraryTypeOf(word: string): LibraryType | null {
  return LIBRARY_TYPE_WORDS.find(([words]) => new RegExp(`^(?:${words})$`).test(word))?.[1] ?? null;
}

/** Field nouns per entity, for emptiness ("without an email") and ordering ("by founding date"), most specific first. */
export const FIELD_NOUNS: Record<OperatorEntity, Array<[string, string]>> = {
  organizations: [
    [String.raw`e-?mails?(?:\s+address(?:es)?)?`, 'emails'],
    [String.raw`(?:phone|telephone)(?:\s+numbers?)?s?|phones`, 'phones'],
    [String.raw`websites?|web\s+sites?|urls?|links?|web\s+address(?:es)?`, 'associated_urls'],
    [String.raw`keywords?|tags?`, 'keywords'],
    [String.raw`founding\s+(?:date|year)|foundation\s+(?:date|year)|date\s+(?:of\s+)?founding|founding|founded\s+date|year\s+founded`, 'founding_date'],
    [String.raw`(?:hq|headquarters?)(?:\s+city)?|city`, 'hq_city'],
    [String.raw`ownership(?:\s+type)?`, 'ownership_type'],
    [String.raw`(?:legal\s+)?names?`, 'display_name'],
  ],
  people: [
    [String.raw`e-?mails?(?:\s+address(?:es)?)?`, 'emails'],
    [String.raw`(?:phone|telephone|mobile)(?:\s+numbers?)?s?|phones`, 'phones'],
    [String.raw`websites?|web\s+sites?|urls?|links?|linkedin`, 'associated_urls'],
    [String.raw`keywords?|tags?`, 'keywords'],
    [String.raw`birth\s*(?:date|day)s?|date\s+of\s+birth|birthdays?|dob|age`, 'birth_date'],
    [String.raw`(?:met|meeting)\s+(?:event\s+)?date|date\s+met`, 'met_event_date'],
    [String.raw`passport\s+country|nationality|country|citizenship`, 'passport_country'],
    [String.raw`(?:address\s+|home\s+)?city|address`, 'current_address_city'],
    [String.raw`gender|sex`, 'gender'],
    [String.raw`(?:given|first)\s+names?`, 'name_given'],
    [String.raw`(?:family|last)\s+names?|surnames?`, 'name_family'],
    [String.raw`names?`, 'display_name'],
  ],
  ledger_entries: [
    [String.raw`keywords?|tags?`, 'keywords'],
    [String.raw`organi[sz]ations?|compan(?:y|ies)|orgs?`, 'organizations'],
    [String.raw`people|persons?`, 'people'],
    [String.raw`geos?|countr(?:y|ies)|regions?|locations?|places?`, 'geos'],
    [String.raw`amounts?|values?|sizes?|money`, 'amount'],
    [String.raw`currenc(?:y|ies)`, 'currency'],
    [String.raw`years?|dates?`, 'year'],
    [String.raw`quarters?`, 'quarter'],
    [String.raw`symbols?|tickers?`, 'symbol'],
    [String.raw`captions?|titles?|names?`, 'caption'],
  ],
  lists: [
    [String.raw`keywords?|tags?`, 'keywords'],
    [String.raw`descriptions?`, 'description'],
    [String.raw`kinds?|types?`, 'kind'],
    [String.raw`names?|titles?`, 'display_name'],
  ],
  library: [
    [String.raw`keywords?|tags?`, 'keywords'],
    [String.raw`authors?|writers?`, 'authors'],
    [String.raw`organi[sz]ations?|compan(?:y|ies)|assets?|subjects?`, 'assets'],
    [String.raw`publish(?:ing)?\s+dates?|publication\s+dates?|dates?|date\s+published`, 'publish_date'],
    [String.raw`publishers?|sources?|outlets?`, 'publisher'],
    [String.raw`types?|kinds?`, 'type'],
    [String.raw`titles?|names?`, 'title'],
  ],
};

/** Visibility words → the stored visibility. */
export const VISIBILITY_WORDS: Array<[string, 'public' | 'paywalled' | 'hidden']> = [
  ['public', 'public'],
  ['paywalled|paywall|premium|subscribers?[\\s-]only', 'paywalled'],
  ['hidden|unpublished', 'hidden'],
];
export const VISIBILITY_PATTERN = VISIBILITY_WORDS.map(([words]) => words).join('|');

/** Words that carry no meaning of their own in a question. */
export const FILLER = new Set([
  'a', 'an', 'the', 'all', 'any', 'every', 'each', 'some', 'me', 'show', 'list', 'find', 'get', 'give', 'display', 'search',
  'fetch', 'return', 'which', 'what', 'who', 'whose', 'that', 'are', 'is', 'were', 'was', 'be', 'been', 'of', 'and', 'please',
  'i', 'we', 'our', 'my', 'you', 'can', 'could', 'would', 'want', 'need', 'like', 'to', 'see', 'there', 'do', 'does', 'have',
  'has', 'had', 'with', 'records', 'record', 'ones', 'one', 'results', 'result', 'items', 'entries', 'entry', 'those', 'them',
  'these', 'lookup', 'look', 'up', 'tell', 'about', 'also', 'just', 'only', 'known', 'currently', 'where', 'it', 'its', 'they',
  'their', 'in', 'on', 'at', 'for', 'from', 'by', 'or', 'than', 'both', 'either', 'so', 'far', 'how', 'many', "i'm", 'im',
  'looking', 'interested', 'searching', 'kindly', 'now', 'currently', 'recorded', 'stored', 'saved', 'database',
  'holders', 'holder', 'nationals', 'citizens', 'members', 'passport', 'passports', 'ownership', 'owned', 'enterprises',
  'anything', 'everything', 'something', 'things', 'thing', 'stuff',
  // Verbs and nouns that say nothing about which records ("which lists exist", "people we track", "deals with no people attached").
  'exist', 'exists', 'existing', 'track', 'tracked', 'follow', 'attached', 'whats', "what's", 'investment', 'available', 'there',
]);

/** Words that end a name or value being read ("Berlin" in "in Berlin founded after 2015"). */
export const STOP_WORDS = new Set([
  'in', 'not', 'no', 'without', 'with', 'tagged', 'labeled', 'labelled', 'about', 'for', 'by', 'from', 'since', 'after',
  'before', 'until', 'till', 'between', 'over', 'under', 'above', 'below', 'more', 'less', 'fewer', 'founded', 'established',
  'incorporated', 'started', 'born', 'met', 'published', 'released', 'dated', 'sorted', 'ordered', 'order', 'sort', 'newest',
  'oldest', 'latest', 'earliest', 'largest', 'smallest', 'biggest', 'highest', 'lowest', 'youngest', 'top', 'first', 'that',
  'who', 'which', 'where', 'whose', 'and', 'mentioning', 'involving', 'regarding', 'concerning', 'on', 'named', 'called',
  'containing', 'excluding', 'except', 'limit', 'having', 'has', 'have', 'alphabetically', 'recently', 'during', 'this',
  'last', 'than', 'at', 'but', 'only', 'located', 'based', 'headquartered', 'living', 'live', 'lives', 'resides', 'are', 'is', 'were', 'was', 'within',
  'missing', 'lacking', 'worth', 'exceeding', 'ascending', 'descending', 'asc', 'desc', 'written', 'authored', 'whose',
  'untagged', 'favorite', 'favourite', 'favorites', 'favourites', 'starred', 'outside', 'other', 'apart',
  'list', 'don\'t', 'doesn\'t', 'aren\'t', 'isn\'t', 'added', 'created', 'updated', 'modified', 'changed', 'edited', 'worth',
]);

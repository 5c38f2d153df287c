/**
 * People and organizations by rules: capitalized word runs are cut into
 * candidate names, and each candidate is judged by the cues around it —
 * titles ("Dr"), roles ("chief executive"), verbs of saying ("said"), legal
 * forms ("GmbH"), appositions ("X, the chief executive of Y"), given names,
 * business nouns ("the lender X") — never by its capital letter alone. A
 * candidate without a cue is no entity: precision first.
 */
import countries from 'i18n-iso-countries';
import {
  ACRONYM_STOP, LEGAL_SUFFIXES, NAME_PARTICLES, ORGANIZATION_CUES_BEFORE, ORGANIZATION_HEADS, ORGANIZATION_VERBS,
  ORGANIZATION_VERBS_BEFORE, ORGANIZATION_WORDS, PERSON_PARTICLES, PERSON_TITLES, REPORTING_VERBS, ROLE_WORDS,
  STOP_WORDS, STRONG_PERSON_TITLES, WORDS_THAT_ARE_ALSO_NAMES, loadGivenNames,
} from './lexicon.ts';
import { foldName } from './normalize.ts';
import type { Token } from './tokens.ts';

export type NameType = 'PER' | 'ORG';

/** A cue and what it says: the type and how sure it makes us (0..1). */
export interface Signal {
  cue: string;
  type: NameType;
  weight: number;
}

export interface Candidate {
  /** Token indices, end exclusive. */
  firstToken: number;
  endToken: number;
  signals: Signal[];
  /** Never a name, whatever the cues or the model say (a common word, a country). */
  vetoed?: boolean;
  /** The rules' verdict: the type and confidence, or none. */
  type?: NameType;
  confidence: number;
}

/** Confidence at which a rule verdict becomes a mention. */
export const RULE_THRESHOLD = 0.6;

let countryNames: Set<string> | undefined;
function isCountryName(folded: string): boolean {
  if (!countryNames) {
    countryNames = new Set<string>();
    for (const names of Object.values(countries.getNames('en', { select: 'all' }))) {
      for (const name of names) countryNames.add(foldName(name));
    }
    for (const extra of ['europe', 'asia', 'africa', 'america', 'north america', 'south america', 'latin america', 'middle east', 'scandinavia', 'gulf', 'the gulf', 'eurozone', 'euro area', 'wall street', 'silicon valley', 'european union']) countryNames.add(extra);
  }
  return countryNames.has(folded);
}

const isParticle = (token: Token) => NAME_PARTICLES.has(token.key) && !token.capitalized;
const isNameWord = (token: Token) => token.isWord && !token.isNumber && token.capitalized;
/** "Munich-based", "Paris-headquartered": a place glued to a business adjective. */
const isPlaceAdjective = (token: Token) => /-(based|headquartered|listed|registered|owned)$/.test(token.key);

/** Legal forms written in lower case after a name ("Orbex Holdings plc", "Hafnarfjordur Seafood hf."). */
const LOWER_CASE_LEGAL_FORMS = new Set(['plc', 'hf', 'ehf', 'gmbh', 'llc', 'ltd', 'inc', 'bv', 'nv', 'sa', 'spa', 'kg', 'oy', 'oyj', 'asa']);
/** Words after which an organization's name is complete. */
const ENDS_ORGANIZATION_NAME = new Set([...LEGAL_SUFFIXES, 'holdings', 'group', 'partners', 'capital', 'ventures', 'technologies', 'energy']);

/** Words that end a run of capitalized words instead of joining it ("After", "The", "March"). */
function breaksName(token: Token): boolean {
  if (!STOP_WORDS.has(token.key)) return false;
  return !(LEGAL_SUFFIXES.has(token.key) || ORGANIZATION_WORDS.has(token.key) || WORDS_THAT_ARE_ALSO_NAMES.has(token.key));
}

/** Maximal runs of capitalized words in one sentence, cut at common words and titles. */
export function findCandidateSpans(tokens: Token[], blocked: (index: number) => boolean): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    if (!isNameWord(token) || blocked(index) || breaksName(token) || PERSON_TITLES.has(token.key) || isPlaceAdjective(token)) {
      index++;
      continue;
    }
    let end = index + 1;
    while (end < tokens.length) {
      const next = tokens[end]!;
      if (next.sentence !== token.sentence || blocked(end)) break;
      // A legal form or a word like "Holdings" ends an organization's name: in a Title Case
      // headline the next capitalized word is the verb ("Helvion AG Sells Coatings Unit").
      // Another organization word still belongs to it ("International Atomic Energy Agency").
      if (ENDS_ORGANIZATION_NAME.has(tokens[end - 1]!.key) && next.key !== 'of' && next.text !== '&' && !LEGAL_SUFFIXES.has(next.key) && !ORGANIZATION_WORDS.has(next.key)) break;
      if (isNameWord(next) && !breaksName(next) && !isPlaceAdjective(next) && !(PERSON_TITLES.has(next.key) && !LEGAL_SUFFIXES.has(next.key))) {
        end++;
        continue;
      }
      // A lower-case legal form ends the name ("Orbex Holdings plc").
      if (!next.capitalized && LOWER_CASE_LEGAL_FORMS.has(next.key)) {
        end++;
        break;
      }
      // A particle or "&" joins only when a capitalized word follows: "Ursula von der Leyen",
      // "Procter & Gamble"; "of" only after an organization's head word ("Bank of Montreal"),
      // and "and" never ("Deutsche Bank and Commerzbank" are two).
      let particles = 0;
      if (next.text === '&') particles = 1;
      else if (next.key === 'of') particles = ORGANIZATION_HEADS.has(tokens[end - 1]!.key) || ORGANIZATION_WORDS.has(tokens[end - 1]!.key) ? 1 : 0;
      else while (particles < 3 && tokens[end + particles] && isParticle(tokens[end + particles]!) && !['of', 'and'].includes(tokens[end + particles]!.key)) particles++;
      const after = tokens[end + particles];
      if (particles > 0 && after && isNameWord(after) && !breaksName(after) && after.sentence === token.sentence) {
        end += particles + 1;
        continue;
      }
      break;
    }
    spans.push([index, end]);
    index = end;
  }
  return spans;
}

const keyAt = (tokens: Token[], index: number): string => (index >= 0 && index < tokens.length ? tokens[index]!.key : '');

/** Is there a role word among the few tokens before index ("chief executive of", "analyst at")? */
function roleBefore(tokens: Token[], index: number, reach: number): boolean {
  for (let back = index - 1; back >= Math.max(0, index - reach); back--) {
    const token = tokens[back]!;
    if (ROLE_WORDS.has(token.key)) return true;
    if (!token.isWord || token.capitalized && !ROLE_WORDS.has(token.key) && !STOP_WORDS.has(token.key)) return false;
  }
  return false;
}

/** ", the chief executive of", ", 52, a partner at": a role right after the name. */
function appositionRoleAfter(tokens: Token[], end: number): boolean {
  if (tokens[end]?.text !== ',') return false;
  let index = end + 1;
  if (tokens[index]?.isNumber && tokens[index + 1]?.text === ',') index += 2;
  const limit = Math.min(tokens.length, index + 5);
  for (; index < limit; index++) {
    const token = tokens[index]!;
    if (ROLE_WORDS.has(token.key)) return true;
    if (token.text === ',' || token.text === '.') return false;
  }
  return false;
}

/** ", a Lyon-based lender", ", the Swiss insurer": a business noun right after the name. */
function appositionBusinessAfter(tokens: Token[], end: number): boolean {
  if (tokens[end]?.text !== ',') return false;
  const article = tokens[end + 1]?.key;
  if (article !== 'a' && article !== 'an' && article !== 'the') return false;
  for (let index = end + 2; index < Math.min(tokens.length, end + 6); index++) {
    const token = tokens[index]!;
    if (ORGANIZATION_CUES_BEFORE.has(token.key) || ORGANIZATION_WORDS.has(token.key)) return true;
    if (token.text === ',' || token.text === '.') return false;
  }
  return false;
}

const POSSESSED_BY_ORGANIZATIONS = new Set([
  'board', 'shares', 'stock', 'subsidiary', 'unit', 'headquarters', 'revenue', 'revenues', 'sales', 'profit',
  'earnings', 'shareholders', 'investors', 'customers', 'employees', 'staff', 'factory', 'plant', 'plants',
  'division', 'acquisition', 'takeover', 'bid', 'stake', 'valuation', 'market', 'products', 'brand', 'chief',
  'ceo', 'cfo', 'chairman', 'founder', 'spokesperson', 'spokesman', 'spokeswoman', 'management', 'bonds',
  'debt', 'offer', 'merger', 'parent', 'annual', 'quarterly', 'fiscal', 'results', 'guidance',
]);

export interface NameContext {
  tokens: Token[];
  /** Lower-cased words written in lower case somewhere in the text: "will", "apple". */
  lowercaseWords: Set<string>;
  /** Sentences written in Title Case, like headlines: most of their words capitalized. */
  titleCaseSentences: Set<number>;
  /**
   * Sentences written without capitals ("met carlos at the blackrock event") or all in capitals:
   * capitalization says nothing there, so the tagger reads names from words and lists alone.
   */
  lowerCaseSentences: Set<number>;
  allCapsSentences: Set<number>;
}

/** Every cue around the span, with what it says. */
export function signalsFor(context: NameContext, first: number, end: number): Signal[] {
  const { tokens } = context;
  const givenNames = loadGivenNames();
  const span = tokens.slice(first, end);
  const words = span.filter((token) => !isParticle(token) && token.text !== '&');
  const firstToken = span[0]!;
  const lastToken = span[span.length - 1]!;
  const count = words.length;
  const signals: Signal[] = [];
  const add = (cue: string, type: NameType, weight: number) => signals.push({ cue, type, weight });
  const previous = keyAt(tokens, first - 1);
  const previousToken = tokens[first - 1];
  const next = keyAt(tokens, end);
  const afterNext = keyAt(tokens, end + 1);

  // Organizations: their names say so.
  if (count >= 2 && LEGAL_SUFFIXES.has(lastToken.key)) add('legal-suffix', 'ORG', 0.95);
  else if (count >= 2 && ORGANIZATION_WORDS.has(lastToken.key)) add('organization-word', 'ORG', 0.85);
  else if (count >= 2 && words.slice(1).some((token) => ORGANIZATION_WORDS.has(token.key) || LEGAL_SUFFIXES.has(token.key))) add('organization-word-inside', 'ORG', 0.75);
  if (count >= 2 && ORGANIZATION_HEADS.has(firstToken.key) && tokens[first + 1]?.key === 'of') add('organization-head', 'ORG', 0.85);
  if (count === 1 && firstToken.allCaps && firstToken.key.length <= 6 && !ACRONYM_STOP.has(firstToken.key)) add('acronym', 'ORG', 0.55);

  // Organizations: the words around them.
  if (previousToken && isPlaceAdjective(previousToken)) add('place-based', 'ORG', 0.85);
  if (ORGANIZATION_CUES_BEFORE.has(previous)) add('business-noun-before', 'ORG', 0.8);
  if (ORGANIZATION_VERBS_BEFORE.has(previous)) add('business-verb-before', 'ORG', 0.75);
  if ((previous === 'of' || previous === 'at' || previous === 'for' || previous === 'with') && roleBefore(tokens, first - 1, 3)) add('role-of', 'ORG', 0.85);
  if ((next === "'s" || next === '’s') && POSSESSED_BY_ORGANIZATIONS.has(afterNext)) add('possessive-business', 'ORG', 0.8);
  if (next === 'shares' || next === 'stock' || (next === 'share' && afterNext === 'price')) add('shares-after', 'ORG', 0.8);
  if (ORGANIZATION_VERBS.has(next)) add('business-verb-after', 'ORG', 0.6);
  if (appositionBusinessAfter(tokens, end)) add('apposition-business', 'ORG', 0.85);
  if ((next === 'spokesperson' || next === 'spokesman' || next === 'spokeswoman') || (next === 'chief' && afterNext === 'executive')) add('role-after', 'ORG', 0.8);

  // People: titles, roles, given names, verbs of saying, appositions.
  if (PERSON_TITLES.has(previous)) {
    if (STRONG_PERSON_TITLES.has(previous)) add('strong-title', 'PER', 0.95);
    else add('title', 'PER', count >= 2 ? 0.9 : 0.7);
  }
  const namelike = words.every((token) => token.capitalized && !token.allCaps) && count >= 2 && count <= 4 && !span.some((token) => token.text === '&');
  if (count >= 2 && span.some((token) => token.text === '&') && !joinsNamesOfOtherKinds(span, givenNames)) add('ampersand', 'ORG', 0.8);
  // "X, who …" is a person; organizations take "which".
  if (count >= 2 && count <= 4 && next === ',' && afterNext === 'who') add('who-clause', 'PER', 0.75);
  const startsWithGivenName = givenNames.has(firstToken.key);
  // In a Title Case headline every word looks like a name ("Beat" is a Swiss given name).
  if (namelike && startsWithGivenName && !(firstToken.sentenceStart && STOP_WORDS.has(firstToken.key))) add('given-name', 'PER', context.titleCaseSentences.has(firstToken.sentence) ? 0.5 : 0.8);
  if (namelike && span.some(isParticle) && span.filter(isParticle).every((token) => PERSON_PARTICLES.has(token.key))) add('name-particle', 'PER', 0.6);
  // "chief executive Tamsin Okafor", not "chief executive of Delta Havens".
  if (count >= 2 && count <= 4 && ROLE_WORDS.has(previous) && !PERSON_TITLES.has(previous)) add('role-before', 'PER', 0.8);
  // Organizations say things too: a verb of saying settles a person only with a given name.
  const sayingWeight = startsWithGivenName ? 0.8 : 0.55;
  if (count >= 2 && count <= 4 && REPORTING_VERBS.has(next)) add('reporting-verb-after', 'PER', sayingWeight);
  if (count >= 2 && count <= 4 && (previous === 'said' || previous === 'says' || (previous === 'to' && keyAt(tokens, first - 2) === 'according'))) add('attribution-before', 'PER', sayingWeight);
  // "Dear Priya", "Hi Rafael", "From: Stefan Brunner": a given name addressed or signing.
  const greeting = ['dear', 'hi', 'hello', 'hey', 'thanks'].includes(previous) ||
    (previous === ',' && ['best', 'regards', 'cheers', 'thanks', 'sincerely'].includes(keyAt(tokens, first - 2))) ||
    (previous === ':' && ['from', 'to', 'cc', 'contact', 'owner', 'approver', 'speaker', 'name', 'analyst', 'author'].includes(keyAt(tokens, first - 2)));
  if (greeting && startsWithGivenName && count <= 3 && words.every((token) => token.capitalized && !token.allCaps)) add('addressed', 'PER', 0.8);
  if (count >= 2 && count <= 4 && appositionRoleAfter(tokens, end)) add('apposition-role', 'PER', 0.85);
  if (count >= 2 && count <= 4 && next === ',' && /^\d{2}$/.test(tokens[end + 1]?.text ?? '') && tokens[end + 2]?.text === ',') add('age-after', 'PER', 0.85);
  return signals;
}

/**
 * "Mark Zuckerberg & Sheryl Sandberg", "Will & Kate", "Wales & N Ireland": an ampersand between
 * people or places joins two names, not the parts of one ("Marks & Spencer", "Ernst & Young").
 * People: a side that is a given name and more capitalized words (a lone given name is not
 * enough: "Johnson & Johnson", "Simon & Schuster"); places: a side that is a country.
 */
function joinsNamesOfOtherKinds(span: Token[], givenNames: Set<string>): boolean {
  const sides: Token[][] = [[]];
  for (const token of span) {
    if (token.text === '&') sides.push([]);
    else if (token.isWord) sides[sides.length - 1]!.push(token);
  }
  if (sides.some((side) => side.length === 0)) return false;
  const person = (side: Token[]) => side.length >= 2 && side.length <= 3 && givenNames.has(side[0]!.key) && side.every((token) => token.capitalized && !token.allCaps);
  if (sides.some(person)) return true;
  return sides.some((side) => isCountryName(foldName(side.map((token) => token.text).join(' '))));
}

/** Settles the type from the signals: names that carry a legal form stay organizations. */
export function judge(signals: Signal[]): { type?: NameType; confidence: number } {
  let person = 0;
  let organization = 0;
  for (const signal of signals) {
    if (signal.type === 'PER') person = Math.max(person, signal.weight) + (person > 0 ? 0.05 : 0);
    else organization = Math.max(organization, signal.weight) + (organization > 0 ? 0.05 : 0);
  }
  const named = signals.some((signal) => signal.cue === 'legal-suffix' || signal.cue === 'organization-word' || signal.cue === 'organization-head');
  if (named) return { type: 'ORG', confidence: Math.min(0.99, organization) };
  if (person === 0 && organization === 0) return { confidence: 0 };
  // A given name or a title is about the name itself; business words around it may be about a neighbour.
  const personal = signals.some((signal) => signal.cue === 'given-name' || signal.cue === 'strong-title' || signal.cue === 'title');
  const organizationOnlyBeside = signals.every((signal) => signal.type === 'PER' || signal.cue === 'apposition-business');
  if (personal && organizationOnlyBeside && person >= organization - 0.1) return { type: 'PER', confidence: Math.min(0.99, person - 0.1) };
  if (person >= organization) return { type: 'PER', confidence: Math.min(0.99, person - (organization > 0 ? 0.15 : 0)) };
  return { type: 'ORG', confidence: Math.min(0.99, organization - (person > 0 ? 0.15 : 0)) };
}

/** Reasons a span is no person or organization whatever its cues say. */
export function vetoed(context: NameContext, first: number, end: number): boolean {
  const span = context.tokens.slice(first, end);
  const words = span.filter((token) => !isParticle(token) && token.text !== '&');
  if (words.length === 0 || words.length > 7) return true;
  if (words.length === 1) {
    const only = words[0]!;
    if (STOP_WORDS.has(only.key) || only.key.length < 2) return true;
    if (ORGANIZATION_WORDS.has(only.key) || LEGAL_SUFFIXES.has(only.key) || ROLE_WORDS.has(only.key)) return true;
    // Written in lower case elsewhere in the text: a common word at a sentence start or in a headline.
    // (A word written in lower case here — a tweet's "@colgo", "met carlos" — is not "elsewhere".)
    if (only.capitalized && context.lowercaseWords.has(only.text.toLowerCase())) return true;
  }
  return isCountryName(foldName(span.map((token) => token.text).join(' ')));
}

export function judgeCandidates(context: NameContext, spans: Array<[number, number]>): Candidate[] {
  return spans.map(([first, end]) => {
    if (vetoed(context, first, end)) return { firstToken: first, endToken: end, signals: [], confidence: 0, vetoed: true };
    const signals = signalsFor(context, first, end);
    return { firstToken: first, endToken: end, signals, ...judge(signals) };
  });
}

/**
 * Names already settled in the text settle their repetitions: "Weber" after
 * "Anna Weber", "Orbex" after "Orbex Holdings", "Kestrel Partners" again.
 */
export function propagate(context: NameContext, candidates: Candidate[]): void {
  const known = new Map<string, { type: NameType; confidence: number }>();
  const remember = (key: string, type: NameType, confidence: number) => {
    const existing = known.get(key);
    if (!existing || existing.confidence < confidence) known.set(key, { type, confidence });
  };
  const textOf = (candidate: Candidate) =>
    context.tokens.slice(candidate.firstToken, candidate.endToken).map((token) => token.text).join(' ');
  for (const candidate of candidates) {
    if (!candidate.type || candidate.confidence < RULE_THRESHOLD) continue;
    const folded = foldName(textOf(candidate));
    const words = folded.split(' ');
    remember(folded, candidate.type, candidate.confidence);
    if (candidate.type === 'PER' && words.length >= 2) remember(words[words.length - 1]!, 'PER', candidate.confidence - 0.1);
    if (candidate.type === 'ORG' && words.length >= 2) {
      const withoutForm = words.slice(0, -1);
      while (withoutForm.length > 1 && LEGAL_SUFFIXES.has(withoutForm[withoutForm.length - 1]!)) withoutForm.pop();
      if (withoutForm.length > 0 && !STOP_WORDS.has(withoutForm.join(' '))) remember(withoutForm.join(' '), 'ORG', candidate.confidence - 0.1);
    }
  }
  for (const candidate of candidates) {
    if (candidate.type && candidate.confidence >= RULE_THRESHOLD) continue;
    const folded = foldName(textOf(candidate));
    const match = known.get(folded);
    if (!match || vetoed(context, candidate.firstToken, candidate.endToken)) continue;
    // A lone word that names a person elsewhere and an organization here stays as the rules said.
    candidate.type = match.type;
    candidate.confidence = Math.max(candidate.confidence, Math.min(0.85, match.confidence));
    candidate.signals.push({ cue: 'repeated-name', type: match.type, weight: candidate.confidence });
  }
}

/**
 * Word knowledge the parser applies to any question, not to phrasings: how alike two words
 * are (misspelt subjects, typed values), nationality and country adjectives, currencies named
 * in words, and other names of ownership types. The values themselves are the tenant's: a
 * word here only says which stored value it may mean.
 */
import isoCountries from 'i18n-iso-countries';
import { ENTITY_WORDS, LIBRARY_TYPE_WORDS } from './vocabulary.ts';

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** How many edits a word of this length may be from the word it was meant to be. */
export const allowedEdits = (length: number): number => (length >= 8 ? 2 : length >= 5 ? 1 : 0);

/**
 * The words that name entity types and library types, spelled out from the vocabulary's
 * patterns (only their plain alternatives: "organizations", "companies", "reports" …).
 */
const SUBJECT_WORDS: string[] = (() => {
  const sources = [...Object.values(ENTITY_WORDS), ...LIBRARY_TYPE_WORDS.map(([words]) => words)];
  const words = new Set<string>();
  const expand = (source: string): string[] => {
    // Alternatives at the top level, each with its optional endings written out.
    const out: string[] = [];
    for (const alternative of topLevel(source)) {
      // "ledger(?:\s+(?:entries|…))?": each word of a several-word name counts alone.
      if (/\\s/.test(alternative)) {
        out.push(...alternative.split(/\\s[+*]?/).flatMap((part) => expand(part.replace(/^\(\?:|\(\?:$|\)+\??$/g, ''))));
        continue;
      }
      const forms = alternative
        .replace(/\(\?:([a-z|]+)\)\??/g, (_m, group: string) => `{${group}${_m.endsWith('?') ? '|' : ''}}`)
        .replace(/([a-z])\?/g, '{$1|}')
        .replace(/\[([a-z]+)\]/g, (_m, chars: string) => `{${chars.split('').join('|')}}`);
      const expandBraces = (text: string): string[] => {
        const at = text.indexOf('{');
        if (at < 0) return [text];
        const close = text.indexOf('}', at);
        return text.slice(at + 1, close).split('|').flatMap((option) => expandBraces(text.slice(0, at) + option + text.slice(close + 1)));
      };
      out.push(...expandBraces(forms).filter((word) => /^[a-z]+$/.test(word)));
    }
    return out;
  };
  for (const source of sources) expand(source).forEach((word) => words.add(word));
  return [...words];
})();

/** The alternatives of a pattern at its top level (not inside a group). */
function topLevel(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of source) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === '|' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/**
 * A word read as the subject word it was most likely meant to be ("peple" → "people",
 * "orgnaisations" → "organisations"), or null when it is one already or none is close.
 */
export function subjectWordFor(word: string): string | null {
  const lower = word.toLowerCase();
  if (lower.length < 5 || SUBJECT_WORDS.includes(lower)) return null;
  let best: { word: string; distance: number } | null = null;
  for (const candidate of SUBJECT_WORDS) {
    if (Math.abs(candidate.length - lower.length) > 2) continue;
    const distance = editDistance(lower, candidate);
    if (distance <= allowedEdits(Math.min(lower.length, candidate.length)) && (!best || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word ?? null;
}

/** Countries by their adjectives and demonyms (lower case, singular and plural), with other names they are stored under. */
const COUNTRIES: Array<[string, string[], string[]]> = [
  ['United Kingdom', ['british', 'briton', 'britons', 'brit', 'brits', 'english', 'uk'], ['UK', 'Great Britain', 'Britain', 'England']],
  ['United States', ['american', 'americans', 'us', 'u.s.'], ['USA', 'US', 'United States of America', 'America']],
  ['France', ['french', 'frenchman', 'frenchmen', 'frenchwoman', 'frenchwomen'], []],
  ['Germany', ['german', 'germans'], ['Deutschland']],
  ['Switzerland', ['swiss'], []],
  ['Brazil', ['brazilian', 'brazilians'], ['Brasil']],
  ['Japan', ['japanese'], []],
  ['China', ['chinese'], ["People's Republic of China", 'PRC']],
  ['India', ['indian', 'indians'], []],
  ['Italy', ['italian', 'italians'], ['Italia']],
  ['Spain', ['spanish', 'spaniard', 'spaniards'], ['España']],
  ['Portugal', ['portuguese'], []],
  ['Netherlands', ['dutch'], ['The Netherlands', 'Holland']],
  ['Belgium', ['belgian', 'belgians'], []],
  ['Austria', ['austrian', 'austrians'], []],
  ['Sweden', ['swedish', 'swede', 'swedes'], []],
  ['Norway', ['norwegian', 'norwegians'], []],
  ['Denmark', ['danish', 'dane', 'danes'], []],
  ['Finland', ['finnish', 'finn', 'finns'], []],
  ['Ireland', ['irish'], []],
  ['Poland', ['polish', 'pole', 'poles'], []],
  ['Russia', ['russian', 'russians'], ['Russian Federation']],
  ['Ukraine', ['ukrainian', 'ukrainians'], []],
  ['Canada', ['canadian', 'canadians'], []],
  ['Mexico', ['mexican', 'mexicans'], []],
  ['Argentina', ['argentine', 'argentinian', 'argentinians', 'argentines'], []],
  ['Chile', ['chilean', 'chileans'], []],
  ['Colombia', ['colombian', 'colombians'], []],
  ['Australia', ['australian', 'australians', 'aussie', 'aussies'], []],
  ['New Zealand', ['new zealander', 'new zealanders', 'kiwi', 'kiwis'], []],
  ['South Korea', ['korean', 'koreans', 'south korean', 'south koreans'], ['Korea', 'Republic of Korea']],
  ['Singapore', ['singaporean', 'singaporeans'], []],
  ['Israel', ['israeli', 'israelis'], []],
  ['Turkey', ['turkish', 'turk', 'turks'], ['Türkiye']],
  ['Greece', ['greek', 'greeks'], []],
  ['Egypt', ['egyptian', 'egyptians'], []],
  ['Nigeria', ['nigerian', 'nigerians'], []],
  ['South Africa', ['south african', 'south africans'], []],
  ['Kenya', ['kenyan', 'kenyans'], []],
  ['Saudi Arabia', ['saudi', 'saudis'], []],
  ['United Arab Emirates', ['emirati', 'emiratis'], ['UAE']],
  ['Czech Republic', ['czech', 'czechs'], ['Czechia']],
  ['Hungary', ['hungarian', 'hungarians'], []],
  ['Romania', ['romanian', 'romanians'], []],
  ['Luxembourg', ['luxembourgish', 'luxembourger', 'luxembourgers'], []],
  ['Indonesia', ['indonesian', 'indonesians'], []],
  ['Vietnam', ['vietnamese'], ['Viet Nam']],
  ['Thailand', ['thai', 'thais'], []],
  ['Pakistan', ['pakistani', 'pakistanis'], []],
  ['Estonia', ['estonian', 'estonians'], []],
];

export const NATIONALITY_PATTERN = COUNTRIES.flatMap(([, adjectives]) => adjectives)
  .sort((a, b) => b.length - a.length)
  .map((word) => word.replace('.', '\\.').replace(' ', '\\s+'))
  .join('|');

/** The country an adjective or demonym names, with the names it may be stored under (its name first). */
export function countryOf(word: string): string[] | null {
  const lower = word.toLowerCase().replace(/\s+/g, ' ');
  const found = COUNTRIES.find(([, adjectives]) => adjectives.includes(lower));
  return found ? [found[0], ...found[2]] : null;
}

/** A plural demonym ("Brazilians", "Britons", "Frenchmen", "Swedes"): people of that nationality (not "Swiss", which may be anything's). */
export function isPeopleDemonym(word: string): boolean {
  const lower = word.toLowerCase();
  const adjectives = COUNTRIES.flatMap(([, words]) => words);
  if (!adjectives.includes(lower)) return false;
  return /(?:wo)?men$/.test(lower) ? lower !== 'men' : /s$/.test(lower) && adjectives.includes(lower.slice(0, -1));
}

/** The ISO 3166-1 alpha-2 code of a country named (or one of its other names: "UK", "Holland"), or null. */
export function countryCode(names: string[]): string | null {
  for (const name of names) {
    if (/^[A-Z]{2}$/.test(name) && isoCountries.isValid(name)) return name;
    const code = isoCountries.getAlpha2Code(name, 'en');
    if (code) return code;
  }
  return null;
}

/** Currencies named in words, for ledger entries ("in US dollars", "euro deals", "Brazilian reais"). */
export const CURRENCY_NAMES: Array<[string, string]> = [
  [String.raw`(?:us\s+|u\.s\.\s+|american\s+)?dollars?|usd|us\$`, 'USD'],
  [String.raw`euros?|eur`, 'EUR'],
  [String.raw`(?:british\s+)?pounds?(?:\s+sterling)?|sterling|gbp`, 'GBP'],
  [String.raw`(?:swiss\s+)?francs?|chf`, 'CHF'],
  [String.raw`(?:japanese\s+)?yen|jpy`, 'JPY'],
  [String.raw`(?:chinese\s+)?yuan|renminbi|rmb|cny`, 'CNY'],
  [String.raw`(?:brazilian\s+)?reais|brazilian\s+real|brl`, 'BRL'],
  [String.raw`(?:canadian\s+dollars?)|cad`, 'CAD'],
  [String.raw`(?:australian\s+dollars?)|aud`, 'AUD'],
  [String.raw`(?:indian\s+)?rupees?|inr`, 'INR'],
  [String.raw`(?:swedish\s+)?kronor|sek`, 'SEK'],
];

/**
 * Every other currency by its English name (Intl, from the currencies a ledger entry may hold):
 * "polish zloty", "hungarian forints", and its last word where no other currency shares it
 * and it is long enough not to be an everyday word ("zloty", "forint", "shekel", "ringgit").
 */
export function currencyNamesOf(codes: readonly string[]): Array<[string, string]> {
  const covered = new Set(CURRENCY_NAMES.map(([, code]) => code));
  let names: Intl.DisplayNames;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'currency' });
  } catch {
    return [];
  }
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const named = codes.filter((code) => !covered.has(code)).map((code) => {
    const name = names.of(code);
    return name && name !== code && /^[\p{L} .'-]+$/u.test(name) ? { code, name: fold(name) } : null;
  }).filter((one): one is { code: string; name: string } => one !== null && !/\(|\d/.test(one.name));
  const lastWords = new Map<string, number>();
  for (const { name } of named) {
    const last = name.split(' ').pop()!;
    lastWords.set(last, (lastWords.get(last) ?? 0) + 1);
  }
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, String.raw`\s+`);
  return named.map(({ code, name }): [string, string] => {
    const last = name.split(' ').pop()!;
    const alone = name.includes(' ') && lastWords.get(last) === 1 && last.length >= 5 && !COMMON_WORDS.has(last);
    return [`${escape(name)}s?${alone ? `|${escape(last)}s?` : ''}`, code];
  });
}
/** Last words of currency names that are everyday words. */
const COMMON_WORDS = new Set(['mark', 'marks', 'crown', 'pound', 'dollar', 'franc', 'peso', 'dinar', 'dirham', 'rupee', 'riyal', 'rial', 'krona', 'krone', 'shilling', 'unit', 'units', 'metal', 'silver', 'gold', 'special', 'rights', 'drawing', 'fund', 'leone', 'nuevo']);

/** Other names of ownership types, each read as the word a tenant's stored value is likely to use. */
export const OWNERSHIP_SYNONYMS: Array<[RegExp, string[]]> = [
  [/^(?:publicly[\s-](?:listed|traded|held|quoted)|listed|publicly|traded|stock[\s-]exchange[\s-]listed|quoted)$/, ['Public', 'Listed', 'Publicly listed']],
  [/^(?:(?:state|government|govt|gov)[\s-](?:owned|run|controlled|backed)|state|government|govt|gov|sovereign|soes?)$/, ['State-owned', 'State owned', 'Government', 'Public sector']],
  [/^(?:privately[\s-](?:held|owned)|privately)$/, ['Private']],
  [/^(?:non[\s-]?profits?|not[\s-]for[\s-]profits?|nonprofits?|charit(?:y|ies)|ngos?|foundations?)$/, ['Non-profit', 'Nonprofit', 'Not-for-profit']],
  [/^(?:co-?ops?|co-?operatives?)$/, ['Cooperative', 'Co-operative']],
  [/^(?:partnerships?|llps?)$/, ['Partnership']],
  [/^(?:family[\s-](?:owned|run|held))$/, ['Family-owned', 'Family']],
];

/** Singular forms to try for a word that may be a plural ("cooperatives" → "cooperative"). */
export function singulars(text: string): string[] {
  if (!/s$/i.test(text)) return [];
  return [...new Set([text.replace(/ies$/i, 'y'), text.replace(/es$/i, ''), text.replace(/s$/i, '')])].filter((one) => one !== text);
}

/** Signs written before an amount, by the currency they mean ("R$1bn", "€250k", "₹5 crore"). */
export const CURRENCY_SIGNS: Record<string, string> = {
  '$': 'USD', 'us$': 'USD', 'r$': 'BRL', 'c$': 'CAD', 'ca$': 'CAD', 'a$': 'AUD', 'au$': 'AUD', 'hk$': 'HKD', 's$': 'SGD', 'nz$': 'NZD',
  'mx$': 'MXN', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', 'chf': 'CHF',
};
/** The signs as a pattern, longest first ("us$" before "$"). */
export const CURRENCY_SIGN_PATTERN = Object.keys(CURRENCY_SIGNS).filter((sign) => sign !== 'chf')
  .sort((a, b) => b.length - a.length).map((sign) => sign.replace('$', '\\$')).join('|');

const NUMBER_WORDS: Record<string, number> = {
  two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
const MAGNITUDE = String.raw`(?=\s+(?:thousand|million|billion|trillion|hundred)\b)`;

/**
 * Number words as digits, so amounts and limits read them ("deals under five million", "the
 * top ten companies", "a billion dollars"): "one" and "a" only before a magnitude; a capitalized
 * word after the first (a name: "Two Sigma") is left as written.
 */
export function digitsForNumberWords(text: string): string {
  return text
    .replace(/\bhalf\s+an?\s+(?=(?:million|billion)\b)/gi, '0.5 ')
    .replace(new RegExp(String.raw`\b(?:one|an?)${MAGNITUDE}`, 'gi'), (word, offset: number) => (offset > 0 && /^[A-Z]/.test(word) ? word : '1'))
    .replace(new RegExp(String.raw`\b(?:${Object.keys(NUMBER_WORDS).join('|')})\b`, 'gi'), (word, offset: number) =>
      offset > 0 && /^[A-Z]/.test(word) ? word : String(NUMBER_WORDS[word.toLowerCase()]));
}

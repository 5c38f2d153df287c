/**
 * The default entity tagger: a greedy left-to-right sequence tagger (averaged perceptron)
 * over the project's own tokens (./tokens.ts), with BIO tags for people, organizations and
 * places (places are tagged so they are told apart from organizations; extractEntities drops
 * them). Trained by scripts/train-ner.ts from the openly licensed corpora in
 * ../shared/ner-train and name lists from npm packages; its weights, and the word lists its
 * features were trained with, are one committed file (tagger-weights.json.gz) so the features
 * mean at run time what they meant in training. docs/processing.md, "The trained tagger".
 *
 * Offline, one core: features are strings looked up in one Map; a sentence of 25 tokens costs
 * about a thousand lookups.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Token } from './tokens.ts';

export const TAGS = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC'] as const;
export type Tag = (typeof TAGS)[number];
export type TaggedType = 'PER' | 'ORG' | 'LOC';

/** Bumped when the features change meaning: a weights file of another version is refused. */
export const TAGGER_VERSION = 4;
export const WEIGHTS_FILE = new URL('./tagger-weights.json.gz', import.meta.url);

/** Word lists the features read, by name; each a set of lower-cased words. */
/** Two letters per list in feature names. */
const LIST_CODES: Record<(typeof LIST_NAMES)[number], string> = { given: 'gi', surname: 'su', city: 'ci', cityword: 'cw', country: 'co', orgword: 'or', legal: 'le', title: 'ti', role: 'ro', stop: 'st', common: 'cm', company: 'cp' };
export type WordLists = Record<(typeof LIST_NAMES)[number], Set<string>>;
export const LIST_NAMES = ['given', 'surname', 'city', 'cityword', 'country', 'orgword', 'legal', 'title', 'role', 'stop', 'common', 'company'] as const;

export interface TaggerFile {
  version: number;
  tags: readonly string[];
  /** How it was trained: corpora, epochs, sizes (shown in docs and benches). */
  meta: Record<string, unknown>;
  lists: Record<string, string[]>;
  /** Weights in units of 1/scale: feature → [tag index, weight, tag index, weight, …]. */
  scale: number;
  weights: Record<string, number[]>;
}

export interface TaggedSpan {
  type: TaggedType;
  /** Token indices, end exclusive. */
  firstToken: number;
  endToken: number;
  /** 0..1: from the weakest token's lead of its tag over the next best. */
  confidence: number;
}

/** What the features see of a text beyond one token: computed once per text. */
export interface TaggingContext {
  tokens: Token[];
  /** Lower-cased words written in lower case somewhere in the text. */
  lowercaseWords: Set<string>;
  /** Sentences (index) where most words are capitalized: headlines, lists of names. */
  titleCaseSentences: Set<number>;
  /** Sentences written without capitals, or all in capitals (./model.ts contextOf). */
  lowerCaseSentences: Set<number>;
  allCapsSentences: Set<number>;
}

/** Longest word (in characters) a feature holds. */
const MAX_FEATURE_WORD = 32;
const shapeOf = (text: string) =>
  text.replace(/\p{Lu}/gu, 'X').replace(/\p{Ll}/gu, 'x').replace(/\p{N}/gu, 'd').replace(/(.)\1{2,}/g, '$1$1').slice(0, 8);
const shortShapeOf = (text: string) => text.replace(/\p{Lu}+/gu, 'X').replace(/\p{Ll}+/gu, 'x').replace(/\p{N}+/gu, 'd').slice(0, 6);

/**
 * Features of token i given the two tags before it. The token's own word, shape, affixes and
 * list memberships; the same for its neighbours; the run of capitalized words it sits in; and
 * text-level facts (the word also written in lower case, a Title Case sentence).
 */
export function tokenFeatures(context: TaggingContext, lists: WordLists, index: number, previousTag: string, beforeTag: string, out: string[]): void {
  const { tokens } = context;
  out.length = 0;
  const token = tokens[index]!;
  // A 1 MB "word" must not become 1 MB feature strings: names are short.
  const key = token.key.length > MAX_FEATURE_WORD ? token.key.slice(0, MAX_FEATURE_WORD) : token.key;
  const at = (offset: number): Token | undefined => {
    const other = tokens[index + offset];
    return other && other.sentence === token.sentence ? other : undefined;
  };
  const listsOf = (word: string): string => {
    let found = '';
    for (const name of LIST_NAMES) if (lists[name].has(word)) found += LIST_CODES[name];
    return found;
  };
  const cap = (other: Token | undefined) => (!other ? '<s>' : !other.isWord ? other.text : other.allCaps ? 'A' : other.capitalized ? 'C' : other.isNumber ? 'N' : 'l');
  out.push('b');
  out.push('w=' + key);
  const written = token.text.length > MAX_FEATURE_WORD ? token.text.slice(0, MAX_FEATURE_WORD) : token.text;
  out.push('sh=' + shapeOf(written));
  out.push('ss=' + shortShapeOf(written));
  if (token.isWord) {
    for (let length = 1; length <= 4 && length < key.length; length++) {
      out.push(`p${length}=${key.slice(0, length)}`);
      out.push(`s${length}=${key.slice(-length)}`);
    }
  }
  const own = listsOf(key);
  for (let at2 = 0; at2 < own.length; at2 += 2) out.push('L=' + own.slice(at2, at2 + 2) + cap(token));
  if (own === '' && token.capitalized) out.push('L=none' + cap(token));
  out.push('start=' + (token.sentenceStart ? 1 : 0) + cap(token));
  if (token.capitalized && context.lowercaseWords.has(token.text.toLowerCase())) out.push('lowerElsewhere');
  if (context.titleCaseSentences.has(token.sentence)) out.push('titleCase' + cap(token));
  // Lower-case or all-caps text ("met carlos from blackrock", "GOOGLE BUYS FITBIT"): capitals say
  // nothing there, so the lists and neighbours speak for themselves, apart from mixed-case text.
  const casing = context.lowerCaseSentences.has(token.sentence) ? 'lo' : context.allCapsSentences.has(token.sentence) ? 'up' : '';
  if (casing && token.isWord) {
    out.push('case=' + casing);
    for (let at2 = 0; at2 < own.length; at2 += 2) out.push(`cL=${casing}${own.slice(at2, at2 + 2)}`);
    if (own === '') out.push(`cL=${casing}none${token.key.length > 3 ? 'long' : 'short'}`);
    out.push(`cw=${casing}|${key}`);
    for (const offset of [-1, 1]) {
      const other = at(offset);
      if (!other) continue;
      const theirs = listsOf(other.key.slice(0, MAX_FEATURE_WORD));
      out.push(`cL${offset}=${casing}${theirs.slice(0, 2) || (other.isWord ? 'none' : other.text)}`);
    }
    out.push(`ct-1=${casing}|${previousTag}|${own.slice(0, 2)}`);
  }
  const previousToken = tokens[index - 1];
  if (previousToken && previousToken.end === token.start && (previousToken.text === '@' || previousToken.text === '#')) out.push('after' + previousToken.text);
  for (const offset of [-2, -1, 1, 2]) {
    const other = at(offset);
    out.push(`c${offset}=${cap(other)}`);
    if (!other) continue;
    const theirKey = other.key.slice(0, MAX_FEATURE_WORD);
    out.push(`w${offset}=${theirKey}`);
    if (Math.abs(offset) === 1) {
      out.push(`sh${offset}=${shortShapeOf(other.text.slice(0, MAX_FEATURE_WORD))}`);
      const theirs = listsOf(theirKey);
      for (let at2 = 0; at2 < theirs.length; at2 += 2) out.push(`L${offset}=${theirs.slice(at2, at2 + 2)}${cap(other)}`);
      out.push(`ww${offset}=${offset < 0 ? theirKey + '|' + key : key + '|' + theirKey}`);
    }
  }
  out.push(`c-1c+1=${cap(at(-1))}${cap(token)}${cap(at(1))}`);
  // Where the token sits in its run of capitalized words: names' edges are the run's edges more often than not.
  if (token.capitalized) {
    const runs = capitalizedRuns(tokens);
    const first = runs.first[index]!;
    const end = runs.end[index]!;
    const length = Math.min(end - first, 5);
    out.push(`run=${length}:${index - first === 0 ? 'f' : end - index === 1 ? 'l' : 'm'}`);
    const last = tokens[end - 1]!.key;
    const lastLists = listsOf(last);
    if (lastLists.includes('or') || lastLists.includes('le')) out.push('runEndsOrg');
    // What the whole run holds, not only its last word ("Atomic Energy Agency", "Google Maps"),
    // and the punctuation after it.
    out.push(`runHas=${runListsOf(tokens, runs, first, listsOf)}:${length}`);
    const after = tokens[end];
    if (after && after.sentence === token.sentence && !after.isWord) out.push('runThen=' + after.text.slice(0, 3));
  }
  out.push('t-1=' + previousTag);
  out.push(`t-2t-1=${beforeTag}|${previousTag}`);
  out.push(`t-1sh=${previousTag}|${shortShapeOf(written)}`);
  out.push(`t-1w=${previousTag}|${key}`);
}

/** Lists whose words in a run of capitalized words are a feature of every word of the run. */
const RUN_LIST_CODES = ['or', 'le', 'gi', 'su', 'ci', 'co', 'cm', 'cp'];

const runListsCache = new WeakMap<Token[], Map<number, string>>();

/** The RUN_LIST_CODES of the run starting at `first`, once per run (a 1 MB run is read once, not once per word). */
function runListsOf(tokens: Token[], runs: { end: Int32Array }, first: number, listsOf: (word: string) => string): string {
  let cache = runListsCache.get(tokens);
  if (!cache) runListsCache.set(tokens, (cache = new Map()));
  let held = cache.get(first);
  if (held !== undefined) return held;
  held = '';
  const end = runs.end[first]!;
  for (let other = first; other < end && held.length < RUN_LIST_CODES.length * 2; other++) {
    const key = tokens[other]!.key;
    const theirs = listsOf(key.length > MAX_FEATURE_WORD ? key.slice(0, MAX_FEATURE_WORD) : key);
    for (const code of RUN_LIST_CODES) if (theirs.includes(code) && !held.includes(code)) held += code;
  }
  cache.set(first, held);
  return held;
}

const runsOf = new WeakMap<Token[], { first: Int32Array; end: Int32Array }>();

/** For each token, the first and end index of the run of capitalized words in its sentence it belongs to; computed once per text (a 1 MB line of capitalized words is one run). */
function capitalizedRuns(tokens: Token[]): { first: Int32Array; end: Int32Array } {
  let runs = runsOf.get(tokens);
  if (runs) return runs;
  runs = { first: new Int32Array(tokens.length), end: new Int32Array(tokens.length) };
  let start = 0;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const joins = index > 0 && token.capitalized && tokens[index - 1]!.capitalized && tokens[index - 1]!.sentence === token.sentence;
    if (!joins) start = index;
    runs.first[index] = start;
  }
  let end = tokens.length;
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index]!;
    const joins = index + 1 < tokens.length && token.capitalized && tokens[index + 1]!.capitalized && tokens[index + 1]!.sentence === token.sentence;
    if (!joins) end = index + 1;
    runs.end[index] = end;
  }
  runsOf.set(tokens, runs);
  return runs;
}

/** Which tag may follow which: I-X only after B-X or I-X. */
function allowed(previous: string, tag: string): boolean {
  if (!tag.startsWith('I-')) return true;
  return previous === 'B-' + tag.slice(2) || previous === tag;
}

export class EntityTagger {
  /** Feature → offset of its row in `table` (one array for all rows: a typed array per feature cost 30 MB of heap). */
  private readonly rows: Map<string, number> = new Map();
  private readonly table: Float32Array;
  readonly lists: WordLists;
  readonly meta: Record<string, unknown>;

  constructor(weights: Map<string, ArrayLike<number>> | { rows: Map<string, number>; table: Float32Array }, lists: WordLists, meta: Record<string, unknown> = {}) {
    if (weights instanceof Map) {
      this.table = new Float32Array(weights.size * TAGS.length);
      let offset = 0;
      for (const [feature, row] of weights) {
        for (let tag = 0; tag < TAGS.length; tag++) this.table[offset + tag] = row[tag] ?? 0;
        this.rows.set(feature, offset);
        offset += TAGS.length;
      }
    } else {
      this.table = weights.table;
      this.rows = weights.rows;
    }
    this.lists = lists;
    this.meta = meta;
  }

  static fromFile(file: TaggerFile): EntityTagger {
    if (file.version !== TAGGER_VERSION) throw new Error(`entity tagger weights are version ${file.version}, this code reads ${TAGGER_VERSION}: run scripts/train-ner.ts`);
    if (file.tags.join() !== TAGS.join()) throw new Error('entity tagger weights have other tags than this code');
    // Sparse rows ([tag, weight, …] in 1/scale) written straight into the one table: a dense
    // array per feature on the way (97,000 of them) left ~90 MiB of a worker's memory grown for
    // garbage that V8 does not give back to the system (docs/BENCHMARKS.md "Real documents").
    const features = Object.keys(file.weights);
    const table = new Float32Array(features.length * TAGS.length);
    const rows = new Map<string, number>();
    let offset = 0;
    for (const feature of features) {
      const packed = file.weights[feature]!;
      for (let at = 0; at < packed.length; at += 2) table[offset + packed[at]!] = packed[at + 1]! / file.scale;
      rows.set(feature, offset);
      offset += TAGS.length;
    }
    return new EntityTagger({ rows, table }, listsFrom(file.lists), file.meta);
  }

  /** Scores of every tag for one token's features. */
  scores(features: string[], into: Float32Array): Float32Array {
    into.fill(0);
    const { table } = this;
    for (const feature of features) {
      const offset = this.rows.get(feature);
      if (offset === undefined) continue;
      for (let tag = 0; tag < TAGS.length; tag++) into[tag]! += table[offset + tag]!;
    }
    return into;
  }

  /** The tag of every token, and its lead over the runner-up (greedy, left to right, sentence by sentence). */
  tagTokens(context: TaggingContext): { tags: Tag[]; margins: Float32Array } {
    const { tokens } = context;
    const tags: Tag[] = new Array<Tag>(tokens.length);
    const margins = new Float32Array(tokens.length);
    const features: string[] = [];
    const scores = new Float32Array(TAGS.length);
    for (let index = 0; index < tokens.length; index++) {
      const sameSentence = (back: number) => index - back >= 0 && tokens[index - back]!.sentence === tokens[index]!.sentence;
      const previous = sameSentence(1) ? tags[index - 1]! : '<s>';
      const before = sameSentence(2) ? tags[index - 2]! : '<s>';
      tokenFeatures(context, this.lists, index, previous, before, features);
      this.scores(features, scores);
      let best = -1;
      let runnerUp = -Infinity;
      for (let tag = 0; tag < TAGS.length; tag++) {
        if (!allowed(previous, TAGS[tag]!)) continue;
        if (best < 0 || scores[tag]! > scores[best]!) {
          if (best >= 0) runnerUp = Math.max(runnerUp, scores[best]!);
          best = tag;
        } else runnerUp = Math.max(runnerUp, scores[tag]!);
      }
      tags[index] = TAGS[best]!;
      margins[index] = scores[best]! - runnerUp;
    }
    return { tags, margins };
  }

  /** The names the tagger finds, as token spans with a confidence. */
  tag(context: TaggingContext): TaggedSpan[] {
    return spansOf(this.tagTokens(context));
  }
}

/** BIO tags to spans; a span's confidence comes from its least sure token. */
export function spansOf({ tags, margins }: { tags: Tag[]; margins: Float32Array }): TaggedSpan[] {
  const spans: TaggedSpan[] = [];
  let open: { type: TaggedType; firstToken: number; least: number } | undefined;
  const close = (end: number) => {
    if (open) spans.push({ type: open.type, firstToken: open.firstToken, endToken: end, confidence: Math.round(confidenceOf(open.least) * 100) / 100 });
    open = undefined;
  };
  for (let index = 0; index < tags.length; index++) {
    const tag = tags[index]!;
    if (tag === 'O' || tag.startsWith('B-')) close(index);
    if (tag.startsWith('B-')) open = { type: tag.slice(2) as TaggedType, firstToken: index, least: margins[index]! };
    else if (tag.startsWith('I-') && open) open.least = Math.min(open.least, margins[index]!);
  }
  close(tags.length);
  return spans;
}

/** A lead of 0 is a coin toss (0.5); the perceptron's leads run to tens, so the curve is wide (a lead of 2 is 0.6). */
export const confidenceOf = (margin: number) => 1 / (1 + Math.exp(-margin / 5));

export function listsFrom(source: Record<string, string[]>): WordLists {
  return Object.fromEntries(LIST_NAMES.map((name) => [name, new Set(source[name] ?? [])])) as WordLists;
}

let loaded: { tagger: EntityTagger | null; error?: unknown } | undefined;

/**
 * The committed tagger, read on first use (about a second, 10 MiB of heap); null when the weights file
 * is missing or of another version, so the rules work alone — unless `strict` (tests, benches,
 * the training script's check), which throws the reason.
 */
export function defaultTagger(options: { strict?: boolean } = {}): EntityTagger | null {
  if (!loaded) {
    try {
      loaded = { tagger: EntityTagger.fromFile(JSON.parse(gunzipSync(readFileSync(WEIGHTS_FILE)).toString('utf8')) as TaggerFile) };
    } catch (error) {
      loaded = { tagger: null, error };
    }
  }
  if (!loaded.tagger && options.strict) throw loaded.error;
  return loaded.tagger;
}

/**
 * The tenant's learnt layer: an averaged perceptron over features of a
 * candidate name (its words, shape, affixes, the words around it, the cues
 * the rules saw and their verdict), trained from review decisions. At the
 * next extraction it re-scores the rules' names (a name analysts keep
 * rejecting is dropped, a type they keep correcting is switched) and adds
 * candidates the rules left out when it is confident they are names.
 *
 * Three classes: O (no entity), PER, ORG. Weights are kept sparse, rounded
 * and capped in bytes (the heaviest first) so the JSON stays under 1 MB.
 */
import { LEGAL_SUFFIXES, ORGANIZATION_WORDS, loadGivenNames } from './lexicon.ts';
import { RULE_THRESHOLD, findCandidateSpans, judge, signalsFor, vetoed, type NameContext, type NameType } from './names.ts';
import { foldName } from './normalize.ts';
import { cleanControlCharacters, tokenize, type Token } from './tokens.ts';

export const MODEL_CLASSES = ['O', 'PER', 'ORG'] as const;
export type ModelClass = (typeof MODEL_CLASSES)[number];

export interface ReviewDecision {
  /** The snippet or sentence the suggestion came from. */
  text: string;
  /** UTF-16 offsets of the suggested name in text, end exclusive. */
  start: number;
  end: number;
  type: NameType;
  accepted: boolean;
  /** The name as the analyst corrected it (accepted with an edit); found in text when it is a different span. */
  correctedName?: string;
  /** The type as the analyst corrected it. */
  correctedType?: NameType;
}

/**
 * The features' meaning changes with this number (2: given names alone and first apart, Title
 * Case headlines, the rules' verdict below their threshold apart); a model saved under
 * another is trained again rather than read.
 */
export const MODEL_VERSION = 2;

export interface TenantModelJSON {
  version: typeof MODEL_VERSION;
  /** How many examples it was trained on; below MIN_EXAMPLES it only re-scores, never adds. */
  examples: number;
  /** feature → [O, PER, ORG] weights, rounded to 3 decimals, zeros left out. */
  weights: Record<string, [number, number, number]>;
}

/** Most bytes of weights kept when saving (the heaviest features first), so the JSON stays under 1 MB. */
const MAX_WEIGHT_BYTES = 900_000;
/** Longest feature kept: a feature holds a name, and names can be long. */
const MAX_FEATURE_LENGTH = 64;
const EPOCHS = 8;
/**
 * How far the right class must lead on a training example before the model stops learning
 * from it. Extraction acts on margins (a name is added at a lead of 1), so a bare win taught
 * too little: the words of names the analysts confirmed, whose cues already won, kept no
 * weight of their own.
 */
const TRAINING_MARGIN = 1;
/** Decisions before the model adds names of its own. */
export const MIN_EXAMPLES = 20;

function shapeOf(text: string): string {
  return text
    .replace(/\p{Lu}+/gu, 'X')
    .replace(/\p{Ll}+/gu, 'x')
    .replace(/\p{N}+/gu, 'd')
    .slice(0, 6);
}

/** Features of the span [first, end) of tokens. */
export function spanFeatures(context: NameContext, first: number, end: number): string[] {
  const { tokens } = context;
  const span = tokens.slice(first, end);
  const words = span.filter((token) => token.isWord);
  const firstToken = span[0]!;
  const lastToken = span[span.length - 1]!;
  const at = (index: number): Token | undefined => tokens[index];
  const keyAt = (index: number) => {
    const token = at(index);
    if (!token || token.sentence !== firstToken.sentence) return '<s>';
    return token.key;
  };
  const features = ['bias'];
  features.push(`name=${foldName(span.map((token) => token.text).join(' '))}`);
  for (const word of words.slice(0, 5)) features.push(`word=${word.key}`);
  features.push(`first=${firstToken.key}`, `last=${lastToken.key}`);
  features.push(`shape=${span.map((token) => shapeOf(token.text)).join(' ')}`);
  features.push(`length=${Math.min(words.length, 5)}`);
  features.push(`suffix3=${lastToken.key.slice(-3)}`, `prefix3=${firstToken.key.slice(0, 3)}`);
  features.push(`previous=${keyAt(first - 1)}`, `previous2=${keyAt(first - 2)} ${keyAt(first - 1)}`);
  features.push(`next=${keyAt(end)}`, `next2=${keyAt(end)} ${keyAt(end + 1)}`);
  if (firstToken.sentenceStart) features.push('sentence-start');
  // A lone given name says less than a given name followed by a surname: "Grant", "Hope"
  // and "Faith" are words too. The model weighs the two apart.
  const alone = words.length === 1;
  if (loadGivenNames().has(firstToken.key)) features.push('given-name', alone ? 'given-name alone' : 'given-name first');
  if (LEGAL_SUFFIXES.has(lastToken.key)) features.push('legal-suffix');
  if (ORGANIZATION_WORDS.has(lastToken.key)) features.push('organization-word');
  if (words.every((word) => word.allCaps)) features.push('all-caps');
  // In a Title Case headline every word is capitalized, so shape and given names say little there.
  if (context.titleCaseSentences.has(firstToken.sentence)) features.push('title-case', `title-case length=${Math.min(words.length, 3)}`);
  const signals = signalsFor(context, first, end);
  for (const signal of signals) features.push(`cue=${signal.cue}`);
  // The rules' verdict as they act on it: below their threshold it is a hunch, not a name.
  const verdict = judge(signals);
  features.push(`rule=${!verdict.type ? 'none' : verdict.confidence >= RULE_THRESHOLD ? verdict.type : `weak ${verdict.type}`}`);
  return features.map((feature) => feature.slice(0, MAX_FEATURE_LENGTH));
}

export interface ModelScores {
  best: ModelClass;
  /** Best score minus the runner-up's. */
  margin: number;
  scores: Record<ModelClass, number>;
}

export class TenantModel {
  private weights = new Map<string, number[]>();
  // Averaging: accumulated weight × time, and when each weight last changed.
  private totals = new Map<string, number[]>();
  private stamps = new Map<string, number[]>();
  private clock = 0;
  private exampleCount = 0;

  get examples(): number {
    return this.exampleCount;
  }

  /** Whether it has seen enough decisions to add names the rules missed. */
  get canAdd(): boolean {
    return this.exampleCount >= MIN_EXAMPLES;
  }

  score(features: string[]): ModelScores {
    const totals = [0, 0, 0];
    for (const feature of features) {
      const weights = this.weights.get(feature);
      if (!weights) continue;
      for (let c = 0; c < 3; c++) totals[c]! += weights[c]!;
    }
    const order = [0, 1, 2].sort((a, b) => totals[b]! - totals[a]! || a - b);
    return {
      best: MODEL_CLASSES[order[0]!]!,
      margin: totals[order[0]!]! - totals[order[1]!]!,
      scores: { O: totals[0]!, PER: totals[1]!, ORG: totals[2]! },
    };
  }

  /**
   * Learns from review decisions, on top of what it knew. Accepted names are
   * examples of their (corrected) type, rejected ones of no entity; a
   * correction to a different span teaches both the corrected span and that
   * the suggested span was wrong.
   */
  train(decisions: ReviewDecision[]): void {
    const examples: Array<{ features: string[]; label: number }> = [];
    const reviewedSpans = new Map<string, Array<[number, number]>>();
    for (const decision of decisions) {
      const text = cleanControlCharacters(decision.text);
      const { tokens } = tokenize(text);
      const context = contextOf(tokens);
      const suggested = tokenRange(tokens, decision.start, decision.end);
      const type = decision.correctedType ?? decision.type;
      let corrected = suggested;
      if (decision.accepted && decision.correctedName) {
        const at = locate(text, decision.correctedName, decision.start);
        corrected = at ? tokenRange(tokens, at.start, at.end) : undefined;
      }
      const spans = reviewedSpans.get(text) ?? [];
      reviewedSpans.set(text, spans);
      if (suggested) spans.push(suggested);
      if (corrected) spans.push(corrected);
      if (!decision.accepted) {
        if (suggested) examples.push({ features: spanFeatures(context, ...suggested), label: 0 });
        continue;
      }
      if (corrected) examples.push({ features: spanFeatures(context, ...corrected), label: MODEL_CLASSES.indexOf(type) });
      if (suggested && corrected && (suggested[0] !== corrected[0] || suggested[1] !== corrected[1])) {
        examples.push({ features: spanFeatures(context, ...suggested), label: 0 });
      }
    }
    // The capitalized phrases of a reviewed snippet that the analyst neither accepted nor
    // added are taken as no entity. Where an analyst skipped a name this only makes the
    // model more cautious, never bolder.
    for (const [text, spans] of reviewedSpans) {
      const { tokens } = tokenize(text);
      const context = contextOf(tokens);
      for (const [first, end] of findCandidateSpans(tokens, () => false)) {
        if (vetoed(context, first, end)) continue;
        if (spans.some(([from, to]) => first < to && from < end)) continue;
        examples.push({ features: spanFeatures(context, first, end), label: 0 });
      }
    }
    // A fixed order per epoch, different between epochs, so training is reproducible.
    for (let epoch = 0; epoch < EPOCHS; epoch++) {
      const order = examples.map((_, index) => index).sort((a, b) => hash(`${epoch}:${a}`) - hash(`${epoch}:${b}`));
      for (const index of order) this.update(examples[index]!.features, examples[index]!.label);
    }
    this.exampleCount += examples.length;
    this.average();
  }

  /** A perceptron step: the right class must win by more than TRAINING_MARGIN, not just win. */
  private update(features: string[], label: number): void {
    this.clock++;
    const { scores } = this.score(features);
    const values = MODEL_CLASSES.map((cls) => scores[cls]);
    let rival = -1;
    for (let cls = 0; cls < values.length; cls++) {
      if (cls !== label && (rival === -1 || values[cls]! > values[rival]!)) rival = cls;
    }
    if (values[label]! > values[rival]! + TRAINING_MARGIN) return;
    for (const feature of features) {
      this.bump(feature, label, 1);
      this.bump(feature, rival, -1);
    }
  }

  private bump(feature: string, cls: number, delta: number): void {
    let weights = this.weights.get(feature);
    if (!weights) {
      weights = [0, 0, 0];
      this.weights.set(feature, weights);
      this.totals.set(feature, [0, 0, 0]);
      this.stamps.set(feature, [this.clock, this.clock, this.clock]);
    }
    const totals = this.totals.get(feature)!;
    const stamps = this.stamps.get(feature)!;
    totals[cls]! += (this.clock - stamps[cls]!) * weights[cls]!;
    stamps[cls] = this.clock;
    weights[cls]! += delta;
  }

  /** Replaces the weights by their average over all updates (the "averaged" perceptron). */
  private average(): void {
    if (this.clock === 0) return;
    for (const [feature, weights] of this.weights) {
      const totals = this.totals.get(feature)!;
      const stamps = this.stamps.get(feature)!;
      const averaged = weights.map((weight, c) => (totals[c]! + (this.clock - stamps[c]!) * weight) / this.clock);
      this.weights.set(feature, averaged);
    }
    // Training again continues from the averaged weights.
    this.totals = new Map([...this.weights.keys()].map((feature) => [feature, [0, 0, 0]]));
    this.stamps = new Map([...this.weights.keys()].map((feature) => [feature, [0, 0, 0]]));
    this.clock = 0;
  }

  toJSON(): TenantModelJSON {
    const entries = [...this.weights.entries()]
      .map(([feature, weights]) => ({ feature, weights: weights.map((weight) => Math.round(weight * 1000) / 1000) }))
      .filter((entry) => entry.weights.some((weight) => weight !== 0))
      .sort((a, b) => sumAbs(b.weights) - sumAbs(a.weights) || (a.feature < b.feature ? -1 : 1));
    const weights: Record<string, [number, number, number]> = {};
    let bytes = 0;
    for (const entry of entries) {
      bytes += Buffer.byteLength(JSON.stringify(entry.feature)) + JSON.stringify(entry.weights).length + 2;
      if (bytes > MAX_WEIGHT_BYTES) break;
      weights[entry.feature] = entry.weights as [number, number, number];
    }
    return { version: MODEL_VERSION, examples: this.exampleCount, weights };
  }

  static fromJSON(json: unknown): TenantModel {
    const model = new TenantModel();
    if (!json || typeof json !== 'object') throw new TypeError('model: expected an object');
    const data = json as Partial<TenantModelJSON>;
    if (data.version !== MODEL_VERSION) throw new TypeError(`model.version: expected ${MODEL_VERSION}`);
    if (!data.weights || typeof data.weights !== 'object') throw new TypeError('model.weights: expected an object');
    for (const [feature, weights] of Object.entries(data.weights)) {
      if (!Array.isArray(weights) || weights.length !== 3 || !weights.every((weight) => typeof weight === 'number' && Number.isFinite(weight))) {
        throw new TypeError(`model.weights[${JSON.stringify(feature)}]: expected three numbers`);
      }
      model.weights.set(feature, [...weights]);
      model.totals.set(feature, [0, 0, 0]);
      model.stamps.set(feature, [0, 0, 0]);
    }
    model.exampleCount = typeof data.examples === 'number' && data.examples >= 0 ? data.examples : 0;
    return model;
  }
}

const sumAbs = (values: number[]) => values.reduce((total, value) => total + Math.abs(value), 0);

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 16777619);
  }
  return value >>> 0;
}

export function contextOf(tokens: Token[]): NameContext {
  const lowercaseWords = new Set<string>();
  const wordCounts = new Map<number, { words: number; capitalized: number }>();
  // Casing: words of two letters or more, a handle or hashtag aside ("@IBM", "#NYC"): how many,
  // how many written in capitals ("CEO"), how many capitalized otherwise ("Carlos", "I've").
  const casings = new Map<number, Casing>();
  const whole: Casing = { letters: 0, allCaps: 0, titled: 0 };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (!token.isWord || token.isNumber) continue;
    if (!token.capitalized) lowercaseWords.add(token.text);
    const sigil = index > 0 && (tokens[index - 1]!.text === '@' || tokens[index - 1]!.text === '#') && tokens[index - 1]!.end === token.start;
    if (token.text.length >= 2 && !sigil && LETTER.test(token.text) && !PRONOUN_I.test(token.text)) {
      let casing = casings.get(token.sentence);
      if (!casing) casings.set(token.sentence, (casing = { letters: 0, allCaps: 0, titled: 0 }));
      for (const counts of [casing, whole]) {
        counts.letters++;
        if (token.allCaps) counts.allCaps++;
        else if (token.capitalized) counts.titled++;
      }
    }
    // Short words stay lower case even in Title Case ("at", "of", "and"), so they say nothing
    // either way; counted as capitalized, they made a sentence of names look like a headline
    // ("Lucia Brandt and Javier Osei both left Fennimore Partners in 2023").
    if (token.text.length <= 3) continue;
    const counts = wordCounts.get(token.sentence) ?? { words: 0, capitalized: 0 };
    counts.words++;
    if (token.capitalized) counts.capitalized++;
    wordCounts.set(token.sentence, counts);
  }
  const titleCaseSentences = new Set<number>();
  for (const [sentence, counts] of wordCounts) if (counts.words >= 3 && counts.capitalized / counts.words >= 0.8) titleCaseSentences.add(sentence);
  // A sentence too short to tell ("lol", "thx carlos") takes the casing of the whole text.
  const lowerCaseSentences = new Set<number>();
  const allCapsSentences = new Set<number>();
  for (const [sentence, own] of casings) {
    const casing = own.letters >= MIN_CASING_WORDS ? casingOf(own) : casingOf(whole);
    if (casing === 'lower') lowerCaseSentences.add(sentence);
    else if (casing === 'caps') allCapsSentences.add(sentence);
  }
  return { tokens, lowercaseWords, titleCaseSentences, lowerCaseSentences, allCapsSentences };
}

interface Casing {
  letters: number;
  allCaps: number;
  titled: number;
}
const LETTER = /\p{L}/u;
/** "I'm", "I've", "I'd", "I'll": capitalized in text otherwise written without capitals. */
const PRONOUN_I = /^I['’]/;
const MIN_CASING_WORDS = 3;
/**
 * "lower": no word capitalized but those written all in capitals ("can't believe ted pick is
 * CEO"); "caps": four words in five all in capitals ("GOOGLE BUYS FITBIT"); else mixed.
 */
function casingOf(counts: Casing): 'lower' | 'caps' | 'mixed' {
  if (counts.letters < MIN_CASING_WORDS) return 'mixed';
  if (counts.allCaps / counts.letters >= 0.8) return 'caps';
  return counts.titled === 0 && counts.allCaps < counts.letters ? 'lower' : 'mixed';
}

/** The tokens covering [start, end), snapped outwards to whole tokens. */
export function tokenRange(tokens: Token[], start: number, end: number): [number, number] | undefined {
  let first = -1;
  let last = -1;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.end <= start || token.start >= end) continue;
    if (first === -1) first = index;
    last = index;
  }
  return first === -1 ? undefined : [first, last + 1];
}

/** The occurrence of name in text nearest to near. */
function locate(text: string, name: string, near: number): { start: number; end: number } | undefined {
  let best: number | undefined;
  let index = text.indexOf(name);
  while (index !== -1) {
    if (best === undefined || Math.abs(index - near) < Math.abs(best - near)) best = index;
    index = text.indexOf(name, index + 1);
  }
  return best === undefined ? undefined : { start: best, end: best + name.length };
}

/**
 * extractEntities: the whole offline extractor, a pure function of the
 * text, the tenant's gazetteer and the tenant's model (no database).
 */
import type { CountryCode } from 'libphonenumber-js';
import type { ExternalEntity, ExternalMoney, ExternalName, ExtractorName } from './external.ts';
import { settleRepeats, type SettledName } from './consistency.ts';
import { findDeals, type Deal, type DealKind, type DealRole } from './deals.ts';
import { Gazetteer, type GazetteerMatch } from './gazetteer.ts';
import { TenantModel, contextOf, spanFeatures } from './model.ts';
import { RULE_THRESHOLD, findCandidateSpans, judgeCandidates, propagate, vetoed, type Candidate, type NameContext, type NameType } from './names.ts';
import { LEGAL_SUFFIXES, PERSON_PARTICLES, STOP_WORDS, WORDS_THAT_ARE_ALSO_NAMES } from './lexicon.ts';
import { normalizeName } from './normalize.ts';
import { Coverage, findDates, findEmails, findMoney, findPhones, findUrls, moneyPeriod, type MoneySpan, type Span } from './patterns.ts';
import { findTableNames } from './tables.ts';
import { defaultTagger, type EntityTagger, type TaggedSpan } from './tagger.ts';
import { cleanControlCharacters, tokenize, type Sentence, type Token } from './tokens.ts';

export type MentionType = 'PER' | 'ORG' | 'MONEY' | 'DATE' | 'EMAIL' | 'PHONE' | 'URL' | 'GEO' | 'KEYWORD';

export interface Mention {
  type: MentionType;
  text: string;
  /** UTF-16 offsets in the input text, end exclusive. */
  start: number;
  end: number;
  sentence: { start: number; end: number };
  /** 0..1 */
  confidence: number;
  /** PER/ORG: the name normalized for matching; EMAIL lower-cased; PHONE E.164; URL normalized; GEO/KEYWORD folded. */
  normalized?: string;
  money?: { amount: number; currency: string; period?: string };
  date?: { year: number; quarter?: number; month?: number; day?: number };
  /** The gazetteer entry the mention matched. */
  gazetteerId?: string;
  /** Found by an optional extractor where the gazetteer and the rules found nothing. */
  source?: ExtractorName;
  /** PER found in a table's role column (./tables.ts): the column's header and the row's organization. */
  role?: { title: string; organization?: string };
}

/**
 * A ledger entry the text speaks of: a deal (./deals.ts), or money with an organization and a
 * time in one sentence. A deal's organizations are its parties, in their roles' order.
 */
export interface LedgerCandidate {
  sentence: { start: number; end: number };
  snippet: string;
  /** Always there but for a deal whose amount the text does not give. */
  money?: Mention;
  year?: number;
  quarter?: number;
  organizations: Mention[];
  people: Mention[];
  deal?: { kind: DealKind; parties: Array<{ role: DealRole; mention: Mention }>; trigger: { start: number; end: number }; confidence: number };
}

export interface ExtractOptions {
  gazetteer?: Gazetteer;
  model?: TenantModel;
  /** Characters read from the start of the text (default 2,000,000); the rest is ignored. */
  maxChars?: number;
  /** Country for phone numbers written without "+" and country code; without it only international numbers are found. */
  defaultPhoneCountry?: CountryCode;
  /** Leave out PER/ORG mentions below this confidence (default 0.6). */
  minConfidence?: number;
  /**
   * Names and amounts from the optional extractors (./onnx.ts, ./llm.ts), offsets into this
   * text. They join where the gazetteer and the rules found nothing, under the same vetoes and
   * the tenant's model.
   */
  external?: ExternalEntity[];
  /** The trained tagger (./tagger.ts); default: the committed one; null: the rules alone. */
  tagger?: EntityTagger | null;
}

export const DEFAULT_MAX_CHARS = 2_000_000;

/** A name typed by its table column's header: as sure as a legal form. */
const TABLE_CONFIDENCE = 0.9;

/** The learnt layer's say over the rules, as margins between its class scores. */
const MODEL_DROP_MARGIN = 0.5;
const MODEL_SWITCH_MARGIN = 1;
const MODEL_ADD_MARGIN = 1;

const logistic = (value: number) => 1 / (1 + Math.exp(-value));

export function extractEntities(input: string, options: ExtractOptions = {}): { mentions: Mention[]; ledger: LedgerCandidate[] } {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const text = cleanControlCharacters(input.length > maxChars ? input.slice(0, maxChars) : input);
  if (text.length <= WINDOW_CHARS) return extractWindow(text, options);
  // A long text (a 500-page PDF, a book) is read in windows that end at a paragraph or a line:
  // the tokens, features and tagger scores of two million characters at once held ~150 MiB
  // more than a window's. Names are settled within their window; mentions of one name in
  // several windows still make one entity (grouped by their normalized name downstream).
  const mentions: Mention[] = [];
  const ledger: LedgerCandidate[] = [];
  for (const [from, to] of windowsOf(text, WINDOW_CHARS)) {
    const external = (options.external ?? []).filter((entity) => entity.start >= from && entity.end <= to).map((entity) => ({ ...entity, start: entity.start - from, end: entity.end - from }));
    const found = extractWindow(text.slice(from, to), { ...options, external });
    const shifted = new Set<object>();
    const shift = (span: { start: number; end: number } | undefined) => {
      if (!span || shifted.has(span)) return;
      shifted.add(span);
      span.start += from;
      span.end += from;
    };
    const shiftMention = (mention: Mention | undefined) => {
      if (!mention || shifted.has(mention)) return;
      shift(mention);
      shift(mention.sentence);
    };
    found.mentions.forEach(shiftMention);
    for (const candidate of found.ledger) {
      shift(candidate.sentence);
      shiftMention(candidate.money);
      candidate.organizations.forEach(shiftMention);
      candidate.people.forEach(shiftMention);
      candidate.deal?.parties.forEach((party) => shiftMention(party.mention));
      shift(candidate.deal?.trigger);
    }
    mentions.push(...found.mentions);
    ledger.push(...found.ledger);
  }
  return { mentions, ledger };
}

/** Characters read at once (extractEntities): a long text is read in windows of about this many. */
export const WINDOW_CHARS = 100_000;

/**
 * [start, end) windows of at most `size` characters covering the text, each ending after the
 * last paragraph break — else line break, else sentence end, else space — in its final fifth,
 * so a window never cuts a sentence that has a break near it.
 */
export function windowsOf(text: string, size: number): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  let from = 0;
  while (text.length - from > size) {
    const limit = from + size;
    const floor = from + Math.floor(size * 0.8);
    let cut = -1;
    for (const separator of ['\n\n', '\n', '. ', ' ']) {
      const at = text.lastIndexOf(separator, limit - separator.length);
      if (at >= floor) {
        cut = at + separator.length;
        break;
      }
    }
    if (cut <= from) cut = limit;
    windows.push([from, cut]);
    from = cut;
  }
  windows.push([from, text.length]);
  return windows;
}

/** extractEntities on text of at most a window's length (cleaned of control characters). */
function extractWindow(text: string, options: ExtractOptions): { mentions: Mention[]; ledger: LedgerCandidate[] } {
  const minConfidence = options.minConfidence ?? RULE_THRESHOLD;
  const { tokens, sentences } = tokenize(text);
  const sentenceAt = sentenceFinder(sentences, text.length);
  const mentions: Mention[] = [];
  const push = (type: MentionType, span: Span, extra: Partial<Mention> = {}) =>
    mentions.push({ type, text: text.slice(span.start, span.end), start: span.start, end: span.end, sentence: sentenceAt(span.start), confidence: 0.95, ...extra });

  const emails = findEmails(text);
  const urls = findUrls(text).filter((url) => !emails.some((email) => url.start < email.end && url.end > email.start));
  const { amounts: money, external: externalMoney } = withExternalMoney(text, findMoney(text), options.external ?? [], [...emails, ...urls]);
  const dates = findDates(text, [...money, ...emails, ...urls]);
  const phones = findPhones(text, [...money, ...dates, ...emails, ...urls], options.defaultPhoneCountry);
  for (const email of emails) push('EMAIL', email, { normalized: email.normalized, confidence: 0.99 });
  for (const url of urls) push('URL', url, { normalized: url.normalized, confidence: 0.99 });
  for (const phone of phones) push('PHONE', phone, { normalized: phone.normalized, confidence: 0.9 });
  for (const date of dates) push('DATE', date, { date: date.date, confidence: 0.9 });
  for (const amount of money) {
    const sentence = sentenceAt(amount.start);
    const period = moneyPeriod(text, amount, dates, sentence.end);
    const external = externalMoney.get(amount);
    push('MONEY', amount, {
      money: { amount: amount.amount, currency: amount.currency, ...(period ? { period } : {}) },
      confidence: external ? external.confidence : 0.95,
      ...(external ? { source: external.source } : {}),
    });
  }

  // Names: the gazetteer's first, then the rules' and the tagger's where it found none.
  const blockedTokens = new Set<number>();
  blockTokensIn([...emails, ...urls, ...money, ...dates, ...phones], tokens, blockedTokens);
  const gazetteerMatches = options.gazetteer?.match(tokens) ?? [];
  const nameMatches: GazetteerMatch[] = [];
  for (const match of gazetteerMatches) {
    const span = { start: tokens[match.firstToken]!.start, end: tokens[match.endToken - 1]!.end };
    const type = match.entry.type;
    push(type, span, {
      confidence: 0.97,
      gazetteerId: match.entry.id,
      normalized: normalizeName(text.slice(span.start, span.end), type),
    });
    if (type === 'PER' || type === 'ORG') {
      nameMatches.push(match);
      for (let index = match.firstToken; index < match.endToken; index++) blockedTokens.add(index);
    }
  }

  const context = contextOf(tokens);
  // Tables: a role column's cells are names of its type, where the gazetteer found none; the
  // rules and the tagger then leave their tokens alone.
  for (const found of findTableNames(text)) {
    const range = tokenRange(tokens, found.start, found.end);
    if (!range) continue;
    const [first, end] = range;
    let blocked = false;
    for (let index = first; index < end; index++) if (blockedTokens.has(index)) blocked = true;
    // A lone cell in lower case ("n/a", "tbd") is no name, unless the text is written without capitals.
    const lowerCaseCell = end - first === 1 && !tokens[first]!.capitalized && !context.lowerCaseSentences.has(tokens[first]!.sentence);
    if (blocked || lowerCaseCell || vetoed(context, first, end)) continue;
    const span = { start: tokens[first]!.start, end: tokens[end - 1]!.end };
    const name = text.slice(span.start, span.end);
    const linked = options.gazetteer?.lookup(name, found.type)[0];
    const organization = found.role?.organization ? text.slice(found.role.organization.start, found.role.organization.end) : undefined;
    push(found.type, span, {
      confidence: TABLE_CONFIDENCE,
      normalized: normalizeName(name, found.type),
      ...(linked ? { gazetteerId: linked.id } : {}),
      ...(found.role ? { role: { title: found.role.title, ...(organization ? { organization } : {}) } } : {}),
    });
    for (let index = first; index < end; index++) blockedTokens.add(index);
  }
  const spans = findCandidateSpans(tokens, (index) => blockedTokens.has(index));
  const candidates = judgeCandidates(context, spans);
  propagate(context, candidates);
  const model = options.model;
  const geoSpans = new Set(gazetteerMatches.filter((match) => match.entry.type === 'GEO').map((match) => `${match.firstToken}:${match.endToken}`));

  // The rules' verdicts and the trained tagger's names, each under the tenant's model; where
  // they overlap the surer one wins (a rule cue that names the thing itself counts extra).
  const proposals: NameProposal[] = [];
  const tagger = options.tagger === undefined ? defaultTagger() : options.tagger;
  const tagged = tagger ? joinPersonParts(tokens, tagger.tag(context)) : [];
  // Where the tagger reads the very same words as a place or an organization, a weak person
  // verdict of the rules ("River Garden", "Georgia Tech", "Santa Fe": a given name's cue) gives way.
  const taggedOtherwise = new Set(tagged.filter((span) => span.type !== 'PER' && span.confidence >= minConfidence).map((span) => `${span.firstToken}:${span.endToken}`));
  for (const candidate of candidates) {
    let type: NameType | undefined = candidate.confidence >= minConfidence ? candidate.type : undefined;
    let confidence = candidate.confidence;
    if (model) {
      const verdict = model.score(spanFeatures(context, candidate.firstToken, candidate.endToken));
      if (type) {
        // Overruling the rules takes a model trained on enough decisions: two or three reviews
        // (say, one organization rejected) must not silence every name of another kind.
        if (model.canAdd && verdict.best === 'O' && verdict.margin >= MODEL_DROP_MARGIN) type = undefined;
        else if (model.canAdd && verdict.best !== 'O' && verdict.best !== type && verdict.margin >= MODEL_SWITCH_MARGIN) type = verdict.best;
        if (type && verdict.best === type) confidence = Math.max(confidence, logistic(verdict.margin));
      } else if (model.canAdd && verdict.best !== 'O' && verdict.margin >= MODEL_ADD_MARGIN && modelMayAdd(context, candidate)) {
        type = verdict.best;
        confidence = Math.max(minConfidence, Math.min(0.9, logistic(verdict.margin - MODEL_ADD_MARGIN + 0.5)));
      }
    }
    if (!type) continue;
    if (type === 'PER' && confidence < WEAK_PERSON_VERDICT && taggedOtherwise.has(`${candidate.firstToken}:${candidate.endToken}`)) continue;
    // A place the tenant knows is a place, unless its name says organization ("Bank of England" holds "England").
    if (geoSpans.has(`${candidate.firstToken}:${candidate.endToken}`)) continue;
    const named = candidate.signals.some((signal) => NAMING_CUES.has(signal.cue));
    proposals.push({ type, firstToken: candidate.firstToken, endToken: candidate.endToken, confidence, priority: confidence + (named ? NAMING_CUE_BONUS : 0) });
  }
  if (tagger) proposals.push(...taggedNames(context, tagged, { blockedTokens, geoSpans, minConfidence, ...(model ? { model } : {}) }));
  const settled: SettledName[] = selectNames(proposals, tokens).map((name) => withLegalForm(tokens, name, blockedTokens)).map(({ type, firstToken, endToken, confidence }) => ({ type, firstToken, endToken, confidence, normalized: normalizeName(nameText(text, tokens, { firstToken, endToken }), type) }));
  settled.push(...settleRepeats(context, settled, spans, (first, end) => !vetoed(context, first, end) && !geoSpans.has(`${first}:${end}`)));

  const ruleNames = new Map<string, Mention>();
  for (const name of settled.sort((a, b) => a.firstToken - b.firstToken)) {
    const span = { start: tokens[name.firstToken]!.start, end: tokens[name.endToken - 1]!.end };
    const linked = options.gazetteer?.lookup(text.slice(span.start, span.end), name.type)[0];
    push(name.type, span, {
      confidence: Math.round(name.confidence * 100) / 100,
      normalized: name.normalized,
      ...(linked ? { gazetteerId: linked.id } : {}),
    });
    ruleNames.set(`${name.firstToken}:${name.endToken}`, mentions[mentions.length - 1]!);
  }

  // The optional extractors' names, where neither the gazetteer nor the rules found one.
  const externalNames = (options.external ?? []).filter((entity): entity is ExternalName => entity.type !== 'MONEY' && withinText(entity, text.length));
  for (const found of judgeExternalNames(context, externalNames, { blockedTokens, ruleNames, geoSpans, minConfidence, ...(model ? { model } : {}) })) {
    const span = { start: tokens[found.firstToken]!.start, end: tokens[found.endToken - 1]!.end };
    const name = text.slice(span.start, span.end);
    const linked = options.gazetteer?.lookup(name, found.type)[0];
    push(found.type, span, {
      confidence: found.confidence,
      normalized: normalizeName(name, found.type),
      source: found.source,
      ...(linked ? { gazetteerId: linked.id } : {}),
    });
  }

  // A GEO inside an organization's name is part of that name.
  const names = new Coverage(text.length, mentions.filter((mention) => mention.type === 'ORG' || mention.type === 'PER'));
  const kept = mentions.filter((mention) => mention.type !== 'GEO' || !names.overlaps(mention.start, mention.end));
  kept.sort((a, b) => a.start - b.start || b.end - a.end);
  return { mentions: kept, ledger: ledgerCandidates(text, kept, findDeals(tokens, sentences, kept)) };
}

/**
 * Whether the model may add a name the rules left out: never one the rules veto or one that
 * starts with a stop word; never a lone word that is as often a word as a name ("Grant money
 * ran out", "Hope faded": the lexicon's words that are also names are never a name alone,
 * and a model taught "Grant Ellery" leans to read them as one); and nothing in a Title Case
 * headline, where every word is capitalized and so looks like a name to the model's features
 * (there the gazetteer finds the names the tenant knows, and the rules those with a cue).
 */
function modelMayAdd(context: NameContext, candidate: Candidate): boolean {
  const first = context.tokens[candidate.firstToken]!;
  if (candidate.vetoed || STOP_WORDS.has(first.key) || context.titleCaseSentences.has(first.sentence)) return false;
  return !(candidate.endToken - candidate.firstToken === 1 && WORDS_THAT_ARE_ALSO_NAMES.has(first.key));
}

/** Below this a rule's person verdict yields to the tagger reading the same words as a place or organization. */
const WEAK_PERSON_VERDICT = 0.8;

/** Rule cues that speak of the name itself, not of its neighbourhood: they outweigh the tagger. */
const NAMING_CUES = new Set(['legal-suffix', 'organization-word', 'organization-head', 'strong-title', 'title', 'role-before', 'apposition-role', 'age-after', 'addressed', 'ampersand', 'repeated-name']);
const NAMING_CUE_BONUS = 0.3;

/** A person or organization proposed by the rules or the tagger, before overlaps are settled. */
interface NameProposal {
  type: NameType;
  firstToken: number;
  endToken: number;
  confidence: number;
  /** Who wins an overlap: the higher. */
  priority: number;
}

const nameText = (text: string, tokens: Token[], name: { firstToken: number; endToken: number }) => text.slice(tokens[name.firstToken]!.start, tokens[name.endToken - 1]!.end);

/** The proposals that overlap none surer than themselves (longer first on a tie). */
function selectNames(proposals: NameProposal[], tokens: Token[]): NameProposal[] {
  const taken = new Uint8Array(tokens.length);
  const chosen: NameProposal[] = [];
  const ordered = [...proposals].sort((a, b) => b.priority - a.priority || (b.endToken - b.firstToken) - (a.endToken - a.firstToken) || a.firstToken - b.firstToken);
  for (const proposal of ordered) {
    if (taken.subarray(proposal.firstToken, proposal.endToken).some((mark) => mark === 1)) continue;
    taken.fill(1, proposal.firstToken, proposal.endToken);
    chosen.push(proposal);
  }
  return chosen;
}

/**
 * An organization's legal form written after a comma is part of its name ("Orion Freight
 * Holdings, Inc.", "Xinghe Battery Co., Ltd."): the runs of capitalized words stop at the comma.
 */
function withLegalForm(tokens: Token[], name: NameProposal, blocked: Set<number>): NameProposal {
  if (name.type !== 'ORG') return name;
  let end = name.endToken;
  while (tokens[end]?.text === ',' && tokens[end + 1]?.capitalized && LEGAL_SUFFIXES.has(tokens[end + 1]!.key) && !blocked.has(end + 1) && tokens[end + 1]!.sentence === tokens[end]!.sentence) end += 2;
  return end === name.endToken ? name : { ...name, endToken: end };
}

/** "Eze-Okafor", "Okonjo-Iweala": a double-barrelled surname, capitalized on both sides of the hyphen. */
const DOUBLE_BARRELLED = /^\p{Lu}[\p{L}'’]*-\p{Lu}\p{L}+$/u;

/**
 * The tagger's people completed where it stops short of a name's parts it rarely saw in
 * training: two people joined by a lower-case particle are one ("Mohammed bin Salman",
 * "Vincent van Gogh"), and a double-barrelled surname right after a person is theirs
 * ("Chidinma Eze-Okafor"). The joined name is as sure as its surer part.
 */
function joinPersonParts(tokens: Token[], spans: TaggedSpan[]): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && last.type === 'PER' && span.type === 'PER' && span.firstToken - last.endToken >= 1 && span.firstToken - last.endToken <= 2) {
      const between = tokens.slice(last.endToken, span.firstToken);
      if (between.every((token) => !token.capitalized && PERSON_PARTICLES.has(token.key)) && tokens[span.firstToken]!.sentence === tokens[last.firstToken]!.sentence) {
        out[out.length - 1] = { ...last, endToken: span.endToken, confidence: Math.max(last.confidence, span.confidence) };
        continue;
      }
    }
    out.push(span);
  }
  for (const [at, span] of out.entries()) {
    const next = tokens[span.endToken];
    const taken = out[at + 1]?.firstToken === span.endToken;
    if (span.type === 'PER' && next && !taken && next.sentence === tokens[span.firstToken]!.sentence && DOUBLE_BARRELLED.test(next.text)) out[at] = { ...span, endToken: span.endToken + 1 };
  }
  return out;
}

const SIGILS = new Set(['@', '#']);
/**
 * A name the tagger reads in lower case inside text otherwise capitalized ("as much as mufc were
 * poor", "search on google") needs this much confidence; in text written without capitals the
 * floor is the usual one.
 */
const LOWER_CASE_NAME_IN_CASED_TEXT = 0.8;

/** Roman numerals and words cut at a hyphen before a lower-case part ("II", "Non-regular"): never a name alone. */
const NOT_A_NAME_ALONE = /^(?:[IVXLC]+|\p{Lu}\p{Ll}*-\p{Ll}.*)$/u;

/**
 * The tagger's people and organizations, trimmed to their words (no edge punctuation,
 * possessive or leading "the"; a tweet's "@" kept with its handle), where no gazetteer name,
 * e-mail, link, amount, date or phone lies; under the rules' vetoes (stop words, countries,
 * a lone word written in lower case elsewhere) and the tenant's model, as the optional
 * extractors' names are.
 */
function taggedNames(
  context: NameContext,
  spans: TaggedSpan[],
  known: { blockedTokens: Set<number>; geoSpans: Set<string>; minConfidence: number; model?: TenantModel },
): NameProposal[] {
  const { tokens } = context;
  const proposals: NameProposal[] = [];
  for (const span of spans) {
    if (span.type === 'LOC' || span.confidence < known.minConfidence) continue;
    let first = span.firstToken;
    let end = span.endToken;
    const edge = (token: Token) => !token.isWord || token.key === "'s" || token.key === '’s';
    while (first < end && (edge(tokens[first]!) || tokens[first]!.key === 'the')) first++;
    while (end > first && edge(tokens[end - 1]!)) end--;
    if (first >= end) continue;
    let blocked = false;
    for (let index = first; index < end; index++) if (known.blockedTokens.has(index)) blocked = true;
    if (blocked || known.geoSpans.has(`${first}:${end}`) || vetoed(context, first, end)) continue;
    const firstToken = tokens[first]!;
    // A tweet's "@" or "#" stays with its handle or hashtag ("@BlackRock", "#Google"), as the
    // social corpus marks them; the normalized name leaves it out.
    const handle = first > 0 && SIGILS.has(tokens[first - 1]!.text) && tokens[first - 1]!.end === firstToken.start;
    // A handle is one name however it is written: "@angie_weather", "@Staceylee_" to their end.
    if (handle && end - first === 1) while (end < tokens.length && tokens[end]!.start === tokens[end - 1]!.end && (tokens[end]!.isWord || tokens[end]!.text === '_') && tokens[end]!.sentence === firstToken.sentence) end++;
    // In text written without capitals ("met carlos at blackrock") a name need not start with one.
    const uncased = context.lowerCaseSentences.has(firstToken.sentence);
    if (!firstToken.capitalized && !handle && !uncased && span.confidence < LOWER_CASE_NAME_IN_CASED_TEXT) continue;
    // Alone, a word that is as often a word as a name ("Grant money ran out") is left to the rules' cues.
    if (end - first === 1 && !handle && (NOT_A_NAME_ALONE.test(firstToken.text) || WORDS_THAT_ARE_ALSO_NAMES.has(firstToken.key))) continue;
    let type: NameType = span.type;
    if (known.model?.canAdd) {
      const verdict = known.model.score(spanFeatures(context, first, end));
      if (verdict.best === 'O' && verdict.margin >= MODEL_DROP_MARGIN) continue;
      if (verdict.best !== 'O' && verdict.best !== type && verdict.margin >= MODEL_SWITCH_MARGIN) type = verdict.best;
    }
    proposals.push({ type, firstToken: handle ? first - 1 : first, endToken: end, confidence: span.confidence, priority: span.confidence });
  }
  return proposals;
}

/**
 * The rules' amounts, and an optional extractor's where they found none (the extractor has
 * checked its amount against the text: ./llm.ts). `external` says which came from one.
 */
function withExternalMoney(text: string, rules: MoneySpan[], external: ExternalEntity[], taken: Span[]): { amounts: MoneySpan[]; external: Map<MoneySpan, ExternalMoney> } {
  const coverage = new Coverage(text.length, [...rules, ...taken]);
  const fromExtractors = new Map<MoneySpan, ExternalMoney>();
  const amounts = [...rules];
  for (const entity of external) {
    if (entity.type !== 'MONEY' || !withinText(entity, text.length) || coverage.overlaps(entity.start, entity.end)) continue;
    const amount: MoneySpan = { start: entity.start, end: entity.end, amount: entity.money.amount, currency: entity.money.currency };
    coverage.mark(amount);
    amounts.push(amount);
    fromExtractors.set(amount, entity);
  }
  amounts.sort((a, b) => a.start - b.start);
  return { amounts, external: fromExtractors };
}

const withinText = (span: Span, length: number) =>
  Number.isInteger(span.start) && Number.isInteger(span.end) && span.start >= 0 && span.start < span.end && span.end <= length;

interface JudgedExternalName {
  type: NameType;
  firstToken: number;
  endToken: number;
  confidence: number;
  source: ExtractorName;
}

/**
 * The optional extractors' names, snapped to whole tokens of one sentence: kept where no
 * gazetteer or rule name, e-mail, link, amount, date or phone lies, unless vetoed (stop words,
 * countries, words written in lower case elsewhere) or a known place; the tenant's model, once
 * trained, drops a name its analysts keep rejecting and corrects the type they keep
 * correcting, as it does for the rules. Where a rule name has the same span and type, that
 * name's confidence rises instead. The more confident extractor wins an overlap.
 */
function judgeExternalNames(
  context: NameContext,
  names: ExternalName[],
  known: { blockedTokens: Set<number>; ruleNames: Map<string, Mention>; geoSpans: Set<string>; minConfidence: number; model?: TenantModel },
): JudgedExternalName[] {
  const { tokens } = context;
  const taken = new Uint8Array(tokens.length);
  for (const index of known.blockedTokens) taken[index] = 1;
  for (const key of known.ruleNames.keys()) {
    const [first, end] = key.split(':').map(Number) as [number, number];
    taken.fill(1, first, end);
  }
  const kept: JudgedExternalName[] = [];
  const byConfidence = [...names].sort((a, b) => b.confidence - a.confidence || a.start - b.start);
  for (const name of byConfidence) {
    const range = tokenRange(tokens, name.start, name.end);
    if (!range) continue;
    const [first, end] = range;
    const key = `${first}:${end}`;
    const ruleName = known.ruleNames.get(key);
    if (ruleName) {
      if (ruleName.type === name.type) ruleName.confidence = Math.max(ruleName.confidence, Math.round(Math.min(0.99, name.confidence) * 100) / 100);
      continue;
    }
    const same = kept.find((found) => found.firstToken === first && found.endToken === end);
    if (same) {
      // Two extractors agree on the span: a little surer when they agree on the type too.
      if (same.type === name.type) same.confidence = Math.min(0.99, Math.round((same.confidence + 0.05) * 100) / 100);
      continue;
    }
    if (taken.subarray(first, end).some((mark) => mark === 1)) continue;
    if (!tokens[first]!.capitalized || vetoed(context, first, end) || known.geoSpans.has(key)) continue;
    let type: NameType = name.type;
    if (known.model?.canAdd) {
      const verdict = known.model.score(spanFeatures(context, first, end));
      if (verdict.best === 'O' && verdict.margin >= MODEL_DROP_MARGIN) continue;
      if (verdict.best !== 'O' && verdict.best !== type && verdict.margin >= MODEL_SWITCH_MARGIN) type = verdict.best;
    }
    const confidence = Math.round(Math.min(0.99, name.confidence) * 100) / 100;
    if (confidence < known.minConfidence) continue;
    taken.fill(1, first, end);
    kept.push({ type, firstToken: first, endToken: end, confidence, source: name.source });
  }
  return kept.sort((a, b) => a.firstToken - b.firstToken);
}

/**
 * The tokens [first, end) a character span covers, widened to whole tokens, without
 * punctuation, a possessive or a leading "the" at its edges; none when it crosses a sentence.
 */
function tokenRange(tokens: Token[], start: number, end: number): [number, number] | undefined {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (tokens[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  let first = low;
  let last = first;
  while (last + 1 < tokens.length && tokens[last + 1]!.start < end) last++;
  if (first >= tokens.length || tokens[first]!.start >= end) return undefined;
  const edge = (token: Token) => !token.isWord || token.key === "'s" || token.key === '’s';
  while (first <= last && (edge(tokens[first]!) || (tokens[first]!.key === 'the' && first < last))) first++;
  while (last >= first && edge(tokens[last]!)) last--;
  if (first > last || tokens[first]!.sentence !== tokens[last]!.sentence) return undefined;
  return [first, last + 1];
}

/**
 * The deals found, and elsewhere money with an organization and a time in the same sentence:
 * year and quarter from the deal's date, or the sentence's date nearest to the money.
 */
function ledgerCandidates(text: string, mentions: Mention[], deals: Array<Deal<Mention>>): LedgerCandidate[] {
  const bySentence = new Map<number, Mention[]>();
  for (const mention of mentions) {
    const list = bySentence.get(mention.sentence.start) ?? [];
    list.push(mention);
    bySentence.set(mention.sentence.start, list);
  }
  const ledger: LedgerCandidate[] = [];
  const dealSentences = new Set<number>();
  for (const deal of deals) {
    dealSentences.add(deal.sentence.start);
    const when = quarterOf(deal.date?.date);
    ledger.push({
      sentence: deal.sentence,
      snippet: text.slice(deal.sentence.start, deal.sentence.end),
      ...(deal.money ? { money: deal.money } : {}),
      ...when,
      organizations: deal.parties.map((party) => party.mention),
      people: (bySentence.get(deal.sentence.start) ?? []).filter((mention) => mention.type === 'PER'),
      deal: { kind: deal.kind, parties: deal.parties, trigger: deal.trigger, confidence: deal.confidence },
    });
  }
  for (const [start, members] of bySentence) {
    if (dealSentences.has(start)) continue;
    const organizations = members.filter((mention) => mention.type === 'ORG');
    if (organizations.length === 0) continue;
    const people = members.filter((mention) => mention.type === 'PER');
    const dates = members.filter((mention) => mention.type === 'DATE').sort((a, b) => a.start - b.start);
    for (const amount of members.filter((mention) => mention.type === 'MONEY')) {
      const when = nearestByStart(dates, amount.start);
      if (!when?.date) continue;
      const sentence = amount.sentence;
      ledger.push({ sentence, snippet: text.slice(sentence.start, sentence.end), money: amount, ...quarterOf(when.date), organizations, people });
    }
  }
  return ledger.sort((a, b) => a.sentence.start - b.sentence.start);
}

/** A ledger entry's year and quarter from a date: its quarter, else its month's. */
function quarterOf(date: Mention['date']): { year?: number; quarter?: number } {
  if (!date) return {};
  const quarter = date.quarter ?? (date.month ? Math.ceil(date.month / 3) : undefined);
  return { year: date.year, ...(quarter ? { quarter } : {}) };
}

/** The mention (sorted by start) whose start is nearest to offset; the later one on a tie. */
function nearestByStart(sorted: Mention[], offset: number): Mention | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]!.start < offset) low = middle + 1;
    else high = middle;
  }
  const after = sorted[low];
  const before = sorted[low - 1];
  if (!before) return after;
  if (!after) return before;
  return offset - before.start < after.start - offset ? before : after;
}

/** Marks the tokens inside e-mails, links, amounts, dates and phones: no name starts there. */
function blockTokensIn(spans: Span[], tokens: Token[], blocked: Set<number>): void {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let cursor = 0;
  tokens.forEach((token, index) => {
    while (cursor < sorted.length && sorted[cursor]!.end <= token.start) cursor++;
    const span = sorted[cursor];
    if (span && span.start < token.end && span.end > token.start) blocked.add(index);
  });
}

function sentenceFinder(sentences: Sentence[], length: number): (offset: number) => { start: number; end: number } {
  return (offset) => {
    let low = 0;
    let high = sentences.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const sentence = sentences[middle]!;
      if (offset < sentence.start) high = middle - 1;
      else if (offset >= sentence.end) low = middle + 1;
      else return { start: sentence.start, end: sentence.end };
    }
    return { start: Math.max(0, offset), end: Math.min(length, offset + 1) };
  };
}

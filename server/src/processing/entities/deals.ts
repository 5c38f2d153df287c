/**
 * Deals in text: acquisitions, mergers, funding rounds and investments, each with its parties
 * (the organizations of the sentence in their roles), its amount and its date when the text
 * gives them. They become ledger suggestions (modules/rawdata/findings.ts).
 *
 * How deals are written in news and press releases, which is what the patterns follow:
 * a trigger — a verb ("agreed to buy", "acquired", "will merge with", "raised", "invested …
 * in", "backed", "sell … to") or a noun ("the $1.2 billion acquisition of", "a merger of
 * equals", "a Series B led by", "an investment in", "takeover of … by") — and the
 * organizations around it, whose role the trigger's form decides:
 *
 *   active verb        subject (the nearest organization before) buys / invests in the object (the first after)
 *   passive verb       "X was acquired by Y", "X agreed to be acquired by Y": the one after "by" buys
 *   noun               "acquisition of X by Y", "Z completed its acquisition of X": "of"/"in" names the
 *                      target or investee, "by"/"from" the buyer or investor, else the subject
 *   "sell … to"        the subject sells, the organization after "to" buys
 *   funding            the subject raises; organizations after "led by", "from", "including",
 *                      "participation from", "with" invest ("Y led a round for X": the other way round)
 *   merger             every party named on either side
 *
 * Not deals (the fresh set's guidelines, bench/ner-fresh/README.md): talks, rumours, offers
 * rejected or called off, speculation ("not in talks to buy", "considering a merger"), and a
 * sentence that only names a deal. Organizations that merely report, advise or are cited
 * ("advised by Kestrel Partners", "according to a statement from Orion Freight", "told
 * Reuters") are not parties. An amount that is a price per share, a valuation, revenue or
 * assets is not the deal's amount. The date is the sentence's, else that of one of the next
 * two sentences that speaks of the deal ("The deal would close in the second quarter of 2025").
 *
 * Linear in the text: each sentence's tokens are read a bounded number of times.
 */
import type { Sentence, Token } from './tokens.ts';

export type DealKind = 'acquisition' | 'merger' | 'funding' | 'investment';
export type DealRole = 'acquirer' | 'target' | 'seller' | 'recipient' | 'investor' | 'investee' | 'party';

/** What the deal finder needs of a mention (extract.ts's Mention fits). */
export interface DealMention {
  type: string;
  /** PER/ORG: the name's key; repeats and short forms share it. */
  normalized?: string;
  start: number;
  end: number;
  money?: { amount: number; currency: string; period?: string };
  date?: { year: number; quarter?: number; month?: number; day?: number };
}

export interface Deal<M extends DealMention = DealMention> {
  kind: DealKind;
  /** The word(s) that say it is a deal ("acquire", "merger", "Series B"). */
  trigger: { start: number; end: number };
  sentence: { start: number; end: number };
  /** Organizations in their roles, in the order of the roles above (buyer first). */
  parties: Array<{ role: DealRole; mention: M }>;
  money?: M;
  date?: M;
  /** 0..1: how much of a deal the sentence states (parties on both sides, amount, date). */
  confidence: number;
}

const ACQUIRE = new Set(['buy', 'buys', 'bought', 'buying', 'acquire', 'acquires', 'acquired', 'acquiring', 'purchase', 'purchases', 'purchased', 'purchasing']);
const ACQUISITION_NOUNS = new Set(['acquisition', 'takeover', 'take-over', 'buyout', 'buy-out', 'purchase']);
const TAKE = new Set(['take', 'takes', 'took', 'taken', 'taking']);
const SELL = new Set(['sell', 'sells', 'sold', 'selling', 'divest', 'divests', 'divested']);
const MERGE = new Set(['merge', 'merges', 'merged', 'merging', 'combine', 'combines', 'combined']);
const MERGER_NOUNS = new Set(['merger', 'mergers', 'combination', 'tie-up']);
const RAISE = new Set(['raise', 'raises', 'raised', 'raising', 'secure', 'secures', 'secured', 'securing', 'close', 'closes', 'closed', 'closing', 'complete', 'completes', 'completed', 'land', 'lands', 'landed', 'receive', 'receives', 'received', 'announce', 'announces', 'announced', 'bag', 'bags', 'bagged', 'nets', 'netted']);
/** Words that make money raised a round: "a $250 million Series B", "seed round", "funding". */
const ROUND_WORDS = new Set(['round', 'series', 'seed', 'pre-seed', 'funding', 'financing', 'fundraise', 'fundraising']);
// Not "investments": a plural lists a firm's past deals ("led the firm's investments in X and Y").
const INVEST = new Set(['invest', 'invests', 'invested', 'investing', 'investment', 'back', 'backs', 'backed', 'backing']);
const LEAD = new Set(['lead', 'leads', 'led', 'leading', 'co-led', 'co-lead', 'co-leads']);
const STAKE = new Set(['stake', 'holding', 'share', 'interest']);
const PASSIVE_AUXILIARIES = new Set(['be', 'been', 'being', 'was', 'were', 'is', 'are', 'get', 'got']);
/** Words that put a deal in doubt or deny it: speculation and talks are not deals. */
const NOT_A_DEAL = new Set(['not', 'no', 'never', "isn't", "wasn't", "won't", "didn't", "hasn't", "doesn't", 'talks', 'considering', 'considers', 'consider', 'weighing', 'weighs', 'explore', 'explores', 'exploring', 'rumoured', 'rumored', 'rumour', 'rumor', 'rumours', 'rumors', 'speculation', 'speculated', 'denied', 'denies', 'deny', 'rejected', 'rejects', 'scrapped', 'abandoned', 'terminated', 'potential', 'possible', 'approach', 'approached', 'bid', 'offer', 'mulls', 'mulling', 'eyeing', 'eyes', 'could', 'might', 'would-be', 'failed', 'collapsed', 'blocked']);
/** After one of these the organization reports or is cited: not a party ("according to a statement from X", "told Reuters"). */
const CITED_AFTER = new Set(['according', 'told', 'via', 'per']);
/** An organization these follow (or "advised by" precedes) advises: not a party ("X acted as adviser to Y", "advised by X"). */
const ADVISER_WORDS = new Set(['adviser', 'advisers', 'advisor', 'advisors', 'advised', 'advises', 'counsel', 'banker', 'bankers']);
/** An amount next to these is not the price: a valuation, revenue, assets. */
const NOT_THE_PRICE_BEFORE = new Set(['valuation', 'valuing', 'values', 'revenue', 'revenues', 'sales', 'turnover', 'assets', 'profit', 'profits', 'earnings', 'debt', 'manages', 'managed', 'spending', 'capex', 'loss', 'losses']);
const PER_UNIT_AFTER = new Set(['a', 'per', 'each']);
/** Words by which a later sentence speaks of the deal just found, giving its date. */
const DEAL_REFERENCES = new Set(['deal', 'deals', 'transaction', 'acquisition', 'merger', 'takeover', 'round', 'closing', 'close', 'completion', 'complete', 'purchase', 'investment']);

/** One trigger read in a sentence: its kind, where it is, and how it assigns roles. */
interface Trigger {
  kind: DealKind;
  first: number;
  end: number;
  form: 'active' | 'passive' | 'noun' | 'sell' | 'lead';
}

/**
 * The deals of a text. `mentions` are the extractor's (sorted by start): organizations are the
 * parties, MONEY the amounts, DATE the dates.
 */
export function findDeals<M extends DealMention>(tokens: Token[], sentences: Sentence[], mentions: M[]): Array<Deal<M>> {
  const byStart = new Map<number, number>();
  const byEnd = new Map<number, number>();
  tokens.forEach((token, index) => {
    byStart.set(token.start, index);
    byEnd.set(token.end, index + 1);
  });
  const bySentence = new Map<number, Array<{ mention: M; first: number; end: number }>>();
  for (const mention of mentions) {
    if (mention.type !== 'ORG' && mention.type !== 'MONEY' && mention.type !== 'DATE') continue;
    const first = byStart.get(mention.start);
    const end = byEnd.get(mention.end);
    if (first === undefined || end === undefined) continue;
    const sentence = tokens[first]!.sentence;
    const list = bySentence.get(sentence) ?? [];
    list.push({ mention, first, end });
    bySentence.set(sentence, list);
  }
  const deals: Array<Deal<M>> = [];
  sentences.forEach((sentence, index) => {
    const members = bySentence.get(index) ?? [];
    if (!members.some((member) => member.mention.type === 'ORG')) return;
    const deal = dealIn(tokens, sentence, members);
    if (!deal) return;
    if (!deal.date) deal.date = laterDate(tokens, sentences, index, bySentence);
    if (deal.date) deal.confidence = Math.min(0.95, Math.round((deal.confidence + 0.05) * 100) / 100);
    deals.push(deal);
  });
  return deals;
}

function dealIn<M extends DealMention>(tokens: Token[], sentence: Sentence, members: Array<{ mention: M; first: number; end: number }>): Deal<M> | undefined {
  const inName = new Uint8Array(sentence.endToken - sentence.firstToken);
  for (const member of members) if (member.mention.type === 'ORG') inName.fill(1, member.first - sentence.firstToken, member.end - sentence.firstToken);
  const trigger = findTrigger(tokens, sentence, (index) => inName[index - sentence.firstToken] === 1);
  if (!trigger) return undefined;
  // Doubt anywhere before the trigger, or just after it ("acquisition talks"), and it is no deal.
  for (let index = sentence.firstToken; index < Math.min(sentence.endToken, trigger.end + 2); index++) {
    if (NOT_A_DEAL.has(tokens[index]!.key) && !inName[index - sentence.firstToken]) return undefined;
  }
  const organizations = members.filter((member) => member.mention.type === 'ORG' && !citedOnly(tokens, sentence, member.first, member.end));
  const before = organizations.filter((member) => member.end <= trigger.first);
  const after = organizations.filter((member) => member.first >= trigger.end);
  const parties = roles(tokens, trigger, before, after);
  if (!complete(trigger.kind, parties)) return undefined;
  const money = dealAmount(tokens, trigger, members.filter((member) => member.mention.type === 'MONEY'));
  const date = nearest(members.filter((member) => member.mention.type === 'DATE' && member.mention.date?.year), trigger);
  const distinct = new Set(parties.map((party) => party.mention.start)).size;
  const confidence = 0.6 + (distinct >= 2 ? 0.15 : 0) + (money ? 0.1 : 0);
  return {
    kind: trigger.kind,
    trigger: { start: tokens[trigger.first]!.start, end: tokens[trigger.end - 1]!.end },
    sentence: { start: sentence.start, end: sentence.end },
    parties,
    ...(money ? { money: money.mention } : {}),
    ...(date ? { date: date.mention } : {}),
    confidence: Math.round(confidence * 100) / 100,
  };
}

/** The first word of the sentence that says deal, and the form it takes. */
function findTrigger(tokens: Token[], sentence: Sentence, inName: (index: number) => boolean): Trigger | undefined {
  const key = (index: number) => (index >= sentence.firstToken && index < sentence.endToken ? tokens[index]!.key : '');
  const roundSaid = () => {
    for (let index = sentence.firstToken; index < sentence.endToken; index++) if (ROUND_WORDS.has(tokens[index]!.key) && !inName(index)) return true;
    return false;
  };
  for (let index = sentence.firstToken; index < sentence.endToken; index++) {
    const word = key(index);
    if (inName(index) || !tokens[index]!.isWord) continue;
    const passive = PASSIVE_AUXILIARIES.has(key(index - 1)) || key(index + 1) === 'by';
    if (ACQUIRE.has(word)) {
      // "bought a minority stake in" is an acquisition (bench/ner-fresh/README.md); "purchase of" a noun.
      if (word === 'purchase' && key(index + 1) === 'of') return { kind: 'acquisition', first: index, end: index + 1, form: 'noun' };
      return { kind: 'acquisition', first: index, end: index + 1, form: passive ? 'passive' : 'active' };
    }
    if (ACQUISITION_NOUNS.has(word)) return { kind: 'acquisition', first: index, end: index + 1, form: 'noun' };
    if (TAKE.has(word) && key(index + 1) === 'over') return { kind: 'acquisition', first: index, end: index + 2, form: passive ? 'passive' : 'active' };
    if (SELL.has(word)) return { kind: 'acquisition', first: index, end: index + 1, form: passive ? 'passive' : 'sell' };
    if (word === 'sale' && key(index + 1) === 'of') return { kind: 'acquisition', first: index, end: index + 1, form: 'sell' };
    if (MERGE.has(word) && (word.startsWith('merg') || key(index + 1) === 'with')) return { kind: 'merger', first: index, end: index + 1, form: 'noun' };
    if (MERGER_NOUNS.has(word) && (word !== 'combination' || key(index - 1) === 'business')) return { kind: 'merger', first: index, end: index + 1, form: 'noun' };
    // "takes a 30% stake in": an investment; bought stakes were caught above.
    if (TAKE.has(word) && STAKE.has(nextWordKey(tokens, sentence, index, 4, STAKE))) return { kind: 'investment', first: index, end: index + 1, form: 'active' };
    if (RAISE.has(word) && roundSaid()) return { kind: 'funding', first: index, end: index + 1, form: passive ? 'passive' : 'active' };
    // "raised $40 million" without a round word: money right after the verb ("raise prices" is no deal).
    if ((word === 'raise' || word === 'raises' || word === 'raised' || word === 'raising') && tokens[index + 1]?.key !== 'prices' && moneyFollows(tokens, index)) return { kind: 'funding', first: index, end: index + 1, form: 'active' };
    if (LEAD.has(word) && key(index + 1) !== 'by' && roundSaid()) return { kind: 'funding', first: index, end: index + 1, form: 'lead' };
    if (INVEST.has(word)) {
      const kind: DealKind = roundSaid() ? 'funding' : 'investment';
      const noun = word.startsWith('investment');
      return { kind, first: index, end: index + 1, form: noun ? 'noun' : passive ? 'passive' : kind === 'funding' ? 'lead' : 'active' };
    }
    if ((word === 'round' || word === 'series' || word === 'seed') && roundSaid()) return { kind: 'funding', first: index, end: index + 1, form: 'noun' };
  }
  return undefined;
}

/** Whether an amount starts within the next three tokens ("raised $38 million", "raised a further €8.5m"). */
function moneyFollows(tokens: Token[], index: number): boolean {
  for (let next = index + 1; next <= index + 3 && next < tokens.length; next++) {
    const token = tokens[next]!;
    if (token.isNumber || /^[$€£¥₹]|^[A-Z]{3}$/.test(token.text)) return true;
  }
  return false;
}

/** The key of a word of `set` among the next `within` words, or ''. */
function nextWordKey(tokens: Token[], sentence: Sentence, index: number, within: number, set: Set<string>): string {
  for (let next = index + 1; next < Math.min(sentence.endToken, index + 1 + within); next++) if (set.has(tokens[next]!.key)) return tokens[next]!.key;
  return '';
}

/**
 * An organization that only reports, advises or is cited: after "according to", "told", "via"
 * (within five words), right after "advised by", before an adviser word within five words
 * ("X acted as sole financial adviser to Y": X, not Y), or a "/PRNewswire/" byline.
 */
function citedOnly(tokens: Token[], sentence: Sentence, first: number, end: number): boolean {
  for (let index = Math.max(sentence.firstToken, first - 5); index < first; index++) if (CITED_AFTER.has(tokens[index]!.key)) return true;
  if (tokens[first - 1]?.key === 'by' && ADVISER_WORDS.has(tokens[first - 2]?.key ?? '')) return true;
  for (let index = end; index < Math.min(sentence.endToken, end + 5); index++) if (ADVISER_WORDS.has(tokens[index]!.key)) return true;
  return tokens[first - 1]?.text === '/';
}

/** The word just before an organization, skipping its descriptive words ("led by Danish enzyme maker X" → "by"). */
function governingWord(tokens: Token[], trigger: Trigger, first: number): string {
  for (let index = first - 1; index >= trigger.end && index >= first - 6; index--) {
    const key = tokens[index]!.key;
    if (['by', 'from', 'of', 'in', 'into', 'to', 'for', 'with', 'and', 'including', 'between'].includes(key)) return key;
    if (tokens[index]!.text === ',') return ',';
  }
  return '';
}

/**
 * Whether the sides a deal cannot lack are named: what an acquisition buys — its target, or the
 * seller of a unit ("sell its satellite unit to Y"); its buyer may be "the Group" — the investee
 * of an investment (else "would invest 4 trillion won in a new plant" would be one), two merging
 * parties. A round needs one party: a round word and money already say it is one.
 */
function complete(kind: DealKind, parties: Array<{ role: DealRole }>): boolean {
  const has = (role: DealRole) => parties.some((party) => party.role === role);
  if (kind === 'acquisition') return has('target') || has('seller');
  if (kind === 'funding') return parties.length > 0;
  if (kind === 'investment') return has('investee');
  return parties.length >= 2;
}

function roles<M extends DealMention>(
  tokens: Token[],
  trigger: Trigger,
  before: Array<{ mention: M; first: number }>,
  after: Array<{ mention: M; first: number }>,
): Array<{ role: DealRole; mention: M }> {
  const subject = before.at(-1)?.mention;
  const by = (words: string[]) => after.filter((member) => words.includes(governingWord(tokens, trigger, member.first))).map((member) => member.mention);
  const firstAfter = after[0]?.mention;
  const out: Array<{ role: DealRole; mention: M }> = [];
  // One party per name: "First Prairie" after "First Prairie Financial Corporation" is the same party.
  const add = (role: DealRole, mention: M | undefined) => {
    if (mention && !out.some((party) => party.mention === mention || (mention.normalized !== undefined && party.mention.normalized === mention.normalized))) out.push({ role, mention });
  };
  switch (trigger.kind) {
    case 'merger':
      for (const member of [...before.slice(-2), ...after.slice(0, 3)]) add('party', member.mention);
      break;
    case 'acquisition':
      if (trigger.form === 'passive') {
        add('acquirer', by(['by'])[0] ?? firstAfter);
        add('target', subject);
      } else if (trigger.form === 'sell') {
        // "X agreed to sell its unit to Y", "the sale of X to Y", "sold X to Y".
        add('acquirer', by(['to'])[0]);
        add('target', by(['of'])[0] ?? after.find((member) => governingWord(tokens, trigger, member.first) !== 'to')?.mention);
        add('seller', subject);
      } else if (trigger.form === 'noun') {
        add('acquirer', by(['by'])[0] ?? subject);
        add('target', by(['of'])[0] ?? after.find((member) => governingWord(tokens, trigger, member.first) !== 'by')?.mention);
        add('seller', by(['from'])[0]);
      } else {
        add('acquirer', subject);
        add('target', after.find((member) => governingWord(tokens, trigger, member.first) !== 'from')?.mention);
        add('seller', by(['from'])[0]);
      }
      break;
    case 'funding':
      if (trigger.form === 'lead') {
        // "Y led a $120 million round for X", "Y backed X with a seed investment".
        add('recipient', by(['for', 'in', 'of'])[0] ?? firstAfter);
        add('investor', subject);
      } else {
        add('recipient', subject ?? by(['for', 'of'])[0]);
        for (const investor of after) if (investor.mention !== out[0]?.mention) add('investor', investor.mention);
      }
      break;
    case 'investment':
      if (trigger.form === 'passive') {
        add('investor', by(['by', 'from'])[0]);
        add('investee', subject);
      } else if (trigger.form === 'noun' && by(['from', 'by']).length > 0 && by(['in']).length === 0) {
        // "X announced a strategic investment of RMB 1.5 billion from Y".
        add('investor', by(['from', 'by'])[0]);
        add('investee', subject);
      } else {
        add('investor', subject ?? by(['from', 'by'])[0]);
        add('investee', by(['in', 'into'])[0] ?? (trigger.form === 'noun' ? undefined : firstAfter));
      }
      break;
  }
  return out;
}

/** The amount of the deal: the sentence's money nearest the trigger that is no price per share, valuation or revenue. */
function dealAmount<M extends DealMention>(tokens: Token[], trigger: Trigger, money: Array<{ mention: M; first: number; end: number }>) {
  const prices = money.filter((member) => {
    // A recurring amount ("$5 million a year") is no price; one dated ("$12 million in Q3 2024") is.
    if (member.mention.money?.period?.startsWith('per ')) return false;
    const sentence = tokens[member.first]!.sentence;
    for (let index = Math.max(0, member.first - 4); index < member.first; index++) {
      if (tokens[index]!.sentence === sentence && NOT_THE_PRICE_BEFORE.has(tokens[index]!.key)) return false;
    }
    const next = tokens[member.end]?.key;
    return !(next && PER_UNIT_AFTER.has(next) && ['share', 'unit', 'month', 'year', 'seat'].includes(tokens[member.end + 1]?.key ?? ''));
  });
  return nearest(prices, trigger);
}

function nearest<T extends { first: number; end: number }>(members: T[], trigger: Trigger): T | undefined {
  const distance = (member: T) => (member.end <= trigger.first ? trigger.first - member.end : member.first - trigger.end);
  return [...members].sort((a, b) => distance(a) - distance(b))[0];
}

/** A dated mention in one of the two sentences after the deal's that speaks of it ("The deal is expected to close in Q3 2025"). */
function laterDate<M extends DealMention>(tokens: Token[], sentences: Sentence[], index: number, bySentence: Map<number, Array<{ mention: M }>>): M | undefined {
  for (let next = index + 1; next <= index + 2 && next < sentences.length; next++) {
    const sentence = sentences[next]!;
    let speaksOfIt = false;
    for (let token = sentence.firstToken; token < sentence.endToken && !speaksOfIt; token++) speaksOfIt = DEAL_REFERENCES.has(tokens[token]!.key);
    if (!speaksOfIt) continue;
    const date = (bySentence.get(next) ?? []).find((member) => member.mention.type === 'DATE' && member.mention.date?.year);
    if (date) return date.mention;
  }
  return undefined;
}

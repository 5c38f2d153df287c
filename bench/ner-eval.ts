/**
 * People and organizations on text the extractor was not written or trained on, cold start
 * (no tenant records, no tenant model), extractEntities called as the processing job calls it.
 * Strict (exact span and type) and lenient (overlapping span, same type) precision, recall and
 * F1 per type, on:
 *   - the held-out split of ../shared/ner-train (bench/ner-corpora.ts): uner-en-ewt test
 *     (web prose, "news-like") and broad-twitter-corpus section h (social), apart;
 *   - bench/ner-fresh/dev.md, in all and per style;
 *   - bench/ner/passages.md, the regression set written with the rules.
 *
 *   node --import tsx bench/ner-eval.ts            tables as Markdown
 *   node --import tsx bench/ner-eval.ts --errors   also every miss and false alarm (stderr)
 *   node --import tsx bench/ner-eval.ts --tagger   the trained tagger alone (no rules), for comparison
 *   node --import tsx bench/ner-eval.ts --fresh-holdout
 *       only bench/ner-fresh/holdout.md, in all and per style — once, at the end of a change
 *   node --import tsx bench/ner-eval.ts --speed    only throughput: sentences/s of the tagger and of extractEntities
 *   node --import tsx bench/ner-eval.ts --thresholds 0.5,0.6,0.7
 *       strict P/R/F1 per suggestion threshold (docs/processing.md "Confidence"), on the
 *       development sets only: a name is kept when its most confident mention in the passage
 *       reaches the threshold, as a suggestion's confidence is; the extractor's own floor is the
 *       threshold where that is lower than its default, as processing runs it
 */
import { extractEntities, type Mention } from '../server/src/processing/entities/index.ts';
import { RULE_THRESHOLD } from '../server/src/processing/entities/names.ts';
import { normalizeName } from '../server/src/resources/values.ts';
import { contextOf } from '../server/src/processing/entities/model.ts';
import { defaultTagger } from '../server/src/processing/entities/tagger.ts';
import { tokenize } from '../server/src/processing/entities/tokens.ts';
import { f1, matchSpans, ratio, sameSpan } from './ner/score.ts';
import { HELD_OUT_FILES, corporaAvailable, readCorpusFile, readFreshDev, readFreshHoldout, readRegressionSet, type Labelled } from './ner-corpora.ts';

type Type = 'PER' | 'ORG';
const TYPES: Type[] = ['PER', 'ORG'];
const showErrors = process.argv.includes('--errors');
const taggerOnly = process.argv.includes('--tagger');

/** The tagger's own names (token spans to characters), without the rules. */
function taggerMentions(text: string): Span[] {
  const { tokens } = tokenize(text);
  return defaultTagger({ strict: true })!
    .tag(contextOf(tokens))
    .map((span) => ({ type: span.type, start: tokens[span.firstToken]!.start, end: tokens[span.endToken - 1]!.end, text: text.slice(tokens[span.firstToken]!.start, tokens[span.endToken - 1]!.end) }));
}
const predict = (text: string): Array<Span & { text: string }> => (taggerOnly ? (taggerMentions(text) as Array<Span & { text: string }>) : extractEntities(text).mentions);

interface Span {
  type: string;
  start: number;
  end: number;
}
interface Counts {
  gold: number;
  predicted: number;
  /** Predictions equal to a gold span (strict). */
  exact: number;
  /** Predictions overlapping a gold span of their type, and gold spans overlapped by one (lenient). */
  predictedOverlapping: number;
  goldOverlapped: number;
}

function evaluate(name: string, items: Labelled[]): Record<Type, Counts> {
  const counts = Object.fromEntries(TYPES.map((type) => [type, { gold: 0, predicted: 0, exact: 0, predictedOverlapping: 0, goldOverlapped: 0 }])) as Record<Type, Counts>;
  for (const item of items) {
    const predicted = predict(item.text);
    for (const type of TYPES) {
      const gold = item.entities.filter((entity) => entity.type === type);
      const mine = predicted.filter((mention) => mention.type === type);
      const row = counts[type];
      row.gold += gold.length;
      row.predicted += mine.length;
      const matched = matchSpans(gold, mine);
      row.exact += matched.exact;
      row.predictedOverlapping += matched.predictedOverlapping;
      row.goldOverlapped += matched.goldOverlapped;
      if (showErrors) {
        for (const mention of mine) if (!gold.some((entity) => sameSpan(entity, mention))) console.error(`${name} false ${type} ${item.id}: ${JSON.stringify(mention.text)}`);
        for (const entity of gold) if (!mine.some((mention) => sameSpan(entity, mention))) console.error(`${name} missed ${type} ${item.id}: ${JSON.stringify(item.text.slice(entity.start, entity.end))}`);
      }
    }
  }
  return counts;
}

const fmt = (value: number) => value.toFixed(2);

function row(set: string, type: Type, counts: Counts): string {
  const strictP = ratio(counts.exact, counts.predicted);
  const strictR = ratio(counts.exact, counts.gold);
  const lenientP = ratio(counts.predictedOverlapping, counts.predicted);
  const lenientR = ratio(counts.goldOverlapped, counts.gold);
  return `| ${set} | ${type} | ${counts.gold} | ${counts.predicted} | ${fmt(strictP)} | ${fmt(strictR)} | **${fmt(f1(strictP, strictR))}** | ${fmt(lenientP)} | ${fmt(lenientR)} | ${fmt(f1(lenientP, lenientR))} |`;
}

if (process.argv.includes('--speed')) {
  const sentences = readCorpusFile(HELD_OUT_FILES[0]!).map((item) => item.text);
  const tagger = defaultTagger({ strict: true })!;
  for (const [name, run] of [
    ['tagger alone', (text: string) => tagger.tag(contextOf(tokenize(text).tokens))],
    ['extractEntities', (text: string) => extractEntities(text)],
  ] as const) {
    for (const text of sentences.slice(0, 200)) run(text);
    const started = performance.now();
    for (const text of sentences) run(text);
    const seconds = (performance.now() - started) / 1000;
    console.log(`${name}: ${sentences.length} sentences of uner test in ${seconds.toFixed(2)} s, ${(sentences.length / seconds).toFixed(0)} sentences/s on one core`);
  }
  process.exit(0);
}

/**
 * The mentions processing would suggest at a threshold: the extractor run with its floor at the
 * threshold where that is lower than its own, then every name whose most confident mention in
 * the passage is below the threshold left out — a suggestion's confidence is its best source's.
 */
function suggestedAt(text: string, threshold: number): Mention[] {
  const { mentions } = extractEntities(text, { minConfidence: Math.min(threshold, RULE_THRESHOLD) });
  const keyOf = (mention: Mention) => `${mention.type}\u0000${normalizeName(mention.normalized ?? mention.text)}`;
  const best = new Map<string, number>();
  for (const mention of mentions) best.set(keyOf(mention), Math.max(best.get(keyOf(mention)) ?? 0, mention.confidence));
  return mentions.filter((mention) => (best.get(keyOf(mention)) ?? 0) >= threshold);
}

const thresholdsAt = process.argv.indexOf('--thresholds');
if (thresholdsAt >= 0) {
  const thresholds = (process.argv[thresholdsAt + 1] ?? '0.4,0.5,0.6,0.7,0.8,0.9').split(',').map(Number);
  const fresh = readFreshDev();
  const devSets: Array<[string, Labelled[]]> = [['fresh dev, news', fresh.filter((item) => item.style === 'news')], ['fresh dev, all', fresh]];
  if (corporaAvailable()) devSets.push(['held-out uner (web prose)', readCorpusFile(HELD_OUT_FILES[0]!)]);
  console.log('| set | threshold | PER P | PER R | PER F1 | ORG P | ORG R | ORG F1 |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [name, items] of devSets) {
    for (const threshold of thresholds) {
      const cells = TYPES.map((type) => {
        let gold = 0, predicted = 0, exact = 0;
        for (const item of items) {
          const mine = suggestedAt(item.text, threshold).filter((mention) => mention.type === type);
          const theirs = item.entities.filter((entity) => entity.type === type);
          gold += theirs.length;
          predicted += mine.length;
          exact += matchSpans(theirs, mine).exact;
        }
        const [p, r] = [ratio(exact, predicted), ratio(exact, gold)];
        return `${fmt(p)} | ${fmt(r)} | ${fmt(f1(p, r))}`;
      });
      console.log(`| ${name} | ${threshold} | ${cells.join(' | ')} |`);
    }
  }
  process.exit(0);
}

const sets: Array<[string, Labelled[]]> = [];
if (process.argv.includes('--fresh-holdout')) {
  const holdout = readFreshHoldout();
  sets.push(['fresh holdout, all', holdout]);
  for (const style of [...new Set(holdout.map((item) => item.style))]) sets.push([`fresh holdout, ${style}`, holdout.filter((item) => item.style === style)]);
} else if (corporaAvailable()) {
  sets.push(['held-out uner (web prose)', readCorpusFile(HELD_OUT_FILES[0]!)]);
  sets.push(['held-out btc h (social)', readCorpusFile(HELD_OUT_FILES[1]!)]);
} else {
  console.error('../shared/ner-train not found (NER_TRAIN_DIR): the held-out corpus rows are left out');
}
if (!process.argv.includes('--fresh-holdout')) {
  const fresh = readFreshDev();
  sets.push(['fresh dev, all', fresh]);
  for (const style of [...new Set(fresh.map((item) => item.style))]) sets.push([`fresh dev, ${style}`, fresh.filter((item) => item.style === style)]);
  sets.push(['regression (bench/ner)', readRegressionSet()]);
}

console.log('| set | type | gold | predicted | P strict | R strict | F1 strict | P lenient | R lenient | F1 lenient |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
const started = performance.now();
let texts = 0;
for (const [name, items] of sets) {
  const counts = evaluate(name, items);
  texts += items.length;
  for (const type of TYPES) console.log(row(name, type, counts[type]));
}
console.log(`\n${texts} texts in ${((performance.now() - started) / 1000).toFixed(1)} s (extractEntities, whole pipeline)`);

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
 *   node --import tsx bench/ner-eval.ts --speed    only throughput: sentences/s of the tagger and of extractEntities
 */
import { extractEntities } from '../server/src/processing/entities/index.ts';
import { contextOf } from '../server/src/processing/entities/model.ts';
import { defaultTagger } from '../server/src/processing/entities/tagger.ts';
import { tokenize } from '../server/src/processing/entities/tokens.ts';
import { f1, matchSpans, ratio, sameSpan } from './ner/score.ts';
import { HELD_OUT_FILES, corporaAvailable, readCorpusFile, readFreshDev, readRegressionSet, type Labelled } from './ner-corpora.ts';

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

const sets: Array<[string, Labelled[]]> = [];
if (corporaAvailable()) {
  sets.push(['held-out uner (web prose)', readCorpusFile(HELD_OUT_FILES[0]!)]);
  sets.push(['held-out btc h (social)', readCorpusFile(HELD_OUT_FILES[1]!)]);
} else {
  console.error('../shared/ner-train not found (NER_TRAIN_DIR): the held-out corpus rows are left out');
}
const fresh = readFreshDev();
sets.push(['fresh dev, all', fresh]);
for (const style of [...new Set(fresh.map((item) => item.style))]) sets.push([`fresh dev, ${style}`, fresh.filter((item) => item.style === style)]);
sets.push(['regression (bench/ner)', readRegressionSet()]);

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

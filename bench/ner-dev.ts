/**
 * The development loop for the entity tagger, on the development split of the TRAINING corpora
 * (bench/ner-corpora.ts `inDevSplit`) and bench/ner-fresh/dev.md — never on the held-out part:
 *
 *   for k in 0 1 2 3 4; do NER_DEV_FOLD=$k nice -n 19 node --import tsx scripts/train-ner.ts --dev-split --out /tmp/dev-$k.json.gz; done
 *   node --import tsx bench/ner-dev.ts --weights '/tmp/dev-{fold}.json.gz' [--folds 0,1,2,3,4] [--errors file] [--min 0.6]
 *
 * Each UNER fold is scored with the model that left it out; the tweets' split and the fresh set
 * with fold 0's model.
 * Strict P/R/F1 per type for extractEntities with those weights (and the tagger alone); with
 * --errors, every false alarm and miss of the dev split written to a file, to read for kinds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { extractEntities } from '../server/src/processing/entities/index.ts';
import { contextOf } from '../server/src/processing/entities/model.ts';
import { EntityTagger, type TaggerFile } from '../server/src/processing/entities/tagger.ts';
import { tokenize } from '../server/src/processing/entities/tokens.ts';
import { f1, matchSpans, ratio, sameSpan } from './ner/score.ts';
import { TRAINING_FILES, inDevSplit, readCorpora, readFreshDev, type Labelled } from './ner-corpora.ts';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const folds = (argument('--folds') ?? '0,1,2,3,4').split(',').map(Number);
const taggers = new Map<number, EntityTagger>();
for (const fold of folds) {
  const file = JSON.parse(gunzipSync(readFileSync((argument('--weights') ?? '/tmp/dev-{fold}.json.gz').replace('{fold}', String(fold)))).toString('utf8')) as TaggerFile;
  if (!file.meta.devSplitLeftOut || (file.meta.devFold ?? 0) !== fold) throw new Error(`the weights for fold ${fold} were not trained without it`);
  taggers.set(fold, EntityTagger.fromFile(file));
}
const minConfidence = argument('--min') ? Number(argument('--min')) : undefined;
const errorsFile = argument('--errors');
const errors: string[] = [];

const training = readCorpora(TRAINING_FILES);
const fresh = readFreshDev();
const firstFold = folds[0]!;
/** Each text with the model that did not see it. */
const withModel = (items: Labelled[], fold?: number) => items.map((item) => ({ item, tagger: taggers.get(fold ?? firstFold)! }));
const sets: Array<[string, Array<{ item: Labelled; tagger: EntityTagger }>]> = [
  ['dev uner', folds.flatMap((fold) => withModel(training.filter((item) => item.style === 'uner' && inDevSplit(item, fold)), fold))],
  ['dev btc', withModel(training.filter((item) => item.style === 'btc' && inDevSplit(item, firstFold)))],
  ['fresh dev news', withModel(fresh.filter((item) => item.style === 'news'))],
  ['fresh dev social', withModel(fresh.filter((item) => item.style === 'social'))],
  ['fresh dev all', withModel(fresh)],
];

function taggerAlone(tagger: EntityTagger, text: string) {
  const { tokens } = tokenize(text);
  return tagger.tag(contextOf(tokens)).map((span) => ({ type: span.type, start: tokens[span.firstToken]!.start, end: tokens[span.endToken - 1]!.end, text: text.slice(tokens[span.firstToken]!.start, tokens[span.endToken - 1]!.end) }));
}

console.log('| set | type | gold | P | R | F1 | alone P | alone R | alone F1 |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [name, items] of sets) {
  for (const type of ['PER', 'ORG'] as const) {
    const counts = [0, 0, 0, 0, 0];
    let gold = 0;
    for (const { item, tagger } of items) {
      const theirs = item.entities.filter((entity) => entity.type === type);
      gold += theirs.length;
      const mine = extractEntities(item.text, { tagger, ...(minConfidence !== undefined ? { minConfidence } : {}) }).mentions.filter((mention) => mention.type === type);
      const alone = taggerAlone(tagger, item.text).filter((mention) => mention.type === type);
      counts[0]! += mine.length;
      counts[1]! += matchSpans(theirs, mine).exact;
      counts[2]! += alone.length;
      counts[3]! += matchSpans(theirs, alone).exact;
      if (errorsFile && !name.startsWith('fresh dev all')) {
        for (const mention of mine) if (!theirs.some((entity) => sameSpan(entity, mention))) errors.push(`${name}\tfalse ${type}\t${mention.text}\t${mention.confidence}\t${item.id}\t${item.text.slice(0, 200)}`);
        for (const entity of theirs) if (!mine.some((mention) => sameSpan(entity, mention))) errors.push(`${name}\tmissed ${type}\t${item.text.slice(entity.start, entity.end)}\t\t${item.id}\t${item.text.slice(0, 200)}`);
      }
    }
    const cells = [[counts[1]!, counts[0]!], [counts[3]!, counts[2]!]].map(([exact, predicted]) => {
      const [p, r] = [ratio(exact!, predicted!), ratio(exact!, gold)];
      return `${p.toFixed(3)} | ${r.toFixed(3)} | **${f1(p, r).toFixed(3)}**`;
    });
    console.log(`| ${name} | ${type} | ${gold} | ${cells.join(' | ')} |`);
  }
}
if (errorsFile) writeFileSync(errorsFile, errors.join('\n') + '\n');

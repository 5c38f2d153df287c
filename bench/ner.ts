/**
 * Entity extraction quality on the hand-labelled passages of bench/ner/:
 * precision, recall and F1 per type (exact span match, and overlap match),
 * for the default extractor, then the learning experiment — 200 review
 * decisions simulated on half A train a TenantModel, half B is measured
 * before and after.
 *   node --import tsx bench/ner.ts            the tables, as Markdown
 *   node --import tsx bench/ner.ts --errors   also every miss and false alarm
 */
import { TenantModel, extractEntities, foldName, type Mention, type ReviewDecision } from '../server/src/processing/entities/index.ts';
import { f1, matchSpans, overlaps, ratio, sameSpan } from './ner/score.ts';
import { loadPassages, type GoldEntity, type GoldType, type Passage } from './ner/convert.ts';

const TYPES: GoldType[] = ['PER', 'ORG', 'MONEY'];
const DECISIONS = 200;
const showErrors = process.argv.includes('--errors');

interface Counts {
  gold: number;
  predicted: number;
  exact: number;
  overlap: number;
}

type Predict = (passage: Passage) => Mention[];

function predictedOf(passage: Passage, model?: TenantModel): Mention[] {
  return extractEntities(passage.text, model ? { model } : {}).mentions.filter((mention) => (TYPES as string[]).includes(mention.type));
}

function evaluate(passages: Passage[], predict: Predict, label = ''): Record<GoldType, Counts> {
  const counts = Object.fromEntries(TYPES.map((type) => [type, { gold: 0, predicted: 0, exact: 0, overlap: 0 }])) as Record<GoldType, Counts>;
  for (const passage of passages) {
    const predicted = predict(passage);
    for (const type of TYPES) {
      const gold = passage.entities.filter((entity) => entity.type === type);
      const mine = predicted.filter((mention) => mention.type === type);
      const row = counts[type];
      row.gold += gold.length;
      row.predicted += mine.length;
      const matched = matchSpans(gold, mine);
      row.exact += matched.exact;
      row.overlap += matched.predictedOverlapping;
      if (showErrors && label) {
        for (const mention of mine) if (!gold.some((entity) => sameSpan(entity, mention))) console.error(`${label} false ${type} ${passage.id}: ${JSON.stringify(mention.text)}`);
        for (const entity of gold) if (!mine.some((mention) => sameSpan(entity, mention))) console.error(`${label} missed ${type} ${passage.id}: ${JSON.stringify(entity.text)}`);
      }
    }
  }
  return counts;
}

function scores(row: Counts, kind: 'exact' | 'overlap') {
  const precision = ratio(row[kind], row.predicted);
  // Overlap recall: gold entities some prediction overlaps, approximated by matched predictions, capped.
  const recall = Math.min(1, ratio(row[kind], row.gold));
  return { precision, recall, f1: f1(precision, recall) };
}
const fmt = (value: number) => value.toFixed(2);

function table(title: string, counts: Record<GoldType, Counts>): string {
  const lines = [`**${title}**`, '', '| type | gold | predicted | P exact | R exact | F1 exact | P overlap | R overlap | F1 overlap |', '|---|---|---|---|---|---|---|---|---|'];
  for (const type of TYPES) {
    const row = counts[type];
    const exact = scores(row, 'exact');
    const overlap = scores(row, 'overlap');
    lines.push(`| ${type} | ${row.gold} | ${row.predicted} | ${fmt(exact.precision)} | ${fmt(exact.recall)} | ${fmt(exact.f1)} | ${fmt(overlap.precision)} | ${fmt(overlap.recall)} | ${fmt(overlap.f1)} |`);
  }
  return lines.join('\n');
}

/**
 * What an analyst would do with the suggestions on a passage: accept a right
 * one, correct a wrong span or type to the gold entity it overlaps, reject
 * the rest, and add the names nobody suggested.
 */
type Reviewed = ReviewDecision & { kind: 'accepted' | 'corrected' | 'rejected' | 'added' };

function simulateReview(passage: Passage): Reviewed[] {
  const decisions: Reviewed[] = [];
  const names = predictedOf(passage).filter((mention) => mention.type === 'PER' || mention.type === 'ORG');
  const gold = passage.entities.filter((entity) => entity.type === 'PER' || entity.type === 'ORG');
  const covered = new Set<GoldEntity>();
  for (const mention of names) {
    const type = mention.type as 'PER' | 'ORG';
    const exact = gold.find((entity) => entity.start === mention.start && entity.end === mention.end && entity.type === type);
    const near = exact ?? gold.find((entity) => overlaps(entity, mention));
    const base = { text: passage.text, start: mention.start, end: mention.end, type };
    if (exact) {
      decisions.push({ ...base, accepted: true, kind: 'accepted' });
      covered.add(exact);
    } else if (near) {
      decisions.push({ ...base, accepted: true, correctedName: near.text, correctedType: near.type as 'PER' | 'ORG', kind: 'corrected' });
      covered.add(near);
    } else {
      decisions.push({ ...base, accepted: false, kind: 'rejected' });
    }
  }
  for (const entity of gold) {
    if (covered.has(entity)) continue;
    decisions.push({ text: passage.text, start: entity.start, end: entity.end, type: entity.type as 'PER' | 'ORG', accepted: true, kind: 'added' });
  }
  return decisions;
}

const passages = loadPassages();
const halfA = passages.filter((passage) => passage.half === 'A');
const halfB = passages.filter((passage) => passage.half === 'B');

const started = performance.now();
const all = evaluate(passages, (passage) => predictedOf(passage), 'default');
const elapsed = performance.now() - started;

const decisions = halfA.flatMap(simulateReview).slice(0, DECISIONS);
const trained = new TenantModel();
trained.train(decisions);
const stored = JSON.stringify(trained.toJSON());
const model = TenantModel.fromJSON(JSON.parse(stored));
const before = evaluate(halfB, (passage) => predictedOf(passage));
const after = evaluate(halfB, (passage) => predictedOf(passage, model), 'trained');

const kinds = Object.fromEntries(['accepted', 'corrected', 'rejected', 'added'].map((kind) => [kind, decisions.filter((decision) => decision.kind === kind).length]));

// How much of the gain is memory: half B's names that half A's review decisions already named.
const reviewedNames = new Set(decisions.filter((decision) => decision.accepted).map((decision) => foldName(decision.correctedName ?? decision.text.slice(decision.start, decision.end))));
function recallBySeen(predict: Predict): { seen: string; unseen: string } {
  const found = { seen: [0, 0], unseen: [0, 0] };
  for (const passage of halfB) {
    const predicted = predict(passage);
    for (const entity of passage.entities.filter((entity) => entity.type !== 'MONEY')) {
      const bucket = reviewedNames.has(foldName(entity.text)) ? found.seen : found.unseen;
      bucket[1]!++;
      if (predicted.some((mention) => mention.type === entity.type && mention.start === entity.start && mention.end === entity.end)) bucket[0]!++;
    }
  }
  const show = ([hit, all]: number[]) => `${hit}/${all} (${fmt(ratio(hit!, all!))})`;
  return { seen: show(found.seen), unseen: show(found.unseen) };
}
const recallBefore = recallBySeen((passage) => predictedOf(passage));
const recallAfter = recallBySeen((passage) => predictedOf(passage, model));
const gain = (type: GoldType) => scores(after[type], 'exact').f1 - scores(before[type], 'exact').f1;
const namesF1 = (counts: Record<GoldType, Counts>) => {
  const merged = { gold: 0, predicted: 0, exact: 0, overlap: 0 };
  for (const type of ['PER', 'ORG'] as const) for (const key of Object.keys(merged) as Array<keyof Counts>) merged[key] += counts[type][key];
  return scores(merged, 'exact').f1;
};

console.log(`${passages.length} passages (half A ${halfA.length}, half B ${halfB.length}); extraction took ${elapsed.toFixed(0)} ms in all\n`);
console.log(table('Default extractor (rules, name lists, stop list; no gazetteer), all passages', all));
console.log('');
console.log(
  `Learning: ${decisions.length} decisions from half A (${kinds.accepted} accepted as suggested, ${kinds.corrected} corrected, ${kinds.rejected} rejected, ${kinds.added} added by the analyst); model JSON ${(stored.length / 1024).toFixed(1)} KiB\n`,
);
console.log(table('Half B before training', before));
console.log('');
console.log(table('Half B after training on half A decisions', after));
console.log('');
console.log(`F1 gain on half B (exact): PER ${gain('PER') >= 0 ? '+' : ''}${fmt(gain('PER'))}, ORG ${gain('ORG') >= 0 ? '+' : ''}${fmt(gain('ORG'))}, PER+ORG ${fmt(namesF1(before))} → ${fmt(namesF1(after))}`);
console.log(`PER+ORG recall on half B, names the half A decisions named: ${recallBefore.seen} → ${recallAfter.seen}; names they did not: ${recallBefore.unseen} → ${recallAfter.unseen}`);

/**
 * Deals found in text (issue 29 item 4), scored against hand-written expectations, cold start
 * (no tenant records or model), extractEntities called as the processing job calls it:
 *
 *   - bench/deals/dev.md: 20 sentences written before the deal patterns (free to tune on);
 *   - bench/ner-fresh/dev.md: the deal lines of the fresh set, written by someone who had not
 *     read the extractor (free to tune on; its holdout.md is never read here);
 *   - bench/deals/holdout.md, only with --holdout: 10 sentences written with dev.md, scored once.
 *
 * A predicted deal matches a gold one of the same passage when the kind is the same and they
 * share a party (names compared normalized, so a short form counts as its full name). Then:
 * parties (the set, exactly), amount (value and currency) and date (year, and quarter when the
 * gold date gives a month or quarter; gold dates without a year — "Tuesday" — are not scored).
 *
 *   node --import tsx bench/deals.ts [--errors] [--holdout] [--fresh-holdout]
 *   (--fresh-holdout: also the deal lines of bench/ner-fresh/holdout.md — once, at the end of a change)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractEntities, normalizeName, type LedgerCandidate } from '../server/src/processing/entities/index.ts';
import { findDates, findMoney } from '../server/src/processing/entities/patterns.ts';
import { f1, ratio } from './ner/score.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const showErrors = process.argv.includes('--errors');

interface GoldDeal {
  kind: string;
  parties: string[];
  amount: string | null;
  date: string | null;
}
interface Passage {
  id: string;
  text: string;
  deals: GoldDeal[];
}

/** Passages (`id | style | text`, markup and literal "\n" as bench/ner-fresh) with the deal lines under them. */
function readDeals(file: string): Passage[] {
  const passages: Passage[] = [];
  for (const line of readFileSync(path.join(here, file), 'utf8').split('\n')) {
    const passage = /^([a-z]\d{2,3}) \| [a-z]+ \| (.+)$/.exec(line.trim());
    if (passage) {
      const text = passage[2]!.replace(/\\n/g, '\n').replace(/\[([^\]]+)\]\((?:PER|ORG|MONEY)\)/g, '$1');
      passages.push({ id: passage[1]!, text, deals: [] });
      continue;
    }
    const deal = /^ {2}deal: (\w+) \| ([^|]*) \| ([^|]*) \| (.*)$/.exec(line);
    if (!deal) continue;
    const dash = (value: string) => (value.trim() === '-' ? null : value.trim());
    passages.at(-1)!.deals.push({ kind: deal[1]!, parties: deal[2]!.split(';').map((party) => party.trim()).filter(Boolean), amount: dash(deal[3]!), date: dash(deal[4]!) });
  }
  return passages;
}

const key = (name: string) => normalizeName(name, 'ORG') || name.toLowerCase();
const predictedParties = (candidate: LedgerCandidate) => new Set(candidate.deal!.parties.map((party) => party.mention.normalized ?? key(party.mention.text)));

function goldDate(date: string | null): { year: number; quarter?: number } | null {
  if (!date) return null;
  const found = findDates(date).find((span) => span.date.year);
  if (!found) return null;
  const quarter = found.date.quarter ?? (found.date.month ? Math.ceil(found.date.month / 3) : undefined);
  return { year: found.date.year, ...(quarter ? { quarter } : {}) };
}

function score(name: string, passages: Passage[]) {
  let gold = 0;
  let predicted = 0;
  let matched = 0;
  let detected = 0;
  const fields = { parties: [0, 0], amount: [0, 0], date: [0, 0] };
  for (const passage of passages) {
    const deals = extractEntities(passage.text).ledger.filter((candidate) => candidate.deal);
    gold += passage.deals.length;
    predicted += deals.length;
    const used = new Set<LedgerCandidate>();
    for (const expected of passage.deals) {
      const parties = new Set(expected.parties.map(key));
      const shares = (candidate: LedgerCandidate) => [...predictedParties(candidate)].some((party) => parties.has(party));
      if (deals.some(shares)) detected += 1;
      const found = deals.find((candidate) => !used.has(candidate) && candidate.deal!.kind === expected.kind && shares(candidate));
      if (!found) {
        if (showErrors) console.error(`${passage.id} missed ${expected.kind} ${expected.parties.join('; ')}; found ${deals.map(describe).join(' / ') || 'nothing'}`);
        continue;
      }
      used.add(found);
      matched += 1;
      const got = predictedParties(found);
      const partiesRight = got.size === parties.size && [...parties].every((party) => got.has(party));
      fields.parties[1]! += 1;
      if (partiesRight) fields.parties[0]! += 1;
      const money = expected.amount ? findMoney(expected.amount)[0] : undefined;
      const amountRight = money ? found.money?.money?.amount === money.amount && found.money.money.currency === money.currency : !found.money;
      fields.amount[1]! += 1;
      if (amountRight) fields.amount[0]! += 1;
      const date = goldDate(expected.date);
      let dateRight = true;
      if (date) {
        fields.date[1]! += 1;
        dateRight = found.year === date.year && (date.quarter === undefined || found.quarter === date.quarter);
        if (dateRight) fields.date[0]! += 1;
      }
      if (showErrors && !(partiesRight && amountRight && dateRight)) {
        console.error(`${passage.id} ${expected.kind}: expected ${expected.parties.join('; ')} | ${expected.amount ?? '-'} | ${expected.date ?? '-'}; got ${describe(found)}`);
      }
    }
    if (showErrors) for (const extra of deals.filter((candidate) => !used.has(candidate))) console.error(`${passage.id} false alarm: ${describe(extra)}`);
  }
  const precision = ratio(matched, predicted);
  const recall = ratio(matched, gold);
  const cell = ([right, all]: number[]) => (all === 0 ? '–' : `${right}/${all}`);
  console.log(`| ${name} | ${passages.length} | ${gold} | ${predicted} | ${precision.toFixed(2)} | ${recall.toFixed(2)} | ${f1(precision, recall).toFixed(2)} | ${detected}/${gold} | ${cell(fields.parties)} | ${cell(fields.amount)} | ${cell(fields.date)} |`);
}

function describe(candidate: LedgerCandidate): string {
  const deal = candidate.deal!;
  return `${deal.kind} ${deal.parties.map((party) => `${party.role}=${party.mention.text}`).join(', ')} | ${candidate.money?.text ?? '-'} | ${candidate.year ?? '-'}${candidate.quarter ? ` Q${candidate.quarter}` : ''}`;
}

console.log('| set | passages | deals | predicted | precision | recall | F1 | found, any kind | parties exact | amount | date |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
score('bench/deals/dev.md', readDeals('deals/dev.md'));
score('bench/ner-fresh/dev.md', readDeals('ner-fresh/dev.md'));
if (process.argv.includes('--holdout')) score('bench/deals/holdout.md (once)', readDeals('deals/holdout.md'));
if (process.argv.includes('--fresh-holdout')) score('bench/ner-fresh/holdout.md (once)', readDeals('ner-fresh/holdout.md'));

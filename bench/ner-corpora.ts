/**
 * The annotated material the entity tagger is trained and measured on, as plain texts with
 * gold character spans:
 *
 * - the shared corpora in ../shared/ner-train (never copied into the repo: read from there),
 *   split into a TRAINING part and a HELD-OUT part that training never reads:
 *     held out: uner-en-ewt test (web prose: reviews, answers, e-mail, blogs, news groups)
 *               and broad-twitter-corpus section h (tweets);
 *     training: uner-en-ewt dev and broad-twitter-corpus sections a, b, e, f, g.
 *   Within the training part, a DEVELOPMENT split (`inDevSplit`: every tenth tweet, and one of five
 *   folds of the UNER sentences) that `scripts/train-ner.ts --dev-split` leaves out, so features and rules can
 *   be tried and their errors read (bench/ner-dev.ts) without looking at the held-out part; the
 *   committed weights are trained on the whole training part.
 * - bench/ner-fresh/dev.md, written without reading the extractor (holdout.md is not read here);
 * - bench/ner/passages.md, the regression set written with the rules.
 *
 * Used by scripts/train-ner.ts (training part) and bench/ner-eval.ts (the rest).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePassages } from './ner/convert.ts';

export type CorpusType = 'PER' | 'ORG' | 'LOC' | 'MONEY';
export interface GoldSpan {
  type: CorpusType;
  start: number;
  end: number;
}
export interface Labelled {
  id: string;
  /** news-like web prose (uner), social (btc), or the fresh set's style. */
  style: string;
  text: string;
  entities: GoldSpan[];
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const SHARED_CORPORA = process.env.NER_TRAIN_DIR ?? path.resolve(here, '../../shared/ner-train');

export const TRAINING_FILES = ['uner-en-ewt/en_ewt-ud-dev.iob2', ...['a', 'b', 'e', 'f', 'g'].map((section) => `broad-twitter-corpus/${section}.conll`)];
export const HELD_OUT_FILES = ['uner-en-ewt/en_ewt-ud-test.iob2', 'broad-twitter-corpus/h.conll'];

/**
 * The development split of the training files. Tweets: every tenth (ids end in #0, #10, …).
 * UNER dev has only ~450 organizations, so it is used in five folds: fold k (NER_DEV_FOLD, 0–4)
 * holds the sentences whose position is k modulo 5; a dev-split model leaves its fold out.
 */
export const DEV_FOLD = Number(process.env.NER_DEV_FOLD ?? 0);
export const inDevSplit = (item: Labelled, fold = DEV_FOLD) => {
  const position = Number(item.id.slice(item.id.lastIndexOf('#') + 1));
  return item.style === 'uner' ? position % 5 === fold : position % 10 === 0;
};

export const corporaAvailable = () => existsSync(SHARED_CORPORA);

/** BIO-tagged tokens to a text (the tokens joined by single spaces, or aligned to `# text`) with spans. */
function fromTokens(id: string, style: string, tokens: string[], tags: string[], original?: string): Labelled {
  let text = '';
  const offsets: Array<[number, number]> = [];
  if (original) {
    let cursor = 0;
    for (const token of tokens) {
      const at = original.indexOf(token, cursor);
      if (at < 0) return fromTokens(id, style, tokens, tags);
      offsets.push([at, at + token.length]);
      cursor = at + token.length;
    }
    text = original;
  } else {
    tokens.forEach((token, index) => {
      // A tweet's "@ handle" is one token written "@handle": glued, and one entity when both are tagged.
      if (text && tokens[index - 1] !== '@') text += ' ';
      offsets.push([text.length, text.length + token.length]);
      text += token;
    });
    tags = tags.map((tag, index) => (tokens[index - 1] === '@' && tag.startsWith('B-') && tags[index - 1] === tag ? `I-${tag.slice(2)}` : tag));
  }
  const entities: GoldSpan[] = [];
  let open: GoldSpan | undefined;
  tags.forEach((tag, index) => {
    const [prefix, label] = tag.split('-') as [string, string | undefined];
    const type = label === 'PER' || label === 'ORG' || label === 'LOC' ? label : undefined;
    if (open && (prefix !== 'I' || type !== open.type)) {
      entities.push(open);
      open = undefined;
    }
    if (type && (prefix === 'B' || (prefix === 'I' && !open))) open = { type, start: offsets[index]![0], end: offsets[index]![1] };
    else if (type && open) open.end = offsets[index]![1];
  });
  if (open) entities.push(open);
  return { id, style, text, entities };
}

/** One Labelled per sentence (uner) or tweet (btc) of a corpus file. */
export function readCorpusFile(file: string): Labelled[] {
  const source = readFileSync(path.join(SHARED_CORPORA, file), 'utf8');
  const style = file.startsWith('uner') ? 'uner' : 'btc';
  const out: Labelled[] = [];
  let tokens: string[] = [];
  let tags: string[] = [];
  let original: string | undefined;
  const flush = () => {
    if (tokens.length > 0) out.push(fromTokens(`${file}#${out.length}`, style, tokens, tags, original));
    tokens = [];
    tags = [];
    original = undefined;
  };
  for (const line of source.split('\n')) {
    if (line.startsWith('# text = ')) original = line.slice('# text = '.length);
    if (line.startsWith('#')) continue;
    if (line.trim() === '') {
      flush();
      continue;
    }
    const parts = style === 'uner' ? line.split('\t').slice(1, 3) : line.trim().split(/[\t ]+/);
    if (parts.length < 2) continue;
    tokens.push(parts[0]!);
    tags.push(parts[parts.length - 1]!);
  }
  flush();
  return out;
}

export const readCorpora = (files: string[]): Labelled[] => files.flatMap(readCorpusFile);

/** bench/ner-fresh/dev.md: passages with their style (news, press, filing, email, social, other). */
export function readFreshDev(): Labelled[] {
  return readFresh('dev.md');
}

/** bench/ner-fresh/holdout.md: scored once at the end of a change, never tuned on (its README). */
export function readFreshHoldout(): Labelled[] {
  return readFresh('holdout.md');
}

function readFresh(file: string): Labelled[] {
  const source = readFileSync(path.join(here, 'ner-fresh', file), 'utf8');
  // Same markup as bench/ner/passages.md; deal lines ("  deal: …") do not match a passage line.
  return parsePassages(source).map(({ id, style, text, entities }) => ({ id, style, text, entities }));
}

/** bench/ner/passages.md, the regression set written alongside the rules. */
export function readRegressionSet(): Labelled[] {
  const source = readFileSync(path.join(here, 'ner/passages.md'), 'utf8');
  return parsePassages(source).map(({ id, style, text, entities }) => ({ id, style, text, entities }));
}

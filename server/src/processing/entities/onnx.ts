/**
 * The optional token-classification model (docs/processing.md, "Optional extractors"): a
 * BERT-style NER model exported to ONNX, read from a local folder and run with
 * onnxruntime-node on the CPU. Nothing is downloaded: the folder holds
 *
 *   model.onnx             inputs input_ids (+ attention_mask, token_type_ids when it declares
 *                          them), int64 [batch, tokens]; output logits [batch, tokens, labels]
 *   vocab.txt              the WordPiece vocabulary (./wordpiece.ts)
 *   config.json            id2label in BIO form ("O", "B-PER", "I-PER", "B-ORG", "I-ORG", …)
 *   tokenizer_config.json  optional: do_lower_case, model_max_length
 *
 * onnxruntime-node is imported on the first text, only when a folder is configured: the
 * product without one never loads it. Each word takes the label of its first piece; B-/I-
 * runs of PER or ORG words become names, their offsets those of the words in the text.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { throwIfAborted, type ExternalName } from './external.ts';
import type { EntityExtractor, ExtractorResult } from './extractors.ts';
import { readVocabulary, wordPieces, type Word, type WordPieceVocabulary } from './wordpiece.ts';

/** A folder that cannot serve as the model: the message names the file and what is wrong. */
export class ModelFolderError extends Error {}

export interface Label {
  /** PER or ORG; null for O and the types we do not take (LOC, MISC …). */
  type: 'PER' | 'ORG' | null;
  /** B-, S- and U- start a name; E- and L- end one. */
  begins: boolean;
  ends: boolean;
}

export interface ModelFolder {
  dir: string;
  vocabulary: WordPieceVocabulary;
  labels: Label[];
  /** Pieces per window, [CLS] and [SEP] included. */
  maxTokens: number;
}

/** BERT's position limit; a config saying more is read as this. */
const MAX_TOKENS = 512;
const ENTITY_TYPES: Record<string, 'PER' | 'ORG'> = { PER: 'PER', PERSON: 'PER', ORG: 'ORG', ORGANIZATION: 'ORG', ORGANISATION: 'ORG' };

function readJson(dir: string, file: string, required: boolean): Record<string, unknown> | undefined {
  const location = path.join(dir, file);
  if (!existsSync(location)) {
    if (required) throw new ModelFolderError(`${location} is missing`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(location, 'utf8'));
  } catch (error) {
    throw new ModelFolderError(`${location} is not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ModelFolderError(`${location} must hold a JSON object`);
  return value as Record<string, unknown>;
}

function parseLabel(name: string, location: string): Label {
  if (name === 'O') return { type: null, begins: false, ends: false };
  const match = /^([BIESLU])[-_](.+)$/.exec(name);
  if (!match) throw new ModelFolderError(`${location}: label "${name}" is not in BIO form (O, B-TYPE, I-TYPE)`);
  const prefix = match[1]!;
  return { type: ENTITY_TYPES[match[2]!.toUpperCase()] ?? null, begins: 'BSU'.includes(prefix), ends: 'ESLU'.includes(prefix) };
}

/**
 * Checks the folder and reads what the tokenizer and the decoding need (model.onnx is only
 * checked to be there: onnxruntime reads it on the first text). Throws ModelFolderError.
 */
export function readModelFolder(dir: string): ModelFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ModelFolderError(`${dir} is not a folder`);
  const modelFile = path.join(dir, 'model.onnx');
  if (!existsSync(modelFile) || !statSync(modelFile).isFile()) throw new ModelFolderError(`${modelFile} is missing`);
  const vocabFile = path.join(dir, 'vocab.txt');
  if (!existsSync(vocabFile)) throw new ModelFolderError(`${vocabFile} is missing (the WordPiece vocabulary BERT-style models ship)`);

  const config = readJson(dir, 'config.json', true)!;
  const configFile = path.join(dir, 'config.json');
  const id2label = config['id2label'];
  if (!id2label || typeof id2label !== 'object' || Array.isArray(id2label)) throw new ModelFolderError(`${configFile} has no id2label object`);
  const entries = Object.entries(id2label as Record<string, unknown>);
  const labels: Label[] = new Array<Label>(entries.length);
  for (const [key, value] of entries) {
    const id = Number(key);
    if (!/^(0|[1-9]\d*)$/.test(key) || id >= entries.length) throw new ModelFolderError(`${configFile}: id2label's ids must be 0 to ${entries.length - 1}, found "${key}"`);
    if (typeof value !== 'string') throw new ModelFolderError(`${configFile}: id2label["${key}"] must be a label name`);
    labels[id] = parseLabel(value, configFile);
  }
  if (!labels.some((label) => label.type !== null)) {
    throw new ModelFolderError(`${configFile}: id2label names no person (B-PER) or organization (B-ORG) label`);
  }

  const tokenizer = readJson(dir, 'tokenizer_config.json', false);
  const lowerCase = tokenizer?.['do_lower_case'];
  if (lowerCase !== undefined && typeof lowerCase !== 'boolean') throw new ModelFolderError(`${path.join(dir, 'tokenizer_config.json')}: do_lower_case must be true or false`);
  let vocabulary: WordPieceVocabulary;
  try {
    vocabulary = readVocabulary(readFileSync(vocabFile, 'utf8'), lowerCase);
  } catch (error) {
    throw new ModelFolderError(`${vocabFile}: ${(error as Error).message}`);
  }
  const limits = [MAX_TOKENS, config['max_position_embeddings'], tokenizer?.['model_max_length']]
    .filter((value): value is number => typeof value === 'number' && Number.isInteger(value) && value > 2);
  return { dir, vocabulary, labels, maxTokens: Math.min(...limits) };
}

interface Session {
  session: InferenceSession;
  ort: typeof import('onnxruntime-node');
  ids: string;
  output: string;
}

export class OnnxNameExtractor implements EntityExtractor {
  readonly name = 'onnx' as const;
  private session: Promise<Session> | undefined;

  constructor(
    private readonly folder: ModelFolder,
    private readonly options: { maxChars: number },
  ) {}

  /** Loads onnxruntime and the model once per process; a failure stays the answer (the model does not change while running). */
  private load(): Promise<Session> {
    this.session ??= (async () => {
      const loaded = await import('onnxruntime-node').catch((error: unknown) => {
        throw new Error(`onnxruntime-node does not load (${(error as Error).message}); it is a dependency of the server: reinstall it with npm ci`);
      });
      // A CommonJS package: its exports are the namespace's, or its default's where Node could not list them.
      const ort = 'InferenceSession' in loaded ? loaded : (loaded as unknown as { default: typeof loaded }).default;
      // One thread per run: jobs run side by side on few cores, each its own text.
      const session = await ort.InferenceSession.create(path.join(this.folder.dir, 'model.onnx'), {
        executionProviders: ['cpu'],
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      });
      const ids = session.inputNames.includes('input_ids') ? 'input_ids' : session.inputNames.length === 1 ? session.inputNames[0]! : undefined;
      if (!ids) throw new Error(`model.onnx has no input_ids input (its inputs: ${session.inputNames.join(', ')})`);
      const output = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0]!;
      return { session, ort, ids, output };
    })();
    return this.session;
  }

  async extract(text: string, signal?: AbortSignal): Promise<ExtractorResult> {
    const { session, ort, ids, output } = await this.load();
    const part = readablePart(text, this.options.maxChars);
    const words = wordPieces(part, this.folder.vocabulary).filter((word) => word.pieces.length > 0);
    const names: ExternalName[] = [];
    for (const window of windows(part, words, this.folder.maxTokens - 2)) {
      throwIfAborted(signal);
      const { cls, sep } = this.folder.vocabulary;
      const sequence = [cls, ...window.flatMap((word) => word.pieces), sep];
      const feeds: Record<string, Tensor> = {};
      const dims = [1, sequence.length];
      feeds[ids] = new ort.Tensor('int64', BigInt64Array.from(sequence, BigInt), dims);
      if (session.inputNames.includes('attention_mask')) feeds['attention_mask'] = new ort.Tensor('int64', new BigInt64Array(sequence.length).fill(1n), dims);
      if (session.inputNames.includes('token_type_ids')) feeds['token_type_ids'] = new ort.Tensor('int64', new BigInt64Array(sequence.length), dims);
      const logits = (await session.run(feeds))[output]!;
      const labelCount = this.folder.labels.length;
      if (logits.dims.length !== 3 || logits.dims[1] !== sequence.length || logits.dims[2] !== labelCount) {
        throw new Error(`model.onnx answers [${logits.dims.join(', ')}] where [1, ${sequence.length}, ${labelCount}] was expected (config.json names ${labelCount} labels)`);
      }
      names.push(...decode(window, logits.data as Float32Array, this.folder.labels));
    }
    return { entities: names };
  }
}

/** The first maxChars characters, not cutting a word. */
function readablePart(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.search(/\s\S*$/);
  return space > 0 ? cut.slice(0, space) : cut;
}

/**
 * Runs of whole words of at most maxPieces pieces, each cut after a sentence's end when one
 * lies in its second half (a name is rarely cut in two).
 */
function* windows(text: string, words: Word[], maxPieces: number): Generator<Word[]> {
  let start = 0;
  while (start < words.length) {
    let pieces = 0;
    let end = start;
    let sentenceEnd = -1;
    while (end < words.length && pieces + words[end]!.pieces.length <= maxPieces) {
      const word = words[end]!;
      pieces += word.pieces.length;
      end++;
      if (word.end - word.start === 1 && '.!?'.includes(text[word.start]!)) sentenceEnd = end;
    }
    if (end === start) {
      // One word longer than a window: its first pieces stand for it.
      yield [{ ...words[start]!, pieces: words[start]!.pieces.slice(0, maxPieces) }];
      start++;
      continue;
    }
    if (end < words.length && sentenceEnd > start + (end - start) / 2) end = sentenceEnd;
    yield words.slice(start, end);
    start = end;
  }
}

/**
 * Names from one window's scores: each word takes its first piece's label (softmax over the
 * labels, the most likely); B- starts a name, I- of the same type continues it (an I- after
 * another type or O starts one, as IOB1 models write), anything else ends it. A name's
 * confidence is the mean probability of its words' labels.
 */
function decode(window: Word[], logits: Float32Array, labels: Label[]): ExternalName[] {
  const labelCount = labels.length;
  const names: ExternalName[] = [];
  let current: { type: 'PER' | 'ORG'; start: number; end: number; probabilities: number[] } | undefined;
  const close = () => {
    if (current) {
      const confidence = current.probabilities.reduce((sum, value) => sum + value, 0) / current.probabilities.length;
      names.push({ type: current.type, start: current.start, end: current.end, confidence: Math.round(confidence * 1000) / 1000, source: 'onnx' });
    }
    current = undefined;
  };
  let position = 1; // after [CLS]
  for (const word of window) {
    const offset = position * labelCount;
    let best = 0;
    let max = -Infinity;
    for (let label = 0; label < labelCount; label++) {
      const score = logits[offset + label]!;
      if (score > max) {
        max = score;
        best = label;
      }
    }
    let total = 0;
    for (let label = 0; label < labelCount; label++) total += Math.exp(logits[offset + label]! - max);
    const probability = 1 / total;
    position += word.pieces.length;
    const label = labels[best]!;
    if (!label.type) {
      close();
      continue;
    }
    if (label.begins || current?.type !== label.type) {
      close();
      current = { type: label.type, start: word.start, end: word.end, probabilities: [probability] };
    } else {
      current.end = word.end;
      current.probabilities.push(probability);
    }
    if (label.ends) close();
  }
  close();
  return names;
}

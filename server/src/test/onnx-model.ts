/**
 * A tiny BERT-shaped token-classification model folder, written by the tests themselves:
 * model.onnx (a hand-encoded ONNX protobuf), vocab.txt and config.json, as a Hugging Face
 * export lays them out. The graph gives every vocabulary piece fixed label scores:
 *
 *   logits = (Gather(pieceScores, input_ids) + Gather(typeScores, token_type_ids))
 *            * Unsqueeze(Cast(attention_mask, float), axis 2)
 *
 * so a caller that feeds the mask or the token types wrongly gets other labels (all zeros:
 * "O"). Used to test the real loading and decoding code (processing/entities/onnx.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The protobuf wire format, enough for ONNX's messages. */
class Message {
  private readonly parts: Buffer[] = [];

  private key(field: number, wireType: number): void {
    this.raw(field * 8 + wireType);
  }

  private raw(value: number): void {
    const bytes: number[] = [];
    let rest = BigInt(value);
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest > 0n) byte |= 0x80;
      bytes.push(byte);
    } while (rest > 0n);
    this.parts.push(Buffer.from(bytes));
  }

  int(field: number, value: number): this {
    this.key(field, 0);
    this.raw(value);
    return this;
  }

  bytes(field: number, value: Buffer): this {
    this.key(field, 2);
    this.raw(value.length);
    this.parts.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: Message): this {
    return this.bytes(field, value.encode());
  }

  encode(): Buffer {
    return Buffer.concat(this.parts);
  }
}

// onnx.proto's numbers.
const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_INT = 2;

/** ValueInfoProto of a tensor; a string dimension is symbolic. */
function valueInfo(name: string, elementType: number, dims: Array<number | string>): Message {
  const shape = new Message();
  for (const dim of dims) shape.message(1, typeof dim === 'number' ? new Message().int(1, dim) : new Message().string(2, dim));
  const tensorType = new Message().int(1, elementType).message(2, shape);
  return new Message().string(1, name).message(2, new Message().message(1, tensorType));
}

function floatTensor(name: string, dims: number[], values: number[]): Message {
  const tensor = new Message();
  for (const dim of dims) tensor.int(1, dim);
  const raw = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => raw.writeFloatLE(value, index * 4));
  return tensor.int(2, FLOAT).string(8, name).bytes(9, raw);
}

function int64Tensor(name: string, dims: number[], values: number[]): Message {
  const tensor = new Message();
  for (const dim of dims) tensor.int(1, dim);
  const raw = Buffer.alloc(values.length * 8);
  values.forEach((value, index) => raw.writeBigInt64LE(BigInt(value), index * 8));
  return tensor.int(2, INT64).string(8, name).bytes(9, raw);
}

function node(opType: string, inputs: string[], outputs: string[], attributes: Array<{ name: string; int: number }> = []): Message {
  const message = new Message();
  for (const input of inputs) message.string(1, input);
  for (const output of outputs) message.string(2, output);
  message.string(3, `${opType}_${outputs[0]}`).string(4, opType);
  for (const attribute of attributes) message.message(5, new Message().string(1, attribute.name).int(3, attribute.int).int(20, ATTRIBUTE_INT));
  return message;
}

/** model.onnx bytes: each piece id's row of `scores` ([pieces][labels]) becomes its logits. */
export function tokenClassifierOnnx(scores: number[][], options: { labels?: number } = {}): Buffer {
  const labels = options.labels ?? scores[0]!.length;
  const graph = new Message()
    .message(1, node('Gather', ['piece_scores', 'input_ids'], ['piece_logits']))
    .message(1, node('Gather', ['type_scores', 'token_type_ids'], ['type_logits']))
    .message(1, node('Add', ['piece_logits', 'type_logits'], ['summed']))
    .message(1, node('Cast', ['attention_mask'], ['mask_float'], [{ name: 'to', int: FLOAT }]))
    .message(1, node('Unsqueeze', ['mask_float', 'mask_axes'], ['mask_3d']))
    .message(1, node('Mul', ['summed', 'mask_3d'], ['logits']))
    .string(2, 'tiny-token-classifier')
    .message(5, floatTensor('piece_scores', [scores.length, labels], scores.flatMap((row) => row.slice(0, labels))))
    .message(5, floatTensor('type_scores', [2, labels], new Array<number>(2 * labels).fill(0)))
    .message(5, int64Tensor('mask_axes', [1], [2]))
    .message(11, valueInfo('input_ids', INT64, ['batch', 'sequence']))
    .message(11, valueInfo('attention_mask', INT64, ['batch', 'sequence']))
    .message(11, valueInfo('token_type_ids', INT64, ['batch', 'sequence']))
    .message(12, valueInfo('logits', FLOAT, ['batch', 'sequence', labels]));
  return new Message()
    .int(1, 8) // ir_version
    .string(2, 'intelnotes-tests')
    .message(7, graph)
    .message(8, new Message().string(1, '').int(2, 13)) // opset 13
    .encode();
}

export interface TinyModel {
  /** Pieces in vocabulary order, special pieces included. */
  vocabulary: string[];
  /** Label names in id order (BIO). */
  labels: string[];
  /** The label each piece is scored for (others: "O"). */
  pieceLabels: Record<string, string>;
  /** Extra config.json properties (max_position_embeddings …). */
  config?: Record<string, unknown>;
  /** tokenizer_config.json, when given. */
  tokenizerConfig?: Record<string, unknown>;
  /** Scores per token in model.onnx, when it should disagree with config.json. */
  modelLabels?: number;
}

/** Writes model.onnx, vocab.txt and config.json (and tokenizer_config.json) into `dir`. */
export async function writeTinyModel(dir: string, model: TinyModel): Promise<void> {
  await mkdir(dir, { recursive: true });
  const outside = Object.values(model.pieceLabels).find((label) => !model.labels.includes(label));
  if (outside) throw new Error(`label ${outside} is not among the model's labels`);
  const scores = model.vocabulary.map((piece) => {
    const label = model.labels.indexOf(model.pieceLabels[piece] ?? 'O');
    return model.labels.map((_, index) => (index === label ? 4 : 0));
  });
  const modelLabels = model.modelLabels ?? model.labels.length;
  const padded = scores.map((row) => [...row, ...new Array<number>(Math.max(0, modelLabels - row.length)).fill(0)]);
  await writeFile(path.join(dir, 'model.onnx'), tokenClassifierOnnx(padded, { labels: modelLabels }));
  await writeFile(path.join(dir, 'vocab.txt'), `${model.vocabulary.join('\n')}\n`);
  await writeFile(
    path.join(dir, 'config.json'),
    JSON.stringify({ architectures: ['BertForTokenClassification'], id2label: Object.fromEntries(model.labels.map((label, index) => [String(index), label])), ...model.config }, null, 2),
  );
  if (model.tokenizerConfig) await writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify(model.tokenizerConfig));
}

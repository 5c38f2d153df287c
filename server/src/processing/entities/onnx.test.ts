import assert from 'node:assert/strict';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeTinyModel, type TinyModel } from '../../test/onnx-model.ts';
import { Gazetteer, ModelFolderError, OnnxNameExtractor, OptionalExtractors, createOptionalExtractors, extractEntities, readModelFolder, type ExternalName } from './index.ts';
import { readVocabulary, wordPieces } from './wordpiece.ts';

const LABELS = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC'];
/** An uncased vocabulary: "Kestrel" is read as "kest" + "##rel", "Nordlys" as "nord" + "##lys". */
const TINY: TinyModel = {
  vocabulary: [
    '[PAD]', '[UNK]', '[CLS]', '[SEP]', '.', ',', '?', 'anna', 'weber', 'joined', 'kest', '##rel', 'partners', 'in', 'oslo',
    'the', 'board', 'of', 'nord', '##lys', 'said', 'so', 'will', 'deal', 'close', 'we', 'see', 'zoe', 'muller', 'met',
  ],
  labels: LABELS,
  pieceLabels: {
    anna: 'B-PER', weber: 'I-PER', zoe: 'B-PER', muller: 'I-PER', kest: 'B-ORG', '##rel': 'B-PER', partners: 'I-ORG',
    oslo: 'B-LOC', nord: 'B-ORG', '##lys': 'I-ORG', will: 'B-PER',
  },
};

const silent = { info: () => {}, warn: () => {} };
const spans = (names: ExternalName[], text: string) => names.map((name) => [name.type, text.slice(name.start, name.end), name.start, name.end]);

describe('optional extractor: an ONNX token-classification model from a folder', () => {
  let root: string;
  let dir: string;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'intelnotes-onnx-'));
    dir = path.join(root, 'tiny');
    await writeTinyModel(dir, TINY);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('reads the folder: labels, vocabulary, casing, window length', () => {
    const folder = readModelFolder(dir);
    assert.equal(folder.labels.length, LABELS.length);
    assert.deepEqual(folder.labels[1], { type: 'PER', begins: true, ends: false });
    assert.deepEqual(folder.labels[5], { type: null, begins: true, ends: false }, 'LOC is not taken');
    assert.equal(folder.vocabulary.lowerCase, true, 'no upper-case piece: an uncased model');
    assert.equal(folder.maxTokens, 512);
  });

  it('finds people and organizations with their offsets in the text', async () => {
    const text = 'Anna Weber joined Kestrel Partners in Oslo.\nThe board of Nordlys said so, Zoë Müller said.';
    const extractor = new OnnxNameExtractor(readModelFolder(dir), { maxChars: 100_000 });
    const { entities } = await extractor.extract(text);
    assert.deepEqual(spans(entities as ExternalName[], text), [
      ['PER', 'Anna Weber', 0, 10],
      // A word takes its first piece's label: "##rel" (scored B-PER) does not cut Kestrel in two.
      ['ORG', 'Kestrel Partners', 18, 34],
      ['ORG', 'Nordlys', 57, 64],
      // Accents are stripped for an uncased vocabulary; the offsets stay the text's.
      ['PER', 'Zoë Müller', 74, 84],
    ]);
    for (const entity of entities) {
      assert.equal(entity.source, 'onnx');
      assert.ok(entity.confidence > 0.85 && entity.confidence < 1, `softmax of the scores: ${entity.confidence}`);
    }
  });

  it('reads a long text in windows of the model length, offsets intact', async () => {
    const windowed = path.join(root, 'windowed');
    await writeTinyModel(windowed, { ...TINY, config: { max_position_embeddings: 14 } });
    const folder = readModelFolder(windowed);
    assert.equal(folder.maxTokens, 14);
    const sentence = 'Anna Weber joined Kestrel Partners in Oslo. ';
    const text = sentence.repeat(30);
    const { entities } = await new OnnxNameExtractor(folder, { maxChars: 100_000 }).extract(text);
    const found = spans(entities as ExternalName[], text);
    assert.equal(found.length, 60);
    for (let index = 0; index < 30; index++) {
      const offset = index * sentence.length;
      assert.deepEqual(found[index * 2], ['PER', 'Anna Weber', offset, offset + 10]);
      assert.deepEqual(found[index * 2 + 1], ['ORG', 'Kestrel Partners', offset + 18, offset + 34]);
    }
  });

  it('reads only the first maxChars characters', async () => {
    const text = `Anna Weber joined us. ${'so '.repeat(400)}Nordlys said so.`;
    const { entities } = await new OnnxNameExtractor(readModelFolder(dir), { maxChars: 1000 }).extract(text);
    assert.deepEqual(spans(entities as ExternalName[], text), [['PER', 'Anna Weber', 0, 10]]);
  });

  it('joins the rules through extractEntities: agreeing names stay the rules\', missed ones are added, vetoes hold', async () => {
    const text = 'Anna Weber joined Kestrel Partners in Oslo.\nThe board of Nordlys said so.\nWill the deal close? We will see.';
    const extractors = createOptionalExtractors({ modelDir: dir, modelMaxChars: 100_000, llm: null }, silent);
    const { entities, outcomes } = await extractors.run(text);
    assert.deepEqual(outcomes, [{ extractor: 'onnx', entities: 5 }]);
    // The uncased model calls "Will" and "will" persons alike.
    assert.deepEqual(entities.filter((entity) => /^will$/i.test(text.slice(entity.start, entity.end))).length, 2);

    // The rules without the trained tagger, which would find these names itself (tagger.test.ts).
    const rulesOnly = extractEntities(text, { tagger: null }).mentions.filter((mention) => mention.type === 'PER' || mention.type === 'ORG');
    const gazetteer = new Gazetteer([{ id: 'geo-oslo', type: 'GEO', names: ['Oslo'] }]);
    const { mentions } = extractEntities(text, { external: entities, gazetteer, tagger: null });
    const names = mentions.filter((mention) => mention.type === 'PER' || mention.type === 'ORG');
    assert.deepEqual(
      names.map((mention) => [mention.type, mention.text, mention.start, mention.end, mention.source ?? 'rules']),
      [
        // A line mostly capitalized reads like a headline to the rules: the model finds the name.
        ['PER', 'Anna Weber', 0, 10, 'onnx'],
        ['ORG', 'Kestrel Partners', 18, 34, 'rules'],
        ['ORG', 'Nordlys', 57, 64, 'onnx'],
      ],
      '"Will" (a stop word alone, and written in lower case elsewhere) stays vetoed; "will" is no name',
    );
    const nordlys = names.find((mention) => mention.text === 'Nordlys')!;
    assert.equal(nordlys.normalized, 'nordlys');
    assert.equal(text.slice(nordlys.sentence.start, nordlys.sentence.end), 'The board of Nordlys said so.');
    const before = rulesOnly.find((mention) => mention.text === 'Kestrel Partners')!;
    const after = names.find((mention) => mention.text === 'Kestrel Partners')!;
    assert.ok(after.confidence >= before.confidence, 'a name the model agrees with is at least as sure');
    assert.deepEqual(rulesOnly.map((mention) => mention.text), ['Kestrel Partners'], 'the rules alone miss the others');
  });

  it('refuses folders that cannot serve, naming the file and the problem', async () => {
    const broken = path.join(root, 'broken');
    await writeTinyModel(broken, TINY);
    await unlink(path.join(broken, 'vocab.txt'));
    assert.throws(() => readModelFolder(broken), (error: Error) => error instanceof ModelFolderError && /vocab\.txt is missing/.test(error.message));
    assert.throws(() => readModelFolder(path.join(root, 'nowhere')), /is not a folder/);

    await writeTinyModel(broken, TINY);
    await writeFile(path.join(broken, 'config.json'), JSON.stringify({ id2label: { 0: 'O', 1: 'B-LOC', 2: 'I-LOC' } }));
    assert.throws(() => readModelFolder(broken), /names no person \(B-PER\) or organization \(B-ORG\) label/);
    await writeFile(path.join(broken, 'config.json'), JSON.stringify({ id2label: { 0: 'O', 2: 'B-PER' } }));
    assert.throws(() => readModelFolder(broken), /id2label's ids must be 0 to 1/);
    await writeFile(path.join(broken, 'config.json'), JSON.stringify({ id2label: { 0: 'O', 1: 'PERSON' } }));
    assert.throws(() => readModelFolder(broken), /label "PERSON" is not in BIO form/);
    await writeFile(path.join(broken, 'config.json'), '{ not json');
    assert.throws(() => readModelFolder(broken), /config\.json is not JSON/);

    await writeTinyModel(broken, TINY);
    await writeFile(path.join(broken, 'vocab.txt'), 'a\nb\n');
    assert.throws(() => readModelFolder(broken), /vocab\.txt: vocab\.txt has no \[CLS\] piece/);
    assert.throws(() => createOptionalExtractors({ modelDir: broken, modelMaxChars: 1000, llm: null }, silent), ModelFolderError);
  });

  it('falls back to the rules when the model does not load or disagrees with its config', async () => {
    const corrupt = path.join(root, 'corrupt');
    await writeTinyModel(corrupt, TINY);
    await writeFile(path.join(corrupt, 'model.onnx'), Buffer.from('not a model'));
    const warnings: Array<{ details: object; message: string }> = [];
    const log = { info: () => {}, warn: (details: object, message: string) => warnings.push({ details, message }) };
    const corruptRun = await new OptionalExtractors([new OnnxNameExtractor(readModelFolder(corrupt), { maxChars: 1000 })], log).run('Anna Weber said so.');
    assert.deepEqual(corruptRun.entities, []);
    assert.equal(corruptRun.outcomes[0]!.extractor, 'onnx');
    assert.ok(corruptRun.outcomes[0]!.fallback, 'the reason is given');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.message, /onnx extractor failed; the rules stand without it/);

    const mismatched = path.join(root, 'mismatched');
    await writeTinyModel(mismatched, { ...TINY, modelLabels: 9 });
    const mismatchedRun = await new OptionalExtractors([new OnnxNameExtractor(readModelFolder(mismatched), { maxChars: 1000 })], log).run('Anna Weber said so.');
    assert.deepEqual(mismatchedRun.entities, []);
    assert.match(mismatchedRun.outcomes[0]!.fallback!, /model\.onnx answers \[1, 7, 9\] where \[1, 7, 7\] was expected \(config\.json names 7 labels\)/);
  });

  it('stops when the job does, instead of falling back', async () => {
    const controller = new AbortController();
    controller.abort(new Error('time limit'));
    const extractors = createOptionalExtractors({ modelDir: dir, modelMaxChars: 1000, llm: null }, silent);
    await assert.rejects(extractors.run('Anna Weber said so.', controller.signal), /time limit/);
  });
});

describe('WordPiece', () => {
  it('cuts words at spaces and punctuation, pieces by the longest match, keeping offsets', () => {
    const vocabulary = readVocabulary(['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'Acme', "'", 's', 'Gro', '##up', 'AT', '&', 'T', '北', '京'].join('\n'));
    assert.equal(vocabulary.lowerCase, false, 'upper-case pieces: a cased model');
    const text = "Acme's Group, AT&T 北京 Xyzzy";
    const words = wordPieces(text, vocabulary);
    assert.deepEqual(
      words.map((word) => [text.slice(word.start, word.end), word.pieces]),
      [['Acme', [4]], ["'", [5]], ['s', [6]], ['Group', [7, 8]], [',', [1]], ['AT', [9]], ['&', [10]], ['T', [11]], ['北', [12]], ['京', [13]], ['Xyzzy', [1]]],
    );
  });

  it('takes do_lower_case from tokenizer_config.json over the vocabulary', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'intelnotes-onnx-'));
    try {
      await writeTinyModel(root, { ...TINY, tokenizerConfig: { do_lower_case: false, model_max_length: 128 } });
      const folder = readModelFolder(root);
      assert.equal(folder.vocabulary.lowerCase, false);
      assert.equal(folder.maxTokens, 128);
      await writeFile(path.join(root, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: 'yes' }));
      assert.throws(() => readModelFolder(root), /do_lower_case must be true or false/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { LlmEntityExtractor, OptionalExtractors, extractEntities, type ExternalEntity, type LlmSettings } from './index.ts';

const TEXT = [
  'Orbex Holdings plc agreed to buy Caldera Robotics for EUR 45 million in Q2 2024, chief executive Tamsin Okafor said.',
  'Maersk said the deal was fair. Analysts at Vantor Bank were less sure; the price was 5.2 billion Norwegian kroner.',
].join('\n');

/** What the fake endpoint does with the next request. */
type Behaviour = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const completion = (content: string) => JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const answering = (content: unknown): Behaviour => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(completion(typeof content === 'string' ? content : JSON.stringify(content)));
};

const GOOD_ANSWER = {
  people: [{ name: 'Tamsin Okafor' }],
  organizations: [{ name: 'Orbex Holdings plc' }, { name: 'Caldera Robotics' }, { name: 'Maersk' }, { name: 'Vantor Bank' }],
  money: [
    { text: 'EUR 45 million', amount: 45_000_000, currency: 'EUR' },
    { text: '5.2 billion Norwegian kroner', amount: 5_200_000_000, currency: 'NOK' },
  ],
};

describe('optional extractor: an OpenAI-compatible chat endpoint', () => {
  let server: Server;
  let url: string;
  let behaviour: Behaviour;
  const requests: Array<{ path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
  const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
  const infos: Array<{ details: Record<string, unknown>; message: string }> = [];
  const log = {
    info: (details: object, message: string) => infos.push({ details: details as Record<string, unknown>, message }),
    warn: (details: object, message: string) => warnings.push({ details: details as Record<string, unknown>, message }),
  };
  const settings = (overrides: Partial<LlmSettings> = {}): LlmSettings => ({ url, key: 'sk-test', model: 'tiny-chat', timeoutMs: 10_000, maxChars: 20_000, maxAnswerBytes: 65_536, ...overrides });
  const run = (overrides: Partial<LlmSettings> = {}, signal?: AbortSignal) => new OptionalExtractors([new LlmEntityExtractor(settings(overrides))], log).run(TEXT, signal);

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        requests.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(body) as Record<string, unknown> });
        behaviour(request, response, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests.length = 0;
    warnings.length = 0;
    infos.length = 0;
  });

  it('asks for JSON entities and takes those the text bears out, with offsets found in the text', async () => {
    behaviour = answering(GOOD_ANSWER);
    const { entities, outcomes } = await run();
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.path, '/v1/chat/completions');
    assert.equal(request!.headers.authorization, 'Bearer sk-test');
    assert.equal(request!.body['model'], 'tiny-chat');
    assert.deepEqual(request!.body['response_format'], { type: 'json_object' });
    const messages = request!.body['messages'] as Array<{ role: string; content: string }>;
    assert.match(messages[0]!.content, /JSON/);
    assert.equal(messages[1]!.content, TEXT);

    assert.deepEqual(outcomes, [{ extractor: 'llm', entities: 7 }]);
    const found = entities.map((entity) => [entity.type, TEXT.slice(entity.start, entity.end), entity.start]);
    assert.deepEqual(found, [
      ['PER', 'Tamsin Okafor', TEXT.indexOf('Tamsin Okafor')],
      ['ORG', 'Orbex Holdings plc', 0],
      ['ORG', 'Caldera Robotics', TEXT.indexOf('Caldera Robotics')],
      ['ORG', 'Maersk', TEXT.indexOf('Maersk')],
      ['ORG', 'Vantor Bank', TEXT.indexOf('Vantor Bank')],
      ['MONEY', 'EUR 45 million', TEXT.indexOf('EUR 45 million')],
      ['MONEY', '5.2 billion Norwegian kroner', TEXT.indexOf('5.2 billion')],
    ]);
    assert.ok(entities.every((entity) => entity.source === 'llm'));

    // Merged with the rules: what they found stays theirs; what they missed joins, marked.
    const { mentions, ledger } = extractEntities(TEXT, { external: entities });
    const rules = extractEntities(TEXT).mentions;
    const of = (list: typeof mentions, type: string) => list.filter((mention) => mention.type === type).map((mention) => `${mention.text}${mention.source ? ` (${mention.source})` : ''}`);
    assert.ok(!of(rules, 'ORG').includes('Maersk'), 'the rules alone miss a lone name');
    assert.ok(of(mentions, 'ORG').includes('Maersk (llm)'));
    assert.ok(of(mentions, 'ORG').includes('Orbex Holdings plc'), 'a rule name stays the rules\'');
    assert.deepEqual(of(mentions, 'PER'), of(rules, 'PER'));
    const kroner = mentions.find((mention) => mention.type === 'MONEY' && mention.source === 'llm')!;
    assert.deepEqual(kroner.money, { amount: 5_200_000_000, currency: 'NOK' });
    assert.equal(mentions.filter((mention) => mention.type === 'MONEY').length, 2, 'EUR 45 million once: the rules\' own');
    assert.ok(ledger.some((candidate) => candidate.money?.text === 'EUR 45 million' && candidate.year === 2024 && candidate.quarter === 2));
  });

  it('drops a name the text does not hold, and an amount it does not bear out, keeping the rest', async () => {
    behaviour = answering({
      people: ['Tamsin Okafor', 'Jonathan Quill', 'Okafor Tamsin'],
      organizations: [{ name: 'Caldera' }, { name: 'Robotics Caldera' }, { name: 'Vantor Bank', extra: 'ignored' }],
      money: [
        { text: 'EUR 45 million', amount: 54_000_000, currency: 'EUR' },
        { text: 'USD 3 million', amount: 3_000_000, currency: 'USD' },
        { text: '5.2 billion Norwegian kroner', amount: 5_200_000_000, currency: 'XYZ' },
      ],
    });
    const { entities, outcomes } = await run();
    assert.deepEqual(
      entities.map((entity) => [entity.type, TEXT.slice(entity.start, entity.end)]),
      [['PER', 'Tamsin Okafor'], ['ORG', 'Caldera'], ['ORG', 'Vantor Bank']],
    );
    assert.deepEqual(outcomes, [{ extractor: 'llm', entities: 3, dropped: 6 }]);
    const dropped = infos[0]!.details['dropped'] as string[];
    assert.deepEqual(dropped, [
      'PER "Jonathan Quill": not in the text',
      'PER "Okafor Tamsin": not in the text',
      'ORG "Robotics Caldera": not in the text',
      'MONEY "EUR 45 million": its digits are not those of 54000000',
      'MONEY "USD 3 million": not in the text',
      'MONEY "5.2 billion Norwegian kroner": XYZ is no ISO 4217 currency',
    ]);
    assert.equal(warnings.length, 0, 'dropping is no failure');
  });

  it('takes a name only as a whole word, and reads JSON fenced in Markdown', async () => {
    behaviour = answering('```json\n{"people": [], "organizations": ["Orbex", "Bank"]}\n```');
    const text = 'Orbexia and Orbex met the Bank, Banking aside.';
    const { entities } = await new OptionalExtractors([new LlmEntityExtractor(settings())], log).run(text);
    assert.deepEqual(entities.map((entity) => [text.slice(entity.start, entity.end), entity.start]), [['Orbex', 12], ['Bank', 26]]);
    // "Bank" alone is an organization word: extractEntities vetoes it like the rules' own.
    const names = extractEntities(text, { external: entities }).mentions.filter((mention) => mention.type === 'ORG').map((mention) => mention.text);
    assert.ok(names.includes('Orbex') && !names.includes('Bank'));
  });

  const fallsBack = async (reason: RegExp, overrides: Partial<LlmSettings> = {}) => {
    const { entities, outcomes } = await run(overrides);
    assert.deepEqual(entities, []);
    assert.equal(outcomes.length, 1);
    assert.match(outcomes[0]!.fallback ?? '', reason);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.message, /llm extractor failed; the rules stand without it/);
    assert.match(String(warnings[0]!.details['reason']), reason);
  };

  it('falls back to the rules on a message that is not JSON', async () => {
    behaviour = answering('Sure! Here are the entities: people: Tamsin Okafor');
    await fallsBack(/^the message is not JSON/);
  });

  it('falls back on an answer of the wrong shape', async () => {
    behaviour = answering({ people: [{ name: 42 }], organizations: [] });
    await fallsBack(/^the message does not match the schema \(\/people\/0/);
    behaviour = answering({ entities: [] });
    warnings.length = 0;
    await fallsBack(/^the message does not match the schema/);
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'busy' }));
    };
    warnings.length = 0;
    await fallsBack(/^the answer is not a chat completion/);
  });

  it('falls back on a 500', async () => {
    behaviour = (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('upstream exploded');
    };
    await fallsBack(/^the endpoint answered 500 Internal Server Error$/);
  });

  it('falls back when the endpoint is too slow (the time limit)', async () => {
    // Headers at once, then nothing: the limit covers the whole answer, not just its start.
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"choices": [');
    };
    await fallsBack(/^the endpoint gave no whole answer within 200 ms$/, { timeoutMs: 200 });
    // No answer at all.
    behaviour = () => {};
    warnings.length = 0;
    await fallsBack(/^the endpoint gave no whole answer within 200 ms$/, { timeoutMs: 200 });
  });

  it('falls back on an answer over the size limit, read no further than it', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Streamed without a length: counted as it arrives.
      response.write(completion(JSON.stringify({ people: Array.from({ length: 400 }, (_, index) => `Person ${index}`), organizations: [] })));
      response.end(' '.repeat(70_000));
    };
    await fallsBack(/^the answer is larger than 65536 bytes$/);
  });

  it('falls back when nothing listens', async () => {
    await fallsBack(/fetch failed|ECONNREFUSED/, { url: 'http://127.0.0.1:9/v1' });
  });

  it('sends at most maxChars of the text, cut after a sentence, and no key when none is set', async () => {
    behaviour = answering({ people: ['Tamsin Okafor', 'Maersk'], organizations: [] });
    const { entities } = await run({ maxChars: 130, key: null, url: `${url}/chat/completions` });
    assert.equal(requests[0]!.path, '/v1/chat/completions');
    assert.equal(requests[0]!.headers.authorization, undefined);
    const sent = (requests[0]!.body['messages'] as Array<{ content: string }>)[1]!.content;
    assert.equal(sent, TEXT.split('\n')[0]);
    assert.deepEqual(entities.map((entity) => TEXT.slice(entity.start, entity.end)), ['Tamsin Okafor'], 'a name past the part sent is not in it');
  });

  it('stops with the job, instead of falling back', async () => {
    behaviour = () => {};
    const controller = new AbortController();
    const running = run({}, controller.signal);
    setImmediate(() => controller.abort(new Error('the job\'s time limit')));
    await assert.rejects(running, /the job's time limit/);
    assert.equal(warnings.length, 0);
  });
});

describe('optional extractors: merging in extractEntities', () => {
  const external = (text: string, type: 'PER' | 'ORG', name: string, confidence = 0.8, source: 'onnx' | 'llm' = 'llm'): ExternalEntity => {
    const start = text.indexOf(name);
    return { type, start, end: start + name.length, confidence, source };
  };

  it('snaps spans to whole words and leaves out a leading "the" and a possessive', () => {
    const text = "Shares of the Brightwell Foundry's parent rose. Analysts liked Quorra.";
    const { mentions } = extractEntities(text, {
      external: [
        { type: 'ORG', start: text.indexOf('the Brightwell'), end: text.indexOf("'s parent") + 2, confidence: 0.9, source: 'onnx' },
        { type: 'ORG', start: text.indexOf('Quorra') + 1, end: text.indexOf('Quorra') + 4, confidence: 0.9, source: 'onnx' },
      ],
    });
    assert.deepEqual(mentions.filter((mention) => mention.type === 'ORG').map((mention) => mention.text), ['Brightwell Foundry', 'Quorra']);
  });

  it('keeps the gazetteer and the rules first, and refuses what crosses a sentence or lies outside the text', () => {
    const text = 'Orbex Holdings plc grew. Anna Weber said so.';
    const { mentions } = extractEntities(text, {
      external: [
        external(text, 'PER', 'Orbex Holdings plc', 0.95),
        external(text, 'ORG', 'Holdings plc grew. Anna', 0.95),
        { type: 'ORG', start: 40, end: 400, confidence: 0.9, source: 'llm' },
        { type: 'PER', start: -5, end: 3, confidence: 0.9, source: 'llm' },
      ],
    });
    const names = mentions.filter((mention) => mention.type === 'PER' || mention.type === 'ORG');
    assert.deepEqual(names.map((mention) => [mention.type, mention.text, mention.source ?? 'rules']), [
      ['ORG', 'Orbex Holdings plc', 'rules'],
      ['PER', 'Anna Weber', 'rules'],
    ]);
  });

  it('takes the surer of two overlapping extractors, and a little surer when both agree', () => {
    const text = 'Kallvik Ostrander Vanttaja expanded.';
    const agreeing = extractEntities(text, {
      external: [external(text, 'ORG', 'Kallvik Ostrander Vanttaja', 0.7, 'onnx'), external(text, 'ORG', 'Kallvik Ostrander Vanttaja', 0.8, 'llm')],
    }).mentions.filter((mention) => mention.type === 'ORG');
    assert.deepEqual(agreeing.map((mention) => [mention.text, mention.confidence, mention.source]), [['Kallvik Ostrander Vanttaja', 0.85, 'llm']]);
    const overlapping = extractEntities(text, {
      external: [external(text, 'PER', 'Kallvik Ostrander', 0.75, 'onnx'), external(text, 'ORG', 'Kallvik Ostrander Vanttaja', 0.8, 'llm')],
    }).mentions.filter((mention) => mention.type === 'PER' || mention.type === 'ORG');
    assert.deepEqual(overlapping.map((mention) => [mention.type, mention.text]), [['ORG', 'Kallvik Ostrander Vanttaja']]);
    assert.deepEqual(extractEntities(text).mentions, [], 'the rules alone find nothing here');
    const unsure = extractEntities(text, { external: [external(text, 'ORG', 'Kallvik Ostrander', 0.4, 'onnx')] }).mentions;
    assert.equal(unsure.filter((mention) => mention.type === 'ORG').length, 0, 'below minConfidence');
  });
});

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { OperatorModel } from './operator-model.ts';

const ASK = '/api/v1/ai-assistant/queries/nlp-to-query/';
const KEY = 'sk-operator-secret-0123456789';

/** What the fake endpoint does with the next request. */
type Behaviour = (request: IncomingMessage, response: ServerResponse) => void;

const completion = (content: string) => JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
const answering = (content: unknown): Behaviour => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(completion(typeof content === 'string' ? content : JSON.stringify(content)));
};

describe('Operator with a chat endpoint (OpenAI-compatible, on loopback)', () => {
  let server: Server;
  let url: string;
  let behaviour: Behaviour;
  const requests: Array<{ path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }> = [];
  const logLines: string[] = [];
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const ask = async (query: string, role = 'admin') => {
    const response = await t.request(acme, { method: 'POST', url: ASK, token: tokens[role], payload: { query, accept_partial: true } });
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(!response.body.includes(KEY), 'the key is never returned');
    return response.json() as { source: string; list: { params: Record<string, string> }; not_understood: string[]; explanation: string };
  };
  const PARSED = { hq_city: 'Berlin', limit: '25' };

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        behaviour(request, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    t = await createTestApp(
      { OPERATOR_LLM_URL: url, OPERATOR_LLM_API_KEY: KEY, OPERATOR_LLM_MODEL: 'tiny-chat', OPERATOR_LLM_TIMEOUT_MS: '500' },
      undefined,
      undefined,
      // Every log line the app writes, to check that the key is never in one.
      { logger: { level: 'trace', stream: { write: (line: string) => void logLines.push(line) } } },
    );
    ({ acme, tokens } = await t.signInTwoTenants());
    const create = async (path: string, payload: Record<string, unknown>) => {
      const response = await t.request(acme, { method: 'POST', url: `/api/v1${path}/`, token: tokens['admin'], payload });
      assert.equal(response.statusCode, 201, response.body);
      return (response.json() as { id: string }).id;
    };
    ids['fintech'] = await create('/keywords', { name: 'Fintech', visibility: 'public' });
    await create('/assets/organizations', { name_inc: 'Nova Pay', hq_city: 'Berlin', visibility: 'public' });
    ids['amelia'] = await create('/assets/people', { name_given: 'Amelia', name_family: 'Hart', visibility: 'hidden' });
  });
  after(async () => {
    await t?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests.length = 0;
  });

  it("uses the endpoint's valid query, with names resolved and values spelled as stored", async () => {
    behaviour = answering({
      entity: 'organizations', search: null,
      conditions: [{ field: 'hq_city', op: 'is', values: ['berlin'], text: 'in Berlin' }, { field: 'keywords', op: 'is', values: ['fintech'] }, { field: 'founding_date', op: 'gt', values: [2015] }],
      ordering: [{ field: 'founding_date', descending: true }], limit: 10, not_understood: ['shiny'],
    });
    const result = await ask('shiny fintech organizations in Berlin founded after 2015, newest first');
    assert.equal(result.source, 'llm');
    assert.deepEqual(result.list.params, { hq_city: 'Berlin', keywords: ids['fintech'], founding_date__gt: '2015', ordering: '-founding_date', limit: '10' });
    assert.deepEqual(result.not_understood, ['shiny']);
    assert.match(result.explanation, /^The first 10 organizations headquartered in Berlin, tagged “Fintech”, founded after 2015/);

    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.path, '/v1/chat/completions');
    assert.equal(request!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request!.body['model'], 'tiny-chat');
    const messages = request!.body['messages'] as Array<{ role: string; content: string }>;
    assert.match(messages[0]!.content, /hq_city \[is, not, empty, not_empty\]/);
    assert.equal(messages[1]!.content, 'shiny fintech organizations in Berlin founded after 2015, newest first');
  });

  it('knows the link filters and lists from the declarations: names of the linked records resolved, a hidden one falls back', async () => {
    behaviour = answering({
      entity: 'people', search: null,
      conditions: [{ field: 'linked_organizations', op: 'is', values: ['nova pay'], text: 'linked to Nova Pay' }],
      ordering: [], limit: 25,
    });
    const linked = await ask('people linked to Nova Pay');
    assert.equal(linked.source, 'llm');
    const nova = await t.request(acme, { method: 'GET', url: '/api/v1/assets/organizations/?search=Nova', token: tokens['admin'] });
    const novaId = (nova.json() as { results: Array<{ id: string }> }).results[0]!.id;
    assert.deepEqual(linked.list.params, { linked_organizations: novaId, limit: '25' });
    const messages = requests.at(-1)!.body['messages'] as Array<{ role: string; content: string }>;
    // The prompt is built from the resources' link filters and membership, as the parser reads them.
    assert.match(messages[0]!.content, /linked_organizations \[is, not\] \(names of organizations/);
    assert.match(messages[0]!.content, /invested_in \[is, not\] \(names of organizations/);
    assert.match(messages[0]!.content, /investors \[is, not\] \(names of organizations or people/);
    assert.match(messages[0]!.content, /linked_people \[is, not\] \(names of people/);
    assert.match(messages[0]!.content, /lists \[is, not\] \(names of lists/);

    behaviour = answering({ entity: 'organizations', conditions: [{ field: 'linked_people', op: 'not', values: ['Nova Pay'] }] });
    // "Nova Pay" is no person: the answer does not hold up, the parser answers.
    assert.equal((await ask('organizations not linked to Nova Pay')).source, 'parser');
    // A hidden person, asked by a visitor, is a name that does not resolve: the parser answers.
    behaviour = answering({ entity: 'organizations', conditions: [{ field: 'linked_people', op: 'is', values: ['Amelia Hart'] }] });
    assert.equal((await ask('organizations linked to Amelia Hart', 'visitor')).source, 'parser');
  });

  const fallsBack = async (role = 'admin') => {
    const result = await ask('organizations in Berlin', role);
    assert.equal(result.source, 'parser');
    assert.deepEqual(result.list.params, PARSED);
  };

  it('falls back to the parser on a message that is not JSON', async () => {
    behaviour = answering('Sure! Organizations in Berlin.');
    await fallsBack();
  });

  it('falls back on an answer that is not a chat completion', async () => {
    behaviour = (_request, response) => response.end('<html>gateway</html>');
    await fallsBack();
  });

  it('falls back on JSON that does not match the schema', async () => {
    behaviour = answering({ entity: 'organizations', conditions: [{ field: 'hq_city', op: 'near', values: ['Berlin'] }] });
    await fallsBack();
    behaviour = answering({ entity: 'planets', conditions: [] });
    await fallsBack();
  });

  it('falls back on a query the list would refuse, or names the caller may not see', async () => {
    behaviour = answering({ entity: 'organizations', conditions: [{ field: 'hq_city', op: 'gt', values: ['Berlin'] }] });
    await fallsBack();
    behaviour = answering({ entity: 'organizations', conditions: [{ field: 'notes', op: 'is', values: ['x'] }] });
    await fallsBack();
    // A hidden author named by the endpoint does not resolve for an anonymous visitor.
    behaviour = answering({ entity: 'library', conditions: [{ field: 'authors', op: 'is', values: ['Amelia Hart'] }] });
    const result = await ask('library entries by Amelia Hart', 'public');
    assert.equal(result.source, 'parser');
    assert.ok(!JSON.stringify(result).includes(ids['amelia']!));
  });

  it('falls back on an HTTP error', async () => {
    behaviour = (_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `bad key ${KEY}` } }));
    };
    await fallsBack();
  });

  it('falls back when the endpoint is too slow', async () => {
    behaviour = (_request, response) => {
      setTimeout(() => answering({ entity: 'people', conditions: [] })(_request, response), 1500).unref();
    };
    await fallsBack();
  });

  it('logs why the endpoint was not used, never the key', async () => {
    behaviour = (request, response) => {
      response.writeHead(401, { 'content-type': 'text/plain' });
      response.end(`no such key: ${request.headers.authorization}`);
    };
    logLines.length = 0;
    await fallsBack();
    behaviour = (request, response) => response.end(completion(`not json ${request.headers.authorization}`));
    await fallsBack();
    behaviour = answering({ entity: 'organizations', conditions: [{ field: 'hq_city', op: 'gt', values: [String(KEY)] }] });
    await fallsBack();
    const warnings = logLines.map((line) => JSON.parse(line) as { msg: string; reason?: string }).filter((line) => /Operator chat endpoint/.test(line.msg));
    assert.deepEqual(warnings.map((line) => line.reason?.replace(/\(.*\)/, '(…)')), [
      'the endpoint answered 401 Unauthorized',
      'the message is not JSON (…)',
      'query.conditions[0].op: hq_city allows: is, not, empty, not_empty.',
    ]);
    assert.ok(logLines.length > 0 && logLines.every((line) => !line.includes(KEY) && !line.includes('sk-operator')), 'no log line holds the key');
  });

  it('never puts the key in what a failure says (which is logged)', async () => {
    const model = new OperatorModel({ url, key: KEY, model: 'tiny-chat', timeoutMs: 500, maxAnswerBytes: 65_536 });
    const echoes: Behaviour[] = [
      (request, response) => response.end(completion(`not json: ${request.headers.authorization}`)),
      (request, response) => response.end(`${request.headers.authorization}`),
      (request, response) => {
        response.writeHead(401, { 'content-type': 'text/plain' });
        response.end(`${request.headers.authorization}`);
      },
      (request, response) => response.end(completion(JSON.stringify({ entity: `${request.headers.authorization}`, conditions: [] }))),
    ];
    for (const echo of echoes) {
      behaviour = echo;
      const error = await model.ask('organizations', 'admin', new Date()).then(() => null, (failure: Error) => failure);
      assert.ok(error, 'the answer is refused');
      assert.ok(!error.message.includes(KEY) && !error.message.includes('sk-operator'), error.message);
    }
  });
});

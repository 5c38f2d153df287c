// The optional entity extractors in the processing job (docs/processing.md "Optional
// extractors"): with a model folder and a chat endpoint configured, names only they find become
// suggestions like the rules' own, and the job says what each did; an endpoint that fails
// leaves the item processed by the rest.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from '../../jobs/worker.ts';
import { createOptionalExtractors } from '../../processing/entities/index.ts';
import { writeTinyModel } from '../../test/onnx-model.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createEngine } from '../../engine.ts';

const BASE = '/api/v1/raw-data';
const TEXT = 'The board of Nordlys met on Monday. Maersk said the deal was fair, and Ingrid Halvorsen agreed.';

describe('raw data processing with the optional extractors', () => {
  let t: TestContext;
  let acme: TenantRow;
  let token: string;
  let worker: Worker | null = null;
  let server: Server;
  let url: string;
  let answer: (response: ServerResponse) => void;
  let modelRoot: string;
  const warnings: string[] = [];
  const log = { info: () => {}, warn: (details: object) => warnings.push(String((details as { reason?: string }).reason)) };

  before(async () => {
    t = await createTestApp();
    const signedIn = await t.signInTwoTenants();
    acme = signedIn.acme;
    token = signedIn.tokens['research']!;
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => answer(response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    modelRoot = await mkdtemp(path.join(tmpdir(), 'intelnotes-ner-'));
    await writeTinyModel(modelRoot, {
      vocabulary: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '.', ',', 'the', 'board', 'of', 'nord', '##lys', 'met', 'on', 'monday', 'said'],
      labels: ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG'],
      pieceLabels: { nord: 'B-ORG', '##lys': 'I-ORG' },
    });
  });
  afterEach(async () => {
    await worker?.stop();
    worker = null;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(modelRoot, { recursive: true, force: true });
    await t.close();
  });

  const json = (method: 'GET' | 'POST', target: string, payload?: object) => t.request(acme, { method, url: target, token, ...(payload ? { payload } : {}) });
  const startWorker = async () => {
    const entityExtractors = createOptionalExtractors(
      { modelDir: modelRoot, modelMaxChars: 100_000, llm: { url, key: 'sk-test', model: 'tiny-chat', timeoutMs: 10_000, maxChars: 20_000, maxAnswerBytes: 65_536 } },
      log,
    );
    // An engine of its own: processing with these extractors, on the test's database and files.
    worker = await t.startWorker({ registry: createEngine(t.config, { db: t.db, storage: t.files.driver, entityExtractors }).jobs });
  };
  /** Queues the item and waits for its job to end; the job's row. */
  const processItem = async (id: string) => {
    const queued = await json('POST', `${BASE}/process/`, { ids: [id] });
    assert.equal(queued.statusCode, 202, queued.body);
    const jobId = queued.json().results[0].job_id as string;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await json('GET', `/api/v1/jobs/${jobId}/`)).json();
      if (job.status === 'succeeded' || job.status === 'failed') return job as { status: string; result: Record<string, unknown> };
      if (Date.now() > deadline) throw new Error('timed out waiting for the processing job');
      await sleep(50);
    }
  };
  const suggested = async (segment: 'organizations' | 'people') =>
    ((await json('GET', `/api/v1/suggested-entities/${segment}/?limit=100`)).json().results as Array<{ display_name: string }>).map((row) => row.display_name).sort();

  it('suggests what the model and the endpoint found, and reports each in the job', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const content = JSON.stringify({ people: [{ name: 'Ingrid Halvorsen' }], organizations: [{ name: 'Maersk' }, { name: 'Oceanic Ventures' }] });
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    };
    const created = await json('POST', `${BASE}/`, { text: TEXT });
    assert.equal(created.statusCode, 201, created.body);
    await startWorker();
    const job = await processItem(created.json().id);
    assert.equal(job.status, 'succeeded');
    assert.deepEqual(job.result['extractors'], [
      { extractor: 'onnx', entities: 1 },
      { extractor: 'llm', entities: 2, dropped: 1 },
    ]);
    const organizations = await suggested('organizations');
    assert.ok(organizations.includes('Nordlys'), `the model's name: ${organizations.join(', ')}`);
    assert.ok(organizations.includes('Maersk'), `the endpoint's name: ${organizations.join(', ')}`);
    assert.ok(!organizations.includes('Oceanic Ventures'), 'a name not in the text is never suggested');
    assert.ok((await suggested('people')).includes('Ingrid Halvorsen'));
  });

  it('processes the item by the rest when the endpoint fails, saying why', async () => {
    answer = (response) => {
      response.writeHead(500);
      response.end();
    };
    warnings.length = 0;
    const created = await json('POST', `${BASE}/`, { text: 'Harbour news. Dr. Amara Nwosu joined Kestrel Partners.' });
    await startWorker();
    const job = await processItem(created.json().id);
    assert.equal(job.status, 'succeeded');
    const item = (await json('GET', `${BASE}/${created.json().id}/`)).json();
    assert.equal(item.processing_status, 'completed');
    assert.deepEqual(job.result['extractors'], [
      { extractor: 'onnx', entities: 0 },
      { extractor: 'llm', entities: 0, fallback: 'the endpoint answered 500 Internal Server Error' },
    ]);
    assert.deepEqual(warnings, ['the endpoint answered 500 Internal Server Error']);
    assert.ok((await suggested('organizations')).includes('Kestrel Partners'), 'the rules still found it');
  });
});

/**
 * The route fuzz test's driver: walks every registered API route (every method, from the
 * OpenAPI document the route schemas generate) as an anonymous visitor and as an admin, with
 * NUL characters and other odd input in path parameters, the query string, body fields and
 * object keys. No input may reach a 500; a NUL is a 400 naming the field (or the 401/403 of a
 * route the caller may not use).
 *
 * One walk sends tens of thousands of requests, more than one test file can send within the
 * runner's 300 s per file on a loaded machine, so the routes are shared out among
 * ROUTE_FUZZ_SHARDS files, `server/src/http/route-fuzz.<shard>.test.ts`, each calling fuzzRouteShard(shard) on
 * a database and app of its own. The input classes, the walk and the split are all here; a
 * shard file says only which share it takes.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { NUL_MESSAGE } from '../resources/nul.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from './test-app.ts';

/**
 * How many files share the routes. Each shard's walk should stay well under the 300 s file
 * timeout on a loaded 2-core machine; raise this (and add the file) when the API grows.
 */
export const ROUTE_FUZZ_SHARDS = 8;

export interface Operation {
  method: string;
  path: string;
  query: string[];
  body: string[];
  /** The body is bytes (application/octet-stream only), not JSON fields. */
  bytes?: boolean;
}

interface Probe {
  params: Record<string, string>;
  query?: string;
  body?: unknown;
  /** Raw payload (not JSON-encoded by the test). */
  raw?: string;
  /** The field a NUL was put in: the answer must be a 400 naming it (or 401/403). */
  nulField?: string;
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

const NUL = '\u0000';
/** Odd values, one at a time per field and all at once. */
const ODD_VALUES: unknown[] = [
  `a${NUL}b`, { [`k${NUL}`]: 'v' }, [NUL], 1e308, -1, true, null, {}, [], 'x'.repeat(10_000), '\ud800', '../../etc/passwd', "' OR 1=1 --",
];
const ODD_QUERY = ['', '%C0%AE', 'x'.repeat(3000), '-1', '1e309', '[]', '%25', '\u00e9'];
/** Bodies that are not a JSON object: other JSON types, broken JSON, deep nesting. */
const RAW_BODIES = ['[]', '"text"', '1', 'null', '{', '['.repeat(20_000) + ']'.repeat(20_000), '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)];
const RANDOM_ID = '00000000-0000-4000-8000-000000000000';

/** Every operation of the app's OpenAPI document, deletes last (so the others still find the real records). */
export function operationsOf(app: FastifyInstance): Operation[] {
  const document = (app as unknown as { swagger(): { paths: Record<string, Record<string, OpenApiOperation>> } }).swagger();
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        body: Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
        // A body of bytes (raw-data's direct upload PUT): a NUL there is content, not a field name.
        bytes: Object.keys(operation.requestBody?.content ?? {}).join() === 'application/octet-stream',
      })),
  );
  return operations
    // The event stream answers for as long as its client stays, so app.inject would wait
    // forever; its refusals (401, 403, 400) are checked in events/events.test.ts.
    .filter((operation) => operation.path !== '/api/v1/events/')
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}

/**
 * The probes of one operation: NUL and odd values in each parameter, query field and body
 * field. `realIds` holds a real id per collection path (e.g. /api/v1/assets/organizations/ → an
 * organization), used in the path unless the probe puts odd input there.
 */
export function probesOf(operation: Operation, realIds: ReadonlyMap<string, string>): Probe[] {
  const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const collection = operation.path.replace(/\{\w+\}\/.*$/, '');
  const real = Object.fromEntries(names.map((name) => [name, realIds.get(collection) ?? RANDOM_ID]));
  const probes: Probe[] = [{ params: real }];
  for (const name of names) {
    probes.push({ params: { ...real, [name]: 'a%00b' }, nulField: name });
    probes.push({ params: { ...real, [name]: 'x'.repeat(300) } }, { params: { ...real, [name]: '%C0%AE' } });
  }
  for (const [index, name] of operation.query.entries()) {
    probes.push({ params: real, query: `${name}=a%00b`, nulField: name });
    probes.push({ params: real, query: `${name}=${encodeURIComponent(ODD_QUERY[index % ODD_QUERY.length]!)}&${name}=2` });
  }
  for (const value of ODD_QUERY) probes.push({ params: real, query: operation.query.map((name) => `${name}=${value}`).join('&') });
  probes.push({ params: real, query: 'a%00b=1', nulField: 'a\\u0000b' });
  if (['POST', 'PUT', 'PATCH'].includes(operation.method)) {
    for (const [index, name] of operation.body.entries()) {
      probes.push({ params: real, body: { [name]: `a${NUL}b` }, nulField: name });
      probes.push({ params: real, body: { [name]: { nested: [{ [`k${NUL}`]: 1 }] } }, nulField: name });
      probes.push({ params: real, body: { [name]: ODD_VALUES[(index + 3) % ODD_VALUES.length] } });
    }
    for (const value of ODD_VALUES) probes.push({ params: real, body: Object.fromEntries(operation.body.map((name) => [name, value])) });
    if (!operation.bytes) probes.push({ params: real, body: { [`key${NUL}`]: 1 }, nulField: 'key\\u0000' });
    for (const raw of RAW_BODIES) probes.push({ params: real, raw });
  }
  return probes;
}

/**
 * The operations of one shard. The split is by weight (the number of probes, which does not
 * depend on the ids): heaviest first, each to the lightest shard so far (ties to the lower
 * shard), so the files take about as long as one another; every operation is in exactly one
 * shard. Returned in the walk's order (deletes last).
 */
export function shardOf(operations: Operation[], shard: number, shards = ROUTE_FUZZ_SHARDS): Operation[] {
  const weights = new Map(operations.map((operation) => [operation, probesOf(operation, new Map()).length]));
  const key = (operation: Operation) => `${operation.method} ${operation.path}`;
  const byWeight = [...operations].sort((a, b) => weights.get(b)! - weights.get(a)! || key(a).localeCompare(key(b)));
  const loads = Array.from({ length: shards }, () => 0);
  const owner = new Map<Operation, number>();
  for (const operation of byWeight) {
    const lightest = loads.indexOf(Math.min(...loads));
    owner.set(operation, lightest);
    loads[lightest]! += weights.get(operation)!;
  }
  return operations.filter((operation) => owner.get(operation) === shard);
}

/** The shard test files (in server/src/http/), by shard number. */
function shardFiles(): number[] {
  const directory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../http');
  return readdirSync(directory)
    .map((name) => /^route-fuzz\.(\d+)\.test\.ts$/.exec(name)?.[1])
    .filter((number) => number !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Declares the suite of one shard: its own app and database, seeded with one record of each main kind. */
export function fuzzRouteShard(shard: number): void {
  describe(`routes of shard ${shard + 1} of ${ROUTE_FUZZ_SHARDS}, every method: odd input never answers 500`, () => {
    let t: TestContext;
    let acme: TenantRow;
    let tokens: Record<string, string | undefined>;
    let all: Operation[];
    let operations: Operation[];
    const realIds = new Map<string, string>();

    before(async () => {
      t = await createTestApp();
      ({ acme, tokens } = await t.signInTwoTenants());
      const post = async (url: string, payload: object) => {
        const response = await t.request(acme, { method: 'POST', url: `/api/v1${url}`, token: tokens['admin'], payload });
        assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
        return response.json().id as string;
      };
      const keyword = await post('/keywords/', { name: 'fuzz' });
      const organization = await post('/assets/organizations/', { name_inc: 'Fuzz Org', visibility: 'public' });
      await post('/assets/people/', { name_given: 'Fuzz', visibility: 'public' });
      const entry = await post('/assets/ledger/', { caption: 'Fuzz entry', organizations: [organization] });
      await post('/assets/investments/', { ledger_entry: entry, owner: organization });
      await post('/library/', { title: 'Fuzz paper', keywords: [keyword] });
      await post('/lists/', { kind: 'OrganizationsList', name: 'Fuzz list' });
      await post('/terminology/', { term: 'Fuzz term' });
      await post('/urls/', { url: 'https://fuzz.example/' });
      await post('/taggingrules/', { pattern: 'fuzz', keywords: [keyword] });

      all = operationsOf(t.app);
      operations = shardOf(all, shard);
      // A real id for each collection this shard's operations name a record of.
      const collections = new Set(operations.map((operation) => operation.path.replace(/\{\w+\}\/.*$/, '')));
      for (const operation of all) {
        if (operation.method !== 'GET' || operation.path.includes('{') || !collections.has(operation.path)) continue;
        const listed = await t.request(acme, { method: 'GET', url: operation.path, token: tokens['admin'] });
        // A download (e.g. raw-data/export/) is no list to take an id from.
        const isJson = String(listed.headers['content-type'] ?? '').startsWith('application/json');
        const first = listed.statusCode === 200 && isJson ? (listed.json() as { results?: Array<{ id?: unknown }> }).results?.[0]?.id : undefined;
        if (typeof first === 'string') realIds.set(operation.path, first);
      }
    });
    after(() => t.close());

    it('finds the API routes in the generated document, and a shard file for each share', () => {
      assert.ok(all.length > 80, `${all.length} operations`);
      for (const expected of ['POST /api/v1/auth/login/', 'GET /api/v1/search/', 'PATCH /api/v1/assets/organizations/{id}/']) {
        assert.ok(all.some((operation) => `${operation.method} ${operation.path}` === expected), expected);
      }
      // Every share has its file, so the shards together walk every operation.
      assert.deepEqual(shardFiles(), Array.from({ length: ROUTE_FUZZ_SHARDS }, (_, index) => index));
      const probes = all.reduce((sum, operation) => sum + probesOf(operation, realIds).length, 0);
      assert.ok(probes > 5_000, `${probes} probes in all`);
      assert.ok(operations.length > 0, 'this shard has operations to walk');
    });

    for (const role of [undefined, 'admin']) {
      it(`as ${role ?? 'an anonymous visitor'}`, async () => {
        const failures: string[] = [];
        let sent = 0;
        for (const operation of operations) {
          for (const probe of probesOf(operation, realIds)) {
            const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => probe.params[name] ?? RANDOM_ID);
            const url = probe.query ? `${path}?${probe.query}` : path;
            const payload = probe.raw ?? (probe.body === undefined ? undefined : JSON.stringify(probe.body));
            const response = await t.request(acme, {
              method: operation.method as 'GET',
              url,
              token: role ? tokens[role] : undefined,
              ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
            });
            sent += 1;
            const label = `${operation.method} ${url.slice(0, 160)} ${payload?.slice(0, 80) ?? ''} → ${response.statusCode}`;
            if (response.statusCode >= 500) failures.push(`${label} ${response.body.slice(0, 200)}`);
            else if (probe.nulField && ![401, 403].includes(response.statusCode)) {
              const errors = response.statusCode === 400 ? (response.json() as { errors?: Record<string, string[]> }).errors : undefined;
              // A NUL in the path may route it elsewhere (to a route with other parameter names): any field named with the NUL message.
              const named = probe.params[probe.nulField] === 'a%00b' ? Object.values(errors ?? {}).some((messages) => messages.includes(NUL_MESSAGE)) : errors?.[probe.nulField]?.includes(NUL_MESSAGE);
              if (!named) failures.push(`${label}: a NUL in ${probe.nulField} must be a 400 naming it`);
            }
          }
        }
        assert.deepEqual(failures, []);
        assert.ok(sent > 100, `${sent} requests`);
      });
    }
  });
}

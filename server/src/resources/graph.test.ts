import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccessLevel, RelationGraph } from '../contracts.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { captureStatements, isDataStatement } from '../test/statement-capture.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import type { Visibility } from './fields.ts';
import { visibleTo } from './visibility.ts';

const API = '/api/v1';
const PEOPLE = `${API}/assets/people`;
const ORGS = `${API}/assets/organizations`;
const LIBRARY = `${API}/library`;
const LEDGER = `${API}/assets/ledger`;
const KEYWORDS = `${API}/keywords`;
const AUDIENCES: AccessLevel[] = ['public', 'paywall', 'research', 'admin'];

describe('GET {resource}/{id}/graph/ (the relationship graph, derived from the relation declarations)', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};
  /** Every record of the fixture by name, with its visibility. */
  const visibilityOf: Record<string, Visibility> = {};

  const create = async (path: string, name: string, body: Record<string, unknown>, tenant: TenantRow = acme, token = tokens['admin']) => {
    const response = await t.request(tenant, { method: 'POST', url: `${path}/`, token, payload: body });
    assert.equal(response.statusCode, 201, response.body);
    ids[name] = response.json().id as string;
    visibilityOf[name] = body['visibility'] as Visibility;
    return ids[name];
  };
  const get = (role: string, url: string, tenant: TenantRow = acme) => t.request(tenant, { method: 'GET', url, token: tokens[role] });
  const graph = async (role: string, url: string, tenant: TenantRow = acme) => {
    const response = await get(role, url, tenant);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as RelationGraph;
  };
  const names = (answer: RelationGraph) => answer.nodes.map((node) => node.display_name).sort();
  const nameOf = (answer: RelationGraph, nodeId: string) => answer.nodes.find((node) => node.id === nodeId)?.display_name;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    await create(PEOPLE, 'Ada Lovelace', { name_given: 'Ada', name_family: 'Lovelace', visibility: 'public' });
    await create(PEOPLE, 'Grace Hopper', { name_given: 'Grace', name_family: 'Hopper', visibility: 'public' });
    await create(ORGS, 'Open Org', { name_inc: 'Open Org', visibility: 'public' });
    await create(ORGS, 'Shadow Org', { name_inc: 'Shadow Org', visibility: 'hidden' });
    await create(ORGS, 'Paid Org', { name_inc: 'Paid Org', visibility: 'paywalled' });
    await create(KEYWORDS, 'fintech', { name: 'fintech', visibility: 'public' });
    // A public deal naming a public person and organizations of every visibility.
    await create(LEDGER, 'Open Deal', { caption: 'Open Deal', year: 2024, organizations: [ids['Open Org'], ids['Shadow Org'], ids['Paid Org']], people: [ids['Ada Lovelace']], keywords: [ids['fintech']], visibility: 'public' });
    // A hidden deal between Ada and Grace: Grace is linked to Ada only through it.
    await create(LEDGER, 'Shadow Deal', { caption: 'Shadow Deal', year: 2023, organizations: [ids['Open Org']], people: [ids['Ada Lovelace'], ids['Grace Hopper']], visibility: 'hidden' });
    await create(LIBRARY, 'Open Report', { title: 'Open Report', type: 'Report', authors: [ids['Ada Lovelace']], assets: [ids['Shadow Org'], ids['Open Org']], visibility: 'public' });
    await create(LIBRARY, 'Paid Book', { title: 'Paid Book', type: 'Book', authors: [ids['Ada Lovelace']], visibility: 'paywalled' });
    await create(LIBRARY, 'Secret Memo', { title: 'Secret Memo', type: 'Report', authors: [ids['Ada Lovelace'], ids['Grace Hopper']], visibility: 'hidden' });
    // Only the hidden organization points at this library entry's other author.
    await create(PEOPLE, 'Linus Shade', { name_given: 'Linus', name_family: 'Shade', visibility: 'public' });
    await create(LEDGER, 'Shade Deal', { caption: 'Shade Deal', year: 2022, organizations: [ids['Shadow Org']], people: [ids['Linus Shade']], visibility: 'hidden' });
    // Another tenant's records, one of them named like acme's.
    await create(ORGS, 'Beta Org', { name_inc: 'Open Org', visibility: 'public' }, beta, tokens['beta']);
  });
  after(() => t?.close());

  it('a person to depth 2: what points at her and what that holds, edges labelled with the relation field', async () => {
    const answer = await graph('admin', `${PEOPLE}/${ids['Ada Lovelace']}/graph/`);
    assert.deepEqual(answer.root, { id: ids['Ada Lovelace'], kind: 'people' });
    assert.equal(answer.depth, 2);
    assert.equal(answer.truncated, false);
    const root = answer.nodes.find((node) => node.id === ids['Ada Lovelace'])!;
    assert.deepEqual(root, { id: ids['Ada Lovelace'], kind: 'people', display_name: 'Ada Lovelace', depth: 0 });
    const depths = Object.fromEntries(answer.nodes.map((node) => [node.display_name, node.depth]));
    assert.deepEqual(depths, {
      'Ada Lovelace': 0,
      'Open Deal': 1, 'Shadow Deal': 1, 'Open Report': 1, 'Paid Book': 1, 'Secret Memo': 1,
      'Open Org': 2, 'Shadow Org': 2, 'Paid Org': 2, 'Grace Hopper': 2,
    }, 'keywords are not in the default kinds; Linus is three steps away');
    const edge = answer.edges.find((one) => one.source === ids['Open Report'] && one.target === ids['Ada Lovelace'])!;
    assert.deepEqual(edge, { source: ids['Open Report'], target: ids['Ada Lovelace'], field: 'library.authors', label: 'authors' });
    // The last depth's records are joined where they are related: the report names both organizations.
    assert.ok(answer.edges.some((one) => one.source === ids['Open Report'] && one.target === ids['Shadow Org'] && one.field === 'library.assets'));
    for (const one of answer.edges) {
      assert.ok(nameOf(answer, one.source) && nameOf(answer, one.target), `edge ${one.field} joins two nodes`);
    }
    assert.deepEqual(
      answer.kinds.filter((kind) => kind.selected).map((kind) => kind.kind).sort(),
      ['ledger_entries', 'library', 'organizations', 'people'],
    );
    assert.deepEqual(answer.kinds.find((kind) => kind.kind === 'people'), { kind: 'people', label: 'Person', plural: 'People', path: '/assets/people', selected: true });
  });

  for (const audience of AUDIENCES) {
    it(`${audience}: every node is a record the audience may read, and nothing of the others is sent`, async () => {
      const readable = visibleTo(audience);
      for (const start of ['Ada Lovelace', 'Open Org', 'Open Deal', 'Open Report']) {
        const kindPath = { 'Ada Lovelace': PEOPLE, 'Open Org': ORGS, 'Open Deal': LEDGER, 'Open Report': LIBRARY }[start];
        const answer = await graph(audience, `${kindPath}/${ids[start]}/graph/`);
        for (const node of answer.nodes) assert.ok(readable.includes(visibilityOf[node.display_name!]!), `${start}: ${node.display_name}`);
        const body = JSON.stringify(answer);
        for (const [name, visibility] of Object.entries(visibilityOf)) {
          if (!readable.includes(visibility)) {
            assert.ok(!body.includes(ids[name]!) && !body.includes(name), `${start}: nothing of ${name} (${visibility}) is sent, not even an edge`);
          }
        }
        assert.equal(answer.truncated, false);
      }
    });
  }

  it('visitors: the hidden organization linked to a public person never shows, nor its edges, nor what only it leads to', async () => {
    const answer = await graph('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/`);
    assert.deepEqual(names(answer), ['Ada Lovelace', 'Open Deal', 'Open Org', 'Open Report']);
    assert.equal(answer.edges.length, 4, 'Open Deal and Open Report each name Ada and Open Org');
    // Grace is public, but linked to Ada only through hidden records.
    const grace = await graph('public', `${PEOPLE}/${ids['Grace Hopper']}/graph/`);
    assert.deepEqual(names(grace), ['Grace Hopper']);
    assert.deepEqual(grace.edges, []);
    const linus = await graph('research', `${PEOPLE}/${ids['Linus Shade']}/graph/`);
    assert.deepEqual(names(linus), ['Linus Shade', 'Shade Deal', 'Shadow Org']);
    assert.deepEqual(names(await graph('public', `${PEOPLE}/${ids['Linus Shade']}/graph/`)), ['Linus Shade']);
  });

  it('paywall readers: paywalled records show; hidden ones do not', async () => {
    const answer = await graph('paywall', `${PEOPLE}/${ids['Ada Lovelace']}/graph/`);
    assert.deepEqual(names(answer), ['Ada Lovelace', 'Open Deal', 'Open Org', 'Open Report', 'Paid Book', 'Paid Org']);
  });

  it('a root the reader may not see is a 404 (hidden, paywalled for visitors), as is another tenant\'s id', async () => {
    assert.equal((await get('public', `${ORGS}/${ids['Shadow Org']}/graph/`)).statusCode, 404);
    assert.equal((await get('paywall', `${ORGS}/${ids['Shadow Org']}/graph/`)).statusCode, 404);
    assert.equal((await get('public', `${ORGS}/${ids['Paid Org']}/graph/`)).statusCode, 404);
    assert.deepEqual(names(await graph('paywall', `${ORGS}/${ids['Paid Org']}/graph/`)), ['Ada Lovelace', 'Open Deal', 'Open Org', 'Paid Org']);
    const other = await get('beta', `${ORGS}/${ids['Open Org']}/graph/`, beta);
    assert.equal(other.statusCode, 404, 'another tenant\'s record is not found');
    assert.ok(!other.body.includes('Open Deal'));
    const own = await graph('beta', `${ORGS}/${ids['Beta Org']}/graph/`, beta);
    assert.deepEqual(names(own), ['Open Org'], 'beta\'s own record of the same name has none of acme\'s neighbours');
    assert.equal((await get('admin', `${PEOPLE}/${ids['Open Org']}/graph/`)).statusCode, 404, 'an id of another kind');
  });

  it('depth=1 and kinds= narrow the graph; kinds may name any related kind the reader may read', async () => {
    const near = await graph('admin', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?depth=1`);
    assert.ok(near.nodes.every((node) => node.depth <= 1));
    assert.equal(near.nodes.length, 6);
    const libraryOnly = await graph('admin', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?kinds=library,people`);
    assert.deepEqual(names(libraryOnly), ['Ada Lovelace', 'Grace Hopper', 'Open Report', 'Paid Book', 'Secret Memo']);
    assert.deepEqual(libraryOnly.kinds.filter((kind) => kind.selected).map((kind) => kind.kind).sort(), ['library', 'people']);
    const withKeywords = await graph('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?kinds=ledger_entries,keyword`);
    assert.deepEqual(names(withKeywords), ['Ada Lovelace', 'Open Deal', 'fintech']);
    // The root is a node whatever the kinds.
    assert.deepEqual(names(await graph('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?kinds=organizations`)), ['Ada Lovelace']);
  });

  it('the cap: at most limit nodes, truncated said; hidden records never count towards it', async () => {
    const capped = await graph('admin', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?limit=3`);
    assert.equal(capped.nodes.length, 3);
    assert.equal(capped.truncated, true);
    assert.equal(capped.limit, 3);
    for (const one of capped.edges) assert.ok(nameOf(capped, one.source) && nameOf(capped, one.target));
    // The visitor's graph of Ada has exactly 4 nodes: a cap of 4 leaves nothing out for them.
    const exact = await graph('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?limit=4`);
    assert.equal(exact.nodes.length, 4);
    assert.equal(exact.truncated, false, 'hidden records beyond the cap are not "more"');
    assert.equal((await graph('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?limit=99999`)).limit, 2000, 'a limit above the maximum is capped, as every limit');
  });

  it('bad parameters are a 400 naming the parameter', async () => {
    const cases: Array<[string, string, string]> = [
      ['depth=3', 'depth', 'Must be 1 or 2.'],
      ['depth=0', 'depth', 'Must be 1 or 2.'],
      ['depth=two', 'depth', 'Must be 1 or 2.'],
      ['kinds=people,spaceships', 'kinds', 'Unknown kind "spaceships"'],
      ['limit=0', 'limit', 'Must be at least 1.'],
      ['limit=ten', 'limit', 'Must be a whole number.'],
      ['group=x', 'group', 'Unknown parameter'],
      ['depth=1&depth=2', 'depth', 'Must be text.'],
    ];
    for (const [queryString, field, message] of cases) {
      const response = await get('admin', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?${queryString}`);
      assert.equal(response.statusCode, 400, `${queryString}: ${response.body}`);
      const body = response.json() as { errors: Record<string, string[]> };
      assert.ok(body.errors[field]?.[0]?.includes(message), `${queryString}: ${response.body}`);
    }
    // Odd input is a 400 naming the parameter too, never a 500 (as the route fuzz walks every route).
    for (const name of ['depth', 'kinds', 'limit']) {
      for (const odd of ['%00', 'a%00b', 'x'.repeat(3000), '%C0%AE']) {
        const response = await get('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?${name}=${odd}`);
        assert.equal(response.statusCode, 400, `${name}=${odd.slice(0, 20)}: ${response.body.slice(0, 200)}`);
        assert.ok((response.json() as { errors: Record<string, string[]> }).errors[name], `${name}=${odd.slice(0, 20)} names ${name}: ${response.body.slice(0, 200)}`);
      }
    }
    // A kind of a resource the reader may not read is as unknown as a made-up one.
    const rawData = await get('public', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?kinds=buckets`);
    assert.equal(rawData.statusCode, 400);
    const offered = (rawData.json() as { detail: string }).detail.split('Use any of:')[1]!;
    assert.ok(offered.includes('people') && !offered.includes('buckets'), `the kinds offered are those the visitor may read: ${offered}`);
    assert.equal((await get('research', `${PEOPLE}/${ids['Ada Lovelace']}/graph/?kinds=buckets,raw_data,people`)).statusCode, 200);
    assert.equal((await get('admin', `${PEOPLE}/not-a-uuid/graph/`)).statusCode, 400);
  });

  it('set-based: the statements of a request do not grow with the records in the graph', async () => {
    const statementsFor = async (url: string) => {
      const stop = captureStatements();
      await graph('admin', url);
      return stop().filter((one) => isDataStatement(one.text)).length;
    };
    const before = await statementsFor(`${PEOPLE}/${ids['Grace Hopper']}/graph/`);
    for (let index = 0; index < 30; index++) {
      await create(LIBRARY, `Bulk ${index}`, { title: `Bulk ${index}`, type: 'Report', authors: [ids['Grace Hopper']], assets: [ids['Open Org']], visibility: 'public' });
    }
    const afterMany = await statementsFor(`${PEOPLE}/${ids['Grace Hopper']}/graph/`);
    assert.ok(afterMany <= before, `${before} statements before, ${afterMany} with 30 more records`);
    assert.ok(afterMany <= 8, `a handful of statements: ${afterMany}`);
  });
});

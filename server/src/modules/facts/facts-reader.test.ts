/**
 * The reader on 10,000 facts (issue 18: "fast on 10,000 facts — one recursive query, not one
 * per node"): the statements GET facts/view/ sends are counted, not timed (timings:
 * bench/facts.ts, docs/BENCHMARKS.md). The facts are read by one WITH RECURSIVE statement,
 * and the reader sends as many statements for 10,000 facts as for ten.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FactTree } from '../../contracts.ts';
import type { Tx } from '../../db/client.ts';
import { inTenant, systemActor, type EngineContext } from '../../resources/context.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import type { TreeQuery } from './facts.repository.ts';
import type { FactsService } from './facts.service.ts';
import { expectedCounts, seedFactTree, TEN_THOUSAND } from './test-support.ts';

const dialect = new PgDialect();

/** The transaction, recording the text of every statement sent through it. */
function recording(tx: Tx, statements: string[]): Tx {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === 'execute') {
        return (statement: Parameters<Tx['execute']>[0]) => {
          statements.push(typeof statement === 'string' ? statement : dialect.sqlToQuery(statement as never).sql);
          return target.execute(statement);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const size = (trees: FactTree[]): number => trees.reduce((sum, tree) => sum + 1 + size(tree.children), 0);

describe('the reader on 10,000 facts', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  let service: FactsService;
  const ids: Record<string, string> = {};

  /** The reader as an audience sees it, with the statements it sent. */
  const read = async (access: 'public' | 'paywall' | 'admin', query: TreeQuery) => {
    const statements: string[] = [];
    const actor = { ...systemActor(acme.id), access };
    const result = await inTenant(t.db, actor, (ctx: EngineContext) => service.view({ ...ctx, tx: recording(ctx.tx, statements) }, query));
    return { result, statements };
  };
  const shown = (result: Awaited<ReturnType<FactsService['view']>>) =>
    result.sections.reduce((sum, section) => sum + section.categories.reduce((inner, category) => inner + size(category.facts), 0), 0);

  before(async () => {
    t = await createTestApp();
    service = t.engine.facts;
    acme = await t.createTenant('acme');
    tokens = await t.signInAudiences(acme);
    const create = async (path: string, body: object) => {
      const response = await t.request(acme, { method: 'POST', url: `/api/v1${path}/`, token: tokens['admin'], payload: body });
      assert.equal(response.statusCode, 201, response.body);
      return String(response.json().id);
    };
    ids['big'] = await create('/facts/sections', { name: 'Big' });
    ids['small'] = await create('/facts/sections', { name: 'Small' });
    ids['keyword'] = await create('/keywords', { name: 'Cobalt', visibility: 'public' });
    await t.db.withTenant({ tenantId: acme.id }, (tx) => seedFactTree(tx, acme.id, ids['big']!, TEN_THOUSAND, ids['keyword']!));
    await t.db.withTenant({ tenantId: acme.id }, (tx) => seedFactTree(tx, acme.id, ids['small']!, { roots: 1, children: 3, grandchildren: 2 }, ids['keyword']!));
  });
  after(() => t.close());

  it('reads the 10,000 facts in one WITH RECURSIVE statement, and sends no more statements than for ten', async () => {
    const expected = expectedCounts(TEN_THOUSAND);
    assert.equal(expected.total, 10_000);
    const big = await read('public', { section: ids['big']! });
    const small = await read('public', { section: ids['small']! });
    assert.equal(shown(big.result), expected.publicShown);
    assert.equal(big.result.locked_count, expected.publicLocked);
    const readingFacts = big.statements.filter((text) => /\bfacts\b/.test(text) && !/fact_(sections|categories)/.test(text));
    assert.equal(readingFacts.length, 1, readingFacts.join('\n---\n'));
    assert.match(readingFacts[0]!, /^WITH RECURSIVE/);
    assert.equal(big.statements.length, small.statements.length, `10,000 facts: ${big.statements.length} statements, 10 facts: ${small.statements.length}`);
    assert.ok(big.statements.length <= 4, big.statements.join('\n---\n'));
  });

  it('keeps the order of siblings at every level', async () => {
    const { result } = await read('paywall', { section: ids['big']! });
    assert.equal(shown(result), expectedCounts(TEN_THOUSAND).paywallShown);
    const roots = result.sections[0]!.categories[0]!.facts;
    assert.deepEqual(roots.slice(0, 3).map((root) => root.position), [0, 1, 2]);
    assert.deepEqual(roots[0]!.children.map((child) => child.position), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a filter on 10,000 facts is one statement too, keeping the matches with their ancestors', async () => {
    const { result, statements } = await read('admin', { section: ids['big']!, keyword: ids['keyword']! });
    // Each child's second child carries the keyword: 900 matches, under 900 children and 100 roots.
    assert.equal(shown(result), 100 + 900 + 900);
    assert.equal(statements.filter((text) => /^WITH RECURSIVE/.test(text)).length, 1);
  });

  it('answers over HTTP for a public visitor', async () => {
    const response = await t.request(acme, { method: 'GET', url: `/api/v1/facts/view/?section=${ids['big']}` });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().locked_count, expectedCounts(TEN_THOUSAND).publicLocked);
  });
});

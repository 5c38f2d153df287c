/**
 * Tree writes racing one another on a PostgreSQL server (docs/intelbooks.md, "Concurrent
 * writes"): a transaction holds the tenant's tree lock — moving, lowering or deleting a fact —
 * while a request writes the same tree (test/races.ts makes the request wait for the lock every
 * time). The request then sees the tree as the first left it: no cycle, no child above its
 * parent, no child of a deleted fact.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { systemActor, type EngineContext } from '../../resources/context.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { whileHeld } from '../../test/races.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { CATALOG } from '../registry.ts';
import { FactsService } from './facts.service.ts';

describe('facts tree racing', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  let section: string;
  const service = new FactsService(CATALOG);

  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.request(acme, { method, url: `/api/v1${url}`, token: tokens['admin'], ...(payload ? { payload } : {}) });
  const fact = async (body: object) => {
    const response = await call('POST', '/facts/', { section, visibility: 'public', ...body });
    assert.equal(response.statusCode, 201, response.body);
    return String(response.json().id);
  };
  /** `first` (a service call) in a transaction held open until `second` (a request) waits for the tree lock. */
  const race = <A, B>(first: (ctx: EngineContext) => Promise<A>, second: () => Promise<B>) =>
    whileHeld(t.db, { tenantId: acme.id }, (tx) => first({ tx, actor: systemActor(acme.id) }), second);
  /** The fact's parent (null at the top), or 'gone' when it was deleted. */
  const parentOf = async (factId: string) => {
    const [row] = await query<{ parent: string | null }>(t.db.owner, sql`SELECT parent FROM facts WHERE id = ${factId}`);
    return row ? row.parent : 'gone';
  };

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    tokens = await t.signInAudiences(acme);
    const created = await call('POST', '/facts/sections/', { name: 'Races' });
    section = String(created.json().id);
  });
  after(() => t.close());

  it('a under b while b moves under a: the second move waits, then is a 400 naming parent — no cycle', async () => {
    const a = await fact({ text: 'A' });
    const b = await fact({ text: 'B' });
    const { second } = await race((ctx) => service.move(ctx, a, { parent: b, position: 0 }), () => call('POST', `/facts/${b}/move/`, { parent: a, position: 0 }));
    assert.equal(second.statusCode, 400, second.body);
    assert.ok(second.json().errors.parent);
    assert.equal(await parentOf(a), b);
    assert.equal(await parentOf(b), null);
  });

  it('a public child saved while its parent is hidden: waits, then is a 400 naming visibility', async () => {
    const parent = await fact({ text: 'Parent' });
    const { second } = await race(
      (ctx) => service.facts.update(ctx, parent, { visibility: 'hidden' }),
      () => call('POST', '/facts/', { text: 'Child', parent, visibility: 'public' }),
    );
    assert.equal(second.statusCode, 400, second.body);
    assert.ok(second.json().errors.visibility);
  });

  it('a move under a fact being deleted: waits, then is a 400 naming parent — nothing left under a deleted fact', async () => {
    const doomed = await fact({ text: 'Doomed' });
    const mover = await fact({ text: 'Mover' });
    const { second } = await race((ctx) => service.facts.remove(ctx, doomed), () => call('POST', `/facts/${mover}/move/`, { parent: doomed, position: 0 }));
    assert.equal(second.statusCode, 400, second.body);
    assert.ok(second.json().errors.parent);
    assert.equal(await parentOf(mover), null);
    assert.equal(await parentOf(doomed), 'gone');
  });
});

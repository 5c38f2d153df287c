/**
 * Review and merges racing one another on a PostgreSQL server (docs/review.md, docs/engine.md
 * "Merging"): a transaction holds a suggestion or a record — accepting or merging it — while
 * a request edits, deletes, accepts or merges the same row (test/races.ts makes the second
 * wait for the first's lock every time). The second gets a 409 or a 404, never a 500, and
 * never undoes what the first committed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { inTenant, systemActor, type EngineContext } from '../../resources/context.ts';
import { MergeService } from '../../resources/merge.ts';
import { ResourceService } from '../../resources/service.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { whileHeld } from '../../test/races.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { CATALOG } from '../registry.ts';
import { reviewedResourceOf, ReviewService } from './review.service.ts';

const API = '/api/v1';

describe('review and merges racing', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const organizations = new ReviewService(reviewedResourceOf(CATALOG, 'ORG'), CATALOG);
  const merges = new MergeService(new ResourceService(organizations.resource, CATALOG));

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.request(acme, { method, url: `${API}${url}`, token: tokens['research'], ...(payload ? { payload } : {}) });
  const suggest = async (name: string) =>
    String((await inTenant(t.db, systemActor(acme.id), (ctx) => organizations.suggest(ctx, { name_inc: name })))!['id']);
  const record = async (name: string) => {
    const created = await call('POST', '/assets/organizations/', { name_inc: name, visibility: 'public' });
    assert.equal(created.statusCode, 201, created.body);
    return String(created.json().id);
  };
  /** `first` in a transaction held open until `second` (a request) waits for its lock. */
  const race = <A, B>(first: (ctx: EngineContext) => Promise<A>, second: () => Promise<B>) =>
    whileHeld(t.db, { tenantId: acme.id }, (tx) => first({ tx, actor: systemActor(acme.id) }), second);
  const status = async (rowId: string) =>
    (await query<{ status: string }>(t.db.owner, sql`SELECT status FROM organizations WHERE id = ${rowId}`))[0]?.status ?? 'gone';

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  it('deleting a suggestion while it is accepted: 404, and the record stays', async () => {
    const suggestion = await suggest('Racing Delete Ltd');
    const { second } = await race((ctx) => organizations.accept(ctx, suggestion, null), () => call('DELETE', `/suggested-entities/organizations/${suggestion}/`));
    assert.equal(second.statusCode, 404, second.body);
    assert.equal(await status(suggestion), 'active');
  });

  it('editing a suggestion while it is accepted: 409, and the record keeps its values', async () => {
    const suggestion = await suggest('Racing Edit Ltd');
    const { second } = await race(
      (ctx) => organizations.accept(ctx, suggestion, null),
      () => call('PATCH', `/suggested-entities/organizations/${suggestion}/`, { hq_city: 'Hobart' }),
    );
    assert.equal(second.statusCode, 409, second.body);
    const accepted = await call('GET', `/assets/organizations/${suggestion}/`);
    assert.equal(accepted.json().hq_city, null);
  });

  it('accepting a suggestion with link_to while it is accepted alone: 409, and neither record is lost', async () => {
    const target = await record('Racing Target Ltd');
    const suggestion = await suggest('Racing Accept Ltd');
    const { second } = await race(
      (ctx) => organizations.accept(ctx, suggestion, null),
      () => call('POST', `/assets/organizations/${suggestion}/accept_suggestion/`, { link_to: target }),
    );
    assert.equal(second.statusCode, 409, second.body);
    assert.deepEqual([await status(suggestion), await status(target)], ['active', 'active']);
  });

  it('accepting a suggestion alone while it is folded into a record: 409', async () => {
    const target = await record('Racing Fold Ltd');
    const suggestion = await suggest('Racing Fold Pty');
    const { second } = await race(
      (ctx) => organizations.accept(ctx, suggestion, target),
      () => call('POST', `/assets/organizations/${suggestion}/accept_suggestion/`, {}),
    );
    assert.equal(second.statusCode, 409, second.body);
    assert.deepEqual([await status(suggestion), await status(target)], ['gone', 'active']);
  });

  it('merging one record into two others at once: the second merge is a 409, and the first undoes cleanly', async () => {
    const other = await record('Racing Merged Ltd');
    const [first, second] = [await record('Racing Survivor One'), await record('Racing Survivor Two')];
    const { first: merged, second: refused } = await race(
      (ctx) => merges.merge(ctx, first, { other }),
      () => call('POST', `/assets/organizations/${second}/merge/`, { other }),
    );
    assert.equal(refused.statusCode, 409, refused.body);
    const undone = await call('POST', `/assets/organizations/merge/${merged.audit_id}/undo/`);
    assert.equal(undone.statusCode, 200, undone.body);
    assert.deepEqual([await status(other), await status(first), await status(second)], ['active', 'active', 'active']);
  });

  it('merging two records into each other at once: one merge, no deadlock', async () => {
    const [one, two] = [await record('Racing Pair One'), await record('Racing Pair Two')];
    const { second } = await race((ctx) => merges.merge(ctx, one, { other: two }), () => call('POST', `/assets/organizations/${two}/merge/`, { other: one }));
    assert.equal(second.statusCode, 409, second.body);
    assert.deepEqual([await status(one), await status(two)], ['active', 'gone']);
  });
});

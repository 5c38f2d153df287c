/**
 * The engine without HTTP: a system actor (a job, a script) creates, edits and
 * merges records through the same services the routes use, in a transaction
 * it opens itself. Validation, visibility and tenant isolation apply as for a
 * person, and the audit log records the writes as the system's, on behalf of
 * the user who caused them. Services beyond the engine's CRUD apply the same
 * write rule: a job acting for a reader cannot change a list's items.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserRow } from '../auth/users.repository.ts';
import type { AuditEntry } from '../contracts.ts';
import { ApiError } from './errors.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { actingUser, inTenant, systemActor, type Actor } from './context.ts';
import { parseListQuery } from './list-query.ts';
import { MergeService } from './merge.ts';
import type { ResourceService } from './service.ts';

const ORGS = '/api/v1/assets/organizations';

describe('the engine outside HTTP', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let admin: string;
  let research: string;
  let analyst: UserRow;
  let reader: UserRow;
  let organizations: ResourceService;
  let merges: MergeService;

  /** Rejects with the engine's ApiError of this status. */
  const refusal = (status: number, check: (error: ApiError) => void = () => {}) => (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.statusCode, status, error.detail);
    check(error);
    return true;
  };
  const history = async (id: string): Promise<AuditEntry[]> => {
    const response = await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/history/`, token: admin });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().results;
  };
  const listCount = async (): Promise<number> => {
    const response = await t.request(acme, { method: 'GET', url: `${ORGS}/`, token: admin });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().count;
  };

  before(async () => {
    t = await createTestApp();
    organizations = t.engine.services.get('organizations');
    merges = new MergeService(organizations);
    const signedIn = await t.signInTwoTenants();
    ({ acme, beta } = signedIn);
    [admin, research] = [signedIn.tokens['admin']!, signedIn.tokens['research']!];
    analyst = await t.createUser(acme, 'analyst@acme.test', { is_research: true });
    reader = await t.createUser(acme, 'subscriber@acme.test');
  });
  after(() => t.close());

  it('creates, edits and merges on behalf of a user; the history shows system writes for that user', async () => {
    const job = systemActor(acme.id, actingUser(analyst));
    assert.equal(job.access, 'research');
    const before = await listCount();

    const kept = await inTenant(t.db, job, (ctx) => organizations.create(ctx, { name_inc: 'Job Made Ltd', visibility: 'public' }));
    const edited = await inTenant(t.db, job, (ctx) => organizations.update(ctx, String(kept['id']), { notes: 'Enriched by a job.' }));
    assert.equal(edited['notes'], 'Enriched by a job.');
    assert.equal(edited['updated_by'], analyst.id, 'rows name the user the job worked for');
    const duplicate = await inTenant(t.db, job, (ctx) => organizations.create(ctx, { name_inc: 'Job Made Limited', hq_city: 'Lyon' }));
    const merged = await inTenant(t.db, job, (ctx) => merges.merge(ctx, String(kept['id']), { other: duplicate['id'], choices: { hq_city: 'other' } }));
    assert.equal(merged.record['hq_city'], 'Lyon');
    // Counters are kept by machine writes too: two created, one merged away.
    assert.equal(await listCount(), before + 1);

    const entries = await history(String(kept['id']));
    assert.deepEqual(entries.map((entry) => entry.action), ['merge', 'update', 'create']);
    for (const entry of entries) {
      assert.equal(entry.actor, 'system');
      assert.equal(entry.user_id, null);
      assert.equal(entry.user_email, null);
      assert.deepEqual(entry.on_behalf_of, { id: analyst.id, email: analyst.email });
    }
    assert.deepEqual(entries[1]!.changes['notes'], { from: null, to: 'Enriched by a job.' });
    const mergedAway = await history(String(duplicate['id']));
    assert.deepEqual(mergedAway.map((entry) => [entry.action, entry.actor]), [['merge', 'system'], ['create', 'system']]);

    // The same record edited by a person through the API is recorded as theirs.
    const patched = await t.request(acme, { method: 'PATCH', url: `${ORGS}/${kept['id']}/`, token: research, payload: { notes: 'Checked.' } });
    assert.equal(patched.statusCode, 200, patched.body);
    const [latest] = await history(String(kept['id']));
    assert.equal(latest!.actor, 'user');
    assert.equal(latest!.user_email, 'research@acme.test');
    assert.equal(latest!.on_behalf_of, null);

    // The merge can be undone by a person: the engine's records are the same whoever wrote them.
    const undone = await t.request(acme, { method: 'POST', url: `${ORGS}/merge/${merged.audit_id}/undo/`, token: admin });
    assert.equal(undone.statusCode, 409, 'edited since the merge');
  });

  it('a system actor of its own writes as an admin of its tenant, on no one’s behalf', async () => {
    const job = systemActor(acme.id);
    const hidden = await inTenant(t.db, job, (ctx) => organizations.create(ctx, { name_inc: 'Quiet Holdings', visibility: 'hidden' }));
    assert.equal(hidden['updated_by'], null);
    const [entry] = await history(String(hidden['id']));
    assert.equal(entry!.actor, 'system');
    assert.equal(entry!.on_behalf_of, null);
    assert.equal(entry!.user_email, null);
  });

  it('validates input as for a user: field errors, and nothing written', async () => {
    const job = systemActor(acme.id, actingUser(analyst));
    const before = await listCount();
    await assert.rejects(
      inTenant(t.db, job, (ctx) => organizations.create(ctx, { visibility: 'everyone', founding_date: 'soon' })),
      refusal(400, (error) => {
        assert.ok(error.errors?.['visibility'], error.detail);
        assert.ok(error.errors?.['name_inc'], 'a name is required');
      }),
    );
    await assert.rejects(
      inTenant(t.db, job, (ctx) => organizations.create(ctx, { name_inc: 'Dangling Ref Ltd', keywords: [crypto.randomUUID()] })),
      refusal(400, (error) => assert.ok(error.errors?.['keywords'], error.detail)),
    );
    assert.equal(await listCount(), before);
  });

  it('sees and writes only what the user it works for may: visibility, write access and the tenant', async () => {
    const hidden = await inTenant(t.db, systemActor(acme.id), (ctx) => organizations.create(ctx, { name_inc: 'Undisclosed SA', visibility: 'hidden' }));
    const shown = await inTenant(t.db, systemActor(acme.id), (ctx) => organizations.create(ctx, { name_inc: 'Disclosed SA', visibility: 'public' }));
    const forReader: Actor = systemActor(acme.id, actingUser(reader));
    assert.equal(forReader.access, 'paywall');

    await assert.rejects(inTenant(t.db, forReader, (ctx) => organizations.get(ctx, String(hidden['id']))), refusal(404));
    const page = await inTenant(t.db, forReader, (ctx) => organizations.list(ctx, parseListQuery(organizations.resource, { search: 'disclosed' }, forReader.access)));
    assert.deepEqual(page.results.map((row) => row['id']), [shown['id']]);
    // Readers do not write organizations (research and admins do), whoever carries their request.
    await assert.rejects(inTenant(t.db, forReader, (ctx) => organizations.create(ctx, { name_inc: 'Not Allowed Ltd' })), refusal(403));
    await assert.rejects(inTenant(t.db, forReader, (ctx) => organizations.update(ctx, String(shown['id']), { notes: 'x' })), refusal(403));
    await assert.rejects(inTenant(t.db, forReader, (ctx) => organizations.remove(ctx, String(shown['id']))), refusal(403));

    // Another tenant's job finds nothing of this one.
    await assert.rejects(inTenant(t.db, systemActor(beta.id), (ctx) => organizations.get(ctx, String(shown['id']))), refusal(404));
  });

  it("changes a list's items only for a user who may write lists, as the routes do", async () => {
    const listItems = t.engine.lists;
    const lists = t.engine.services.get('lists');
    const system = systemActor(acme.id);
    const list = await inTenant(t.db, system, (ctx) => lists.create(ctx, { name: 'Job Watchlist', kind: 'OrganizationsList', visibility: 'public' }));
    const listId = String(list['id']);
    const [first, second] = await Promise.all(['Watched One Ltd', 'Watched Two Ltd'].map((name) =>
      inTenant(t.db, system, (ctx) => organizations.create(ctx, { name_inc: name, visibility: 'public' })).then((row) => String(row['id']))));
    const items = async () =>
      (await inTenant(t.db, system, (ctx) => listItems.listItems(ctx, listId, { limit: 10, offset: 0 }))).results.map((row) => row['id']);

    // A reader sees the public list and its items, but a job acting for them changes nothing.
    const forReader = systemActor(acme.id, actingUser(reader));
    await assert.rejects(inTenant(t.db, forReader, (ctx) => listItems.addItem(ctx, listId, { id: first })), refusal(403));
    assert.deepEqual(await items(), []);

    const forAnalyst = systemActor(acme.id, actingUser(analyst));
    for (const id of [first, second]) {
      const { added } = await inTenant(t.db, forAnalyst, (ctx) => listItems.addItem(ctx, listId, { id }));
      assert.equal(added, true);
    }
    await assert.rejects(inTenant(t.db, forReader, (ctx) => listItems.reorder(ctx, listId, { ids: [second, first] })), refusal(403));
    await assert.rejects(inTenant(t.db, forReader, (ctx) => listItems.removeItem(ctx, listId, first!)), refusal(403));
    assert.deepEqual(await items(), [first, second]);

    await inTenant(t.db, forAnalyst, (ctx) => listItems.reorder(ctx, listId, { ids: [second, first] }));
    await inTenant(t.db, forAnalyst, (ctx) => listItems.removeItem(ctx, listId, first!));
    assert.deepEqual(await items(), [second]);
  });
});


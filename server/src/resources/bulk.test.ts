/**
 * Bulk actions (POST {resource}/bulk/ and its undo) through organizations,
 * people, keywords and lists: each action by ids and by all matching rows,
 * all-or-nothing refusals with per-row reasons, audit entries per record,
 * undo, permissions, tenant isolation and bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { BULK_MAX_ROWS } from './bulk.ts';

const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';
const KEYWORDS = '/api/v1/keywords';
const LISTS = '/api/v1/lists';

type Json = Record<string, unknown> & { id: string };
type Refusal = { id: string; code: string; detail: string };

describe('bulk actions', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  const call = (role: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, tenant?: TenantRow) =>
    t.request(tenant ?? acme, { method, url, token: tokens[role], ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const create = async (path: string, body: Record<string, unknown>, role = 'admin', tenant?: TenantRow): Promise<Json> => {
    const response = await call(role, 'POST', `${path}/`, body, tenant);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const bulk = (path: string, body: Record<string, unknown>, role = 'admin', tenant?: TenantRow) => call(role, 'POST', `${path}/bulk/`, body, tenant);
  const bulkOk = async (path: string, body: Record<string, unknown>, role = 'admin') => {
    const response = await bulk(path, body, role);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { action: string; matched: number; changed: string[]; operation_id: string | null; undo: string | null };
  };
  const record = async (path: string, rowId: string) => {
    const response = await call('admin', 'GET', `${path}/${rowId}/`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as Json;
  };
  const history = async (path: string, rowId: string) =>
    (await call('admin', 'GET', `${path}/${rowId}/history/`)).json().results as Array<{ action: string; changes: Record<string, { from: unknown; to: unknown }> }>;
  const auditOf = (operationId: string) =>
    t.db.withTenant({ tenantId: acme.id }, (tx) =>
      query<{ record_id: string; action: string }>(tx, sql`SELECT record_id, action FROM audit_entries WHERE bulk_operation_id = ${operationId} ORDER BY at`));
  const names = (records: Json[]) => records.map((entry) => entry['display_name']).sort();
  const org = (name: string, extra: Record<string, unknown> = {}) => create(ORGS, { name_inc: name, visibility: 'public', ...extra });

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  it('tells each resource which bulk actions it offers, and the cap', async () => {
    const meta = (await call('public', 'GET', '/api/v1/resources/')).json() as Array<{ kind: string; bulk_actions: string[]; bulk_max_rows: number }>;
    const of = (kind: string) => meta.find((entry) => entry.kind === kind)!;
    assert.deepEqual(of('organizations').bulk_actions, ['delete', 'set_visibility', 'add_keywords', 'remove_keywords', 'add_to_list', 'export']);
    assert.deepEqual(of('keyword').bulk_actions, ['delete', 'set_visibility', 'export']);
    assert.deepEqual(of('geos').bulk_actions, ['export'], 'shared, never deleted, no visibility');
    assert.equal(of('organizations').bulk_max_rows, BULK_MAX_ROWS);
  });

  describe('set_visibility', () => {
    it('changes the named rows in one operation with an audit entry per record, and undoes it', async () => {
      const a = await org('Vis Alpha');
      const b = await org('Vis Beta', { visibility: 'paywalled' });
      const c = await org('Vis Gamma', { visibility: 'hidden' });
      const done = await bulkOk(ORGS, { action: 'set_visibility', ids: [a.id, b.id, c.id], visibility: 'hidden' });
      assert.equal(done.matched, 3);
      assert.deepEqual(done.changed.sort(), [a.id, b.id].sort(), 'a row already hidden is left alone');
      assert.equal(done.undo, `/api/v1/assets/organizations/bulk/${done.operation_id}/undo/`);
      assert.equal((await record(ORGS, a.id))['visibility'], 'hidden');
      const audit = await auditOf(done.operation_id!);
      assert.deepEqual(audit.map((entry) => [entry.record_id, entry.action]).sort(), [[a.id, 'update'], [b.id, 'update']].sort());
      assert.deepEqual((await history(ORGS, b.id))[0]!.changes['visibility'], { from: 'paywalled', to: 'hidden' });

      const undone = await call('admin', 'POST', done.undo!);
      assert.equal(undone.statusCode, 200, undone.body);
      assert.deepEqual((undone.json().restored as string[]).sort(), [a.id, b.id].sort());
      assert.equal((await record(ORGS, a.id))['visibility'], 'public');
      assert.equal((await record(ORGS, b.id))['visibility'], 'paywalled');
      assert.equal((await record(ORGS, c.id))['visibility'], 'hidden');
      assert.equal((await auditOf(done.operation_id!)).length, 4, 'the undo writes an entry per record too');
      assert.deepEqual((await history(ORGS, b.id))[0]!.changes['visibility'], { from: 'hidden', to: 'paywalled' });

      const again = await call('admin', 'POST', done.undo!);
      assert.equal(again.statusCode, 409, again.body);
    });

    it('applies to every row matching the list query, re-evaluated on the server', async () => {
      await org('Matchbox One', { hq_city: null });
      await org('Matchbox Two');
      const other = await org('Elsewhere Three');
      const done = await bulkOk(ORGS, { action: 'set_visibility', all_matching: { search: 'matchbox', visibility: 'public' }, visibility: 'paywalled' });
      assert.equal(done.matched, 2);
      const paywalled = (await call('admin', 'GET', `${ORGS}/?search=matchbox&visibility=paywalled`)).json().results as Json[];
      assert.deepEqual(names(paywalled), ['Matchbox One', 'Matchbox Two']);
      assert.equal((await record(ORGS, other.id))['visibility'], 'public');
    });

    it('refuses the undo, writing nothing, when a row changed again since', async () => {
      const a = await org('Undo Clash A');
      const b = await org('Undo Clash B');
      const done = await bulkOk(ORGS, { action: 'set_visibility', ids: [a.id, b.id], visibility: 'paywalled' }, 'research');
      const patched = await call('admin', 'PATCH', `${ORGS}/${b.id}/`, { visibility: 'hidden' });
      assert.equal(patched.statusCode, 200, patched.body);
      const undone = await call('research', 'POST', done.undo!);
      assert.equal(undone.statusCode, 409, undone.body);
      assert.deepEqual(undone.json().rows.map((row: Refusal) => [row.id, row.code]), [[b.id, 'changed']]);
      assert.equal((await record(ORGS, a.id))['visibility'], 'paywalled', 'nothing was put back');
    });

    it('lets only the user who made the change, or an admin, undo it', async () => {
      const a = await org('Undo Owner');
      const done = await bulkOk(ORGS, { action: 'set_visibility', ids: [a.id], visibility: 'paywalled' }, 'admin');
      assert.equal((await call('research', 'POST', done.undo!)).statusCode, 403);
      assert.equal((await call('paywall', 'POST', done.undo!)).statusCode, 403);
      assert.equal((await call('public', 'POST', done.undo!)).statusCode, 401);
      assert.equal((await call('beta', 'POST', done.undo!.replace(ORGS, ORGS), undefined, beta)).statusCode, 404, 'another tenant never finds it');
      assert.equal((await call('admin', 'POST', `${PEOPLE}/bulk/${done.operation_id}/undo/`)).statusCode, 404, 'nor another resource');
      assert.equal((await call('admin', 'POST', done.undo!)).statusCode, 200);
    });
  });

  describe('all or nothing', () => {
    it('refuses the whole request with a reason per row when a row is not found, not visible or of another tenant', async () => {
      const a = await org('Refused A');
      const foreign = await create(ORGS, { name_inc: 'Beta Corp', visibility: 'public' }, 'beta', beta);
      const unknown = '00000000-0000-4000-8000-000000000001';
      const response = await bulk(ORGS, { action: 'set_visibility', ids: [a.id, foreign.id, unknown], visibility: 'hidden' });
      assert.equal(response.statusCode, 409, response.body);
      const body = response.json() as { code: string; rows: Refusal[] };
      assert.equal(body.code, 'bulk_refused');
      assert.deepEqual(body.rows.map((row) => [row.id, row.code]).sort(), [[foreign.id, 'not_found'], [unknown, 'not_found']].sort());
      assert.equal((await record(ORGS, a.id))['visibility'], 'public', 'nothing written');
      assert.equal((await history(ORGS, a.id)).length, 1, 'no audit entry beyond the creation');
      const beta1 = await call('beta', 'GET', `${ORGS}/${foreign.id}/`, undefined, beta);
      assert.equal(beta1.json().visibility, 'public');
    });

    it('refuses rows the engine would refuse one by one (too many keywords), writing nothing', async () => {
      const keyword = await create(KEYWORDS, { name: 'Mathematics' });
      const person = await create(PEOPLE, { name_given: 'Ada', name_family: 'Lovelace', visibility: 'public' });
      const full = await create(PEOPLE, { name_given: 'Full', name_family: 'Tags', visibility: 'public' });
      // A record holds at most 500 keywords: one already at the limit cannot take another.
      await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        await tx.execute(sql`INSERT INTO keywords (tenant_id, name) SELECT ${acme.id}, 'Filler ' || n FROM generate_series(1, 500) AS n`);
        await tx.execute(sql`UPDATE people SET keywords = ARRAY(SELECT id FROM keywords WHERE name LIKE 'Filler %') WHERE id = ${full.id}`);
      });
      const response = await bulk(PEOPLE, { action: 'add_keywords', ids: [person.id, full.id], keywords: [keyword.id] });
      assert.equal(response.statusCode, 409, response.body);
      const rows = response.json().rows as Refusal[];
      assert.deepEqual(rows.map((row) => [row.id, row.code]), [[full.id, 'invalid']]);
      assert.match(rows[0]!.detail, /^keywords: .*500/);
      assert.deepEqual((await record(PEOPLE, person.id))['keywords'], [], 'the good row was not written either');
      assert.equal((await history(PEOPLE, person.id)).length, 1);
    });
  });

  describe('keywords', () => {
    it('adds and removes keywords, leaving rows that already are as asked, and undoes both', async () => {
      const fintech = await create(KEYWORDS, { name: 'Bulk Fintech' });
      const energy = await create(KEYWORDS, { name: 'Bulk Energy' });
      const a = await org('Kw A', { keywords: [fintech.id] });
      const b = await org('Kw B');
      const added = await bulkOk(ORGS, { action: 'add_keywords', ids: [a.id, b.id], keywords: [fintech.id, energy.id] }, 'research');
      assert.deepEqual(added.changed.sort(), [a.id, b.id].sort());
      const keywordIds = async (rowId: string) => ((await record(ORGS, rowId))['keywords'] as Json[]).map((ref) => ref.id).sort();
      assert.deepEqual(await keywordIds(a.id), [fintech.id, energy.id].sort());
      assert.deepEqual(await keywordIds(b.id), [fintech.id, energy.id].sort());

      const removed = await bulkOk(ORGS, { action: 'remove_keywords', ids: [a.id, b.id], keywords: [fintech.id] }, 'research');
      assert.deepEqual(await keywordIds(a.id), [energy.id]);
      const undoRemove = await call('research', 'POST', removed.undo!);
      assert.equal(undoRemove.statusCode, 200, undoRemove.body);
      assert.deepEqual(await keywordIds(b.id), [fintech.id, energy.id].sort());

      const undoAdd = await call('research', 'POST', added.undo!);
      assert.equal(undoAdd.statusCode, 200, undoAdd.body);
      assert.deepEqual(await keywordIds(a.id), [fintech.id], 'a keeps the keyword it had before');
      assert.deepEqual(await keywordIds(b.id), []);
    });

    it('answers 400 naming keywords for an unknown keyword', async () => {
      const a = await org('Kw Unknown');
      const response = await bulk(ORGS, { action: 'add_keywords', ids: [a.id], keywords: ['00000000-0000-4000-8000-000000000002'] });
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.json().errors.keywords);
    });
  });

  describe('add_to_list', () => {
    it('adds rows to a list (with its auto-tagging) and the undo takes both away', async () => {
      const tag = await create(KEYWORDS, { name: 'Watched' });
      const list = await create(LISTS, { name: 'Bulk Watchlist', kind: 'OrganizationsList', keywords: [tag.id] });
      const a = await org('Listed A');
      const b = await org('Listed B');
      await call('admin', 'POST', `${LISTS}/${list.id}/items/`, { id: a.id });
      const done = await bulkOk(ORGS, { action: 'add_to_list', ids: [a.id, b.id], list: list.id }, 'research');
      assert.deepEqual(done.changed, [b.id]);
      const items = (await call('admin', 'GET', `${LISTS}/${list.id}/items/`)).json().results as Json[];
      assert.deepEqual(names(items), ['Listed A', 'Listed B']);
      assert.deepEqual(((await record(ORGS, b.id))['keywords'] as Json[]).map((ref) => ref.id), [tag.id]);
      assert.ok((await history(ORGS, b.id))[0]!.changes['lists']);

      const undone = await call('research', 'POST', done.undo!);
      assert.equal(undone.statusCode, 200, undone.body);
      const after = (await call('admin', 'GET', `${LISTS}/${list.id}/items/`)).json().results as Json[];
      assert.deepEqual(names(after), ['Listed A']);
      assert.deepEqual((await record(ORGS, b.id))['keywords'], []);
    });

    it("presents each list's item count as the reader sees it", async () => {
      const list = await create(LISTS, { name: 'Counted', kind: 'OrganizationsList', visibility: 'public' });
      const rows = [await org('Counted Public'), await org('Counted Hidden', { visibility: 'hidden' })];
      await bulkOk(ORGS, { action: 'add_to_list', ids: rows.map((row) => row.id), list: list.id });
      const countFor = async (role: string) => {
        const page = (await call(role, 'GET', `${LISTS}/?search=counted`)).json().results as Json[];
        return page.find((entry) => entry.id === list.id)?.['item_count'];
      };
      assert.equal(await countFor('admin'), 2);
      assert.equal(await countFor('public'), 1);
      assert.equal((await call('public', 'GET', `${LISTS}/${list.id}/`)).json().item_count, 1);
    });

    it('answers 400 naming list for a list of another kind or an unknown one', async () => {
      const a = await org('Listed Wrong');
      const people = await create(LISTS, { name: 'Bulk People', kind: 'PeopleList' });
      for (const listId of [people.id, '00000000-0000-4000-8000-000000000003']) {
        const response = await bulk(ORGS, { action: 'add_to_list', ids: [a.id], list: listId });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors.list);
      }
    });
  });

  describe('delete', () => {
    it('deletes every row with an audit entry each, keeps the counts right, and cannot be undone', async () => {
      const counts = async () => (await call('admin', 'GET', '/api/v1/tools/entities-count/')).json().organizations as Record<string, number>;
      const rows = [await org('Doomed A'), await org('Doomed B', { visibility: 'hidden' }), await org('Doomed C', { visibility: 'paywalled' })];
      const before = await counts();
      const done = await bulkOk(ORGS, { action: 'delete', ids: rows.map((row) => row.id) });
      assert.equal(done.undo, null);
      for (const row of rows) assert.equal((await call('admin', 'GET', `${ORGS}/${row.id}/`)).statusCode, 404);
      assert.deepEqual((await auditOf(done.operation_id!)).map((entry) => entry.action), ['delete', 'delete', 'delete']);
      const afterCounts = await counts();
      assert.equal(afterCounts['public_count'], before['public_count']! - 1);
      assert.equal(afterCounts['paywall_count'], before['paywall_count']! - 1);
      assert.equal(afterCounts['hidden_count'], before['hidden_count']! - 1);
      const listed = (await call('admin', 'GET', `${ORGS}/`)).json().count as number;
      const total = afterCounts['public_count']! + afterCounts['paywall_count']! + afterCounts['hidden_count']!;
      assert.equal(listed, total);
      const undo = await call('admin', 'POST', `${ORGS}/bulk/${done.operation_id}/undo/`);
      assert.equal(undo.statusCode, 409, undo.body);
    });
  });

  describe('export', () => {
    it('exports the selected rows as csv or xlsx', async () => {
      const a = await org('Export Me, Inc.');
      const b = await org('Export Me Too');
      await org('Not Exported');
      const csv = await bulk(ORGS, { action: 'export', ids: [a.id, b.id], format: 'csv' });
      assert.equal(csv.statusCode, 200, csv.body);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /\.csv"$/);
      assert.ok(csv.body.includes('"Export Me, Inc."'));
      assert.ok(csv.body.includes('Export Me Too'));
      assert.ok(!csv.body.includes('Not Exported'));
      assert.equal(csv.body.trimEnd().split('\r\n').length, 3);
      const xlsx = await bulk(ORGS, { action: 'export', all_matching: { search: 'export me' } });
      assert.equal(xlsx.statusCode, 200);
      assert.match(String(xlsx.headers['content-type']), /spreadsheetml/);
      const refused = await bulk(ORGS, { action: 'export', ids: [a.id, '00000000-0000-4000-8000-000000000005'] });
      assert.equal(refused.statusCode, 409, refused.body);
    });
  });

  describe('permissions and input', () => {
    it('answers 401 anonymously and 403 to paywall readers', async () => {
      const a = await org('Guarded');
      assert.equal((await bulk(ORGS, { action: 'set_visibility', ids: [a.id], visibility: 'hidden' }, 'public')).statusCode, 401);
      assert.equal((await bulk(ORGS, { action: 'set_visibility', ids: [a.id], visibility: 'hidden' }, 'paywall')).statusCode, 403);
      assert.equal((await bulk(ORGS, { action: 'export', ids: [a.id] }, 'paywall')).statusCode, 403);
      assert.equal((await record(ORGS, a.id))['visibility'], 'public');
    });

    it('answers 400 naming the field for bad input', async () => {
      const a = await org('Bad Input');
      const tooMany = Array.from({ length: BULK_MAX_ROWS + 1 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
      const cases: Array<[Record<string, unknown> | unknown[], string]> = [
        [[], 'non_field_errors'],
        [{ action: 'explode', ids: [a.id] }, 'action'],
        [{ action: 'set_visibility', visibility: 'hidden' }, 'ids'],
        [{ action: 'set_visibility', ids: [a.id], all_matching: {}, visibility: 'hidden' }, 'ids'],
        [{ action: 'set_visibility', ids: [], visibility: 'hidden' }, 'ids'],
        [{ action: 'set_visibility', ids: ['nope'], visibility: 'hidden' }, 'ids'],
        [{ action: 'set_visibility', ids: tooMany, visibility: 'hidden' }, 'ids'],
        [{ action: 'set_visibility', ids: [a.id] }, 'visibility'],
        [{ action: 'set_visibility', ids: [a.id], visibility: 'secret' }, 'visibility'],
        [{ action: 'set_visibility', all_matching: { colour: 'red' }, visibility: 'hidden' }, 'all_matching.colour'],
        [{ action: 'set_visibility', all_matching: { limit: '5' }, visibility: 'hidden' }, 'all_matching.limit'],
        [{ action: 'set_visibility', all_matching: { search: 5 }, visibility: 'hidden' }, 'all_matching.search'],
        [{ action: 'set_visibility', all_matching: 'everything', visibility: 'hidden' }, 'all_matching'],
        [{ action: 'delete', ids: [a.id], visibility: 'hidden' }, 'visibility'],
        [{ action: 'delete', ids: [a.id], format: 'csv' }, 'format'],
        [{ action: 'export', ids: [a.id], format: 'pdf' }, 'format'],
        [{ action: 'add_keywords', ids: [a.id], keywords: [] }, 'keywords'],
        [{ action: 'add_to_list', ids: [a.id], list: 'x' }, 'list'],
        [{ action: 'delete', ids: [a.id], confirm: true }, 'confirm'],
      ];
      for (const [payload, field] of cases) {
        const response = await call('admin', 'POST', `${ORGS}/bulk/`, payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 120)}: ${response.body}`);
        assert.ok(response.json().errors?.[field], `${field} expected in ${response.body}`);
      }
      assert.equal((await record(ORGS, a.id))['visibility'], 'public');
      const undo = await call('admin', 'POST', `${ORGS}/bulk/not-an-id/undo/`);
      assert.equal(undo.statusCode, 400);
      assert.ok(undo.json().errors.operationId, undo.body);
    });

    it('answers 400 naming all_matching when more rows match than one request may change', async () => {
      await t.db.withTenant({ tenantId: acme.id }, (tx) =>
        tx.execute(sql`INSERT INTO organizations (tenant_id, name_inc, visibility)
                       SELECT ${acme.id}, 'Capped ' || n, 'public' FROM generate_series(1, ${BULK_MAX_ROWS + 1}) AS n`));
      const response = await bulk(ORGS, { action: 'set_visibility', all_matching: { search: 'capped' }, visibility: 'hidden' });
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.json().errors['all_matching']);
      const hidden = (await call('admin', 'GET', `${ORGS}/?search=capped&visibility=hidden`)).json().count;
      assert.equal(hidden, 0);
    });
  });
});

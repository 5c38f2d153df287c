/**
 * The engine's relations, audit log and merges, through organizations,
 * people and keywords (the resources that exist in every build).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { multipart } from '../test/multipart.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';

const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';
const KEYWORDS = '/api/v1/keywords';
const LEDGER = '/api/v1/assets/ledger';
const INVESTMENTS = '/api/v1/assets/investments';

describe('relations, audit history and merges', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let admin: string;
  let research: string;
  let reader: string;
  let betaAdmin: string;

  const post = async (url: string, token: string, payload: Record<string, unknown>, tenant = acme) => {
    const response = await t.request(tenant, { method: 'POST', url: `${url}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Record<string, unknown> & { id: string };
  };
  const get = (url: string, token?: string, tenant = acme) => t.request(tenant, { method: 'GET', url, ...(token ? { token } : {}) });

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    const signedIn = await t.signInTwoTenants();
    ({ acme, beta } = signedIn);
    const { tokens } = signedIn;
    [admin, research, reader, betaAdmin] = [tokens['admin']!, tokens['research']!, tokens['paywall']!, tokens['beta']!];
  });
  after(() => t.close());

  describe('relation fields', () => {
    it('accepts ids or {id} objects and presents {id, display_name, kind}', async () => {
      const fintech = await post(KEYWORDS, admin, { name: 'Fintech' });
      const energy = await post(KEYWORDS, admin, { name: 'Energy' });
      const org = await post(ORGS, admin, { name_inc: 'Tagged Ltd', keywords: [fintech.id, { id: energy.id, display_name: 'ignored' }, fintech.id] });
      assert.deepEqual(org['keywords'], [
        { id: fintech.id, display_name: 'Fintech', kind: 'keyword' },
        { id: energy.id, display_name: 'Energy', kind: 'keyword' },
      ]);
      // GET → PATCH round trip keeps them.
      const patched = await t.request(acme, { method: 'PATCH', url: `${ORGS}/${org.id}/`, token: admin, payload: { keywords: org['keywords'] } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal((patched.json().keywords as unknown[]).length, 2);
    });

    it('refuses malformed ids, unknown ids and ids of another tenant, naming the field', async () => {
      const foreign = await post(KEYWORDS, betaAdmin, { name: 'Foreign' }, beta);
      for (const keywords of [['nope'], 'not-a-list', [crypto.randomUUID()], [foreign.id]]) {
        const response = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: admin, payload: { name_inc: 'Bad Refs', keywords } });
        assert.equal(response.statusCode, 400, JSON.stringify(keywords));
        assert.ok(response.json().errors.keywords, response.body);
      }
    });

    it('shows readers only the related records they may see; research users (curators) see and keep hidden ones', async () => {
      const visible = await post(KEYWORDS, admin, { name: 'Visible', visibility: 'public' });
      const secret = await post(KEYWORDS, admin, { name: 'Secret', visibility: 'hidden' });
      const org = await post(ORGS, admin, { name_inc: 'Mixed Refs', visibility: 'public', keywords: [visible.id, secret.id] });
      const asReader = (await get(`${ORGS}/${org.id}/`, reader)).json();
      assert.deepEqual(asReader.keywords.map((ref: { id: string }) => ref.id), [visible.id]);
      const asResearch = (await get(`${ORGS}/${org.id}/`, research)).json();
      assert.equal(asResearch.keywords.length, 2);
      const saved = await t.request(acme, { method: 'PATCH', url: `${ORGS}/${org.id}/`, token: research, payload: { keywords: asResearch.keywords, notes: 'edited' } });
      assert.equal(saved.statusCode, 200, saved.body);
      const asAdmin = (await get(`${ORGS}/${org.id}/`, admin)).json();
      assert.deepEqual(asAdmin.keywords.map((ref: { id: string }) => ref.id).sort(), [visible.id, secret.id].sort());
    });

    it('a research user links hidden records by id or by name; unknown ones are refused', async () => {
      const hidden = await post(KEYWORDS, admin, { name: 'Undisclosed', visibility: 'hidden' });
      const byId = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: research, payload: { name_inc: 'Probe Co', keywords: [hidden.id] } });
      assert.equal(byId.statusCode, 201, byId.body);
      const unknownId = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: research, payload: { name_inc: 'Probe Co', keywords: ['00000000-0000-4000-8000-000000000000'] } });
      assert.equal(unknownId.statusCode, 400, unknownId.body);
      assert.match(unknownId.json().errors.keywords[0], /Unknown keyword id/);
      const byName = await t.request(acme, {
        method: 'POST', url: `${ORGS}/upload/`, token: research, ...multipart('probe.csv', 'name,keywords\nProbe Two Co,Undisclosed\nProbe Three Co,Nonexistent\n'),
      });
      assert.equal(byName.statusCode, 400, byName.body);
      assert.deepEqual(byName.json().report.errors.map((error: { row: number }) => error.row), [3]);
      assert.match(byName.json().report.errors[0].message, /No keyword named "Nonexistent"/);
    });

    it('filters by a relation and offers only visible related records in available-filters', async () => {
      const open = await post(KEYWORDS, admin, { name: 'Open topic', visibility: 'public' });
      const closed = await post(KEYWORDS, admin, { name: 'Closed topic', visibility: 'hidden' });
      const org = await post(ORGS, admin, { name_inc: 'Filter Target', visibility: 'public', keywords: [open.id, closed.id] });
      const filtered = (await get(`${ORGS}/?keywords=${open.id}`, admin)).json();
      assert.deepEqual(filtered.results.map((row: { id: string }) => row.id), [org.id]);
      const filters = (await get(`${ORGS}/available-filters/`)).json().filters as Array<{ name: string; type: string; values: Array<{ value: string; label: string }> }>;
      const keywordFilter = filters.find((filter) => filter.name === 'keywords');
      assert.equal(keywordFilter?.type, 'relation');
      assert.ok(keywordFilter!.values.some((value) => value.value === open.id && value.label === 'Open topic'));
      assert.ok(!keywordFilter!.values.some((value) => value.value === closed.id), 'a hidden keyword must not leak');
    });

    it('removes a deleted record from every relation that points at it, in the same transaction', async () => {
      const doomed = await post(KEYWORDS, admin, { name: 'Doomed' });
      const org = await post(ORGS, admin, { name_inc: 'Loses A Keyword', keywords: [doomed.id] });
      const person = await post(PEOPLE, admin, { name_given: 'Kim', keywords: [doomed.id] });
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${KEYWORDS}/${doomed.id}/`, token: admin })).statusCode, 204);
      assert.deepEqual((await get(`${ORGS}/${org.id}/`, admin)).json().keywords, []);
      assert.deepEqual((await get(`${PEOPLE}/${person.id}/`, admin)).json().keywords, []);
    });

    it('exports related records by name in spreadsheets', async () => {
      const kw = await post(KEYWORDS, admin, { name: 'Exported keyword' });
      await post(ORGS, admin, { name_inc: 'Export Me', keywords: [kw.id] });
      const response = await get(`${ORGS}/?format=xlsx&search=Export%20Me`, admin);
      assert.equal(response.statusCode, 200);
      const { readSheet } = await import('read-excel-file/node');
      const rows = await readSheet(response.rawPayload);
      const header = rows[0]!.map(String);
      const row = rows.find((cells) => cells.includes('Export Me'))!;
      assert.equal(row[header.indexOf('keywords')], 'Exported keyword');
    });
  });

  describe('relations in spreadsheet imports', () => {
    const upload = (csv: string, query = '') =>
      t.request(acme, { method: 'POST', url: `${ORGS}/upload/${query}`, token: admin, ...multipart('orgs.csv', csv) });

    it('resolves related names back to records, ignoring case and accents', async () => {
      const kw = await post(KEYWORDS, admin, { name: 'Énergie verte' });
      const response = await upload('name,keywords\nImported Green Co,energie VERTE\n');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().created, 1);
      const [org] = (await get(`${ORGS}/?search=Imported%20Green`, admin)).json().results;
      assert.deepEqual(org.keywords.map((ref: { id: string }) => ref.id), [kw.id]);
      // An import writes history like any other write.
      const history = (await get(`${ORGS}/${org.id}/history/`, admin)).json().results;
      assert.equal(history[0].action, 'create');
    });

    it('reports unknown and ambiguous names per row and field, writing nothing', async () => {
      await post(KEYWORDS, admin, { name: 'Twin' });
      await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        const { sql } = await import('drizzle-orm');
        // Keyword names are unique ignoring case; an accent variant normalizes to the same search text.
        await tx.execute(sql`INSERT INTO keywords (tenant_id, name) VALUES (${acme.id}, 'Twín')`);
      });
      const response = await upload('name,keywords\nRow Two Co,No such keyword\nRow Three Co,twin\n');
      assert.equal(response.statusCode, 400, response.body);
      const errors = response.json().report.errors as Array<{ row: number; field: string; message: string }>;
      assert.deepEqual(errors.map((error) => [error.row, error.field]), [[2, 'keywords'], [3, 'keywords']]);
      assert.match(errors[0]!.message, /No keyword named "No such keyword"/);
      assert.match(errors[1]!.message, /Several records are named "twin"/);
      assert.equal((await get(`${ORGS}/?search=Row%20Two`, admin)).json().count, 0);
    });
  });

  describe('audit history', () => {
    it('records create, edit and delete with who and which fields changed; admins only', async () => {
      const org = await post(ORGS, research, { name_inc: 'Audited Inc', hq_city: 'Oslo' });
      await t.request(acme, { method: 'PATCH', url: `${ORGS}/${org.id}/`, token: admin, payload: { hq_city: 'Bergen' } });
      const history = await get(`${ORGS}/${org.id}/history/`, admin);
      assert.equal(history.statusCode, 200, history.body);
      const [edit, create] = history.json().results;
      assert.equal(edit.action, 'update');
      assert.equal(edit.user_email, 'admin@acme.test');
      assert.deepEqual(edit.changes, { hq_city: { from: 'Oslo', to: 'Bergen' } });
      assert.equal(create.action, 'create');
      assert.equal(create.user_email, 'research@acme.test');
      assert.equal(create.changes.name_inc.to, 'Audited Inc');

      assert.equal((await get(`${ORGS}/${org.id}/history/`, research)).statusCode, 403);
      assert.equal((await get(`${ORGS}/${org.id}/history/`)).statusCode, 401);
      assert.equal((await get(`${ORGS}/${org.id}/history/`, betaAdmin, beta)).statusCode, 404);

      assert.equal((await t.request(acme, { method: 'DELETE', url: `${ORGS}/${org.id}/`, token: admin })).statusCode, 204);
      const afterDelete = (await get(`${ORGS}/${org.id}/history/`, admin)).json().results;
      assert.equal(afterDelete[0].action, 'delete');
      assert.equal(afterDelete[0].changes.hq_city.from, 'Bergen');
    });

    it('answers 404 for a record that never existed, 400 naming the id for one that cannot exist', async () => {
      assert.equal((await get(`${ORGS}/${crypto.randomUUID()}/history/`, admin)).statusCode, 404);
      const malformed = await get(`${ORGS}/not-an-id/history/`, admin);
      assert.equal(malformed.statusCode, 400);
      assert.deepEqual(malformed.json().errors, { id: ['Must be the id of a record.'] });
    });
  });

  describe('merging duplicates', () => {
    it('previews both records field by field with the references that would move', async () => {
      const kw = await post(KEYWORDS, admin, { name: 'Merge preview kw' });
      const a = await post(ORGS, admin, { name_inc: 'Preview Co', hq_city: 'Rome', visibility: 'paywalled' });
      const b = await post(ORGS, admin, { name_inc: 'Preview Company', hq_city: 'Milan', keywords: [kw.id], visibility: 'paywalled' });
      const response = await get(`${ORGS}/${a.id}/merge-preview/?other=${b.id}`, research);
      assert.equal(response.statusCode, 200, response.body);
      const preview = response.json();
      const city = preview.fields.find((field: { name: string }) => field.name === 'hq_city');
      assert.deepEqual(city, { name: 'hq_city', survivor: 'Rome', other: 'Milan', differs: true });
      assert.equal(preview.other.id, b.id);
    });

    it('merges with a choice per field, moves references and list memberships, and can be undone', async () => {
      const survivor = await post(ORGS, admin, { name_inc: 'Acme Holdings', hq_city: 'Paris', emails: ['a@acme.example'], visibility: 'paywalled' });
      const other = await post(ORGS, admin, { name_inc: 'ACME Holdings Ltd', hq_city: 'Lyon', emails: ['b@acme.example'], notes: 'from the duplicate', visibility: 'paywalled' });
      const list = (await post('/api/v1/lists', admin, { kind: 'OrganizationsList', name: 'Watch' })).id;
      assert.equal((await t.request(acme, { method: 'PATCH', url: `${ORGS}/${other.id}/`, token: admin, payload: { lists: [list] } })).statusCode, 200);

      const merged = await t.request(acme, {
        method: 'POST', url: `${ORGS}/${survivor.id}/merge/`, token: research,
        payload: { other: other.id, choices: { hq_city: 'other' } },
      });
      assert.equal(merged.statusCode, 200, merged.body);
      const { record, audit_id: auditId } = merged.json();
      assert.equal(record.hq_city, 'Lyon');
      assert.equal(record.notes, 'from the duplicate', 'empty survivor fields take the other value');
      assert.deepEqual(record.emails.sort(), ['a@acme.example', 'b@acme.example'], 'lists keep both by default');
      assert.deepEqual(record.lists, [list]);
      assert.equal((await get(`${ORGS}/${other.id}/`, admin)).statusCode, 404);
      const history = (await get(`${ORGS}/${survivor.id}/history/`, admin)).json().results;
      assert.equal(history[0].action, 'merge');
      assert.equal(history[0].merged_id, other.id);

      const undone = await t.request(acme, { method: 'POST', url: `${ORGS}/merge/${auditId}/undo/`, token: research });
      assert.equal(undone.statusCode, 200, undone.body);
      const restoredOther = (await get(`${ORGS}/${other.id}/`, admin)).json();
      assert.equal(restoredOther.hq_city, 'Lyon');
      assert.deepEqual(restoredOther.lists, [list]);
      const restoredSurvivor = (await get(`${ORGS}/${survivor.id}/`, admin)).json();
      assert.equal(restoredSurvivor.hq_city, 'Paris');
      assert.equal(restoredSurvivor.notes, null);
      assert.deepEqual(restoredSurvivor.emails, ['a@acme.example']);
      assert.deepEqual(restoredSurvivor.lists, []);

      const again = await t.request(acme, { method: 'POST', url: `${ORGS}/merge/${auditId}/undo/`, token: research });
      assert.equal(again.statusCode, 409);
    });

    it('moves relations of other records (ledger entries, investments) to the survivor, and back on undo', async () => {
      const survivor = await post(ORGS, admin, { name_inc: 'Northwind' });
      const other = await post(ORGS, admin, { name_inc: 'Northwind Traders' });
      const bystander = await post(ORGS, admin, { name_inc: 'Contoso' });
      const both = await post(LEDGER, admin, { caption: 'Both referenced', organizations: [survivor.id, other.id] });
      const onlyOther = await post(LEDGER, admin, { caption: 'Other referenced', organizations: [bystander.id, other.id] });
      const stake = await post(INVESTMENTS, admin, { ledger_entry: onlyOther.id, owner: other.id });

      const preview = (await get(`${ORGS}/${survivor.id}/merge-preview/?other=${other.id}`, admin)).json();
      assert.deepEqual(preview.references, { ledger_entries: 2, investments: 1 });

      const merged = await t.request(acme, { method: 'POST', url: `${ORGS}/${survivor.id}/merge/`, token: admin, payload: { other: other.id } });
      assert.equal(merged.statusCode, 200, merged.body);
      const idsOf = async (url: string, field: string) => {
        const value = (await get(url, admin)).json()[field];
        return Array.isArray(value) ? value.map((ref: { id: string }) => ref.id) : value?.id;
      };
      assert.deepEqual(await idsOf(`${LEDGER}/${both.id}/`, 'organizations'), [survivor.id]);
      assert.deepEqual(await idsOf(`${LEDGER}/${onlyOther.id}/`, 'organizations'), [bystander.id, survivor.id]);
      assert.equal(await idsOf(`${INVESTMENTS}/${stake.id}/`, 'owner'), survivor.id);

      const undone = await t.request(acme, { method: 'POST', url: `${ORGS}/merge/${merged.json().audit_id}/undo/`, token: admin });
      assert.equal(undone.statusCode, 200, undone.body);
      assert.deepEqual((await idsOf(`${LEDGER}/${both.id}/`, 'organizations')).sort(), [survivor.id, other.id].sort());
      assert.deepEqual(await idsOf(`${LEDGER}/${onlyOther.id}/`, 'organizations'), [bystander.id, other.id]);
      assert.equal(await idsOf(`${INVESTMENTS}/${stake.id}/`, 'owner'), other.id);
    });

    it('refuses an undo after the survivor was edited, and bad merge requests with field errors', async () => {
      const a = await post(PEOPLE, admin, { name_given: 'Jo', name_family: 'Bloggs' });
      const b = await post(PEOPLE, admin, { name_given: 'Joe', name_family: 'Bloggs' });
      const bad = [
        { payload: { other: 'nope' }, field: 'other' },
        { payload: { other: a.id }, field: 'other' },
        { payload: { other: b.id, choices: { unknown_field: 'other' } }, field: 'choices' },
        { payload: { other: b.id, choices: { name_given: 'both' } }, field: 'choices' },
      ];
      for (const { payload, field } of bad) {
        const response = await t.request(acme, { method: 'POST', url: `${PEOPLE}/${a.id}/merge/`, token: admin, payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.ok(response.json().errors[field], response.body);
      }
      assert.equal((await t.request(acme, { method: 'POST', url: `${PEOPLE}/${a.id}/merge/`, token: reader, payload: { other: b.id } })).statusCode, 403);
      assert.equal((await t.request(beta, { method: 'POST', url: `${PEOPLE}/${a.id}/merge/`, token: betaAdmin, payload: { other: b.id } })).statusCode, 404);

      const merged = await t.request(acme, { method: 'POST', url: `${PEOPLE}/${a.id}/merge/`, token: admin, payload: { other: b.id } });
      assert.equal(merged.statusCode, 200, merged.body);
      await t.request(acme, { method: 'PATCH', url: `${PEOPLE}/${a.id}/`, token: admin, payload: { notes: 'changed after the merge' } });
      const undo = await t.request(acme, { method: 'POST', url: `${PEOPLE}/merge/${merged.json().audit_id}/undo/`, token: admin });
      assert.equal(undo.statusCode, 409, undo.body);
    });
  });
});

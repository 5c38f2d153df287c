import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { xlsx } from '../../test/xlsx.ts';
import { multipart } from './test-support.ts';

const BASE = '/api/v1/assets/investments';
const LEDGER = '/api/v1/assets/ledger';
const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';
const MISSING = '00000000-0000-0000-0000-000000000000';
const SECRET_NOTE = 'Zanzibar side letter';

type Ref = { id: string; display_name: string | null; kind: string } | null;
type Investment = Record<string, unknown> & { id: string; ledger_entry: Ref; owner: Ref; owner_person: Ref };

describe('investments API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const create = async (base: string, payload: Record<string, unknown>, token = tokens['admin'], tenant: TenantRow = acme) => {
    const response = await t.request(tenant, { method: 'POST', url: `${base}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Investment;
  };
  const list = (role: string, query = '') => t.request(acme, { method: 'GET', url: `${BASE}/${query}`, token: tokens[role] });
  const count = async () => (await list('admin')).json().count as number;
  const get = (role: string, id: string | undefined) => t.request(acme, { method: 'GET', url: `${BASE}/${id}/`, token: tokens[role] });

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    ({ acme, beta, tokens } = await t.signInTwoTenants());

    ids['acmeCapital'] = (await create(ORGS, { name_inc: 'Acme Capital', visibility: 'public' })).id;
    ids['otherFund'] = (await create(ORGS, { name_inc: 'Other Fund', visibility: 'public' })).id;
    ids['jane'] = (await create(PEOPLE, { name_given: 'Jane', name_family: 'Investor', visibility: 'public' })).id;
    ids['seed'] = (await create(LEDGER, { caption: 'Seed round', year: 2021, visibility: 'public' })).id;
    ids['series'] = (await create(LEDGER, { caption: 'Series B', year: 2023, visibility: 'paywalled' })).id;
    ids['betaEntry'] = (await create(LEDGER, { caption: 'Beta entry' }, tokens['beta'], beta)).id;
    ids['betaOrg'] = (await create(ORGS, { name_inc: 'Beta Org' }, tokens['beta'], beta)).id;

    for (const [key, body] of Object.entries({
      open: {
        ledger_entry: ids['seed'], owner: ids['acmeCapital'], inv_vehicle_type: 'VC', inv_currency: 'USD', ownership_percentage: 12.5,
        visibility: 'public', admin_notes: SECRET_NOTE, private_url: 'https://dataroom.example/acme', public_url: 'https://news.example/seed',
      },
      paid: { ledger_entry: ids['seed'], owner_person: ids['jane'], inv_vehicle_type: 'FA', inv_currency: 'EUR', visibility: 'paywalled', admin_notes: SECRET_NOTE },
      secret: { ledger_entry: ids['series'], owner: ids['acmeCapital'], inv_vehicle_type: 'PE', inv_currency: 'GBP', visibility: 'hidden' },
    })) {
      ids[key] = (await create(BASE, body)).id;
    }
  });
  after(() => t.close());

  describe('visibility on read', () => {
    const expected: Record<string, string[]> = {
      public: ['VC'],
      paywall: ['FA', 'VC'],
      research: ['FA', 'PE', 'VC'],
      admin: ['FA', 'PE', 'VC'],
    };
    for (const [role, types] of Object.entries(expected)) {
      it(`${role} lists exactly ${types.length} and counts them`, async () => {
        const response = await list(role, '?ordering=inv_vehicle_type');
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json().results.map((row: Investment) => row['inv_vehicle_type']), types);
        assert.equal(response.json().count, types.length);
      });
    }

    it('a row the caller may not see is a 404, as is an unknown id; a malformed id is a 400', async () => {
      for (const [role, id, status] of [
        ['public', ids['paid'], 404],
        ['paywall', ids['paid'], 200],
        ['paywall', ids['secret'], 404],
        ['research', ids['secret'], 200],
        ['admin', ids['secret'], 200],
        ['admin', MISSING, 404],
        ['admin', 'nope', 400],
      ] as const) {
        assert.equal((await get(role, id)).statusCode, status, `${role} ${id}`);
      }
    });

    it("another tenant's id is a 404 for read, patch and delete", async () => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await t.request(beta, {
          method, url: `${BASE}/${ids['open']}/`, token: tokens['beta'], ...(method === 'PATCH' ? { payload: { inv_risk: 'x' } } : {}),
        });
        assert.equal(response.statusCode, 404, method);
      }
    });

    it('presents the ledger entry and the owner by name, with the SPEC defaults', async () => {
      const body = (await get('public', ids['open'])).json() as Investment;
      assert.deepEqual(body.ledger_entry, { id: ids['seed'], display_name: 'Seed round', kind: 'ledger_entries' });
      assert.deepEqual(body.owner, { id: ids['acmeCapital'], display_name: 'Acme Capital', kind: 'organizations' });
      assert.equal(body.owner_person, null);
      assert.equal(body['ownership_percentage'], 12.5);
      assert.equal(body['display_name'], 'VC · USD · 12.5%');
      const defaults = await create(BASE, { ledger_entry: ids['seed'] });
      assert.equal(defaults['has_inv_vehicle'], false);
      assert.equal(defaults['owned'], false);
      assert.equal(defaults['show_on_dashboard'], false);
      assert.equal(defaults['visibility'], 'hidden');
      assert.equal(defaults['inv_date'], null);
      assert.deepEqual(defaults['keywords'], []);
      assert.equal(defaults['display_name'], 'Investment');
    });

    it('a reader who may not see the ledger entry gets no reference to it', async () => {
      const investment = await create(BASE, { ledger_entry: ids['series'], visibility: 'public' });
      const body = (await get('public', investment.id)).json() as Investment;
      assert.equal(body.ledger_entry, null);
      assert.deepEqual(((await get('paywall', investment.id)).json() as Investment).ledger_entry?.display_name, 'Series B');
    });
  });

  describe('restricted fields', () => {
    it('admin_notes reaches admins only, in GET and list', async () => {
      assert.equal((await get('admin', ids['open'])).json().admin_notes, SECRET_NOTE);
      for (const role of ['public', 'paywall', 'research']) {
        const one = await get(role, ids['open']);
        assert.equal(one.statusCode, 200);
        assert.ok(!('admin_notes' in one.json()), `${role} GET`);
        assert.ok(!one.body.includes(SECRET_NOTE), `${role} GET body`);
        const many = await list(role);
        assert.ok(!many.body.includes(SECRET_NOTE), `${role} list`);
        assert.ok(many.json().results.every((row: Investment) => !('admin_notes' in row)));
      }
      const adminList = (await list('admin', `?ledger_entry=${ids['seed']}`)).json().results as Investment[];
      assert.ok(adminList.some((row) => row['admin_notes'] === SECRET_NOTE));
    });

    it('admin_notes is not in the xlsx export of non-admins', async () => {
      for (const [role, included] of [['research', false], ['paywall', false], ['public', false], ['admin', true]] as const) {
        const response = await list(role, '?format=xlsx');
        assert.equal(response.statusCode, 200, response.body.slice(0, 300));
        const rows = await readSheet(response.rawPayload);
        const header = rows[0]!.map(String);
        assert.equal(header.includes('admin_notes'), included, role);
        assert.equal(rows.flat().some((cell) => String(cell).includes(SECRET_NOTE)), included, `${role} cells`);
      }
    });

    it('search and filters never match or reveal admin_notes', async () => {
      for (const role of ['research', 'admin']) {
        const response = await list(role, `?search=${encodeURIComponent('zanzibar')}`);
        assert.equal(response.statusCode, 200);
        assert.equal(response.json().count, 0, role);
      }
      assert.equal((await list('admin', '?admin_notes=x')).statusCode, 400);
      assert.equal((await list('admin', '?ordering=admin_notes')).statusCode, 400);
      const quick = await t.request(acme, { method: 'GET', url: '/api/v1/search/?q=zanzibar', token: tokens['research'] });
      assert.equal(quick.statusCode, 200);
      assert.deepEqual(quick.json().results, []);
      for (const role of ['public', 'research']) {
        const filters = await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/`, token: tokens[role] });
        assert.equal(filters.statusCode, 200);
        assert.ok(!filters.body.includes(SECRET_NOTE));
        assert.ok(!filters.json().filters.some((filter: { name: string }) => filter.name === 'admin_notes'));
      }
    });

    it('history, which carries admin_notes, is for admins only', async () => {
      for (const role of ['public', 'paywall', 'research']) {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/history/`, token: tokens[role] });
        assert.ok([401, 403].includes(response.statusCode), role);
        assert.ok(!response.body.includes(SECRET_NOTE));
      }
      const history = await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/history/`, token: tokens['admin'] });
      assert.equal(history.statusCode, 200);
      assert.equal(history.json().results[0].changes.admin_notes.to, SECRET_NOTE);
    });

    it('a research user cannot write admin_notes (400 naming it), on create, edit or import', async () => {
      const before = await count();
      const created = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: { ledger_entry: ids['seed'], admin_notes: 'mine' } });
      assert.equal(created.statusCode, 400);
      assert.ok(created.json().errors.admin_notes);
      assert.equal(await count(), before);
      const patched = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['research'], payload: { admin_notes: 'changed' } });
      assert.equal(patched.statusCode, 400);
      assert.ok(patched.json().errors.admin_notes);
      assert.equal((await get('admin', ids['open'])).json().admin_notes, SECRET_NOTE);
      const imported = await t.request(acme, {
        method: 'POST', url: `${BASE}/upload/`, token: tokens['research'], ...multipart('notes.xlsx', await xlsx([['ledger_entry', 'admin_notes'], ['Seed round', 'sneaky']])),
      });
      assert.equal(imported.statusCode, 400);
      assert.equal(imported.json().report.errors[0].field, 'admin_notes');
    });

    it('a research user edits the other fields and keeps the admin notes', async () => {
      const patched = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['research'], payload: { inv_risk: 'High' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.ok(!('admin_notes' in patched.json()));
      assert.equal((await get('admin', ids['open'])).json().admin_notes, SECRET_NOTE);
    });

    it('private_url reaches research users and admins, not paywall readers or the public', async () => {
      assert.equal((await get('research', ids['open'])).json().private_url, 'https://dataroom.example/acme');
      assert.equal((await get('admin', ids['open'])).json().private_url, 'https://dataroom.example/acme');
      for (const role of ['public', 'paywall']) {
        const response = await get(role, ids['open']);
        assert.ok(!('private_url' in response.json()), role);
        assert.ok(!response.body.includes('dataroom'), role);
        assert.equal(response.json().public_url, 'https://news.example/seed');
        assert.ok(!(await list(role, '?format=xlsx')).rawPayload.includes('dataroom'));
      }
      assert.equal((await list('paywall', '?search=dataroom')).json().count, 0);
    });
  });

  describe('writes', () => {
    it('need research or admin', async () => {
      const body = { ledger_entry: ids['seed'] };
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, payload: body })).statusCode, 401);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['paywall'], payload: body })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'] })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: body })).statusCode, 201);
    });

    it('normalizes the currency, vehicle type, percentage and incomplete date', async () => {
      const body = await create(BASE, {
        ledger_entry: ids['seed'], inv_currency: ' chf ', inv_vehicle_type: 'pe', ownership_percentage: '33.3333', inv_date: '2019-03', has_inv_vehicle: 'yes',
      }, tokens['research']);
      assert.equal(body['inv_currency'], 'CHF');
      assert.equal(body['inv_vehicle_type'], 'PE');
      assert.equal(body['ownership_percentage'], 33.3333);
      assert.equal(body['has_inv_vehicle'], true);
      assert.equal(body['inv_date'], '2019-03');
      assert.equal(body['inv_date_incomplete_day'], true);
      assert.equal(body['inv_date_incomplete_month'], false);
      for (const edge of [0, 100]) {
        assert.equal((await create(BASE, { ledger_entry: ids['seed'], ownership_percentage: edge }))['ownership_percentage'], edge);
      }
    });

    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no ledger entry', { inv_currency: 'USD' }, 'ledger_entry'],
      ['a null ledger entry', { ledger_entry: null }, 'ledger_entry'],
      ['an unknown ledger entry', { ledger_entry: MISSING }, 'ledger_entry'],
      ['a ledger entry that is not an id', { ledger_entry: 'Seed round' }, 'ledger_entry'],
      ['an organization as the ledger entry', { ledger_entry: 'ORG' }, 'ledger_entry'],
      ['a made-up currency', { inv_currency: 'XYZ' }, 'inv_currency'],
      ['a currency name instead of its code', { inv_currency: 'Euro' }, 'inv_currency'],
      ['a currency that is not text', { inv_currency: 840 }, 'inv_currency'],
      ['an unknown vehicle type', { inv_vehicle_type: 'LBO' }, 'inv_vehicle_type'],
      ['a negative percentage', { ownership_percentage: -1 }, 'ownership_percentage'],
      ['a percentage over 100', { ownership_percentage: 100.5 }, 'ownership_percentage'],
      ['a percentage that is not a number', { ownership_percentage: 'half' }, 'ownership_percentage'],
      ['a percentage with five decimals', { ownership_percentage: 1.23456 }, 'ownership_percentage'],
      ['an impossible date', { inv_date: '2019-02-30' }, 'inv_date'],
      ['a date that is not a date', { inv_date: 'soon' }, 'inv_date'],
      ['an unknown owner', { owner: MISSING }, 'owner'],
      ['a person as the owner organization', { owner: 'PERSON' }, 'owner'],
      ['owners given as a list', { owner: ['ORG'] }, 'owner'],
      ['an unknown owner person', { owner_person: MISSING }, 'owner_person'],
      ['both an organization and a person as owners', { owner: 'ORG', owner_person: 'PERSON' }, 'owner_person'],
      ['a public URL with another scheme', { public_url: 'javascript:alert(1)' }, 'public_url'],
      ['a bad private URL', { private_url: 'not a url' }, 'private_url'],
      ['a non-boolean owned flag', { owned: 'maybe' }, 'owned'],
      ['a bad visibility', { visibility: 'secret' }, 'visibility'],
      ['a risk too long', { inv_risk: 'x'.repeat(101) }, 'inv_risk'],
      ['an unknown keyword', { keywords: [MISSING] }, 'keywords'],
      ['an unknown field', { colour: 'red' }, 'colour'],
    ];
    for (const [what, payload, field] of bad) {
      it(`rejects ${what} with a 400 naming ${field}, writing nothing`, async () => {
        const swap = (value: unknown): unknown =>
          Array.isArray(value) ? value.map(swap) : value === 'ORG' ? ids['acmeCapital'] : value === 'PERSON' ? ids['jane'] : value;
        // Every case but those about the ledger entry itself names a valid one.
        const body = { ...(field === 'ledger_entry' ? {} : { ledger_entry: ids['seed'] }), ...Object.fromEntries(Object.entries(payload).map(([name, value]) => [name, swap(value)])) };
        const before = await count();
        const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: body });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
        assert.equal(await count(), before);
      });
    }

    it("another tenant's ledger entry, organization or person is an unknown id", async () => {
      for (const [field, id] of [['ledger_entry', ids['betaEntry']], ['owner', ids['betaOrg']]] as const) {
        const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { ledger_entry: ids['seed'], [field]: id } });
        assert.equal(response.statusCode, 400, field);
        assert.match(response.json().errors[field][0], /^Unknown /);
      }
    });

    it('an edit that would give an organization-held investment a person owner too is refused', async () => {
      const response = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['admin'], payload: { owner_person: ids['jane'] } });
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().errors.owner_person);
      const swapped = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['paid']}/`, token: tokens['admin'], payload: { owner_person: null, owner: ids['otherFund'] } });
      assert.equal(swapped.statusCode, 200, swapped.body);
      assert.equal(swapped.json().owner.display_name, 'Other Fund');
      const back = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['paid']}/`, token: tokens['admin'], payload: { owner: null, owner_person: ids['jane'] } });
      assert.equal(back.statusCode, 200, back.body);
    });

    it('a ledger entry cannot be cleared', async () => {
      const response = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['admin'], payload: { ledger_entry: null } });
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().errors.ledger_entry);
    });
  });

  describe('list parameters', () => {
    it('filters by ledger entry, owner, owner person, vehicle type and currency', async () => {
      const types = async (query: string, role = 'admin') => {
        const response = await list(role, `${query}&ordering=inv_vehicle_type`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json().results.map((row: Investment) => row['inv_vehicle_type']);
      };
      assert.deepEqual(await types(`?owner=${ids['acmeCapital']}`), ['PE', 'VC']);
      assert.deepEqual(await types(`?owner=${ids['acmeCapital']}`, 'public'), ['VC']);
      assert.deepEqual(await types(`?owner_person=${ids['jane']}`), ['FA']);
      assert.deepEqual(await types(`?ledger_entry=${ids['series']}&inv_vehicle_type=PE`), ['PE']);
      assert.deepEqual(await types('?inv_currency=EUR,GBP'), ['FA', 'PE']);
    });

    const badParams: Array<[string, string]> = [
      ['?inv_currency=XYZ', 'inv_currency'],
      ['?inv_vehicle_type=LBO', 'inv_vehicle_type'],
      ['?owner=acme', 'owner'],
      ['?ledger_entry=1', 'ledger_entry'],
      ['?private_url=x', 'private_url'],
    ];
    for (const [queryString, parameter] of badParams) {
      it(`${queryString} → 400 naming ${parameter}`, async () => {
        const response = await list('admin', queryString);
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[parameter], response.body);
      });
    }

    it('available-filters names owners and entries the caller may see', async () => {
      const response = await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/` });
      const filters = response.json().filters as Array<{ name: string; values: Array<{ label?: string; value: unknown }> }>;
      const labels = (name: string) => filters.find((filter) => filter.name === name)!.values.map((entry) => entry.label ?? entry.value);
      assert.deepEqual(labels('owner'), ['Acme Capital']);
      assert.ok(!labels('ledger_entry').includes('Series B'));
      assert.deepEqual(labels('inv_currency'), ['USD']);
    });

    it('GET resources/ offers ISO 4217 currencies and marks the restricted fields', async () => {
      const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<{ kind: string; fields: Array<{ name: string; choices: string[] | null; read_access: string; write_access: string }> }>;
      const fields = meta.find((resource) => resource.kind === 'investments')!.fields;
      const currency = fields.find((field) => field.name === 'inv_currency')!;
      assert.ok(currency.choices!.includes('USD') && currency.choices!.includes('JPY') && currency.choices!.length > 150);
      const notes = fields.find((field) => field.name === 'admin_notes')!;
      assert.deepEqual([notes.read_access, notes.write_access], ['admin', 'admin']);
      assert.equal(fields.find((field) => field.name === 'private_url')!.read_access, 'research');
    });
  });

  describe('spreadsheets', () => {
    it('the export writes the ledger entry and owner by name, and the import resolves them back', async () => {
      const exported = await list('admin', `?format=xlsx&ledger_entry=${ids['seed']}&inv_vehicle_type=VC`);
      const rows = await readSheet(exported.rawPayload);
      const header = rows[0]!.map(String);
      const row = Object.fromEntries(header.map((name, index) => [name, rows[1]![index]]));
      assert.equal(row['ledger_entry'], 'Seed round');
      assert.equal(row['owner'], 'Acme Capital');
      assert.equal(row['inv_currency'], 'USD');

      const file = await xlsx([
        ['ledger entry', 'organization', 'person', 'currency', 'vehicle type', 'percentage', 'date'],
        ['Series B', 'other fund', null, 'jpy', 'PE', 5, '2020'],
        ['Seed round', null, 'Jane Investor', 'EUR', 'VC', null, null],
      ]);
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/upload/`, token: tokens['admin'], ...multipart('investments.xlsx', file) });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual([response.json().created, response.json().failed], [2, 0]);
      const imported = (await list('admin', '?inv_currency=JPY')).json().results as Investment[];
      assert.equal(imported.length, 1);
      assert.equal(imported[0]!.ledger_entry!.id, ids['series']);
      assert.equal(imported[0]!.owner!.id, ids['otherFund']);
      assert.equal(imported[0]!['inv_date'], '2020');
    });

    it('unknown names, ambiguous names, bad currencies and two owners are per-row errors; nothing is written', async () => {
      await create(LEDGER, { caption: 'Twin entry' });
      await create(LEDGER, { caption: 'Twin entry', year: 1999 });
      const before = await count();
      const file = await xlsx([
        ['ledger_entry', 'owner', 'owner_person', 'inv_currency', 'ownership_percentage'],
        ['Seed round', 'Acme Capital', null, 'USD', 10],
        ['No such entry', null, null, 'USD', null],
        ['Twin entry', null, null, 'USD', null],
        ['Seed round', 'Nobody Ltd', null, 'USD', null],
        ['Seed round', null, null, 'Dollars', null],
        ['Seed round', null, null, 'USD', 150],
        ['Seed round', 'Acme Capital', 'Jane Investor', 'USD', null],
      ]);
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/upload/`, token: tokens['admin'], ...multipart('bad.xlsx', file) });
      assert.equal(response.statusCode, 400, response.body);
      const errors = response.json().report.errors as Array<{ row: number; field: string; message: string }>;
      assert.deepEqual(errors.map((error) => [error.row, error.field]), [
        [3, 'ledger_entry'], [4, 'ledger_entry'], [5, 'owner'], [6, 'inv_currency'], [7, 'ownership_percentage'], [8, 'owner_person'],
      ]);
      assert.match(errors[1]!.message, /Several records are named "Twin entry"/);
      assert.equal(await count(), before);
    });
  });

  describe('delete', () => {
    it('deleting a ledger entry deletes its investments in the same transaction, each audited', async () => {
      const entry = await create(LEDGER, { caption: 'Doomed entry', visibility: 'public' });
      const first = await create(BASE, { ledger_entry: entry.id, owner: ids['acmeCapital'], visibility: 'public' });
      const second = await create(BASE, { ledger_entry: entry.id, owner_person: ids['jane'] }, tokens['research']);
      const kept = (await list('admin')).json().count as number;
      const deleted = await t.request(acme, { method: 'DELETE', url: `${LEDGER}/${entry.id}/`, token: tokens['research'] });
      assert.equal(deleted.statusCode, 204);
      for (const id of [first.id, second.id]) assert.equal((await get('admin', id)).statusCode, 404);
      assert.equal(await count(), kept - 2);
      assert.equal((await list('admin', `?owner=${ids['acmeCapital']}`)).json().results.some((row: Investment) => row.id === first.id), false);
      const history = (await t.request(acme, { method: 'GET', url: `${BASE}/${first.id}/history/`, token: tokens['admin'] })).json();
      assert.deepEqual(history.results.map((item: { action: string }) => item.action), ['delete', 'create']);
      const counters = await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        const result = (await tx.execute(sql`SELECT coalesce(sum(count), 0)::int AS n FROM entity_counters WHERE kind = 'investments'`)) as unknown as { rows: Array<{ n: number }> };
        return result.rows[0]!.n;
      });
      assert.equal(counters, kept - 2, 'counters follow the cascade');
    });

    it('deleting an owner clears it from its investments, which stay', async () => {
      const org = await create(ORGS, { name_inc: 'Gone Holdings' });
      const investment = await create(BASE, { ledger_entry: ids['seed'], owner: org.id });
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${ORGS}/${org.id}/`, token: tokens['admin'] })).statusCode, 204);
      const after = (await get('admin', investment.id)).json() as Investment;
      assert.equal(after.owner, null);
    });

    it('an investment can be deleted on its own', async () => {
      const investment = await create(BASE, { ledger_entry: ids['seed'] });
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${investment.id}/`, token: tokens['paywall'] })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${investment.id}/`, token: tokens['research'] })).statusCode, 204, 'hidden, and a curator deletes it');
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${investment.id}/`, token: tokens['admin'] })).statusCode, 404);
      assert.equal((await get('admin', ids['seed'])).statusCode, 404, 'a ledger entry id is not an investment');
      assert.equal((await t.request(acme, { method: 'GET', url: `${LEDGER}/${ids['seed']}/`, token: tokens['admin'] })).statusCode, 200);
    });
  });
});

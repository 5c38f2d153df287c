import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { xlsx } from '../../test/xlsx.ts';
import { multipart } from './test-support.ts';

const BASE = '/api/v1/assets/ledger';
const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';
const KEYWORDS = '/api/v1/keywords';
const MISSING = '00000000-0000-0000-0000-000000000000';

type Ref = { id: string; display_name: string | null; kind: string };
type Entry = Record<string, unknown> & { id: string; organizations: Ref[]; people: Ref[]; keywords: Ref[] };

describe('ledger entries API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const create = async (base: string, payload: Record<string, unknown>, token = tokens['admin'], tenant: TenantRow = acme) => {
    const response = await t.request(tenant, { method: 'POST', url: `${base}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Entry;
  };
  const list = (role: string, query = '') => t.request(acme, { method: 'GET', url: `${BASE}/${query}`, token: tokens[role] });
  const count = async () => (await list('admin')).json().count as number;

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    ({ acme, beta, tokens } = await t.signInTwoTenants());

    ids['acmeCapital'] = (await create(ORGS, { name_inc: 'Acme Capital', visibility: 'public' })).id;
    ids['hiddenFund'] = (await create(ORGS, { name_inc: 'Hidden Fund', visibility: 'hidden' })).id;
    ids['jane'] = (await create(PEOPLE, { name_given: 'Jane', name_family: 'Investor', visibility: 'public' })).id;
    ids['fintech'] = (await create(KEYWORDS, { name: 'fintech' })).id;
    // Geos are shared by every tenant and written by tenant managers only.
    ids['germany'] = await t.db.withTenant({ tenantId: null, manageTenants: true }, async (tx) => {
      const result = (await tx.execute(sql`INSERT INTO geos (name, code) VALUES ('Germany', 'DE') RETURNING id`)) as unknown as { rows: Array<{ id: string }> };
      return result.rows[0]!.id;
    });
    ids['betaOrg'] = (await create(ORGS, { name_inc: 'Beta Org', visibility: 'public' }, tokens['beta'], beta)).id;

    for (const [key, body] of Object.entries({
      open: { caption: 'Open revenue', symbol: 'OPN', year: 2021, quarter: 'Q2', visibility: 'public', organizations: [ids['acmeCapital'], ids['hiddenFund']], people: [ids['jane']], geos: [ids['germany']], keywords: [ids['fintech']] },
      paid: { caption: 'Paid margin', symbol: 'PAY', year: 2020, quarter: 'Q4', visibility: 'paywalled', data: 'Gross margin 41%' },
      secret: { caption: 'Secret round', year: 2022, visibility: 'hidden', organizations: [ids['hiddenFund']] },
    })) {
      ids[key] = (await create(BASE, body)).id;
    }
  });
  after(() => t.close());

  describe('visibility on read', () => {
    const expected: Record<string, string[]> = {
      public: ['Open revenue'],
      paywall: ['Open revenue', 'Paid margin'],
      research: ['Open revenue', 'Paid margin', 'Secret round'],
      admin: ['Open revenue', 'Paid margin', 'Secret round'],
    };
    for (const [role, captions] of Object.entries(expected)) {
      it(`${role} lists exactly ${captions.length} entries and counts them`, async () => {
        const response = await list(role, '?ordering=caption');
        assert.equal(response.statusCode, 200);
        const body = response.json();
        assert.deepEqual(body.results.map((row: Entry) => row['caption']), captions);
        assert.equal(body.count, captions.length);
      });
    }

    it('a row the caller may not see is a 404 (a 403 paywalled for a visitor), as is an unknown id; a malformed id is a 400', async () => {
      for (const [role, id, status] of [
        // A visitor is told a paywalled record is locked, and given nothing of it (docs/engine.md "Paywalled records").
        ['public', ids['paid'], 403],
        ['public', ids['open'], 200],
        ['paywall', ids['paid'], 200],
        ['paywall', ids['secret'], 404],
        ['paywall', ids['secret'], 404],
        ['research', ids['secret'], 200],
        ['admin', ids['secret'], 200],
        ['admin', MISSING, 404],
        ['admin', 'not-a-uuid', 400],
      ] as const) {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/${id}/`, token: tokens[role] });
        assert.equal(response.statusCode, status, `${role} ${id}`);
      }
    });

    it('related records are names, and only those the reader may see', async () => {
      const forPublic = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/` })).json() as Entry;
      assert.deepEqual(forPublic.organizations.map((ref) => ref.display_name), ['Acme Capital']);
      assert.deepEqual(forPublic.people.map((ref) => ref.display_name), ['Jane Investor']);
      assert.deepEqual(forPublic.keywords.map((ref) => [ref.display_name, ref.kind]), [['fintech', 'keyword']]);
      assert.deepEqual((forPublic['geos'] as Ref[]).map((ref) => [ref.display_name, ref.kind]), [['Germany', 'geos']]);
      const forAdmin = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['admin'] })).json() as Entry;
      assert.deepEqual(forAdmin.organizations.map((ref) => ref.display_name).sort(), ['Acme Capital', 'Hidden Fund']);
    });

    it("another tenant's id is a 404 for read, patch, delete and history", async () => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await t.request(beta, {
          method,
          url: `${BASE}/${ids['open']}/`,
          token: tokens['beta'],
          ...(method === 'PATCH' ? { payload: { caption: 'x' } } : {}),
        });
        assert.equal(response.statusCode, 404, method);
      }
      const history = await t.request(beta, { method: 'GET', url: `${BASE}/${ids['open']}/history/`, token: tokens['beta'] });
      assert.equal(history.statusCode, 404);
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['admin'] })).json().caption, 'Open revenue');
    });
  });

  describe('writes', () => {
    it('need research or admin', async () => {
      const body = { caption: 'Nope' };
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, payload: body })).statusCode, 401);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['paywall'], payload: body })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'], payload: body })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'] })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${ids['open']}/` })).statusCode, 401);
      const byResearch = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: { caption: 'By research', year: 2019 } });
      assert.equal(byResearch.statusCode, 201, byResearch.body);
    });

    it('new entries get the SPEC defaults: quarter Q1, hidden, no year or order, empty relations', async () => {
      const body = await create(BASE, { symbol: 'DEF' });
      assert.equal(body['quarter'], 'Q1');
      assert.equal(body['visibility'], 'hidden');
      assert.equal(body['show_on_dashboard'], false);
      assert.equal(body['year'], null);
      assert.equal(body['order'], null);
      assert.equal(body['url'], null);
      assert.deepEqual([body.organizations, body.people, body['geos'], body.keywords], [[], [], [], []]);
      assert.deepEqual(body['lists'], []);
      assert.equal(body['display_name'], 'DEF');
      assert.ok(body['updated_by']);
    });

    it('normalizes input: the quarter ignores case, numbers may be strings, the URL gains a scheme', async () => {
      const body = await create(BASE, { caption: '  Spaced   caption ', quarter: 'q3', year: '2018', order: '-2', url: 'example.com/report' });
      assert.equal(body['caption'], 'Spaced caption');
      assert.equal(body['quarter'], 'Q3');
      assert.equal(body['year'], 2018);
      assert.equal(body['order'], -2);
      assert.equal(body['url'], 'https://example.com/report');
    });

    it('the name is the caption, else the symbol, else the start of the data', async () => {
      assert.equal((await create(BASE, { caption: 'Cap', symbol: 'SYM' }))['display_name'], 'Cap');
      assert.equal((await create(BASE, { data: 'Only data here' }))['display_name'], 'Only data here');
    });

    it('PATCH changes only the fields sent and is audited', async () => {
      const created = await create(BASE, { caption: 'Patchy', data: 'keep me', year: 2001, visibility: 'paywalled' });
      const patched = await t.request(acme, { method: 'PATCH', url: `${BASE}/${created.id}/`, token: tokens['research'], payload: { year: 2002, quarter: 'Q4' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().year, 2002);
      assert.equal(patched.json().quarter, 'Q4');
      assert.equal(patched.json().data, 'keep me');
      const history = await t.request(acme, { method: 'GET', url: `${BASE}/${created.id}/history/`, token: tokens['admin'] });
      assert.equal(history.statusCode, 200);
      const [latest] = history.json().results;
      assert.equal(latest.action, 'update');
      assert.deepEqual(latest.changes.year, { from: 2001, to: 2002 });
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${created.id}/history/`, token: tokens['research'] })).statusCode, 403);
    });

    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no caption, symbol or data', { year: 2020 }, 'caption'],
      ['blank names', { caption: ' ', symbol: '', data: '' }, 'caption'],
      ['a caption that is not text', { caption: 42 }, 'caption'],
      ['a caption too long', { caption: 'x'.repeat(301) }, 'caption'],
      ['a symbol too long', { symbol: 'x'.repeat(101) }, 'symbol'],
      ['data too long', { data: 'x'.repeat(20_001) }, 'data'],
      ['a year before 1000', { caption: 'A', year: 999 }, 'year'],
      ['a year after 9999', { caption: 'A', year: 10_000 }, 'year'],
      ['a year that is not a number', { caption: 'A', year: 'twenty' }, 'year'],
      ['a fractional year', { caption: 'A', year: 2020.5 }, 'year'],
      ['an unknown quarter', { caption: 'A', quarter: 'Q5' }, 'quarter'],
      ['a cleared quarter', { caption: 'A', quarter: null }, 'quarter'],
      ['a quarter that is a number', { caption: 'A', quarter: 1 }, 'quarter'],
      ['a fractional order', { caption: 'A', order: 1.5 }, 'order'],
      ['a URL with another scheme', { caption: 'A', url: 'ftp://files.example.com/x' }, 'url'],
      ['a URL that is not text', { caption: 'A', url: ['https://a.example'] }, 'url'],
      ['an unknown organization id', { caption: 'A', organizations: [MISSING] }, 'organizations'],
      ['organizations that are not ids', { caption: 'A', organizations: ['Acme Capital'] }, 'organizations'],
      ['organizations not a list', { caption: 'A', organizations: 'x' }, 'organizations'],
      ['a keyword given as an organization', { caption: 'A', organizations: ['KEYWORD'] }, 'organizations'],
      ['an unknown person id', { caption: 'A', people: [MISSING] }, 'people'],
      ['an organization id given as a person', { caption: 'A', people: ['ORG'] }, 'people'],
      ['an unknown geo id', { caption: 'A', geos: [MISSING] }, 'geos'],
      ['a keyword given as a geo', { caption: 'A', geos: ['KEYWORD'] }, 'geos'],
      ['an unknown keyword id', { caption: 'A', keywords: [MISSING] }, 'keywords'],
      ['a bad visibility', { caption: 'A', visibility: 'secret' }, 'visibility'],
      ['a non-boolean flag', { caption: 'A', show_on_dashboard: 'perhaps' }, 'show_on_dashboard'],
      ['an unknown field', { caption: 'A', colour: 'red' }, 'colour'],
      ['an unknown list', { caption: 'A', lists: [MISSING] }, 'lists'],
    ];
    for (const [what, payload, field] of bad) {
      it(`rejects ${what} with a 400 naming ${field}, writing nothing`, async () => {
        const resolved = Object.fromEntries(
          Object.entries(payload).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.map((item) => (item === 'KEYWORD' ? ids['fintech'] : item === 'ORG' ? ids['acmeCapital'] : item)) : value,
          ]),
        );
        const before = await count();
        const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: resolved });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
        assert.equal(await count(), before);
      });
    }

    it("another tenant's organization is an unknown id", async () => {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { caption: 'A', organizations: [ids['betaOrg']] } });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().errors.organizations[0], /Unknown organization id/);
    });

    it('PATCH that would leave no name, or clear the quarter, is refused', async () => {
      const cleared = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['secret']}/`, token: tokens['admin'], payload: { caption: null } });
      assert.equal(cleared.statusCode, 400);
      assert.ok(cleared.json().errors.caption);
      const quarter = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['secret']}/`, token: tokens['admin'], payload: { quarter: '' } });
      assert.equal(quarter.statusCode, 400);
      assert.ok(quarter.json().errors.quarter);
    });

    it('a research user (a curator) sees an entry\'s hidden organization and keeps it when saving the entry', async () => {
      const shown = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['research'] })).json() as Entry;
      assert.equal(shown.organizations.length, 2);
      const forPaywall = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'] })).json() as Entry;
      assert.deepEqual(forPaywall.organizations.map((ref) => ref.display_name), ['Acme Capital']);
      const saved = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['research'], payload: { organizations: shown.organizations } });
      assert.equal(saved.statusCode, 200, saved.body);
      const forAdmin = (await t.request(acme, { method: 'GET', url: `${BASE}/${ids['open']}/`, token: tokens['admin'] })).json() as Entry;
      assert.equal(forAdmin.organizations.length, 2);
    });

    it('deleting an organization removes it from the entries that name it', async () => {
      const org = await create(ORGS, { name_inc: 'Short Lived' });
      const entry = await create(BASE, { caption: 'Names it', organizations: [org.id, ids['acmeCapital']] });
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${ORGS}/${org.id}/`, token: tokens['admin'] })).statusCode, 204);
      const after = (await t.request(acme, { method: 'GET', url: `${BASE}/${entry.id}/`, token: tokens['admin'] })).json() as Entry;
      assert.deepEqual(after.organizations.map((ref) => ref.id), [ids['acmeCapital']]);
    });

    it('an entry can be put in a ledger list', async () => {
      const listId = await t.db.withTenant({ tenantId: acme.id }, async (tx) => {
        const result = (await tx.execute(sql`INSERT INTO lists (tenant_id, kind, name, slug) VALUES (${acme.id}, 'LedgerList', 'Q watch', 'q-watch') RETURNING id`)) as unknown as { rows: Array<{ id: string }> };
        return result.rows[0]!.id;
      });
      const entry = await create(BASE, { caption: 'Listed', lists: [listId] });
      assert.deepEqual((entry['lists_as_item'] as Array<{ slug: string }>).map((item) => item.slug), ['q-watch']);
    });
  });

  describe('list parameters', () => {
    it('filters by year, quarter and related records', async () => {
      const captions = async (query: string, role = 'admin') => {
        const response = await list(role, `${query}&ordering=caption`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json().results.map((row: Entry) => row['caption']);
      };
      assert.deepEqual(await captions('?year=2021'), ['Open revenue']);
      assert.deepEqual(await captions('?year=2020,2022'), ['Paid margin', 'Secret round']);
      assert.deepEqual(await captions('?quarter=Q4&year=2020'), ['Paid margin']);
      assert.deepEqual(await captions(`?organizations=${ids['hiddenFund']}`), ['Open revenue', 'Secret round']);
      // A filter matches only through records the caller may see: a hidden one's id matches nothing.
      assert.deepEqual(await captions(`?organizations=${ids['hiddenFund']}`, 'public'), []);
      assert.deepEqual(await captions(`?people=${ids['jane']}`), ['Open revenue']);
      assert.deepEqual(await captions(`?keywords=${ids['fintech']}`), ['Open revenue']);
      assert.deepEqual(await captions(`?geos=${ids['germany']}`, 'public'), ['Open revenue']);
    });

    it('searches caption, symbol and data', async () => {
      for (const [term, expected] of [['margin 41', 'Paid margin'], ['opn', 'Open revenue']] as const) {
        const response = await list('paywall', `?search=${encodeURIComponent(term)}`);
        assert.deepEqual(response.json().results.map((row: Entry) => row['caption']), [expected], term);
      }
    });

    it('orders by year, quarter and order', async () => {
      const response = await list('admin', '?ordering=-year,quarter&year=2020,2021,2022');
      assert.deepEqual(response.json().results.map((row: Entry) => row['year']), [2022, 2021, 2020]);
      assert.equal((await list('admin', '?ordering=order,caption')).statusCode, 200);
    });

    const badParams: Array<[string, string]> = [
      ['?year=twenty', 'year'],
      ['?year=99999999999999', 'year'],
      ['?quarter=Q9', 'quarter'],
      ['?organizations=not-an-id', 'organizations'],
      ['?people=1', 'people'],
      ['?ordering=data', 'ordering'],
      ['?url=x', 'url'],
    ];
    for (const [queryString, parameter] of badParams) {
      it(`${queryString} → 400 naming ${parameter}`, async () => {
        const response = await list('admin', queryString);
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[parameter], response.body);
      });
    }

    it('available-filters offers years, quarters and related records the caller may see', async () => {
      const filters = async (role: string) => {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/`, token: tokens[role] });
        assert.equal(response.statusCode, 200);
        return response.json().filters as Array<{ name: string; type: string; values: Array<{ value: unknown; label?: string }> }>;
      };
      const forPublic = await filters('public');
      // The declared filters, then the fields that only compare (amount, order).
      assert.deepEqual(forPublic.map((filter) => filter.name), ['visibility', 'show_on_dashboard', 'year', 'quarter', 'currency', 'organizations', 'people', 'geos', 'keywords', 'amount', 'order']);
      const years = (name: string, all: typeof forPublic) => all.find((filter) => filter.name === name)!.values.map((entry) => entry.label ?? entry.value);
      assert.deepEqual(years('year', forPublic), [2021]);
      assert.deepEqual(years('organizations', forPublic), ['Acme Capital']);
      const forAdmin = await filters('admin');
      assert.ok(years('year', forAdmin).includes(2022));
      assert.ok(years('organizations', forAdmin).includes('Hidden Fund'));
    });

    it('ledger entries are counted per visibility on the home cards', async () => {
      const counts = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/free-ahead-entities-count/' })).json();
      const publicCount = (await list('public')).json().count;
      const paywallCount = (await list('paywall')).json().count;
      assert.deepEqual(counts.ledger_entries, { public_count: publicCount, paywall_count: paywallCount - publicCount });
      assert.ok(paywallCount > publicCount);
    });

    it('GET resources/ describes the ledger entry and its fields to the web app', async () => {
      const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<{ kind: string; path: string; list_kind: string | null; fields: Array<{ name: string; kind: string; default: unknown; choices: string[] | null }> }>;
      const ledger = meta.find((resource) => resource.kind === 'ledger_entries')!;
      assert.equal(ledger.path, '/assets/ledger');
      assert.equal(ledger.list_kind, 'LedgerList');
      const quarter = ledger.fields.find((field) => field.name === 'quarter')!;
      assert.deepEqual([quarter.default, quarter.choices], ['Q1', ['Q1', 'Q2', 'Q3', 'Q4']]);
      assert.equal(ledger.fields.find((field) => field.name === 'url')!.kind, 'url');
    });
  });

  describe('spreadsheets', () => {
    it('the export writes related records by name, only those the reader may see', async () => {
      const exported = async (role: string) => {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/?format=xlsx&ordering=caption&year=2021`, token: tokens[role] });
        assert.equal(response.statusCode, 200, response.body.slice(0, 300));
        const rows = await readSheet(response.rawPayload);
        const header = rows[0]!.map(String);
        return rows.slice(1).map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]])));
      };
      const [forAdmin] = await exported('admin');
      assert.equal(forAdmin!['caption'], 'Open revenue');
      assert.deepEqual(String(forAdmin!['organizations']).split('; ').sort(), ['Acme Capital', 'Hidden Fund']);
      assert.equal(forAdmin!['people'], 'Jane Investor');
      assert.equal(forAdmin!['keywords'], 'fintech');
      assert.equal(forAdmin!['geos'], 'Germany');
      const [forPublic] = await exported('public');
      assert.equal(forPublic!['organizations'], 'Acme Capital');
    });

    // An admin imports: names resolve only to records the importer may see, and some here are hidden.
    const upload = (file: Buffer, query = '') =>
      t.request(acme, { method: 'POST', url: `${BASE}/upload/${query}`, token: tokens['admin'], ...multipart('ledger.xlsx', file) });

    it('the import resolves names back to records, and matches rows to entries only by id', async () => {
      const file = await xlsx([
        ['caption', 'ticker', 'year', 'quarter', 'organizations', 'person', 'country', 'tags'],
        ['Imported one', 'IMP', 2015, 'q2', 'acme capital', 'Jane Investor', 'germany', 'FinTech'],
        ['Imported one', 'IMP', 2016, 'Q3', 'Acme Capital; Hidden Fund', null, null, null],
      ]);
      const response = await upload(file);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().created, 2, 'same caption in another year is another entry');
      const imported = (await list('admin', '?search=imported&ordering=year')).json().results as Entry[];
      assert.deepEqual(imported.map((row) => [row['year'], row['quarter']]), [[2015, 'Q2'], [2016, 'Q3']]);
      assert.deepEqual(imported[0]!.organizations.map((ref) => ref.id), [ids['acmeCapital']]);
      assert.deepEqual(imported[0]!.people.map((ref) => ref.id), [ids['jane']]);
      assert.deepEqual(imported[0]!.keywords.map((ref) => ref.id), [ids['fintech']]);
      assert.deepEqual((imported[0]!['geos'] as Ref[]).map((ref) => ref.id), [ids['germany']]);
      assert.equal(imported[1]!.organizations.length, 2);

      // Imported entries are hidden, which only admins may see and so update.
      const byId = await t.request(acme, {
        method: 'POST', url: `${BASE}/upload/`, token: tokens['admin'], ...multipart('by-id.xlsx', await xlsx([['id', 'data'], [imported[0]!.id, 'Updated by id']])),
      });
      assert.equal(byId.statusCode, 200, byId.body);
      assert.deepEqual([byId.json().created, byId.json().updated], [0, 1]);
    });

    it('unknown and ambiguous names are per-row errors, and nothing is written', async () => {
      await create(ORGS, { name_inc: 'Twin Holdings' });
      await create(ORGS, { name_inc: 'Twin Holdings', hq_city: 'Elsewhere' });
      const before = await count();
      const file = await xlsx([
        ['caption', 'organizations'],
        ['Good row', 'Acme Capital'],
        ['Unknown org', 'Nobody Ltd'],
        ['Ambiguous org', 'Twin Holdings'],
      ]);
      const response = await upload(file);
      assert.equal(response.statusCode, 400, response.body);
      const report = response.json().report;
      assert.deepEqual(
        report.errors.map((error: { row: number; field: string }) => [error.row, error.field]),
        [[3, 'organizations'], [4, 'organizations']],
      );
      assert.match(report.errors[0].message, /No organization named "Nobody Ltd"/);
      assert.match(report.errors[1].message, /Several records are named "Twin Holdings"/);
      assert.equal(await count(), before);

      const partial = await upload(await xlsx([['caption', 'year'], ['Kept', 2001], ['Bad year', 'MMXX']]), '?partial=true');
      assert.equal(partial.statusCode, 200, partial.body);
      assert.deepEqual([partial.json().created, partial.json().failed], [1, 1]);
      assert.equal(partial.json().errors[0].field, 'year');
    });
  });

  describe('amount and currency', () => {
    it('are written, checked, compared, ordered and filtered', async () => {
      const seed = { visibility: 'public', symbol: 'AMT' };
      const small = await create(BASE, { ...seed, caption: 'Small amount', amount: 1500.5, currency: 'eur' });
      const large = await create(BASE, { ...seed, caption: 'Large amount', amount: '2300000000', currency: 'USD' });
      const none = await create(BASE, { ...seed, caption: 'No amount' });
      assert.deepEqual([small['amount'], small['currency']], [1500.5, 'EUR']);
      assert.deepEqual([large['amount'], none['amount'], none['currency']], [2_300_000_000, null, null]);
      // The largest amount an entry holds, to the cent.
      const edge = await create(BASE, { ...seed, caption: 'Edge amount', amount: 1e15 });
      assert.equal(edge['amount'], 1e15);

      for (const [amount, message] of [[-1, /at least 0/], [1.005, /at most 2 decimal places/], [1e15 + 1, /at most 1000000000000000/], ['lots', /Must be a number/]] as const) {
        const refused = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { caption: 'Bad', amount } });
        assert.equal(refused.statusCode, 400, refused.body);
        assert.match(refused.json().errors.amount[0], message);
      }
      const badCurrency = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['admin'], payload: { caption: 'Bad', currency: 'Euro' } });
      assert.equal(badCurrency.statusCode, 400);
      assert.ok(badCurrency.json().errors.currency);

      const captions = async (query: string) => {
        const response = await list('public', `?search=AMT&${query}`);
        assert.equal(response.statusCode, 200, response.body);
        return response.json().results.map((row: Entry) => row['caption']);
      };
      assert.deepEqual(await captions('ordering=-amount'), ['Edge amount', 'Large amount', 'Small amount', 'No amount']);
      assert.deepEqual(await captions('ordering=amount&amount__gt=1500.5'), ['Large amount', 'Edge amount']);
      assert.deepEqual(await captions('ordering=amount&amount__gte=1500.50&amount__lt=1000000000'), ['Small amount']);
      assert.deepEqual(await captions('amount__empty=true'), ['No amount']);
      assert.deepEqual(await captions('ordering=amount&currency=USD,EUR'), ['Small amount', 'Large amount']);
      assert.deepEqual(await captions('ordering=amount&currency__not=USD'), ['Small amount', 'Edge amount', 'No amount']);
      const bad = await list('public', '?amount__gt=ten');
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(Object.keys(bad.json().errors), ['amount__gt']);
      assert.equal((await list('public', '?currency=EURO')).statusCode, 400);

      const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<{ kind: string; lookups: Record<string, string[]>; fields: Array<{ name: string; kind: string; choices: string[] | null; max: number | null }> }>;
      const ledger = meta.find((resource) => resource.kind === 'ledger_entries')!;
      const amount = ledger.fields.find((field) => field.name === 'amount')!;
      assert.deepEqual([amount.kind, amount.max], ['decimal', 1e15]);
      assert.ok(ledger.fields.find((field) => field.name === 'currency')!.choices!.includes('CHF'));
      assert.deepEqual(ledger.lookups['amount'], ['gt', 'gte', 'lt', 'lte', 'empty']);
      assert.deepEqual(ledger.lookups['currency'], ['is', 'not', 'empty']);
    });
  });

  describe('delete', () => {
    it('is a hard delete, audited, and removes the entry from lists', async () => {
      const entry = await create(BASE, { caption: 'Doomed entry', visibility: 'public' });
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${entry.id}/`, token: tokens['research'] })).statusCode, 204);
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${entry.id}/`, token: tokens['admin'] })).statusCode, 404);
      const history = (await t.request(acme, { method: 'GET', url: `${BASE}/${entry.id}/history/`, token: tokens['admin'] })).json();
      assert.deepEqual(history.results.map((item: { action: string }) => item.action), ['delete', 'create']);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${entry.id}/`, token: tokens['admin'] })).statusCode, 404);
    });
  });
});

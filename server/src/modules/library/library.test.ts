import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { LIBRARY_TYPES } from './library.resource.ts';

const BASE = '/api/v1/library';
const PEOPLE = '/api/v1/assets/people';
const ORGS = '/api/v1/assets/organizations';
const KEYWORDS = '/api/v1/keywords';
const LEDGER = '/api/v1/assets/ledger';
const PAYWALL_LINK = 'https://paywall.example.com/reports/sealed-report-2024';
const MISSING = '00000000-0000-4000-8000-000000000000';

type Json = Record<string, unknown> & { id: string };
type Ref = { id: string; display_name: string | null; kind: string };

function multipart(filename: string, content: string) {
  const boundary = `----library${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('library API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const create = async (url: string, payload: Record<string, unknown>, token = tokens['admin'], tenant = acme): Promise<Json> => {
    const response = await t.request(tenant, { method: 'POST', url: `${url}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Json;
  };
  const get = (role: string, id: string) => t.request(acme, { method: 'GET', url: `${BASE}/${id}/`, token: tokens[role] });
  const list = async (role: string, queryString = '') => {
    const response = await t.request(acme, { method: 'GET', url: `${BASE}/${queryString}`, token: tokens[role] });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; results: Json[] };
  };
  const titles = (page: { results: Json[] }) => page.results.map((row) => row['title']);
  const exportRows = async (role: string, queryString = '') => {
    const response = await t.request(acme, { method: 'GET', url: `${BASE}/?format=xlsx${queryString}`, token: tokens[role] });
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    return readSheet(response.rawPayload);
  };
  const upload = (csv: string, role = 'research', partial = false) =>
    t.request(acme, { method: 'POST', url: `${BASE}/upload/${partial ? '?partial=true' : ''}`, token: tokens[role], ...multipart('library.csv', csv) });
  const countRows = async (table: string, condition: ReturnType<typeof sql>) =>
    t.db.withTenant({ tenantId: acme.id }, async (tx) => (await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${condition}`))[0]!.n);

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    ({ acme, beta, tokens } = await t.signInTwoTenants());

    ids['ada'] = (await create(PEOPLE, { name_given: 'Ada', name_family: 'Lovelace', visibility: 'public' })).id;
    ids['ghost'] = (await create(PEOPLE, { name_given: 'Ghost', name_family: 'Writer', visibility: 'hidden' })).id;
    ids['acmeCorp'] = (await create(ORGS, { name_inc: 'Acme Corp', visibility: 'public' })).id;
    ids['shell'] = (await create(ORGS, { name_inc: 'Shell Holdings', visibility: 'hidden' })).id;
    ids['fintech'] = (await create(KEYWORDS, { name: 'Fintech', visibility: 'public' })).id;
    ids['revenue'] = (await create(LEDGER, { caption: 'Acme revenue 2024', year: 2024, visibility: 'public' })).id;
    ids['betaPerson'] = (await create(PEOPLE, { name_given: 'Beta', name_family: 'Person', visibility: 'public' }, tokens['beta'], beta)).id;

    ids['open'] = (await create(BASE, {
      title: 'Open Banking Report',
      abstract: 'How open banking changes payments.',
      publish_date: '2024-03',
      publisher: 'Financial Times',
      public_link: 'ft.com/open-banking',
      paywall_link: PAYWALL_LINK,
      publish_frequency: 'Annual',
      type: 'Report',
      is_fav: true,
      authors: [ids['ada'], ids['ghost']],
      assets: [ids['acmeCorp'], ids['shell'], ids['revenue']],
      keywords: [ids['fintech']],
      dataset_info: 'Survey of 400 banks',
      visibility: 'public',
    })).id;
    ids['paid'] = (await create(BASE, { title: 'Paid Book On Markets', type: 'Book', publisher: 'Penguin', publish_date: '2019', visibility: 'paywalled', paywall_link: 'https://paywall.example.com/book' })).id;
    ids['secret'] = (await create(BASE, { title: 'Secret Memo', type: 'Deck/Memo/Presentation', publisher: 'Internal', visibility: 'hidden' })).id;
  });
  after(() => t.close());

  describe('visibility on read', () => {
    const expected: Record<string, string[]> = {
      public: ['Open Banking Report'],
      paywall: ['Open Banking Report', 'Paid Book On Markets'],
      research: ['Open Banking Report', 'Paid Book On Markets', 'Secret Memo'],
      admin: ['Open Banking Report', 'Paid Book On Markets', 'Secret Memo'],
    };
    for (const [role, names] of Object.entries(expected)) {
      it(`${role} lists exactly ${names.length} and counts them`, async () => {
        const page = await list(role, '?ordering=title');
        assert.deepEqual(titles(page), names);
        assert.equal(page.count, names.length);
      });
    }

    it('a row the caller may not see is a 404 (a 403 paywalled for a visitor), as is an unknown id; a malformed id is a 400', async () => {
      for (const [role, id, status] of [
        // A visitor is told a paywalled record is locked, and given nothing of it (docs/engine.md "Paywalled records").
        ['public', ids['paid'], 403],
        ['public', ids['secret'], 404],
        ['paywall', ids['paid'], 200],
        ['paywall', ids['secret'], 404],
        ['paywall', ids['secret'], 404],
        ['research', ids['secret'], 200],
        ['admin', ids['secret'], 200],
        ['admin', MISSING, 404],
        ['admin', 'not-a-uuid', 400],
      ] as const) {
        const response = await get(role, id!);
        assert.equal(response.statusCode, status, `${role} ${id}`);
        if (status === 404) assert.equal(response.json().detail, 'Library entry not found.');
      }
    });

    it("another tenant's id is a 404 for read, patch, delete and history", async () => {
      for (const [method, suffix] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['GET', 'history/']] as const) {
        const response = await t.request(beta, {
          method,
          url: `${BASE}/${ids['open']}/${suffix}`,
          token: tokens['beta'],
          ...(method === 'PATCH' ? { payload: { title: 'Stolen' } } : {}),
        });
        assert.equal(response.statusCode, 404, `${method} ${suffix}`);
      }
      assert.equal((await get('admin', ids['open']!)).json().title, 'Open Banking Report');
    });

    it('related records are shown only when the reader may see them', async () => {
      const names = (refs: Ref[]) => refs.map((ref) => ref.display_name);
      const forPublic = (await get('public', ids['open']!)).json();
      assert.deepEqual(forPublic.authors, [{ id: ids['ada'], display_name: 'Ada Lovelace', kind: 'people' }]);
      assert.deepEqual(forPublic.assets, [
        { id: ids['acmeCorp'], display_name: 'Acme Corp', kind: 'organizations' },
        { id: ids['revenue'], display_name: 'Acme revenue 2024', kind: 'ledger_entries' },
      ]);
      assert.deepEqual(forPublic.keywords, [{ id: ids['fintech'], display_name: 'Fintech', kind: 'keyword' }]);
      const forAdmin = (await get('admin', ids['open']!)).json();
      assert.deepEqual(names(forAdmin.authors), ['Ada Lovelace', 'Ghost Writer']);
      assert.deepEqual(names(forAdmin.assets), ['Acme Corp', 'Shell Holdings', 'Acme revenue 2024']);
    });
  });

  describe('the paywall link', () => {
    it('is never in a GET or a list for a public visitor', async () => {
      const record = (await get('public', ids['open']!)).json();
      assert.ok(!('paywall_link' in record), JSON.stringify(record));
      assert.equal(record.public_link, 'https://ft.com/open-banking');
      const page = await list('public');
      assert.ok(page.results.length > 0);
      for (const row of page.results) assert.ok(!('paywall_link' in row));
      const raw = await t.request(acme, { method: 'GET', url: `${BASE}/`, token: undefined });
      assert.ok(!raw.body.includes('paywall.example.com'));
    });

    for (const role of ['paywall', 'research', 'admin']) {
      it(`is returned to ${role} readers, in GET and list`, async () => {
        assert.equal((await get(role, ids['open']!)).json().paywall_link, PAYWALL_LINK);
        const row = (await list(role, '?ordering=title')).results.find((entry) => entry.id === ids['open']);
        assert.equal(row!['paywall_link'], PAYWALL_LINK);
      });
    }

    it('is not a column of the public xlsx export, and is one of a paywall reader’s', async () => {
      const rows = await exportRows('public');
      assert.ok(!rows[0]!.includes('paywall_link'));
      assert.ok(rows[0]!.includes('public_link'));
      assert.ok(!JSON.stringify(rows).includes('paywall.example.com'));
      const readerRows = await exportRows('paywall', '&ordering=title');
      const column = readerRows[0]!.indexOf('paywall_link');
      assert.ok(column >= 0);
      assert.equal(readerRows[1]![column], PAYWALL_LINK);
    });

    it('cannot be searched, filtered or ordered on', async () => {
      for (const role of ['public', 'paywall', 'admin']) {
        assert.equal((await list(role, '?search=sealed-report')).count, 0, `${role}: list search`);
        const quick = await t.request(acme, { method: 'GET', url: '/api/v1/search/?q=sealed-report-2024', token: tokens[role] });
        assert.equal(quick.statusCode, 200);
        assert.deepEqual(quick.json().results, [], `${role}: quick search`);
      }
      const filtered = await t.request(acme, { method: 'GET', url: `${BASE}/?paywall_link=${encodeURIComponent(PAYWALL_LINK)}` });
      assert.equal(filtered.statusCode, 400);
      assert.ok(filtered.json().errors.paywall_link);
      const ordered = await t.request(acme, { method: 'GET', url: `${BASE}/?ordering=paywall_link` });
      assert.equal(ordered.statusCode, 400);
      assert.ok(ordered.json().errors.ordering);
    });

    it('is not in the available filters nor in a quick-search result', async () => {
      const filters = await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/` });
      assert.equal(filters.statusCode, 200);
      assert.ok(!filters.body.includes('paywall'), filters.body);
      const quick = await t.request(acme, { method: 'GET', url: '/api/v1/search/?q=open%20banking' });
      assert.deepEqual(quick.json().results, [{ id: ids['open'], type: 'LibraryEntry', display_name: 'Open Banking Report', slug: null }]);
    });

    it("is not among a public library list's items for a public visitor, and is for a paywall reader", async () => {
      const made = await t.request(acme, { method: 'POST', url: '/api/v1/lists/', token: tokens['research'], payload: { kind: 'LibraryList', name: 'Open Reading', visibility: 'public' } });
      assert.equal(made.statusCode, 201, made.body);
      const listId = made.json().id as string;
      const added = await t.request(acme, { method: 'POST', url: `/api/v1/lists/${listId}/items/`, token: tokens['research'], payload: { id: ids['open'] } });
      assert.equal(added.statusCode, 201, added.body);
      const items = (role: string) => t.request(acme, { method: 'GET', url: `/api/v1/lists/${listId}/items/`, token: tokens[role] });
      const forPublic = await items('public');
      assert.equal(forPublic.statusCode, 200, forPublic.body);
      assert.deepEqual(forPublic.json().results.map((row: Json) => row.id), [ids['open']]);
      assert.ok(!forPublic.body.includes('paywall'), forPublic.body);
      assert.equal((await items('paywall')).json().results[0].paywall_link, PAYWALL_LINK);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `/api/v1/lists/${listId}/`, token: tokens['research'] })).statusCode, 204);
    });

    it('is not written by a paywall reader, who may not write at all', async () => {
      const response = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'], payload: { paywall_link: 'https://evil.test/' } });
      assert.equal(response.statusCode, 403);
      assert.equal((await get('admin', ids['open']!)).json().paywall_link, PAYWALL_LINK);
    });
  });

  describe('writes', () => {
    it('need research or admin', async () => {
      const body = { title: 'Nope' };
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, payload: body })).statusCode, 401);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['paywall'], payload: body })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'], payload: body })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${ids['open']}/`, token: tokens['paywall'] })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${BASE}/${ids['open']}/` })).statusCode, 401);
      assert.equal((await t.request(acme, { method: 'POST', url: `${BASE}/upload/`, token: tokens['paywall'], ...multipart('x.csv', 'title\nX\n') })).statusCode, 403);
      const made = await create(BASE, { title: 'Research Note' }, tokens['research']);
      assert.equal(made['title'], 'Research Note');
    });

    it('new entries get the SPEC defaults and record who wrote them', async () => {
      const body = await create(BASE, { title: 'Defaults Only' }, tokens['research']);
      assert.deepEqual(
        Object.fromEntries(['abstract', 'publish_date', 'publisher', 'public_link', 'paywall_link', 'publish_frequency', 'type', 'is_fav', 'authors', 'assets', 'keywords', 'lists', 'show_on_dashboard', 'dataset_info', 'visibility'].map((key) => [key, body[key]])),
        {
          abstract: null, publish_date: null, publisher: null, public_link: null, paywall_link: null, publish_frequency: null, type: null,
          is_fav: false, authors: [], assets: [], keywords: [], lists: [], show_on_dashboard: false, dataset_info: null, visibility: 'hidden',
        },
      );
      assert.equal(body['publish_date_incomplete_day'], false);
      assert.equal(body['display_name'], 'Defaults Only');
      assert.ok(body['updated_by']);
      assert.ok(body['created_at'] && body['updated_at']);
    });

    it('stores every field, normalized', async () => {
      const body = await create(BASE, {
        title: '  Podcast   about   payments ',
        abstract: 'Line one\n\nLine two',
        publish_date: '--06',
        publisher: 'BBC',
        public_link: 'bbc.co.uk/sounds/payments',
        paywall_link: 'HTTPS://Members.BBC.co.uk/p',
        publish_frequency: 'Weekly',
        type: 'podcast',
        is_fav: 'yes',
        authors: [{ id: ids['ada'], display_name: 'whatever the client sends' }],
        assets: [ids['acmeCorp']],
        keywords: [ids['fintech'], ids['fintech']],
        show_on_dashboard: true,
        dataset_info: 'None',
        visibility: 'paywalled',
      });
      assert.equal(body['title'], 'Podcast about payments');
      assert.equal(body['abstract'], 'Line one\n\nLine two');
      assert.equal(body['publish_date'], '--06');
      assert.deepEqual([body['publish_date_incomplete_day'], body['publish_date_incomplete_month'], body['publish_date_incomplete_year']], [true, false, true]);
      assert.equal(body['public_link'], 'https://bbc.co.uk/sounds/payments');
      assert.equal(body['paywall_link'], 'https://members.bbc.co.uk/p');
      assert.equal(body['type'], 'Podcast');
      assert.equal(body['is_fav'], true);
      assert.deepEqual((body['authors'] as Ref[]).map((ref) => ref.display_name), ['Ada Lovelace']);
      assert.deepEqual((body['keywords'] as Ref[]).map((ref) => ref.id), [ids['fintech']]);
      assert.equal(body['show_on_dashboard'], true);
      assert.equal(body['visibility'], 'paywalled');
      const again = (await get('paywall', body.id)).json();
      assert.equal(again.publish_date, '--06');
      assert.equal(again.paywall_link, 'https://members.bbc.co.uk/p');
    });

    it('accepts each of the 15 types exactly as SPEC writes them', async () => {
      assert.equal(LIBRARY_TYPES.length, 15);
      const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<{ kind: string; fields: Array<{ name: string; choices: string[] | null }> }>;
      const typeField = meta.find((resource) => resource.kind === 'library')!.fields.find((field) => field.name === 'type')!;
      assert.deepEqual(typeField.choices, [...LIBRARY_TYPES]);
      for (const type of LIBRARY_TYPES) {
        const body = await create(BASE, { title: `Typed ${type}`, type });
        assert.equal(body['type'], type);
      }
    });

    it('PATCH changes only the fields sent; clearing a link or relation works', async () => {
      const made = await create(BASE, { title: 'Patchy', publisher: 'Keep Me', public_link: 'https://patchy.test/', authors: [ids['ada']], visibility: 'paywalled' });
      const patched = await t.request(acme, { method: 'PATCH', url: `${BASE}/${made.id}/`, token: tokens['research'], payload: { type: 'Essay/Thoughts/Whitepaper/Opinion/Post', public_link: '', authors: [] } });
      assert.equal(patched.statusCode, 200, patched.body);
      const body = patched.json();
      assert.equal(body.type, 'Essay/Thoughts/Whitepaper/Opinion/Post');
      assert.equal(body.publisher, 'Keep Me');
      assert.equal(body.public_link, null);
      assert.deepEqual(body.authors, []);
      assert.ok(body.updated_at >= made['updated_at']!);
    });

    it('a research user sees hidden authors too, and editing an entry keeps them', async () => {
      const made = await create(BASE, { title: 'Mixed Authors', authors: [ids['ada'], ids['ghost']], visibility: 'public' });
      const seen = (await get('research', made.id)).json();
      assert.deepEqual(seen.authors.map((ref: Ref) => ref.id).sort(), [ids['ada'], ids['ghost']].sort());
      const patched = await t.request(acme, { method: 'PATCH', url: `${BASE}/${made.id}/`, token: tokens['research'], payload: { authors: seen.authors, title: 'Mixed Authors 2' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual((await get('admin', made.id)).json().authors.map((ref: Ref) => ref.id).sort(), [ids['ada'], ids['ghost']].sort());
    });

    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no title', { abstract: 'x' }, 'title'],
      ['a blank title', { title: '   ' }, 'title'],
      ['a title that is not text', { title: 42 }, 'title'],
      ['a title too long', { title: 'x'.repeat(501) }, 'title'],
      ['an abstract that is not text', { title: 'A', abstract: ['x'] }, 'abstract'],
      ['an abstract too long', { title: 'A', abstract: 'x'.repeat(20_001) }, 'abstract'],
      ['an impossible publish date', { title: 'A', publish_date: '2019-02-30' }, 'publish_date'],
      ['a publish date that is not a date', { title: 'A', publish_date: 'last spring' }, 'publish_date'],
      ['a publisher too long', { title: 'A', publisher: 'x'.repeat(301) }, 'publisher'],
      ['a public link that is not a web address', { title: 'A', public_link: 'ftp://files.test/x' }, 'public_link'],
      ['a public link that is not text', { title: 'A', public_link: ['https://a.test/'] }, 'public_link'],
      ['a paywall link that is not a web address', { title: 'A', paywall_link: 'not a url at all' }, 'paywall_link'],
      ['a publish frequency too long', { title: 'A', publish_frequency: 'x'.repeat(101) }, 'publish_frequency'],
      ['an unknown type', { title: 'A', type: 'Blog' }, 'type'],
      ['a non-boolean favourite', { title: 'A', is_fav: 'perhaps' }, 'is_fav'],
      ['authors not a list', { title: 'A', authors: 'Ada' }, 'authors'],
      ['an author that is not an id', { title: 'A', authors: ['Ada Lovelace'] }, 'authors'],
      ['an unknown author id', { title: 'A', authors: [MISSING] }, 'authors'],
      ['an organization as author', { title: 'A', authors: ['@acmeCorp'] }, 'authors'],
      ["another tenant's person as author", { title: 'A', authors: ['@betaPerson'] }, 'authors'],
      ['a person as asset', { title: 'A', assets: ['@ada'] }, 'assets'],
      ['an unknown asset id', { title: 'A', assets: [MISSING] }, 'assets'],
      ['a keyword that does not exist', { title: 'A', keywords: [MISSING] }, 'keywords'],
      ['a non-boolean dashboard flag', { title: 'A', show_on_dashboard: 'sometimes' }, 'show_on_dashboard'],
      ['dataset info that is not text', { title: 'A', dataset_info: { rows: 3 } }, 'dataset_info'],
      ['a bad visibility', { title: 'A', visibility: 'secret' }, 'visibility'],
      ['an unknown field', { title: 'A', colour: 'red' }, 'colour'],
      ['an unknown list', { title: 'A', lists: [MISSING] }, 'lists'],
      ['lists that are not ids', { title: 'A', lists: ['watch'] }, 'lists'],
    ];
    for (const [what, payload, field] of bad) {
      it(`rejects ${what} with a 400 naming ${field}, writing nothing`, async () => {
        const resolved = Object.fromEntries(
          Object.entries(payload).map(([key, value]) => [
            key,
            Array.isArray(value) ? value.map((item) => (typeof item === 'string' && item.startsWith('@') ? ids[item.slice(1)] : item)) : value,
          ]),
        );
        const before = (await list('admin')).count;
        const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: resolved });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
        assert.equal((await list('admin')).count, before);
      });
    }

    it('a PATCH that would clear the title is refused; a bad PATCH changes nothing', async () => {
      for (const payload of [{ title: null }, { title: '' }, { title: 'Fine', type: 'Blog' }]) {
        const response = await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['research'], payload });
        assert.equal(response.statusCode, 400, response.body);
      }
      assert.equal((await get('admin', ids['open']!)).json().title, 'Open Banking Report');
    });

    it('rejects a body that is not an object', async () => {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: tokens['research'], payload: ['title'] });
      assert.equal(response.statusCode, 400);
    });

    it('deleting an author or asset removes it from the entry', async () => {
      const author = await create(PEOPLE, { name_given: 'Short', name_family: 'Lived', visibility: 'public' });
      const org = await create(ORGS, { name_inc: 'Gone Soon Ltd', visibility: 'public' });
      const entry = await create(BASE, { title: 'Orphaned', authors: [author.id, ids['ada']], assets: [org.id] });
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${PEOPLE}/${author.id}/`, token: tokens['admin'] })).statusCode, 204);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${ORGS}/${org.id}/`, token: tokens['admin'] })).statusCode, 204);
      const after = (await get('admin', entry.id)).json();
      assert.deepEqual(after.authors.map((ref: Ref) => ref.id), [ids['ada']]);
      assert.deepEqual(after.assets, []);
    });

    it('DELETE removes the entry and its list memberships; the audit log keeps its history', async () => {
      const listId = await t.db.withTenant({ tenantId: acme.id }, async (tx) =>
        (await query<{ id: string }>(tx, sql`INSERT INTO lists (tenant_id, kind, name, slug) VALUES (${acme.id}, 'LibraryList', 'Reading', 'reading') RETURNING id`))[0]!.id,
      );
      const orgList = await t.db.withTenant({ tenantId: acme.id }, async (tx) =>
        (await query<{ id: string }>(tx, sql`INSERT INTO lists (tenant_id, kind, name, slug) VALUES (${acme.id}, 'OrganizationsList', 'Orgs', 'orgs') RETURNING id`))[0]!.id,
      );
      const made = await create(BASE, { title: 'Doomed Entry', visibility: 'public' }, tokens['research']);
      const wrongKind = await t.request(acme, { method: 'PATCH', url: `${BASE}/${made.id}/`, token: tokens['research'], payload: { lists: [orgList] } });
      assert.equal(wrongKind.statusCode, 400);
      assert.ok(wrongKind.json().errors.lists);
      const withList = await t.request(acme, { method: 'PATCH', url: `${BASE}/${made.id}/`, token: tokens['research'], payload: { lists: [listId] } });
      assert.equal(withList.statusCode, 200, withList.body);
      assert.deepEqual(withList.json().lists, [listId]);
      assert.deepEqual(withList.json().lists_as_item, [{ id: listId, name: 'Reading', slug: 'reading', kind: 'LibraryList' }]);

      const deleted = await t.request(acme, { method: 'DELETE', url: `${BASE}/${made.id}/`, token: tokens['research'] });
      assert.equal(deleted.statusCode, 204);
      assert.equal((await get('admin', made.id)).statusCode, 404);
      assert.equal(await countRows('list_items', sql`library_entry_id = ${made.id}`), 0);

      const history = await t.request(acme, { method: 'GET', url: `${BASE}/${made.id}/history/`, token: tokens['admin'] });
      assert.equal(history.statusCode, 200);
      assert.deepEqual(history.json().results.map((entry: { action: string }) => entry.action), ['delete', 'update', 'create']);
      assert.equal((await t.request(acme, { method: 'GET', url: `${BASE}/${made.id}/history/`, token: tokens['research'] })).statusCode, 403);
    });
  });

  describe('list parameters', () => {
    it('filters by type, publisher, favourite, authors, assets and keywords', async () => {
      assert.deepEqual(titles(await list('paywall', '?type=Book')), ['Paid Book On Markets']);
      assert.deepEqual(titles(await list('paywall', '?type=Book,Report&ordering=title')), ['Open Banking Report', 'Paid Book On Markets']);
      assert.deepEqual(titles(await list('admin', `?publisher=${encodeURIComponent('Financial Times')}`)), ['Open Banking Report']);
      assert.ok(titles(await list('admin', '?is_fav=true')).includes('Open Banking Report'));
      assert.ok(!titles(await list('admin', '?is_fav=false')).includes('Open Banking Report'));
      assert.ok(titles(await list('public', `?authors=${ids['ada']}`)).includes('Open Banking Report'));
      assert.deepEqual(titles(await list('admin', `?assets=${ids['shell']}`)), ['Open Banking Report']);
      assert.deepEqual(titles(await list('public', `?assets=${ids['revenue']}`)), ['Open Banking Report']);
      assert.ok(titles(await list('public', `?keywords=${ids['fintech']}`)).includes('Open Banking Report'));
      assert.deepEqual(titles(await list('public', '?type=Book')), [], 'a filter never widens what a caller sees');
    });

    it('rejects bad filter values and unknown parameters with a 400 naming them', async () => {
      for (const [queryString, parameter] of [
        ['?type=Blog', 'type'],
        ['?is_fav=maybe', 'is_fav'],
        ['?ordering=abstract', 'ordering'],
        ['?colour=red', 'colour'],
        ['?limit=zero', 'limit'],
        ['?format=pdf', 'format'],
      ]) {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/${queryString}` });
        assert.equal(response.statusCode, 400, queryString);
        assert.ok(response.json().errors[parameter!], response.body);
      }
    });

    it('orders by title, publish date, publisher and type', async () => {
      for (const field of ['title', 'publish_date', 'publisher', 'type']) {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/?ordering=-${field}&limit=100`, token: tokens['admin'] });
        assert.equal(response.statusCode, 200, field);
      }
      const byDate = (await list('admin', '?ordering=publish_date&search=report')).results.map((row) => row['title']);
      assert.equal(byDate[0], 'Open Banking Report');
      const byPublisher = (await list('paywall', '?ordering=-publisher&publisher=Penguin,Financial%20Times')).results.map((row) => row['publisher']);
      assert.deepEqual(byPublisher, ['Penguin', 'Financial Times']);
    });

    it('searches title, abstract, publisher and dataset info, accent- and case-insensitively', async () => {
      for (const term of ['OPEN BANKING', 'payments', 'financial', 'survey of 400']) {
        assert.ok(titles(await list('public', `?search=${encodeURIComponent(term)}`)).includes('Open Banking Report'), term);
      }
    });

    it('available-filters offers values only from rows and relations the caller may see', async () => {
      const filters = async (role: string) => {
        const response = await t.request(acme, { method: 'GET', url: `${BASE}/available-filters/`, token: tokens[role] });
        assert.equal(response.statusCode, 200);
        return response.json().filters as Array<{ name: string; values: Array<{ value: unknown; label?: string }> }>;
      };
      const values = (all: Awaited<ReturnType<typeof filters>>, name: string) => all.find((filter) => filter.name === name)!.values.map((entry) => entry.label ?? entry.value);
      const forPublic = await filters('public');
      assert.deepEqual(forPublic.map((filter) => filter.name), ['visibility', 'show_on_dashboard', 'type', 'publisher', 'is_fav', 'authors', 'assets', 'keywords', 'publish_date']);
      assert.deepEqual(values(forPublic, 'publisher'), ['Financial Times']);
      assert.deepEqual(values(forPublic, 'authors'), ['Ada Lovelace']);
      assert.deepEqual(values(forPublic, 'assets').sort(), ['Acme Corp', 'Acme revenue 2024']);
      assert.ok(values(await filters('paywall'), 'publisher').includes('Penguin'));
      assert.ok(!values(await filters('paywall'), 'publisher').includes('Internal'));
      const forAdmin = await filters('admin');
      assert.ok(values(forAdmin, 'publisher').includes('Internal'));
      assert.ok(values(forAdmin, 'assets').includes('Shell Holdings'));
    });
  });

  describe('search and counts', () => {
    it('quick search finds library entries as LibraryEntry, by visibility, and by type', async () => {
      const search = (q: string, role: string, type = '') =>
        t.request(acme, { method: 'GET', url: `/api/v1/search/?q=${encodeURIComponent(q)}${type ? `&type=${type}` : ''}`, token: tokens[role] });
      const names = async (q: string, role: string, type = '') => (await search(q, role, type)).json().results.map((row: { display_name: string }) => row.display_name);
      assert.deepEqual(await names('paid book', 'public'), []);
      assert.deepEqual(await names('paid book', 'paywall'), ['Paid Book On Markets']);
      assert.deepEqual(await names('secret memo', 'paywall'), []);
      assert.deepEqual(await names('secret memo', 'admin'), ['Secret Memo']);
      assert.deepEqual(await names('open bankng', 'public', 'LibraryEntry'), ['Open Banking Report'], 'typos');
      assert.deepEqual(await names('acme', 'admin', 'LibraryEntry'), [], 'only library entries');
      const [hit] = (await search('open banking', 'public')).json().results;
      assert.equal(hit.type, 'LibraryEntry');
    });

    it('entity counts report library entries by visibility', async () => {
      const [publicRows = 0, paywalled = 0, hidden = 0] = await Promise.all(['public', 'paywalled', 'hidden'].map((visibility) => countRows('library_entries', sql`visibility = ${visibility}`)));
      const free = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/free-ahead-entities-count/' })).json();
      assert.deepEqual(free.library, { public_count: publicRows, paywall_count: paywalled });
      const forAdmin = (await t.request(acme, { method: 'GET', url: '/api/v1/tools/entities-count/', token: tokens['admin'] })).json();
      assert.deepEqual(forAdmin.library, { public_count: publicRows, paywall_count: paywalled, hidden_count: hidden });
      assert.equal((await list('admin')).count, publicRows + paywalled + hidden);
      assert.equal((await list('public')).count, publicRows);
    });

    it('the resource metadata describes the library to the web app', async () => {
      const meta = (await t.request(acme, { method: 'GET', url: '/api/v1/resources/' })).json() as Array<Record<string, unknown> & { fields: Array<Record<string, unknown>> }>;
      const entry = meta.find((resource) => resource.kind === 'library')!;
      assert.equal(entry['type'], 'LibraryEntry');
      assert.equal(entry['path'], '/library');
      assert.equal(entry['label'], 'Library entry');
      assert.equal(entry['list_kind'], 'LibraryList');
      assert.deepEqual(entry['name_fields'], ['title']);
      const field = (name: string) => entry.fields.find((candidate) => candidate['name'] === name)!;
      assert.equal(field('paywall_link')['read_access'], 'paywall');
      assert.equal(field('public_link')['kind'], 'url');
      assert.equal(field('title')['required'], true);
      assert.deepEqual((field('authors')['relation'] as { targets: Array<{ kind: string }> }).targets.map((target) => target.kind), ['people']);
      assert.deepEqual((field('assets')['relation'] as { targets: Array<{ kind: string }> }).targets.map((target) => target.kind), ['organizations', 'ledger_entries']);
    });
  });

  describe('spreadsheets', () => {
    it('the export writes author and asset names', async () => {
      const rows = await exportRows('admin', `&search=${encodeURIComponent('open banking')}`);
      const header = rows[0]!;
      const row = rows[1]!;
      assert.equal(row[header.indexOf('title')], 'Open Banking Report');
      assert.equal(row[header.indexOf('authors')], 'Ada Lovelace; Ghost Writer');
      assert.equal(row[header.indexOf('assets')], 'Acme Corp; Shell Holdings; Acme revenue 2024');
      assert.equal(row[header.indexOf('keywords')], 'Fintech');
      assert.equal(row[header.indexOf('publish_date')], '2024-03');
      const publicRow = (await exportRows('public', `&search=${encodeURIComponent('open banking')}`))[1]!;
      assert.ok(!publicRow.includes('Ghost Writer; Ada Lovelace') && !JSON.stringify(publicRow).includes('Ghost Writer'), 'hidden authors stay hidden');
    });

    it('an import resolves author, asset and keyword names', async () => {
      const csv = 'Title,Type,Author,Organizations,Keywords,Date,Link\nImported Paper,Literature/Paper,Ada Lovelace,acme corp; ACME REVENUE 2024,fintech,2020-05,imported.test/paper\n';
      const response = await upload(csv);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().created, 1);
      const [row] = (await list('admin', '?search=imported%20paper')).results;
      assert.deepEqual((row!['authors'] as Ref[]).map((ref) => ref.id), [ids['ada']]);
      assert.deepEqual((row!['assets'] as Ref[]).map((ref) => ref.id), [ids['acmeCorp'], ids['revenue']]);
      assert.deepEqual((row!['keywords'] as Ref[]).map((ref) => ref.id), [ids['fintech']]);
      assert.equal(row!['type'], 'Literature/Paper');
      assert.equal(row!['publish_date'], '2020-05');
      assert.equal(row!['public_link'], 'https://imported.test/paper');
      assert.equal(row!['visibility'], 'hidden');
    });

    it('a row naming an unknown or ambiguous author or asset is a per-row error', async () => {
      await create(PEOPLE, { name_given: 'John', name_family: 'Smith', visibility: 'public' });
      await create(PEOPLE, { name_given: 'John', name_family: 'Smith', emails: ['other@smith.test'], visibility: 'public' });
      const csv = [
        'title,authors,assets',
        'Good Row,Ada Lovelace,Acme Corp',
        'Unknown Author,Nobody Atall,',
        'Ambiguous Author,John Smith,',
        'Unknown Asset,,Nowhere Inc',
      ].join('\n');
      const before = (await list('admin')).count;
      const strict = await upload(csv);
      assert.equal(strict.statusCode, 400, strict.body);
      const report = strict.json().report;
      assert.equal(report.rolled_back, true);
      assert.deepEqual(report.errors, [
        { row: 3, field: 'authors', message: 'No person named "Nobody Atall".' },
        { row: 4, field: 'authors', message: 'Several records are named "John Smith"; use the id instead.' },
        { row: 5, field: 'assets', message: 'No organization or ledger entry named "Nowhere Inc".' },
      ]);
      assert.equal((await list('admin')).count, before, 'nothing was imported');
      const partial = await upload(csv, 'research', true);
      assert.equal(partial.statusCode, 200, partial.body);
      assert.equal(partial.json().created, 1);
      assert.equal(partial.json().failed, 3);
      assert.deepEqual(titles(await list('admin', '?search=good%20row')), ['Good Row']);
    });

    it('an import updates the entry with the same public link or title instead of duplicating it', async () => {
      const csv = 'title,public_link,publish_frequency\nRenamed Banking Report,https://www.ft.com/open-banking/,Quarterly\nPaid Book On Markets,,Monthly\n';
      const response = await upload(csv, 'admin');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual([response.json().created, response.json().updated], [0, 2]);
      const open = (await get('admin', ids['open']!)).json();
      assert.equal(open.title, 'Renamed Banking Report');
      assert.equal(open.publish_frequency, 'Quarterly');
      assert.equal(open.paywall_link, PAYWALL_LINK, 'cells left out keep their values');
      assert.equal((await get('admin', ids['paid']!)).json().publish_frequency, 'Monthly');
      await t.request(acme, { method: 'PATCH', url: `${BASE}/${ids['open']}/`, token: tokens['admin'], payload: { title: 'Open Banking Report' } });
    });
  });
});

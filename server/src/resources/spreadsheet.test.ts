import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { readSheet } from 'read-excel-file/node';
import { organizations } from '../modules/organizations/organizations.resource.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { exportColumns } from './spreadsheet-export.ts';
import { multipart, type MultipartOptions } from '../test/multipart.ts';
import { xlsx } from '../test/xlsx.ts';

const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';

/**
 * A minimal .xlsx made by hand, as other tools write them: shared strings,
 * numbers, a date cell (built-in format 14) and a skipped row, so reading
 * does not depend on our writer.
 */
function handMadeXlsx(): Buffer {
  const strings = ['Legal Name', 'E-mail', 'Founded', 'Phone', 'Hand Made Ltd', 'hand@made.test', 'Second Hand GmbH'];
  const shared = strings.map((text) => `<si><t>${text}</t></si>`).join('');
  const s = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
          '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      'xl/workbook.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/>` +
          `<Relationship Id="rId3" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
      ),
      'xl/styles.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${main}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
      ),
      'xl/sharedStrings.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">${shared}</sst>`),
      'xl/worksheets/sheet1.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData>` +
          `<row r="1">${s('A1', 0)}${s('B1', 1)}${s('C1', 2)}${s('D1', 3)}</row>` +
          // 2019-03-05 is serial 43529; the phone is a plain number.
          `<row r="2">${s('A2', 4)}${s('B2', 5)}<c r="C2" s="1"><v>43529</v></c><c r="D2"><v>442079460958</v></c></row>` +
          `<row r="4">${s('A4', 6)}<c r="B4" t="inlineStr"><is><t>not-an-email</t></is></c></row>` +
          '</sheetData></worksheet>',
      ),
    }),
  );
}

describe('spreadsheet export and import', () => {
  let t: TestContext;
  let acme: TenantRow;
  let bulk: TenantRow;
  const tokens: Record<string, string | undefined> = {};

  before(async () => {
    t = await createTestApp();
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    acme = await t.createTenant('acme');
    bulk = await t.createTenant('bulk');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(acme, 'research@acme.test', { is_research: true });
    await t.createUser(acme, 'reader@acme.test');
    await t.createUser(bulk, 'admin@bulk.test', { is_admin: true });
    tokens['admin'] = await t.login(acme, 'admin@acme.test');
    tokens['research'] = await t.login(acme, 'research@acme.test');
    tokens['reader'] = await t.login(acme, 'reader@acme.test');
    tokens['bulk'] = await t.login(bulk, 'admin@bulk.test');
  });
  after(() => t.close());

  const create = async (base: string, payload: Record<string, unknown>, token = tokens['admin']) => {
    const response = await t.request(acme, { method: 'POST', url: `${base}/`, token, payload });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as Record<string, unknown> & { id: string };
  };
  const upload = (base: string, filename: string, content: Buffer | string, options: MultipartOptions & { token?: string; query?: string } = {}) =>
    t.request(acme, {
      method: 'POST',
      url: `${base}/upload/${options.query ?? ''}`,
      token: 'token' in options ? options.token : tokens['research'],
      ...multipart(filename, content, options),
    });
  const list = async (base: string, query: string, token = tokens['admin']) => {
    const response = await t.request(acme, { method: 'GET', url: `${base}/${query}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as { count: number; results: Array<Record<string, unknown> & { id: string }> };
  };
  const exportRows = async (base: string, query: string, token: string | undefined, tenant: TenantRow = acme) => {
    const response = await t.request(tenant, { method: 'GET', url: `${base}/?format=xlsx${query}`, token });
    assert.equal(response.statusCode, 200, response.body.slice(0, 500));
    return { response, rows: await readSheet(response.rawPayload) };
  };

  describe('export', () => {
    before(async () => {
      await create(ORGS, {
        name_inc: 'Export Public Inc', visibility: 'public', emails: ['a@pub.test', 'b@pub.test'], founding_date: '2019-03',
        show_on_dashboard: true, associated_urls: ['https://pub.test/'], notes: 'Line one\nline <two> & "three"\u0007',
      });
      await create(ORGS, { name_inc: 'Export Paywalled LLC', visibility: 'paywalled', hq_city: 'Paris' });
      await create(ORGS, { name_inc: 'Export Hidden GmbH', visibility: 'hidden', founding_date: '--05' });
    });

    it('streams a real .xlsx of what the list returns, with the same values, filters and order', async () => {
      const { response, rows } = await exportRows(ORGS, '&search=export&ordering=name_inc', tokens['admin']);
      assert.equal(response.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.match(String(response.headers['content-disposition']), /^attachment; filename="\d{4}-\d{2}-\d{2}_acme_organizations\.xlsx"$/);
      assert.equal(response.rawPayload.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004');

      const columns = exportColumns(organizations, 'admin');
      assert.deepEqual(rows[0], columns);
      assert.ok(!columns.includes('suggested_fields'));
      const api = await list(ORGS, '?search=export&ordering=name_inc');
      assert.equal(rows.length - 1, api.count);
      api.results.forEach((record, index) => {
        const row = rows[index + 1]!;
        columns.forEach((column, c) => {
          const value = record[column];
          const expected = Array.isArray(value)
            ? value.length ? value.join('; ') : null
            : value === '' || value === undefined ? null : value;
          const cleaned = typeof expected === 'string' ? expected.replaceAll('\u0007', '') : expected;
          assert.deepEqual(row[c], cleaned, `${String(record['name_inc'])}.${column}`);
        });
      });
      assert.equal(rows[1]![columns.indexOf('founding_date')], '--05', 'incomplete dates keep their API form');
    });

    it("follows the caller's visibility: a public visitor gets only public rows", async () => {
      const publicRows = (await exportRows(ORGS, '&search=export', undefined)).rows;
      assert.deepEqual(publicRows.slice(1).map((row) => row[0]), ['Export Public Inc']);
      const readerRows = (await exportRows(ORGS, '&search=export&ordering=-name_inc', tokens['reader'])).rows;
      assert.deepEqual(readerRows.slice(1).map((row) => row[0]), ['Export Public Inc', 'Export Paywalled LLC']);
    });

    it('applies filters', async () => {
      const { rows } = await exportRows(ORGS, '&hq_city=Paris', tokens['admin']);
      assert.deepEqual(rows.slice(1).map((row) => row[0]), ['Export Paywalled LLC']);
    });

    it('answers a bad query with a JSON 400 before any file starts', async () => {
      const response = await t.request(acme, { method: 'GET', url: `${ORGS}/?format=xlsx&ordering=nope`, token: tokens['admin'] });
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().errors.ordering);
    });

    it('exports 2,000 rows in the list order', async () => {
      await t.db.withTenant({ tenantId: bulk.id }, (tx) =>
        tx.execute(sql`INSERT INTO organizations (tenant_id, name_inc, visibility, emails)
                       SELECT ${bulk.id}, 'Bulk ' || lpad(g::text, 5, '0'), 'public', ARRAY['bulk' || g || '@bulk.test']
                       FROM generate_series(1, 2000) g`),
      );
      const { rows } = await exportRows(ORGS, '&ordering=-name_inc', tokens['bulk'], bulk);
      assert.equal(rows.length, 2001);
      assert.equal(rows[1]![0], 'Bulk 02000');
      assert.equal(rows[2000]![0], 'Bulk 00001');
      const page = await t.request(bulk, { method: 'GET', url: `${ORGS}/?ordering=-name_inc&limit=100&offset=700`, token: tokens['bulk'] });
      assert.deepEqual(rows.slice(701, 801).map((row) => row[0]), page.json().results.map((row: { name_inc: string }) => row.name_inc));
    });

    it('an export imports back onto the same records (matched by id)', async () => {
      const { response } = await exportRows(ORGS, '&search=export', tokens['admin']);
      const before = await list(ORGS, '?search=export&ordering=name_inc');
      const result = await upload(ORGS, 'export.xlsx', response.rawPayload, { token: tokens['admin'] });
      assert.equal(result.statusCode, 200, result.body);
      assert.deepEqual(result.json(), { created: 0, updated: 3, failed: 0, rolled_back: false, errors: [], unmatched_columns: ['created_at', 'updated_at'] });
      const afterwards = await list(ORGS, '?search=export&ordering=name_inc');
      // Characters XML forbids (the BEL in the notes) cannot travel in a spreadsheet.
      const stable = (rows: typeof before.results) =>
        rows.map(({ updated_at: _u, ...rest }) => ({ ...rest, notes: typeof rest['notes'] === 'string' ? rest['notes'].replaceAll('\u0007', '') : rest['notes'] }));
      assert.deepEqual(stable(afterwards.results), stable(before.results));
    });
  });

  describe('import', () => {
    it('creates records from an .xlsx, matching headers by name and alias and reporting the rest', async () => {
      const file = await xlsx([
        ['Legal Name', 'E-mail', 'Website', 'Founded', 'HQ_City', 'show on dashboard', 'Shoe size'],
        ['Alpha Imports Ltd', 'one@alpha.test; two@alpha.test', 'alpha.test', '2001', 'Lisbon', true, 42],
        ['Beta Traders', 'beta@beta.test', null, new Date(Date.UTC(1999, 11, 31)), null, 'no', null],
      ]);
      const response = await upload(ORGS, 'orgs.xlsx', file);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { created: 2, updated: 0, failed: 0, rolled_back: false, errors: [], unmatched_columns: ['Shoe size'] });
      const [alpha, beta] = (await list(ORGS, '?search=alpha%20imports')).results.concat((await list(ORGS, '?search=beta%20traders')).results);
      assert.deepEqual(alpha!['emails'], ['one@alpha.test', 'two@alpha.test']);
      assert.deepEqual(alpha!['associated_urls'], ['https://alpha.test/']);
      assert.equal(alpha!['founding_date'], '2001');
      assert.equal(alpha!['hq_city'], 'Lisbon');
      assert.equal(alpha!['show_on_dashboard'], true);
      assert.equal(alpha!['visibility'], 'hidden', 'the declared default applies');
      assert.equal(beta!['founding_date'], '1999-12-31');
      assert.equal(beta!['show_on_dashboard'], false);
    });

    it('reads an .xlsx made by another tool (shared strings, date and number cells, a skipped row)', async () => {
      const response = await upload(ORGS, 'hand-made.xlsx', handMadeXlsx(), { query: '?partial=true' });
      assert.equal(response.statusCode, 200, response.body);
      const report = response.json();
      assert.equal(report.created, 1);
      assert.deepEqual(report.errors, [{ row: 4, field: 'emails', message: 'Item 1: Enter a valid email address.' }]);
      const [record] = (await list(ORGS, '?search=hand%20made')).results;
      assert.equal(record!['founding_date'], '2019-03-05');
      assert.deepEqual(record!['phones'], ['442079460958'], 'a number cell keeps its digits');
    });

    it('reads CSV: semicolons, a BOM, quoted line breaks and comma-separated emails', async () => {
      const csv = '\uFEFFName;Emails;Notes\r\nGamma Works;"g1@gamma.test, g2@gamma.test";"two\nlines"\r\n\r\nDelta Co;;\r\n';
      const response = await upload(ORGS, 'orgs.csv', csv);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().created, 2);
      const [gamma] = (await list(ORGS, '?search=gamma%20works')).results;
      assert.deepEqual(gamma!['emails'], ['g1@gamma.test', 'g2@gamma.test']);
      assert.equal(gamma!['notes'], 'two\nlines');
    });

    const peopleFile = () =>
      xlsx([
        ['First name', 'Last name', 'Email', 'Birthday', 'Gender', 'Phone'],
        ['Grace', 'Hopper', 'grace@navy.test', '1906-12-09', 'F', '+1 202 555 0100, +1 202 555 0101'],
        ['Bad', 'Email', 'not-an-email', null, null, null],
        ['Bad', 'Date', null, '12/09/1906', null, null],
        ['Bad', 'Gender', null, null, 'X', null],
        ['Alan', 'Turing', 'alan@bletchley.test', '--06-23', 'm', null],
      ]);

    it('all or nothing: one bad row and nothing is written; the report names rows and fields', async () => {
      const before = await list(PEOPLE, '');
      const response = await upload(PEOPLE, 'people.xlsx', await peopleFile());
      assert.equal(response.statusCode, 400, response.body);
      const body = response.json();
      assert.equal(body.code, 'import_failed');
      assert.equal(body.detail, '3 rows have errors; nothing was imported.');
      assert.ok(body.errors.file.length === 3, response.body);
      assert.equal(body.report.rolled_back, true);
      assert.equal(body.report.failed, 3);
      assert.deepEqual(
        body.report.errors.map((error: { row: number; field: string }) => [error.row, error.field]),
        [[3, 'emails'], [4, 'birth_date'], [5, 'gender']],
      );
      const afterwards = await list(PEOPLE, '');
      assert.equal(afterwards.count, before.count);
      assert.equal((await list(PEOPLE, '?search=hopper')).count, 0);
    });

    it('partial=true keeps the good rows', async () => {
      const response = await upload(PEOPLE, 'people.xlsx', await peopleFile(), { query: '?partial=true' });
      assert.equal(response.statusCode, 200, response.body);
      const report = response.json();
      assert.equal(report.created, 2);
      assert.equal(report.failed, 3);
      assert.equal(report.rolled_back, false);
      const [grace] = (await list(PEOPLE, '?search=hopper')).results;
      assert.deepEqual(grace!['phones'], ['+12025550100', '+12025550101']);
      const [alan] = (await list(PEOPLE, '?search=turing')).results;
      assert.equal(alan!['birth_date'], '--06-23');
      assert.equal(alan!['gender'], 'M');
    });

    it('people sharing only a given name stay different people', async () => {
      const response = await upload(PEOPLE, 'people.csv', 'First name,Last name\nGrace,Kelly\n');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().created, 1, 'Grace Kelly is not Grace Hopper');
      // As admin this time: the full name matches whoever uploads it.
      const again = await upload(PEOPLE, 'people.csv', 'First name,Last name,Email\ngrace, HOPPER ,admiral@navy.test\n', { token: tokens['admin'] });
      assert.equal(again.json().updated, 1, 'the same full name is the same person');
    });

    it('updates existing records that share a name, an email or a web address instead of duplicating them', async () => {
      const acmeRecord = await create(ORGS, { name_inc: 'ACME Inc', notes: 'Keep me', emails: ['sales@acme-corp.test'], visibility: 'paywalled' });
      const globex = await create(ORGS, { name_inc: 'Globex', emails: ['hello@globex.test'], visibility: 'public' });
      const initech = await create(ORGS, { name_inc: 'Initech', associated_urls: ['https://www.initech.test/'], visibility: 'public' });
      const before = (await list(ORGS, '')).count;

      const file = await xlsx([
        ['Legal Name', 'Trading name', 'E-mail', 'Website', 'City', 'Notes'],
        ['Acme, Inc.', null, 'info@acme-corp.test', null, 'Berlin', null],
        [null, 'Globex Worldwide', 'HELLO@globex.test', null, null, null],
        ['Initech Software', null, null, 'http://initech.test', null, ''],
      ]);
      const response = await upload(ORGS, 'dupes.xlsx', file);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { created: 0, updated: 3, failed: 0, rolled_back: false, errors: [], unmatched_columns: [] });
      assert.equal((await list(ORGS, '')).count, before);

      const get = async (id: string) => (await t.request(acme, { method: 'GET', url: `${ORGS}/${id}/`, token: tokens['admin'] })).json();
      const acmeAfter = await get(acmeRecord.id);
      assert.equal(acmeAfter.name_inc, 'Acme, Inc.');
      assert.equal(acmeAfter.hq_city, 'Berlin');
      assert.equal(acmeAfter.notes, 'Keep me', 'empty cells do not blank existing values');
      assert.deepEqual(acmeAfter.emails, ['sales@acme-corp.test', 'info@acme-corp.test'], 'list cells add to the list');
      const globexAfter = await get(globex.id);
      assert.equal(globexAfter.name_inc, 'Globex');
      assert.equal(globexAfter.name_dba, 'Globex Worldwide');
      assert.deepEqual(globexAfter.emails, ['hello@globex.test']);
      const initechAfter = await get(initech.id);
      assert.equal(initechAfter.name_inc, 'Initech Software');
      assert.deepEqual(initechAfter.associated_urls, ['https://www.initech.test/'], 'the same site is not added twice');
    });

    it('records the caller may see are updated: a research user (a curator) reaches a hidden one', async () => {
      const hidden = await create(ORGS, { name_inc: 'Secret Holdings', hq_city: 'Zug', visibility: 'hidden' });
      const file = await xlsx([['name_inc', 'hq_city'], ['Secret Holdings', 'Vaduz']]);
      const byResearch = await upload(ORGS, 'secret.xlsx', file);
      assert.equal(byResearch.statusCode, 200, byResearch.body);
      assert.deepEqual([byResearch.json().created, byResearch.json().updated], [0, 1]);
      const get = async () => (await t.request(acme, { method: 'GET', url: `${ORGS}/${hidden.id}/`, token: tokens['admin'] })).json();
      assert.equal((await get()).hq_city, 'Vaduz');
      const byAdmin = await upload(ORGS, 'secret.xlsx', await xlsx([['id', 'hq_city'], [hidden.id, 'Zug']]), { token: tokens['admin'] });
      assert.deepEqual([byAdmin.json().created, byAdmin.json().updated], [0, 1]);
      assert.equal((await get()).hq_city, 'Zug');
    });

    it('rows matching an earlier row of the same file update the record that row wrote', async () => {
      const file = await xlsx([
        ['name_inc', 'emails', 'phones'],
        ['Umbrella Corp', 'info@umbrella.test', null],
        ['UMBRELLA Corporation', null, '+44 20 7946 0000'],
        ['Umbrella Pharma', 'info@umbrella.test', null],
      ]);
      const response = await upload(ORGS, 'umbrella.xlsx', file);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual([response.json().created, response.json().updated], [1, 2]);
      const found = await list(ORGS, '?search=umbrella');
      assert.equal(found.count, 1);
      assert.equal(found.results[0]!['name_inc'], 'Umbrella Pharma');
      assert.deepEqual(found.results[0]!['phones'], ['+442079460000']);
    });

    it('a row matching several different records is an error', async () => {
      await create(ORGS, { name_inc: 'Hooli', visibility: 'public' });
      await create(ORGS, { name_inc: 'Nucleus', emails: ['press@hooli.test'], visibility: 'public' });
      const file = await xlsx([['name_inc', 'emails'], ['Hooli', 'press@hooli.test']]);
      const response = await upload(ORGS, 'hooli.xlsx', file);
      assert.equal(response.statusCode, 400, response.body);
      const [error] = response.json().report.errors;
      assert.equal(error.row, 2);
      assert.equal(error.field, null);
      assert.match(error.message, /^Matches several existing records: "Hooli", "Nucleus"/);
    });
  });

  describe('refused uploads', () => {
    const expectFileError = (response: { statusCode: number; json(): { errors?: Record<string, string[]> } }, status: number) => {
      assert.equal(response.statusCode, status);
      assert.ok(response.json().errors?.['file']?.[0], JSON.stringify(response.json()));
    };

    it('unsupported types are 415, by extension and by content', async () => {
      expectFileError(await upload(ORGS, 'notes.pdf', '%PDF-1.4 ...'), 415);
      expectFileError(await upload(ORGS, 'old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0])), 415);
      expectFileError(await upload(ORGS, 'fake.xlsx', 'name_inc\nNot a zip'), 415);
      expectFileError(await upload(ORGS, 'latin1.csv', Buffer.from('name_inc\nCaf\xe9 Ltd\n', 'latin1')), 415);
      expectFileError(await upload(ORGS, 'zip.csv', await xlsx([['name_inc'], ['X']])), 415);
    });

    it('a missing file, a wrong field name or a non-multipart body is a 400 naming file', async () => {
      expectFileError(await upload(ORGS, 'orgs.csv', 'name_inc\nX\n', { field: 'upload' }), 400);
      const boundary = 'xyz';
      const onlyField = await t.request(acme, {
        method: 'POST', url: `${ORGS}/upload/`, token: tokens['research'],
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      });
      expectFileError(onlyField, 400);
      const json = await t.request(acme, { method: 'POST', url: `${ORGS}/upload/`, token: tokens['research'], payload: { name_inc: 'X' } });
      expectFileError(json, 400);
    });

    it('an empty file, a header without rows or without a known column is a 400 naming file', async () => {
      expectFileError(await upload(ORGS, 'empty.csv', ''), 400);
      expectFileError(await upload(ORGS, 'header.csv', 'name_inc,emails\n'), 400);
      expectFileError(await upload(ORGS, 'header.xlsx', await xlsx([['name_inc']])), 400);
      expectFileError(await upload(ORGS, 'unknown.csv', 'colour,size\nred,9\n'), 400);
      expectFileError(await upload(ORGS, 'broken.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(64)])), 400);
    });

    it('more than 100,000 rows is a 400 before anything is written', async () => {
      const csv = `name_inc\n${'Row\n'.repeat(100_001)}`;
      const before = (await list(ORGS, '')).count;
      expectFileError(await upload(ORGS, 'huge.csv', csv), 400);
      assert.equal((await list(ORGS, '')).count, before);
    });

    it('needs research access: 403 for a reader, 401 for the public', async () => {
      const file = 'name_inc\nNope Ltd\n';
      assert.equal((await upload(ORGS, 'orgs.csv', file, { token: tokens['reader'] })).statusCode, 403);
      assert.equal((await upload(ORGS, 'orgs.csv', file, { token: undefined })).statusCode, 401);
      assert.equal((await list(ORGS, '?search=nope')).count, 0);
    });
  });
});

describe('spreadsheet upload size limit', () => {
  let t: TestContext;
  let acme: TenantRow;
  let token: string;

  before(async () => {
    t = await createTestApp({ UPLOAD_LIMIT_BYTES: '2048' });
    await t.startWorker(); // spreadsheet uploads are imported by a worker
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'research@acme.test', { is_research: true });
    token = await t.login(acme, 'research@acme.test');
  });
  after(() => t.close());

  it('a file over the limit is a 413 naming file', async () => {
    const response = await t.request(acme, {
      method: 'POST', url: `${ORGS}/upload/`, token, ...multipart('big.csv', `name_inc\n${'Big Company Ltd\n'.repeat(500)}`),
    });
    assert.equal(response.statusCode, 413, response.body);
    assert.equal(response.json().code, 'payload_too_large');
    assert.ok(response.json().errors.file[0]);
  });
});

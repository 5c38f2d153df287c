import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readSheet } from 'read-excel-file/node';
import { similarWordsOf } from '../../resources/repository.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

/**
 * Forgiving search (migration 0200, docs/engine.md "Forgiving search"): names across
 * transliterations, phone numbers in any format, typos in list search when the search as typed
 * finds little — each through the list API and quick search, visibility kept.
 */
describe('forgiving search', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    const create = async (tenant: TenantRow, path: string, key: string, payload: object, token = tokens['admin']) => {
      const response = await t.request(tenant, { method: 'POST', url: `/api/v1/${path}/`, token, payload });
      assert.equal(response.statusCode, 201, response.body);
      ids[key] = response.json().id;
    };
    const person = (key: string, given: string, family: string, extra: object = {}) =>
      create(acme, 'assets/people', key, { name_given: given, name_family: family, visibility: 'public', ...extra });
    await person('lindqvist', 'Karin', 'Lindqvist');
    await person('muller', 'Hans', 'Müller');
    await person('mueller', 'Greta', 'Mueller');
    await person('jorgensen', 'Søren', 'Jørgensen');
    await person('lukasz', 'Łukasz', 'Nowak');
    await person('aeble', 'Astrid', 'Æbelø');
    // Stored with its country (E.164, validated) and without (not valid without a country).
    await person('london', 'Phone', 'Withcountry', { phones: ['+44 20 7946 0958'] });
    await person('national', 'Phone', 'Nocountry', { phones: ['020 7946 0123'] });
    await person('us', 'Phone', 'American', { phones: ['+1 207-946-0958'] });
    await person('hiddenPhone', 'Phone', 'Hidden', { phones: ['+44 20 7946 0999'], visibility: 'hidden' });
    await create(acme, 'assets/organizations', 'strasse', { name_inc: 'Hauptstraße Bau GmbH', visibility: 'public' });
    await create(acme, 'assets/organizations', 'kowalski', { name_inc: 'Kowalski Consulting', visibility: 'public' });
    await create(acme, 'assets/organizations', 'kowalskyHidden', { name_inc: 'Kowalsky Covert', visibility: 'hidden' });
    await create(acme, 'assets/organizations', 'orgPhone', { name_inc: 'Dial Holdings', phones: ['+49 30 901820'], visibility: 'public' });
    for (let n = 1; n <= 6; n++) await create(acme, 'assets/organizations', `brand${n}`, { name_inc: `Brandon Works ${n}`, visibility: 'public' });
    await create(acme, 'assets/organizations', 'brandom', { name_inc: 'Brandom Labs', visibility: 'public' });
    await create(acme, 'terminology', 'amortization', { term: 'Amortization', definition: 'Spreading a cost over the periods it serves.' });
    await create(acme, 'terminology', 'hiddenTerm', { term: 'Depreciation schedule', visibility: 'hidden' });
    await create(beta, 'assets/people', 'betaLindqvist', { name_given: 'Other', name_family: 'Lindqvist', visibility: 'public' }, tokens['beta']);
  });
  after(() => t.close());

  type Page = { count: number; count_is_estimate?: boolean; search_includes_similar?: boolean; similar_words?: string[]; next: string | null; results: Array<{ id: string; display_name: string }> };
  const list = async (path: string, search: string, token?: string, extra = ''): Promise<Page> => {
    const response = await t.request(acme, { method: 'GET', url: `/api/v1/${path}/?search=${encodeURIComponent(search)}${extra}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as Page;
  };
  const found = async (path: string, search: string, token?: string) => (await list(path, search, token)).results.map((row) => row.id).sort();
  const quick = async (q: string, token?: string) => {
    const response = await t.request(acme, { method: 'GET', url: `/api/v1/search/?q=${encodeURIComponent(q)}`, token });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json().results as Array<{ id: string }>).map((row) => row.id);
  };
  const sorted = (...keys: string[]) => keys.map((key) => ids[key]!).sort();

  it('matches names across transliterations in list search, both ways', async () => {
    for (const term of ['Lindquist', 'lindqvist', 'LINDQU', 'lindq']) assert.deepEqual(await found('assets/people', term), sorted('lindqvist'), term);
    for (const term of ['Müller', 'Mueller', 'Muller', 'mull']) assert.deepEqual(await found('assets/people', term), sorted('muller', 'mueller'), term);
    for (const term of ['Jørgensen', 'Jorgensen', 'Joergensen']) assert.deepEqual(await found('assets/people', term), sorted('jorgensen'), term);
    for (const term of ['Łukasz', 'Lukasz', 'lukasz nowak']) assert.deepEqual(await found('assets/people', term), sorted('lukasz'), term);
    for (const term of ['Æbelø', 'Aebelo', 'aebeloe', 'abelo']) assert.deepEqual(await found('assets/people', term), sorted('aeble'), term);
    for (const term of ['Hauptstraße', 'hauptstrasse', 'Hauptstrasse Bau']) assert.deepEqual(await found('assets/organizations', term), sorted('strasse'), term);
    // Folding widens what a word matches, never what a tenant or audience sees.
    const other = await t.request(beta, { method: 'GET', url: '/api/v1/assets/people/?search=lindquist', token: tokens['beta'] });
    assert.deepEqual(other.json().results.map((row: { id: string }) => row.id), [ids['betaLindqvist']], 'each tenant its own');
  });

  it('quick search finds Lindqvist for "Lindquist" and Müller for "Mueller"', async () => {
    assert.ok((await quick('Lindquist')).includes(ids['lindqvist']!));
    assert.ok((await quick('karin lindquist')).includes(ids['lindqvist']!));
    const mueller = await quick('Mueller');
    assert.ok(mueller.includes(ids['muller']!) && mueller.includes(ids['mueller']!));
    assert.ok((await quick('Jorgensen')).includes(ids['jorgensen']!));
  });

  it('finds a phone number whatever its format, stored with or without its country', async () => {
    for (const term of ['+44 20 7946 0958', '+442079460958', '0044 20 7946 0958', '020 7946 0958', '02079460958', '(020) 7946-0958', '020-7946-0958', '20 7946 0958']) {
      assert.ok((await found('assets/people', term)).includes(ids['london']!), term);
    }
    for (const term of ['020 7946 0123', '+44 20 7946 0123', '(020) 7946-0123', '0044 20 7946 0123', '207946 0123']) {
      assert.deepEqual(await found('assets/people', term), sorted('national'), term);
    }
    // A prefix of the number finds it too (the rest left out).
    assert.ok((await found('assets/people', '020 7946 09')).includes(ids['london']!));
    // The US number shares the national digits: found by them without a country, never by +44.
    assert.deepEqual(await found('assets/people', '+44 20 7946 0958'), sorted('london'));
    assert.deepEqual(await found('assets/people', '+1 207 946 0958'), sorted('us'));
    assert.deepEqual(await found('assets/people', '(207) 946-0958'), sorted('us', 'london'));
    assert.deepEqual(await found('assets/organizations', '030 901820'), sorted('orgPhone'));
    assert.deepEqual(await found('assets/organizations', '+49 (30) 901820'), sorted('orgPhone'));
    // Quick search too.
    assert.ok((await quick('02079460958')).includes(ids['london']!));
    assert.ok((await quick('020 7946 0958')).includes(ids['london']!));
  });

  it('never finds a hidden record by its phone number for a visitor', async () => {
    assert.deepEqual(await found('assets/people', '020 7946 0999'), [], 'visitor, list');
    assert.ok(!(await quick('02079460999')).includes(ids['hiddenPhone']!), 'visitor, quick search');
    assert.deepEqual(await found('assets/people', '020 7946 0999', tokens['admin']), sorted('hiddenPhone'), 'admin');
  });

  it('forgives a typo in list search when the search as typed finds little, with a true total', async () => {
    const page = await list('assets/organizations', 'kowalsky consulting');
    assert.deepEqual(page.results.map((row) => row.id), [ids['kowalski']]);
    assert.equal(page.count, 1);
    assert.equal(page.search_includes_similar, true);
    assert.deepEqual(page.similar_words, ['kowalski'], 'the word like the one typed, for the screen to mark');
    assert.equal(page.count_is_estimate, undefined);
    // The exact match alone is not flagged.
    const exact = await list('assets/organizations', 'kowalski');
    assert.deepEqual(exact.results.map((row) => row.id), [ids['kowalski']]);
    assert.equal(exact.search_includes_similar, undefined);
    assert.equal(exact.similar_words, undefined);
    // Ranked by relevance too.
    assert.deepEqual((await list('assets/organizations', 'kowalsky', undefined, '&ordering=relevance')).results.map((row) => row.id), [ids['kowalski']]);
  });

  it('exports and acts in bulk on the rows a forgiven search shows', async () => {
    // A visitor's spreadsheet of the list: the row the list showed for the typo.
    const sheet = await t.request(acme, { method: 'GET', url: `/api/v1/assets/organizations/?search=${encodeURIComponent('kowalsky consulting')}&format=xlsx` });
    assert.equal(sheet.statusCode, 200, sheet.body);
    const cells = JSON.stringify(await readSheet(sheet.rawPayload));
    assert.match(cells, /Kowalski Consulting/);
    assert.doesNotMatch(cells, /Kowalsky Covert/);
    // An admin's bulk export of "all matching" the same search.
    const bulk = await t.request(acme, {
      method: 'POST', url: '/api/v1/assets/organizations/bulk/', token: tokens['admin'],
      payload: { action: 'export', all_matching: { search: 'kowalsky consulting' }, format: 'csv' },
    });
    assert.equal(bulk.statusCode, 200, bulk.body);
    assert.match(bulk.body, /Kowalski Consulting/);
    assert.equal(bulk.body.trimEnd().split('\r\n').length, 2, 'a header and the one row');
  });

  it('never finds a hidden record through a word like the one typed', async () => {
    // "kowalsky" is the hidden record's own name: a visitor, who finds nothing by it as typed,
    // finds the visible Kowalski; the admin finds the hidden one as typed, and only it.
    const visitor = await list('assets/organizations', 'kowalsky');
    assert.deepEqual(visitor.results.map((row) => row.id), [ids['kowalski']]);
    assert.equal(visitor.count, 1);
    const admin = await list('assets/organizations', 'kowalsky', tokens['admin']);
    assert.deepEqual(admin.results.map((row) => row.id), [ids['kowalskyHidden']]);
    assert.equal(admin.count, 1);
    assert.equal(admin.search_includes_similar, undefined);
    // Another word like the hidden name finds only the visible one for a visitor, and the words
    // the answer names are the shown record's: never the hidden name, though it is like the one typed.
    const like = await list('assets/organizations', 'kowalskie');
    assert.deepEqual(like.results.map((row) => row.id), [ids['kowalski']]);
    assert.deepEqual(like.similar_words, ['kowalski']);
    const likeAdmin = await list('assets/organizations', 'kowalskie', tokens['admin']);
    assert.deepEqual(likeAdmin.results.map((row) => row.id).sort(), sorted('kowalski', 'kowalskyHidden'));
    assert.deepEqual(likeAdmin.similar_words?.slice().sort(), ['kowalski', 'kowalsky']);
  });

  it('does not widen a search that finds something as typed; pages of a forgiven search agree', async () => {
    // Records match "brandon" and "brandon works 3" as typed: Brandom Labs, one letter off, is not added.
    const brandon = await list('assets/organizations', 'brandon', undefined, '&limit=25');
    assert.equal(brandon.count, 6);
    assert.equal(brandon.search_includes_similar, undefined);
    assert.equal((await list('assets/organizations', 'brandon works 3')).count, 1);
    // "brandox" finds nothing as typed: every word like it is searched, on each page alike.
    const first = await list('assets/organizations', 'brandox', undefined, '&limit=4');
    assert.equal(first.search_includes_similar, true);
    assert.equal(first.count, 7);
    assert.equal(first.results.length, 4);
    // Each page names the similar words its own rows hold (name order: Brandom Labs first).
    assert.deepEqual(first.similar_words?.slice().sort(), ['brandom', 'brandon']);
    const second = await list('assets/organizations', 'brandox', undefined, '&limit=4&offset=4');
    assert.equal(second.count, 7);
    assert.equal(second.results.length, 3);
    assert.equal(second.next, null);
    assert.deepEqual(second.similar_words, ['brandon']);
    const all = [...first.results, ...second.results].map((row) => row.id).sort();
    assert.deepEqual(all, sorted('brand1', 'brand2', 'brand3', 'brand4', 'brand5', 'brand6', 'brandom'));
  });

  it('forgives typos in lists that are not quick-searched too (their names\' words)', async () => {
    const page = await list('terminology', 'amortisation');
    assert.deepEqual(page.results.map((row) => row.id), [ids['amortization']]);
    assert.equal(page.search_includes_similar, true);
    // A term written after start-up joins the vocabulary through the table's trigger.
    const response = await t.request(acme, { method: 'PATCH', url: `/api/v1/terminology/${ids['amortization']}/`, token: tokens['admin'], payload: { term: 'Amortization table' } });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(await found('terminology', 'tablle'), sorted('amortization'));
    // Hidden terms stay hidden, found by a word like theirs or not.
    assert.deepEqual(await found('terminology', 'depreciaton'), []);
    assert.deepEqual(await found('terminology', 'depreciaton', tokens['admin']), sorted('hiddenTerm'));
  });

  it('a word nobody has, nor anything like it, still finds nothing', async () => {
    const page = await list('assets/organizations', 'zzyzx');
    assert.equal(page.count, 0);
    assert.deepEqual(page.results, []);
    assert.equal(page.search_includes_similar, undefined);
    assert.equal(page.similar_words, undefined);
  });

  it('reads the similar words out of a forgiving query: quoted whole words, not the prefixes typed', () => {
    const query = "('kowalskj':* | 'kowalski' | 'it''s' | 'a\\\\b') & 'consulting':* | '442079':* | '2079':*";
    assert.deepEqual(similarWordsOf(query), ['kowalski', "it's", 'a\\b']);
    assert.deepEqual(similarWordsOf("'kowalskj':*"), []);
  });
});

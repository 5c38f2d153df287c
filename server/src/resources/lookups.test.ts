/**
 * Lookups on every list (docs/engine.md, "Lookups"): is none of, comparisons (incomplete dates
 * as periods), has no value; what they tell about hidden records and restricted fields; their
 * 400s; available-filters and the resources' metadata; exports and bulk actions by list query.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readSheet } from 'read-excel-file/node';
import type { ResourceMeta } from '../contracts.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { datePeriod, dateBound } from './list-query.ts';

const ORGS = '/api/v1/assets/organizations';
const LEDGER = '/api/v1/assets/ledger';
const FACTS = '/api/v1/facts';

type Row = Record<string, unknown> & { id: string };

describe('list lookups', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};
  const names = new Map<string, string>();

  const create = async (base: string, key: string, payload: Record<string, unknown>) => {
    const response = await t.request(acme, { method: 'POST', url: `${base}/`, token: tokens['admin'], payload });
    assert.equal(response.statusCode, 201, response.body);
    ids[key] = (response.json() as Row).id;
    names.set(ids[key], key);
  };
  const get = (base: string, query: string, role = 'admin') =>
    t.request(acme, { method: 'GET', url: `${base}/?limit=100&${query}`, token: tokens[role] });
  /** The keys of the records a list answers, sorted. */
  const found = async (base: string, query: string, role = 'admin'): Promise<string[]> => {
    const response = await get(base, query, role);
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
    const page = response.json() as { count: number; results: Row[] };
    assert.equal(page.count, page.results.length, `${query}: the total counts the same rows`);
    return page.results.map((row) => names.get(row.id) ?? row.id).sort();
  };
  /** The 400 of a query: the parameter it names and its message. */
  const refused = async (base: string, query: string, role = 'admin') => {
    const response = await get(base, query, role);
    assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    const body = response.json() as { errors: Record<string, string[]> };
    const [parameter, messages] = Object.entries(body.errors)[0]!;
    return { parameter, message: messages[0]! };
  };

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
    const org = (key: string, founding: string | null, extra: Record<string, unknown> = {}) =>
      create(ORGS, key, { name_inc: key, founding_date: founding, visibility: 'public', ...extra });
    await org('y2014', '2014', { hq_city: 'Berlin', emails: ['info@y2014.example'] });
    await org('y2015', '2015', { hq_city: 'Paris', ownership_type: 'Private' });
    await org('m201506', '2015-06');
    await org('d20150615', '2015-06-15', { ownership_type: 'Public' });
    await org('y2016', '2016');
    await org('noYear', '--03-04');
    await org('none', null);
    await org('hidden2020', '2020', { visibility: 'hidden' });

    await create(ORGS, 'acmeCapital', { name_inc: 'Acme Capital', visibility: 'public' });
    await create(ORGS, 'hiddenFund', { name_inc: 'Hidden Fund', visibility: 'hidden' });
    await create(LEDGER, 'open', { caption: 'Open', year: 2021, quarter: 'Q2', visibility: 'public', organizations: [ids['acmeCapital'], ids['hiddenFund']] });
    await create(LEDGER, 'paid', { caption: 'Paid', year: 2020, quarter: 'Q4', visibility: 'public' });
    await create(LEDGER, 'secret', { caption: 'Secret', year: 2022, visibility: 'public', organizations: [ids['hiddenFund']] });
  });
  after(() => t.close());

  describe('incomplete dates compare as periods', () => {
    const dated = ['y2014', 'y2015', 'm201506', 'd20150615', 'y2016', 'noYear'];
    const cases: Array<[string, string[]]> = [
      // A year: after its end, from its start, before its start, to its end.
      ['founding_date__gt=2015', ['y2016']],
      ['founding_date__gte=2015', ['d20150615', 'm201506', 'y2015', 'y2016']],
      ['founding_date__lt=2015', ['y2014']],
      ['founding_date__lte=2015', ['d20150615', 'm201506', 'y2014', 'y2015']],
      // A month: a stored year that spans it is neither wholly after nor wholly before it.
      ['founding_date__gt=2015-06', ['y2016']],
      ['founding_date__gte=2015-06', ['d20150615', 'm201506', 'y2016']],
      ['founding_date__lt=2015-06', ['y2014']],
      ['founding_date__lte=2015-06', ['d20150615', 'm201506', 'y2014']],
      // A day.
      ['founding_date__gt=2015-06-15', ['y2016']],
      ['founding_date__gte=2015-06-15', ['d20150615', 'y2016']],
      ['founding_date__lt=2015-06-15', ['y2014']],
      ['founding_date__lte=2015-06-15', ['d20150615', 'y2014']],
      // A range; the ends of the calendar.
      ['founding_date__gte=2015&founding_date__lt=2016', ['d20150615', 'm201506', 'y2015']],
      ['founding_date__lte=9999', ['d20150615', 'm201506', 'y2014', 'y2015', 'y2016']],
      ['founding_date__gt=9999', []],
      ['founding_date__gte=0001-01-01', ['d20150615', 'm201506', 'y2014', 'y2015', 'y2016']],
      // Without a value, or without a year: never compared; asked for as empty or not.
      ['founding_date__empty=true', ['none']],
      ['founding_date__empty=false', [...dated].sort()],
    ];
    for (const [query, expected] of cases) {
      it(query, async () => {
        // As a reader: the hidden organization founded in 2020 is not theirs to see.
        const all = await found(ORGS, query, 'public');
        assert.deepEqual(all.filter((key) => [...dated, 'none'].includes(key)), expected);
      });
    }

    it('people and library entries compare their dates alike', async () => {
      const PEOPLE = '/api/v1/assets/people';
      const LIBRARY = '/api/v1/library';
      await create(PEOPLE, 'born1980', { name_given: 'Ada', name_family: 'Early', birth_date: '1980-05', visibility: 'public' });
      await create(PEOPLE, 'born1995', { name_given: 'Bo', name_family: 'Late', birth_date: '1995', visibility: 'public' });
      assert.deepEqual(await found(PEOPLE, 'birth_date__lt=1990'), ['born1980']);
      assert.deepEqual(await found(PEOPLE, 'birth_date__gte=1995-01'), ['born1995']);
      assert.deepEqual(await found(PEOPLE, 'birth_date__lte=1995-01'), ['born1980']);
      await create(LIBRARY, 'report', { title: 'March report', publish_date: '2019-03-10', visibility: 'public' });
      assert.deepEqual(await found(LIBRARY, 'publish_date__gt=2019-03'), []);
      assert.deepEqual(await found(LIBRARY, 'publish_date__lte=2019-03&publish_date__gte=2019'), ['report']);
    });

    it('the bounds of a period', () => {
      assert.deepEqual(datePeriod('2015'), { start: '2015-01-01', next: '2016-01-01' });
      assert.deepEqual(datePeriod('2016-02'), { start: '2016-02-01', next: '2016-03-01' });
      assert.deepEqual(datePeriod('2016-12-31'), { start: '2016-12-31', next: '2017-01-01' });
      assert.equal(dateBound('gt', datePeriod('2015')!), '2016-01-01');
      assert.equal(dateBound('lt', datePeriod('2015')!), '2015-01-01');
      for (const bad of ['2015-13', '2015-02-30', '15', '2015-1', '--03-04', '0000', '2015-06-15T00:00:00Z']) assert.equal(datePeriod(bad), null, bad);
    });

    it('shows a reader only what they may see', async () => {
      assert.deepEqual((await found(ORGS, 'founding_date__gt=2016', 'admin')).filter((key) => key.startsWith('hidden')), ['hidden2020']);
      assert.deepEqual(await found(ORGS, 'founding_date__gt=2016', 'public'), []);
    });
  });

  describe('is none of, and has no value', () => {
    const orgs = ['d20150615', 'm201506', 'noYear', 'none', 'y2014', 'y2015', 'y2016'];
    const own = (keys: string[]) => keys.filter((key) => orgs.includes(key));

    it('is none of keeps the rows without a value', async () => {
      assert.deepEqual(own(await found(ORGS, 'hq_city__not=Berlin')), orgs.filter((key) => key !== 'y2014'));
      assert.deepEqual(own(await found(ORGS, 'hq_city__not=Berlin,Paris')), orgs.filter((key) => key !== 'y2014' && key !== 'y2015'));
      assert.deepEqual(own(await found(ORGS, 'ownership_type__not=Public&hq_city__not=Paris')), orgs.filter((key) => !['d20150615', 'y2015'].includes(key)));
    });

    it('has no value: text, choices and arrays', async () => {
      assert.deepEqual(own(await found(ORGS, 'hq_city__empty=false')), ['y2014', 'y2015']);
      assert.deepEqual(own(await found(ORGS, 'hq_city__empty=true')), orgs.filter((key) => !['y2014', 'y2015'].includes(key)));
      assert.deepEqual(own(await found(ORGS, 'emails__empty=false')), ['y2014']);
      assert.deepEqual(own(await found(ORGS, 'emails__empty=TRUE&hq_city__empty=false')), ['y2015']);
      assert.deepEqual(await found(ORGS, 'show_on_dashboard__not=false&hq_city=Berlin'), []);
      assert.deepEqual(await found(ORGS, 'show_on_dashboard__not=true&hq_city=Berlin'), ['y2014']);
    });

    it('combines with equality filters and search', async () => {
      assert.deepEqual(await found(ORGS, 'hq_city=Berlin,Paris&founding_date__gte=2015'), ['y2015']);
      assert.deepEqual(await found(ORGS, 'search=y2015&hq_city__not=Berlin'), ['y2015']);
    });

    it('numbers compare, and are none of', async () => {
      assert.deepEqual(await found(LEDGER, 'year__gte=2021'), ['open', 'secret']);
      assert.deepEqual(await found(LEDGER, 'year__gt=2021'), ['secret']);
      assert.deepEqual(await found(LEDGER, 'year__lt=2021'), ['paid']);
      assert.deepEqual(await found(LEDGER, 'year__lte=2021&year__gte=2021'), ['open']);
      assert.deepEqual(await found(LEDGER, 'year__not=2021'), ['paid', 'secret']);
      assert.deepEqual(await found(LEDGER, 'quarter__not=Q1,Q2'), ['paid']);
      assert.deepEqual(await found(LEDGER, 'year__empty=true'), []);
    });
  });

  describe('relations tell nothing of hidden records', () => {
    it('is none of: a hidden record is an id that matches nothing', async () => {
      // The admin sees the hidden fund: entries linked to it are left out.
      assert.deepEqual(await found(LEDGER, `organizations__not=${ids['hiddenFund']}`, 'admin'), ['paid']);
      // A reader does not: the id matches nothing, so every entry is kept, as for an unknown id.
      assert.deepEqual(await found(LEDGER, `organizations__not=${ids['hiddenFund']}`, 'public'), ['open', 'paid', 'secret']);
      assert.deepEqual(await found(LEDGER, 'organizations__not=00000000-0000-4000-8000-000000000000', 'public'), ['open', 'paid', 'secret']);
      assert.deepEqual(await found(LEDGER, `organizations__not=${ids['acmeCapital']}`, 'public'), ['paid', 'secret']);
      assert.deepEqual(await found(LEDGER, `organizations__not=${ids['acmeCapital']!.toUpperCase()},${ids['hiddenFund']}`, 'public'), ['paid', 'secret']);
    });

    it('has no value: links to hidden records alone are none, as the reader sees the field', async () => {
      assert.deepEqual(await found(LEDGER, 'organizations__empty=true', 'admin'), ['paid']);
      assert.deepEqual(await found(LEDGER, 'organizations__empty=true', 'public'), ['paid', 'secret']);
      assert.deepEqual(await found(LEDGER, 'organizations__empty=false', 'public'), ['open']);
      const secret = (await get(LEDGER, 'organizations__empty=true', 'public')).json().results.find((row: Row) => row.id === ids['secret']);
      assert.deepEqual(secret.organizations, []);
    });
  });

  describe('restricted fields', () => {
    it('cannot be filtered by readers below their read access, as if unknown', async () => {
      for (const role of ['public', 'paywall']) {
        const { parameter, message } = await refused(FACTS, 'sources_raw_data__empty=true', role);
        assert.equal(parameter, 'sources_raw_data__empty');
        assert.match(message, /^Unknown filter\./);
        assert.doesNotMatch(message, /sources_raw_data/);
      }
      for (const role of ['research', 'admin']) assert.equal((await get(FACTS, 'sources_raw_data__empty=true', role)).statusCode, 200);
    });

    it('are offered to the readers who may read them', async () => {
      const filtersOf = async (role: string) => {
        const response = await t.request(acme, { method: 'GET', url: `${FACTS}/available-filters/`, token: tokens[role] });
        assert.equal(response.statusCode, 200, response.body);
        return (response.json() as { filters: Array<{ name: string; type: string; lookups: string[] }> }).filters;
      };
      assert.equal((await filtersOf('public')).find((filter) => filter.name === 'sources_raw_data'), undefined);
      assert.deepEqual((await filtersOf('research')).find((filter) => filter.name === 'sources_raw_data'), { name: 'sources_raw_data', type: 'array', lookups: ['empty'], values: [] });
    });
  });

  describe('malformed lookups are a 400 naming the parameter', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['hq_city__like=Berlin', 'hq_city__like', /Unknown lookup "like"\. hq_city takes: hq_city, hq_city__not, hq_city__empty\./],
      ['hq_city__gt=Berlin', 'hq_city__gt', /cannot be filtered this way/],
      ['hq_city__is=Berlin', 'hq_city__is', /cannot be filtered this way.*hq_city,/],
      ['notes__empty=true', 'notes__empty', /^Unknown filter\./],
      ['colour__not=red', 'colour__not', /^Unknown filter\./],
      ['__not=x', '__not', /^Unknown filter\./],
      ['emails__not=a@b.example', 'emails__not', /cannot be filtered this way\. It takes: emails__empty\./],
      ['founding_date=2015', 'founding_date', /cannot be filtered this way/],
      ['founding_date__gt=2015,2016', 'founding_date__gt', /Give one value/],
      ['founding_date__gt=2015&founding_date__gt=2016', 'founding_date__gt', /Give one value/],
      ['founding_date__gt=2015-13', 'founding_date__gt', /Must be a date: YYYY, YYYY-MM or YYYY-MM-DD/],
      ['founding_date__lte=2015-02-29', 'founding_date__lte', /Must be a date/],
      ['founding_date__lt=yesterday', 'founding_date__lt', /Must be a date/],
      ['founding_date__gt__x=2015', 'founding_date__gt__x', /Unknown lookup "gt__x"/],
      ['hq_city__empty=maybe', 'hq_city__empty', /Must be true \(has no value\) or false \(has one\)/],
      ['hq_city__empty=true,false', 'hq_city__empty', /Must be true/],
      ['keywords__not=not-an-id', 'keywords__not', /Must be record ids/],
      ['ownership_type__not=x&hq_city__empty=1', 'hq_city__empty', /Must be true/],
    ];
    for (const [query, parameter, message] of cases) {
      it(query, async () => {
        const refusal = await refused(ORGS, query);
        assert.equal(refusal.parameter, parameter);
        assert.match(refusal.message, message);
      });
    }

    it('numbers the column cannot hold', async () => {
      for (const [query, parameter] of [['year__gt=abc', 'year__gt'], ['year__gte=1e3', 'year__gte'], ['year__lt=9999999999', 'year__lt'], ['year__lte=20.5', 'year__lte'], ['year__not=x', 'year__not']]) {
        assert.equal((await refused(LEDGER, query!)).parameter, parameter);
      }
      assert.equal((await refused(LEDGER, 'quarter__not=Q5')).message, 'Must be one of: Q1, Q2, Q3, Q4.');
    });
  });

  describe('what the lookups are', () => {
    it('available-filters: each filter with its lookups, then the fields that only compare or can be empty', async () => {
      const response = await t.request(acme, { method: 'GET', url: `${ORGS}/available-filters/` });
      assert.equal(response.statusCode, 200, response.body);
      const filters = (response.json() as { filters: Array<{ name: string; type: string; lookups: string[]; values: unknown[] }> }).filters;
      assert.deepEqual(filters.map((filter) => [filter.name, filter.type, filter.lookups.join()]), [
        ['visibility', 'choice', 'is,not,empty'],
        ['show_on_dashboard', 'boolean', 'is,not,empty'],
        ['hq_city', 'choice', 'is,not,empty'],
        ['ownership_type', 'choice', 'is,not,empty'],
        ['keywords', 'relation', 'is,not,empty'],
        ['founding_date', 'date', 'gt,gte,lt,lte,empty'],
        ['emails', 'array', 'empty'],
        ['phones', 'array', 'empty'],
        ['associated_urls', 'array', 'empty'],
      ]);
      assert.deepEqual(filters.find((filter) => filter.name === 'founding_date')!.values, []);
      const ledger = (await t.request(acme, { method: 'GET', url: `${LEDGER}/available-filters/` })).json() as { filters: Array<{ name: string; type: string; lookups: string[] }> };
      assert.deepEqual(ledger.filters.find((filter) => filter.name === 'year')!.lookups, ['is', 'not', 'gt', 'gte', 'lt', 'lte', 'empty']);
      assert.equal(ledger.filters.find((filter) => filter.name === 'order')!.type, 'number');
    });

    it('the resources metadata names every field\'s lookups', async () => {
      const response = await t.request(acme, { method: 'GET', url: '/api/v1/resources/' });
      const meta = (response.json() as ResourceMeta[]).find((resource) => resource.kind === 'organizations')!;
      assert.deepEqual(meta.lookups['founding_date'], ['gt', 'gte', 'lt', 'lte', 'empty']);
      assert.deepEqual(meta.lookups['hq_city'], ['is', 'not', 'empty']);
      assert.deepEqual(meta.lookups['associated_urls'], ['empty']);
      assert.equal(meta.lookups['notes'], undefined);
      const facts = (response.json() as ResourceMeta[]).find((resource) => resource.kind === 'facts')!;
      assert.deepEqual(facts.lookups['sources_raw_data'], ['empty']);
      assert.equal(facts.fields.find((field) => field.name === 'sources_raw_data')!.read_access, 'research');
    });
  });

  describe('exports and bulk actions by list query', () => {
    it('the spreadsheet export holds the rows the lookups match', async () => {
      const response = await get(ORGS, 'format=xlsx&ordering=name_inc&founding_date__gte=2015&hq_city__not=Paris', 'public');
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      const rows = await readSheet(response.rawPayload);
      const column = rows[0]!.map(String).indexOf('name_inc');
      assert.deepEqual(rows.slice(1).map((row) => row[column]), ['d20150615', 'm201506', 'y2016']);
      assert.equal((await refused(ORGS, 'format=xlsx&founding_date__gte=2015-00')).parameter, 'founding_date__gte');
    });

    it('all_matching takes lookups, and names a bad one', async () => {
      const bulk = (body: Record<string, unknown>) => t.request(acme, { method: 'POST', url: `${ORGS}/bulk/`, token: tokens['admin'], payload: body });
      const done = await bulk({ action: 'set_visibility', all_matching: { founding_date__lt: '2015', hq_city__not: 'Paris' }, visibility: 'paywalled' });
      assert.equal(done.statusCode, 200, done.body);
      assert.deepEqual(await found(ORGS, 'visibility=paywalled'), ['y2014']);
      const bad = await bulk({ action: 'set_visibility', all_matching: { founding_date__lt: '2015,2016' }, visibility: 'public' });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.deepEqual(Object.keys(bad.json().errors), ['all_matching.founding_date__lt']);
    });
  });
});

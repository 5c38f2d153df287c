// The Operator's conditions ⇄ list parameters (features/search/operator/query-model.ts): the
// chips of an answer and /organizations/subquery's URL are the same conditions, by the engine's
// fixed parameter names; a URL parameter that is no allowed condition is set aside, never sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Lookup, QueryConditionInput, StructuredQueryInput } from '@intelnotes/server/contracts';
import {
  conditionParam,
  conditionParams,
  conditionProblem,
  conditionsFromParams,
  conditionText,
  isIncompleteDate,
  listPagePath,
  opsOf,
  orderingFromParam,
  orderingParam,
  paramCondition,
  putCondition,
  replaceCondition,
  subqueryPath,
  withConditions,
} from './query-model';

const LOOKUPS: Record<string, Lookup[]> = {
  hq_city: ['is', 'not', 'empty'],
  ownership_type: ['is', 'not', 'empty'],
  keywords: ['is', 'not', 'empty'],
  founding_date: ['gt', 'gte', 'lt', 'lte', 'empty'],
  emails: ['empty'],
};
const lookupsOf = (field: string) => LOOKUPS[field];

const berlin: QueryConditionInput = { field: 'hq_city', op: 'is', values: ['Berlin'], labels: ['Berlin'] };
const after2015: QueryConditionInput = { field: 'founding_date', op: 'gt', values: ['2015'], labels: ['2015'] };

describe('conditions as list parameters', () => {
  it('names each op as the engine does', () => {
    assert.deepEqual(conditionParam(berlin), ['hq_city', 'Berlin']);
    assert.deepEqual(conditionParam({ field: 'hq_city', op: 'not', values: ['Berlin', 'Paris'] }), ['hq_city__not', 'Berlin,Paris']);
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      assert.deepEqual(conditionParam({ field: 'founding_date', op, values: ['2015-06'] }), [`founding_date__${op}`, '2015-06']);
    }
    assert.deepEqual(conditionParam({ field: 'emails', op: 'empty', values: [] }), ['emails__empty', 'true']);
    assert.deepEqual(conditionParam({ field: 'emails', op: 'not_empty', values: [] }), ['emails__empty', 'false']);
  });

  it('reads them back, in the URL order, leaving paging, ordering and search alone', () => {
    const params = new URLSearchParams('page=2&hq_city=Berlin,Munich&ordering=-founding_date&founding_date__gt=2015&search=lithium&emails__empty=false&limit=25');
    const { conditions, ignored } = conditionsFromParams(params, lookupsOf);
    assert.deepEqual(ignored, []);
    assert.deepEqual(conditions, [
      { field: 'hq_city', op: 'is', values: ['Berlin', 'Munich'], labels: ['Berlin', 'Munich'] },
      { field: 'founding_date', op: 'gt', values: ['2015'], labels: ['2015'] },
      { field: 'emails', op: 'not_empty', values: [], labels: [] },
    ]);
    // Round trip: the parameters the conditions make are the ones read.
    assert.deepEqual(conditionParams(conditions), { hq_city: 'Berlin,Munich', founding_date__gt: '2015', emails__empty: 'false' });
  });

  it('sets aside what is no allowed condition instead of sending it', () => {
    const params = new URLSearchParams(
      'unknown=1&hq_city__gt=B&founding_date=2015&founding_date__gt=2015,2016&emails__empty=maybe&hq_city__nope=x&keywords=&founding_date__between=1',
    );
    const { conditions, ignored } = conditionsFromParams(params, lookupsOf);
    assert.deepEqual(conditions, []);
    assert.deepEqual(ignored, ['unknown', 'hq_city__gt', 'founding_date', 'founding_date__gt', 'emails__empty', 'hq_city__nope', 'keywords', 'founding_date__between']);
  });

  it('drops empty values between commas', () => {
    assert.deepEqual(paramCondition('hq_city', 'Berlin,,Paris,', lookupsOf)?.values, ['Berlin', 'Paris']);
  });

  it('replaces the conditions of a URL, keeping its search, ordering and page size and going back to page 1', () => {
    const params = new URLSearchParams('hq_city=Berlin&founding_date__gt=2015&ordering=-founding_date&page=3&page_size=50&search=solar');
    const next = withConditions(params, replaceCondition([berlin, after2015], 1, null));
    assert.equal(next.toString(), 'ordering=-founding_date&page_size=50&search=solar&hq_city=Berlin');
    const added = withConditions(next, replaceCondition([berlin], 1, { field: 'emails', op: 'empty', values: [], labels: [] }));
    assert.equal(added.get('emails__empty'), 'true');
    assert.equal(added.get('hq_city'), 'Berlin');
  });

  it('joins a condition to the one setting the same parameter, since the list takes one value each', () => {
    const munich: QueryConditionInput = { field: 'hq_city', op: 'is', values: ['Munich', 'Berlin'], labels: ['Munich', 'Berlin'] };
    assert.deepEqual(putCondition([berlin, after2015], 2, munich), [{ ...berlin, values: ['Berlin', 'Munich'], labels: ['Berlin', 'Munich'] }, after2015]);
    const before2020: QueryConditionInput = { field: 'founding_date', op: 'gt', values: ['2020'], labels: ['2020'] };
    assert.deepEqual(putCondition([berlin, after2015], 2, before2020), [berlin, before2020]);
    // Edited into the parameter of another: the two become one.
    assert.deepEqual(putCondition([berlin, after2015], 1, { ...berlin, values: ['Hamburg'], labels: ['Hamburg'] }), [{ ...berlin, values: ['Berlin', 'Hamburg'], labels: ['Berlin', 'Hamburg'] }]);
    // "has a value" replaces "is empty": both are emails__empty.
    const empty: QueryConditionInput = { field: 'emails', op: 'empty', values: [], labels: [] };
    assert.deepEqual(putCondition([empty], 1, { ...empty, op: 'not_empty' }), [{ ...empty, op: 'not_empty' }]);
  });

  it('edits one condition in place', () => {
    const edited = replaceCondition([berlin, after2015], 0, { ...berlin, values: ['Hamburg'], labels: ['Hamburg'] });
    assert.deepEqual(edited.map((condition) => condition.values[0]), ['Hamburg', '2015']);
  });
});

describe('ordering', () => {
  it('is the ordering parameter and back', () => {
    const ordering = [
      { field: 'founding_date', descending: true },
      { field: 'name_inc', descending: false },
    ];
    assert.equal(orderingParam(ordering), '-founding_date,name_inc');
    assert.deepEqual(orderingFromParam('-founding_date, name_inc,'), ordering);
    assert.deepEqual(orderingFromParam(''), []);
  });
});

describe('links out of an answer', () => {
  const query: StructuredQueryInput = {
    entity: 'organizations',
    search: 'solar',
    conditions: [berlin, after2015],
    ordering: [{ field: 'founding_date', descending: true }],
    limit: 10,
  };

  it('opens an organizations answer as a subquery, without its limit', () => {
    assert.equal(subqueryPath(query), '/organizations/subquery?hq_city=Berlin&founding_date__gt=2015&search=solar&ordering=-founding_date');
    assert.equal(subqueryPath({ ...query, search: null, conditions: [], ordering: [] }), '/organizations/subquery');
  });

  it('opens another answer in its list only when the list can show all of it', () => {
    const people: StructuredQueryInput = { entity: 'people', search: null, conditions: [{ field: 'keywords', op: 'is', values: ['k1'], labels: ['fintech'] }], ordering: [], limit: 25 };
    assert.equal(listPagePath(people, '/people?tab=1', ['keywords']), '/people?tab=1&keywords=k1');
    assert.equal(listPagePath({ ...people, conditions: [{ field: 'emails', op: 'empty', values: [], labels: [] }] }, '/people?tab=1', ['keywords']), null);
    assert.equal(listPagePath({ ...people, conditions: [{ field: 'city', op: 'is', values: ['x'], labels: ['x'] }] }, '/people?tab=1', ['keywords']), null);
  });
});

describe('conditions in words', () => {
  it('reads dates, numbers, lists and emptiness', () => {
    assert.equal(conditionText(berlin, 'HQ city', 'other'), 'HQ city is Berlin');
    assert.equal(conditionText({ op: 'is', values: ['a', 'b'], labels: ['Acme', 'Beta'] }, 'Organizations', 'other'), 'Organizations is any of Acme, Beta');
    assert.equal(conditionText({ op: 'not', values: ['a'], labels: ['Acme'] }, 'Organizations', 'other'), 'Organizations is not Acme');
    assert.equal(conditionText(after2015, 'Founding date', 'date'), 'Founding date after 2015');
    assert.equal(conditionText({ op: 'gte', values: ['5000000'], labels: ['5000000'] }, 'Amount', 'number'), 'Amount at least 5000000');
    assert.equal(conditionText({ op: 'empty', values: [], labels: [] }, 'Emails', 'other'), 'Emails is empty');
    assert.equal(conditionText({ op: 'not_empty', values: [], labels: [] }, 'Emails', 'other'), 'Emails has a value');
  });

  it('offers "is empty" and "has a value" for the one empty lookup', () => {
    assert.deepEqual(opsOf(['is', 'empty']), ['is', 'empty', 'not_empty']);
    assert.deepEqual(opsOf(['gt', 'lte']), ['gt', 'lte']);
  });
});

describe('values checked before they are sent', () => {
  it('knows incomplete dates', () => {
    for (const good of ['2015', '2015-02', '2016-02-29']) assert.ok(isIncompleteDate(good), good);
    for (const bad of ['15', '2015-13', '2015-02-30', '2015/02', '2015-2', 'soon', '']) assert.ok(!isIncompleteDate(bad), bad);
  });

  it('names what is wrong', () => {
    assert.equal(conditionProblem({ op: 'is', values: [] }, 'other'), 'Give a value.');
    assert.equal(conditionProblem({ op: 'gt', values: ['2015', '2016'] }, 'date'), 'Give one value to compare with.');
    assert.equal(conditionProblem({ op: 'gt', values: ['last year'] }, 'date'), 'Give a date as YYYY, YYYY-MM or YYYY-MM-DD.');
    assert.equal(conditionProblem({ op: 'gt', values: ['5M'] }, 'number'), 'Give a number, e.g. 5000000 or 2.5.');
    assert.equal(conditionProblem({ op: 'gt', values: ['2015-06'] }, 'date'), null);
    assert.equal(conditionProblem({ op: 'empty', values: [] }, 'other'), null);
  });
});

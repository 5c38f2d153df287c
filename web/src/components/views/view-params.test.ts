// A table's settings as URL parameters (components/views/view-params.ts): what a saved view
// writes into the URL, how the URL is compared with it, and a grouped list's ordering.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupedOrdering, sameSettings, settingsOf, viewParams } from './view-params';

const META = { filters: ['hq_city', 'ownership_type', 'visibility'], ordering: ['name_inc', 'founding_date', 'year'], default_ordering: '-updated_at' };
const STATE = {
  search: 'port', ordering: '-founding_date', filters: { hq_city: ['Porto', 'Faro'], founding_date__gte: ['2015'] },
  columns: ['display_name', 'hq_city'], density: 'compact' as const, group_by: 'ownership_type', page_size: 50 as const,
};

describe('view params', () => {
  it('writes a view\'s settings as the table writes its URL; page sizes and lookups the page does not show are left out', () => {
    assert.deepEqual(viewParams(STATE, META, 25), {
      search: 'port', ordering: '-founding_date', hq_city: 'Porto,Faro', page_size: '50',
      group_by: 'ownership_type', columns: 'display_name,hq_city', density: 'compact',
    });
    assert.equal(viewParams({ ...STATE, page_size: 50 }, META, 50)['page_size'], undefined, 'the table\'s own page size is no setting');
    assert.deepEqual(viewParams({ search: '', ordering: '', filters: {}, columns: null, density: null, group_by: null, page_size: null }, META, 25), {});
  });

  it('a URL holds the view when its settings are the view\'s, whatever the page, tab and view id', () => {
    const url = new URLSearchParams({ tab: '1', view: 'abc', page: '3', ...viewParams(STATE, META, 25) });
    assert.ok(sameSettings(viewParams(STATE, META, 25), settingsOf(url)));
    url.set('density', 'comfortable');
    assert.ok(!sameSettings(viewParams(STATE, META, 25), settingsOf(url)), 'another density is the view edited');
    url.set('density', 'compact');
    url.set('visibility', 'public');
    assert.ok(!sameSettings(viewParams(STATE, META, 25), settingsOf(url)), 'one more filter is the view edited');
  });

  it('a grouped list orders by the group first when it can', () => {
    assert.equal(groupedOrdering('', 'year', META), 'year,-updated_at');
    assert.equal(groupedOrdering('name_inc', 'year', META), 'year,name_inc');
    assert.equal(groupedOrdering('-year,name_inc', 'year', META), '-year,name_inc', 'already first: kept, descending too');
    assert.equal(groupedOrdering('name_inc,-year', 'year', META), 'year,name_inc');
    assert.equal(groupedOrdering('name_inc', 'ownership_type', META), 'name_inc', 'a field the list cannot order by');
    assert.equal(groupedOrdering('name_inc', null, META), 'name_inc');
  });
});

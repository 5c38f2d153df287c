/**
 * Two filters every list takes from its declaration (docs/engine.md, "Lookups"): list membership
 * (`lists=<ids>`, `lists__not=<ids>`) on resources whose records can be list items, and the
 * timestamp ranges (`created_at_after`, `updated_at_before` …) on every resource. A hidden list
 * matches nothing for a reader who cannot see it, as an unknown id; another tenant's list too.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { filterFixture } from '../test/filter-fixture.ts';

const ORGS = '/api/v1/assets/organizations';
const LEDGER = '/api/v1/assets/ledger';
const LISTS = '/api/v1/lists';

describe('list membership and timestamp range filters', () => {
  const { ctx, ids, post, found, refused } = filterFixture();

  before(async () => {
    const { acme, beta, tokens } = ctx;
    const admin = tokens['admin'];
    await post(acme, admin, LISTS, 'open', { name: 'Open', kind: 'OrganizationsList', visibility: 'public', auto_tagging: false });
    await post(acme, admin, LISTS, 'secret', { name: 'Secret', kind: 'OrganizationsList', visibility: 'hidden', auto_tagging: false });
    await post(beta, tokens['beta'], LISTS, 'theirs', { name: 'Theirs', kind: 'OrganizationsList', visibility: 'public', auto_tagging: false });
    await post(acme, admin, ORGS, 'inOpen', { name_inc: 'In Open', visibility: 'public', lists: [ids['open']] });
    await post(acme, admin, ORGS, 'inSecret', { name_inc: 'In Secret', visibility: 'public', lists: [ids['secret']] });
    await post(acme, admin, ORGS, 'inBoth', { name_inc: 'In Both', visibility: 'public', lists: [ids['open'], ids['secret']] });
    await post(acme, admin, ORGS, 'hiddenInOpen', { name_inc: 'Hidden In Open', visibility: 'hidden', lists: [ids['open']] });
    await post(acme, admin, ORGS, 'none', { name_inc: 'In None', visibility: 'public' });
  });

  it('lists=<ids> keeps the records in any of the lists, lists__not those in none', async () => {
    assert.deepEqual(await found(ORGS, `lists=${ids['open']}`), ['hiddenInOpen', 'inBoth', 'inOpen']);
    assert.deepEqual(await found(ORGS, `lists=${ids['open']},${ids['secret']}`), ['hiddenInOpen', 'inBoth', 'inOpen', 'inSecret']);
    assert.deepEqual(await found(ORGS, `lists__not=${ids['open']}`), ['inSecret', 'none']);
    assert.deepEqual(await found(ORGS, `lists=${ids['open']}&lists__not=${ids['secret']}`), ['hiddenInOpen', 'inOpen']);
  });

  it('a reader meets only what they may see: hidden records are not counted, a hidden list matches nothing', async () => {
    for (const role of ['public', 'paywall']) {
      assert.deepEqual(await found(ORGS, `lists=${ids['open']}`, role), ['inBoth', 'inOpen'], role);
      assert.deepEqual(await found(ORGS, `lists=${ids['secret']}`, role), [], role);
      // As an unknown id: excluding a list the reader cannot see excludes nothing.
      assert.deepEqual(await found(ORGS, `lists__not=${ids['secret']}`, role), ['inBoth', 'inOpen', 'inSecret', 'none'], role);
    }
    assert.deepEqual(await found(ORGS, `lists=${ids['theirs']}`), [], "another tenant's list");
  });

  it('a membership value that is not an id is a 400 naming the parameter; resources without lists do not take it', async () => {
    assert.deepEqual(await refused(ORGS, 'lists=top-fintech'), { lists: ['Must be list ids.'] });
    assert.match((await refused(LISTS, `lists=${ids['open']}`))['lists']![0]!, /Unknown filter/);
  });

  it('created_at and updated_at ranges work on every resource', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all = ['hiddenInOpen', 'inBoth', 'inOpen', 'inSecret', 'none'];
    assert.deepEqual(await found(ORGS, 'created_at_after=2000-01-01'), all);
    assert.deepEqual(await found(ORGS, `created_at_before=${today}`), []);
    assert.deepEqual(await found(ORGS, 'updated_at_after=2000-01-01&updated_at_before=2020-01-01'), []);
    assert.deepEqual(await found(LEDGER, 'created_at_after=2000-01-01'), []);
    assert.deepEqual(await found(LISTS, 'created_at_after=2000-01-01'), ['open', 'secret']);
    assert.deepEqual(await refused(ORGS, 'created_at_after=yesterday'), { created_at_after: ['Must be a date (YYYY-MM-DD) or an ISO 8601 date-time.'] });
  });
});

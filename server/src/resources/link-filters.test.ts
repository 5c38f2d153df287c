/**
 * Link filters (resource.ts `links`, docs/engine.md "Lookups"): a list filtered through a chain
 * of other records' relations — people on ledger entries with an organization, organizations of
 * the deals an investor holds stakes in, ledger entries an investor holds stakes in, organizations
 * holding stakes in deals of another. Every record on the way must be visible to the reader, so a
 * link through a hidden deal or stake tells a reader nothing; malformed ids are a 400 naming the
 * parameter; another tenant's records match nothing.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { filterFixture } from '../test/filter-fixture.ts';

const ORGS = '/api/v1/assets/organizations';
const PEOPLE = '/api/v1/assets/people';
const LEDGER = '/api/v1/assets/ledger';
const INVESTMENTS = '/api/v1/assets/investments';

describe('link filters', () => {
  const { ctx, ids, post, found, refused } = filterFixture();

  before(async () => {
    const { acme, beta, tokens } = ctx;
    const admin = tokens['admin'];
    for (const name of ['Acme', 'Globex', 'Initech', 'Hooli']) await post(acme, admin, ORGS, name, { name_inc: name, visibility: 'public' });
    await post(acme, admin, PEOPLE, 'Jane', { name_given: 'Jane', name_family: 'Doe', visibility: 'public' });
    await post(acme, admin, PEOPLE, 'Jean', { name_given: 'Jean', name_family: 'Dupont', visibility: 'public' });
    await post(acme, admin, PEOPLE, 'Aiko', { name_given: 'Aiko', name_family: 'Sato', visibility: 'public' });
    await post(acme, admin, LEDGER, 'acmeRound', { caption: 'Acme round', year: 2022, visibility: 'public', organizations: [ids['Acme']], people: [ids['Jane']] });
    await post(acme, admin, LEDGER, 'initechRound', { caption: 'Initech round', year: 2021, visibility: 'public', organizations: [ids['Initech']], people: [ids['Aiko']] });
    await post(acme, admin, LEDGER, 'secretRound', { caption: 'Secret round', year: 2020, visibility: 'hidden', organizations: [ids['Globex']], people: [ids['Jean']] });
    // Globex and Jane hold public stakes; Hooli's stake in the Acme round is hidden.
    await post(acme, admin, INVESTMENTS, 'globexInAcme', { ledger_entry: ids['acmeRound'], owner: ids['Globex'], visibility: 'public' });
    await post(acme, admin, INVESTMENTS, 'janeInInitech', { ledger_entry: ids['initechRound'], owner_person: ids['Jane'], visibility: 'public' });
    await post(acme, admin, INVESTMENTS, 'hooliInAcme', { ledger_entry: ids['acmeRound'], owner: ids['Hooli'], visibility: 'hidden' });
    await post(beta, tokens['beta'], ORGS, 'theirs', { name_inc: 'Theirs', visibility: 'public' });
  });

  it('people on ledger entries with an organization, and organizations on entries with a person', async () => {
    assert.deepEqual(await found(PEOPLE, `linked_organizations=${ids['Acme']}`), ['Jane']);
    assert.deepEqual(await found(PEOPLE, `linked_organizations=${ids['Acme']},${ids['Initech']}`), ['Aiko', 'Jane']);
    assert.deepEqual(await found(PEOPLE, `linked_organizations__not=${ids['Acme']}`), ['Aiko', 'Jean']);
    assert.deepEqual(await found(ORGS, `linked_people=${ids['Aiko']}`), ['Initech']);
  });

  it('investments: what an investor holds stakes in, and who holds stakes in an organization', async () => {
    assert.deepEqual(await found(ORGS, `investors=${ids['Globex']}`), ['Acme']);
    assert.deepEqual(await found(ORGS, `investors=${ids['Jane']}`), ['Initech'], 'an organization or a person');
    assert.deepEqual(await found(LEDGER, `investors=${ids['Jane']}`), ['initechRound']);
    assert.deepEqual(await found(ORGS, `invested_in=${ids['Acme']}`), ['Globex', 'Hooli']);
    assert.deepEqual(await found(PEOPLE, `invested_in=${ids['Initech']}`), ['Jane']);
  });

  it('a link through a record the reader may not see tells them nothing', async () => {
    assert.deepEqual(await found(PEOPLE, `linked_organizations=${ids['Globex']}`), ['Jean']);
    assert.deepEqual(await found(PEOPLE, `linked_organizations=${ids['Globex']}`, 'paywall'), [], 'only a hidden deal links them');
    assert.deepEqual(await found(ORGS, `invested_in=${ids['Acme']}`, 'public'), ['Globex'], "Hooli's stake is hidden");
    assert.deepEqual(await found(ORGS, `investors=${ids['Hooli']}`, 'public'), []);
    assert.deepEqual(await found(ORGS, `investors=${ids['theirs']}`), [], "another tenant's id matches nothing");
  });

  it('malformed ids and lookups are a 400 naming the parameter', async () => {
    // Organizations have no such link (people do): an unknown filter, naming the links they have.
    assert.match((await refused(ORGS, 'linked_organizations=acme'))['linked_organizations']![0]!, /Unknown filter.*investors/);
    assert.deepEqual(await refused(ORGS, 'investors__not=1'), { investors__not: ['Must be record ids.'] });
    assert.ok((await refused(ORGS, 'investors__gt=2020'))['investors__gt']);
    assert.deepEqual(await refused(PEOPLE, 'linked_organizations=acme'), { linked_organizations: ['Must be record ids.'] });
  });
});

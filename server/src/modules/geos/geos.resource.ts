/**
 * Geos (countries and regions) and cities: shared by every tenant (no
 * tenant_id; row-level security lets everyone read and only tenant managers
 * write). They are never deleted: records of every tenant may point at them
 * (ledger entries' geos, cities' country), and a delete could only remove the
 * references the deleting tenant can see, leaving other tenants' records
 * pointing at nothing. A wrong entry is renamed or corrected instead.
 */
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { fieldError } from '../../resources/errors.ts';
import { choice, decimal, integer, relation, text } from '../../resources/fields.ts';
import { defineResource, type SaveContext } from '../../resources/resource.ts';
import { unique } from '../keywords/unique.ts';
import { isCountryCode } from './countries.ts';

const REGION_CODE = /^[A-Z0-9][A-Z0-9-]{1,11}$/;

/**
 * A country's code is its ISO 3166-1 alpha-2 code; a region has a code of
 * its own (2–12 letters, digits or dashes) that is not a country's, and
 * groups countries only (a country groups nothing).
 */
async function checkGeo({ tx, record, current }: SaveContext): Promise<Record<string, unknown>> {
  const code = String(record['code'] ?? '').toUpperCase();
  const type = record['geo_type'] ?? 'country';
  const countries = (record['countries'] as string[] | null) ?? [];
  if (type === 'country') {
    if (!/^[A-Z]{2}$/.test(code) || !isCountryCode(code)) {
      throw fieldError('code', 'A country needs its ISO 3166-1 alpha-2 code (two letters, e.g. DE).');
    }
    if (countries.length > 0) throw fieldError('countries', 'Only a region groups countries; leave this empty for a country.');
  } else {
    if (!REGION_CODE.test(code)) throw fieldError('code', 'A region code has 2 to 12 letters, digits or dashes (e.g. EU, LATAM).');
    if (isCountryCode(code)) throw fieldError('code', `${code} is a country's ISO code; choose another code for the region.`);
    if (current && current['geo_type'] === 'country') {
      // Regions group countries only, so a country that a region groups cannot become one.
      const groupedBy = await query<{ name: string }>(tx, sql`SELECT name FROM geos WHERE countries @> ARRAY[${current.id}::uuid] LIMIT 3`);
      if (groupedBy.length > 0) {
        throw fieldError('geo_type', `This country belongs to ${groupedBy.map((row) => row.name).join(', ')}; remove it from there before making it a region.`);
      }
    }
    if (countries.length > 0) {
      const regions = await query<{ name: string }>(
        tx,
        sql`SELECT name FROM geos WHERE id IN (${sql.join(countries.map((id) => sql`${id}::uuid`), sql`, `)}) AND geo_type <> 'country'`,
      );
      if (regions.length > 0) throw fieldError('countries', `A region groups countries only; ${regions.map((row) => row.name).join(', ')} is a region.`);
    }
  }
  return { code };
}

export const geos = defineResource({
  kind: 'geos',
  type: 'Geo',
  path: '/geos',
  table: 'geos',
  label: 'Geo',
  summary: ['code', 'geo_type'],
  scope: 'shared',
  writeAccess: 'manage-tenants',
  deletable: false,
  search: { fields: { name: 'A', code: 'A' } },
  fields: {
    name: text({ max: 200, required: true }),
    code: text({ max: 12, required: true }),
    geo_type: choice(['country', 'region'] as const, { default: 'country' }),
    countries: relation('geos', { max: 300, inverseLabel: 'Regions' }),
  },
  ordering: ['name', 'code', 'geo_type'],
  defaultOrdering: 'name',
  filters: ['geo_type'],
  identity: { names: ['name'] },
  headerAliases: { country: 'name', region: 'name', iso: 'code', 'iso code': 'code', type: 'geo_type' },
  beforeSave: [
    checkGeo,
    unique({
      field: 'code',
      value: (record) => (typeof record['code'] === 'string' ? record['code'] : null),
      // The same expression as the unique index geos_code_key.
      matches: (code) => sql`upper(code) = upper(${code})`,
      message: 'Another geo already has this code (codes are compared ignoring case).',
    }),
  ],
});

/** A city's country must be a country, not a region. */
async function checkCity({ tx, record }: SaveContext): Promise<void> {
  const country = record['country'];
  if (typeof country !== 'string') return;
  const [row] = await query<{ geo_type: string }>(tx, sql`SELECT geo_type FROM geos WHERE id = ${country}`);
  if (row && row.geo_type !== 'country') throw fieldError('country', 'Choose a country, not a region.');
}

export const cities = defineResource({
  kind: 'cities',
  type: 'City',
  path: '/cities',
  table: 'cities',
  label: 'City',
  plural: 'Cities',
  summary: ['admin_area', 'country'],
  scope: 'shared',
  writeAccess: 'manage-tenants',
  deletable: false,
  search: { fields: { name: 'A', admin_area: 'C' } },
  fields: {
    name: text({ max: 200, required: true }),
    country: relation('geos', { many: false }),
    admin_area: text({ max: 200 }),
    latitude: decimal({ min: -90, max: 90, scale: 6 }),
    longitude: decimal({ min: -180, max: 180, scale: 6 }),
    population: integer({ min: 0, max: 2_000_000_000 }),
  },
  ordering: ['name', 'population', 'admin_area'],
  defaultOrdering: 'name',
  filters: ['country'],
  identity: { names: ['name'] },
  headerAliases: { city: 'name', state: 'admin_area', province: 'admin_area', region: 'admin_area', lat: 'latitude', lng: 'longitude', lon: 'longitude' },
  beforeSave: [checkCity],
});

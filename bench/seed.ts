/**
 * Creates a fresh benchmark database: the app's migrations, 50 tenants with an
 * admin each, and (by default) 1,000,000 organizations plus 1,000,000 people
 * with the largest tenant holding 400,000 of each.
 *
 *   node --import tsx bench/seed.ts [database]
 *
 * The bulk load runs as the superuser owner connection, so row-level security
 * does not apply. To keep it within minutes on two cores:
 * - rows are generated inside PostgreSQL (INSERT … SELECT generate_series),
 *   organizations and people on two connections at once;
 * - the secondary indexes (trigram GINs above all, and search_words') are dropped before the load
 *   and rebuilt from their own definitions afterwards, which is several times
 *   faster than maintaining them row by row;
 * - `session_replication_role = replica` switches triggers off for the loading
 *   sessions only: the per-row entity_counters trigger would turn 2M inserts
 *   into 2M upserts of a handful of hot rows, and the tenant foreign-key
 *   checks are redundant for ids this script has just inserted. The counters
 *   are then rebuilt with one INSERT … SELECT … GROUP BY and checked, and quick search's
 *   words (search_words) written from the search vectors in one INSERT … SELECT per table.
 */
import pg from 'pg';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { openPostgres } from '../server/src/db/client.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { RESOURCES } from '../server/src/modules/registry.ts';
import { applySearchIndexes } from '../server/src/resources/search-index.ts';
import { readSettings, tenantCode, tenantSizes, type BenchSettings } from './config.ts';
import * as words from './words.ts';

const LOADED_TABLES = ['organizations', 'people'] as const;
type LoadedTable = (typeof LOADED_TABLES)[number];

/** Rows per INSERT statement: small enough for steady progress lines. */
const CHUNK = 50_000;
/** Timestamps are spread back from a fixed instant so reruns produce the same data. */
const ANCHOR = '2025-11-01T00:00:00Z';
const SEED = 0.4242;

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (message: string) => console.log(`[${elapsed().padStart(8)}] ${message}`);

/** `arr[1 + floor(random() * n)]`: a uniformly random element of a text[] parameter. */
const pick = (param: string) => `(${param}::text[])[1 + floor(random() * cardinality(${param}::text[]))::int]`;

// Every random() sits in the select list of the generate_series subquery so it
// is drawn once per row (a random() in an uncorrelated subquery would be drawn
// once per statement).
const ORGANIZATIONS_SQL = `
WITH g AS (
  SELECT i, random() AS r_status, random() AS r_shape, random() AS r_dba, random() AS r_founded,
         random() AS r_mail, random() AS r_phone, random() AS r_url, random() AS r_notes, random() AS r_city,
         random() AS r_dashboard, random() AS r_visibility, random() AS r_updated, random() AS r_created,
         random() AS r_ownership, ${pick('$4')} AS prefix, ${pick('$5')} AS core, ${pick('$5')} AS core2, ${pick('$6')} AS suffix,
         ${pick('$7')} AS ownership, ${pick('$8')} AS city, ${pick('$9')} AS family, ${pick('$10')} AS event
  FROM generate_series($2::int, $3::int) AS i
), named AS (
  SELECT g.*,
         CASE WHEN r_shape < 0.55 THEN prefix || ' ' || core
              WHEN r_shape < 0.80 THEN family || ' ' || core
              ELSE prefix || ' ' || family END AS base
  FROM g
), slugged AS (
  SELECT named.*, regexp_replace(lower(f_unaccent(base)), '[^a-z0-9]+', '', 'g') AS slug,
         $11::timestamptz - (r_updated * r_updated) * interval '8 years' AS updated
  FROM named
)
INSERT INTO organizations (
  tenant_id, status, name_inc, name_dba, ownership_type, founding_date, emails, phones, associated_urls,
  notes, hq_city, show_on_dashboard, visibility, created_at, updated_at)
SELECT $1::uuid,
       CASE WHEN r_status < 0.01 THEN 'suggested' ELSE 'active' END,
       base || ' ' || suffix,
       CASE WHEN r_dba < 0.3 THEN prefix || ' ' || core2 END,
       CASE WHEN r_ownership < 0.9 THEN ownership END,
       CASE WHEN r_founded < 0.8 THEN date '1950-01-01' + floor(r_founded / 0.8 * 26000)::int END,
       CASE WHEN r_mail < 0.6 THEN ARRAY['info@' || slug || '.com'] ELSE '{}' END,
       CASE WHEN r_phone < 0.5 THEN ARRAY['+1 555 ' || lpad((i % 10000000)::text, 7, '0')] ELSE '{}' END,
       CASE WHEN r_url < 0.5 THEN ARRAY['https://www.' || slug || '.com'] ELSE '{}' END,
       CASE WHEN r_notes < 0.2 THEN 'Met the founders at ' || event || ' in ' || city || '. Follow up on the '
                                     || lower(core) || ' pipeline.' END,
       CASE WHEN r_city < 0.9 THEN city END,
       r_dashboard < 0.005,
       CASE WHEN r_visibility < 0.4 THEN 'public' WHEN r_visibility < 0.7 THEN 'paywalled' ELSE 'hidden' END,
       updated - r_created * interval '3 years',
       updated
FROM slugged`;

const PEOPLE_SQL = `
WITH g AS (
  SELECT i, random() AS r_status, random() AS r_gender, random() AS r_family, random() AS r_nick, random() AS r_legal,
         random() AS r_birth, random() AS r_mail, random() AS r_work_mail, random() AS r_phone, random() AS r_url,
         random() AS r_city, random() AS r_street, random() AS r_country, random() AS r_met, random() AS r_profile,
         random() AS r_notes, random() AS r_about, random() AS r_fav, random() AS r_dashboard, random() AS r_visibility,
         random() AS r_updated, random() AS r_created,
         ${pick('$4')} AS given_f, ${pick('$5')} AS given_m, ${pick('$6')} AS family, ${pick('$6')} AS family2,
         ${pick('$7')} AS city, ${pick('$8')} AS country, ${pick('$9')} AS title, ${pick('$10')} AS event,
         ${pick('$11')} AS mail_domain, ${pick('$12')} AS org_prefix, ${pick('$13')} AS org_core
  FROM generate_series($2::int, $3::int) AS i
), named AS (
  SELECT g.*,
         CASE WHEN r_gender < 0.5 THEN given_f ELSE given_m END AS given,
         CASE WHEN r_family < 0.97 THEN family END AS family_name,
         org_prefix || ' ' || org_core AS employer,
         $14::timestamptz - (r_updated * r_updated) * interval '8 years' AS updated
  FROM g
), slugged AS (
  SELECT named.*,
         regexp_replace(lower(f_unaccent(given)), '[^a-z0-9]+', '', 'g') AS given_slug,
         regexp_replace(lower(f_unaccent(coalesce(family_name, family))), '[^a-z0-9]+', '', 'g') AS family_slug,
         regexp_replace(lower(f_unaccent(employer)), '[^a-z0-9]+', '', 'g') AS employer_slug
  FROM named
)
INSERT INTO people (
  tenant_id, status, name_given, name_family, name_nickname, name_legal, gender, birth_date,
  emails, phones, associated_urls, current_address_city, current_address_street, passport_country,
  met_event_name, met_event_date, professional_profile, notes, about, is_fav, show_on_dashboard, visibility,
  created_at, updated_at)
SELECT $1::uuid,
       CASE WHEN r_status < 0.01 THEN 'suggested' ELSE 'active' END,
       given,
       family_name,
       CASE WHEN r_nick < 0.08 THEN left(given, 4) END,
       CASE WHEN r_legal < 0.05 THEN given || ' ' || family2 || ' ' || coalesce(family_name, family) END,
       CASE WHEN r_gender < 0.48 THEN 'F' WHEN r_gender < 0.5 THEN NULL WHEN r_gender < 0.98 THEN 'M' END,
       CASE WHEN r_birth < 0.7 THEN date '1940-01-01' + floor(r_birth / 0.7 * 23000)::int END,
       CASE WHEN r_mail >= 0.7 THEN '{}'::text[]
            WHEN r_work_mail < 0.2 THEN ARRAY[given_slug || '.' || family_slug || '@' || mail_domain,
                                              left(given_slug, 1) || family_slug || '@' || employer_slug || '.com']
            ELSE ARRAY[given_slug || '.' || family_slug || (i % 100)::text || '@' || mail_domain] END,
       CASE WHEN r_phone < 0.4 THEN ARRAY['+44 7700 ' || lpad((i % 1000000)::text, 6, '0')] ELSE '{}' END,
       CASE WHEN r_url < 0.3 THEN ARRAY['https://www.linkedin.com/in/' || given_slug || '-' || family_slug || '-' || i]
            ELSE '{}' END,
       CASE WHEN r_city < 0.8 THEN city END,
       CASE WHEN r_street < 0.3 THEN (1 + i % 240)::text || ' ' || family2 || ' Street' END,
       CASE WHEN r_country < 0.5 THEN country END,
       CASE WHEN r_met < 0.2 THEN event END,
       CASE WHEN r_met < 0.2 THEN (updated - interval '30 days')::date END,
       CASE WHEN r_profile < 0.5 THEN title || ' at ' || employer END,
       CASE WHEN r_notes < 0.15 THEN 'Introduced by a colleague from ' || employer || '; based in ' || city || '.' END,
       CASE WHEN r_about < 0.1 THEN title || ' with a background in ' || lower(org_core) || ', previously in '
                                    || country || '.' END,
       r_fav < 0.02,
       r_dashboard < 0.005,
       CASE WHEN r_visibility < 0.4 THEN 'public' WHEN r_visibility < 0.7 THEN 'paywalled' ELSE 'hidden' END,
       updated - r_created * interval '3 years',
       updated
FROM slugged`;

function insertStatement(table: LoadedTable, tenantId: string, from: number, to: number): { text: string; values: unknown[] } {
  if (table === 'organizations') {
    return {
      text: ORGANIZATIONS_SQL,
      values: [
        tenantId, from, to, words.ORG_PREFIXES, words.ORG_CORES, words.LEGAL_SUFFIXES, words.OWNERSHIP_TYPES,
        words.CITIES, words.FAMILY_NAMES, words.EVENTS, ANCHOR,
      ],
    };
  }
  return {
    text: PEOPLE_SQL,
    values: [
      tenantId, from, to, words.GIVEN_NAMES_F, words.GIVEN_NAMES_M, words.FAMILY_NAMES, words.CITIES, words.COUNTRIES,
      words.JOB_TITLES, words.EVENTS, words.MAIL_DOMAINS, words.ORG_PREFIXES, words.ORG_CORES, ANCHOR,
    ],
  };
}

async function connect(url: string, setup: string[] = []): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'intelnotes-bench-seed' });
  await client.connect();
  for (const statement of setup) await client.query(statement);
  return client;
}

async function recreateDatabase(settings: BenchSettings): Promise<void> {
  const server = await connect(settings.serverUrl);
  try {
    await server.query(`DROP DATABASE IF EXISTS ${settings.database} WITH (FORCE)`);
    await server.query(`CREATE DATABASE ${settings.database}`);
  } finally {
    await server.end();
  }
}

async function applyMigrations(settings: BenchSettings): Promise<void> {
  const database = await openPostgres(settings.databaseUrl, 2);
  try {
    const applied = await migrate(database);
    log(`migrations applied: ${applied.join(', ')}`);
    // Before the load, so that the rows get their search vectors as they are inserted.
    await applySearchIndexes(database, RESOURCES);
  } finally {
    await database.close();
  }
}

interface Tenant {
  id: string;
  code: string;
  size: number;
}

async function createTenants(client: pg.Client, settings: BenchSettings): Promise<Tenant[]> {
  const sizes = tenantSizes(settings.rows, settings.tenants, settings.largestShare);
  // One hash for every admin: scrypt is deliberately slow and each hash has its
  // own salt anyway; the admins only differ by tenant.
  const passwordHash = await hashPassword(settings.adminPassword);
  const tenants: Tenant[] = [];
  for (const [index, size] of sizes.entries()) {
    const code = tenantCode(index + 1);
    const { rows } = await client.query<{ id: string }>(
      'INSERT INTO tenants (code, name) VALUES ($1, $2) RETURNING id',
      [code, `Bench tenant ${index + 1}`],
    );
    const id = rows[0]!.id;
    await client.query(
      `INSERT INTO users (tenant_id, email, alias, password_hash, is_admin, is_research)
       VALUES ($1, $2, 'Admin', $3, true, true)`,
      [id, settings.adminEmail, passwordHash],
    );
    tenants.push({ id, code, size });
  }
  log(`${tenants.length} tenants: ${tenants.map((tenant) => `${tenant.code}=${tenant.size}`).join(' ')}`);
  return tenants;
}

interface IndexDefinition {
  name: string;
  definition: string;
}

/** Secondary indexes of the loaded tables, largest-to-build first. */
async function dropSecondaryIndexes(client: pg.Client): Promise<IndexDefinition[]> {
  const { rows } = await client.query<IndexDefinition>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = ANY ($1::regclass[]) AND NOT i.indisprimary
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
     ORDER BY (pg_get_indexdef(i.indexrelid) LIKE '%gin_trgm_ops%') DESC,
              (pg_get_indexdef(i.indexrelid) LIKE '%search_document%') DESC, c.relname`,
    [[...LOADED_TABLES, 'search_words', 'search_name_words']],
  );
  for (const index of rows) await client.query(`DROP INDEX ${index.name}`);
  log(`dropped ${rows.length} secondary indexes for the load`);
  return rows;
}

async function loadTable(url: string, table: LoadedTable, tenants: Tenant[], total: number): Promise<void> {
  const client = await connect(url, [
    "SET session_replication_role = 'replica'",
    'SET synchronous_commit = off',
    `SELECT setseed(${table === 'organizations' ? SEED : -SEED})`,
  ]);
  try {
    let done = 0;
    for (const tenant of tenants) {
      for (let from = 1; from <= tenant.size; from += CHUNK) {
        const to = Math.min(tenant.size, from + CHUNK - 1);
        const statement = insertStatement(table, tenant.id, from, to);
        await client.query(statement.text, statement.values);
        done += to - from + 1;
        if (done % 100_000 < to - from + 1 || done === total) {
          log(`${table}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
        }
      }
    }
  } finally {
    await client.end();
  }
}

/** Quick search's word rows (migration 0120), which the load's switched-off triggers did not write. */
async function writeSearchWords(url: string, table: LoadedTable): Promise<void> {
  const client = await connect(url, ['SET synchronous_commit = off']);
  try {
    await client.query('SELECT setup_search_words($1, true)', [table]);
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM search_words WHERE record_table = $1', [table]);
    log(`search_words for ${table}: ${Number(rows[0]!.n).toLocaleString('en-US')}`);
  } finally {
    await client.end();
  }
}

async function buildIndexes(url: string, indexes: IndexDefinition[], workers: number, maintenanceWorkMem: string): Promise<void> {
  const queue = [...indexes];
  const worker = async () => {
    const client = await connect(url, [`SET maintenance_work_mem = '${maintenanceWorkMem}'`]);
    try {
      for (let index = queue.shift(); index; index = queue.shift()) {
        const t0 = performance.now();
        await client.query(index.definition);
        log(`index ${index.name} built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

async function rebuildCounters(client: pg.Client): Promise<void> {
  const kinds = LOADED_TABLES.flatMap((table) => [table, `${table}:suggested`]);
  await client.query('BEGIN');
  await client.query('DELETE FROM entity_counters WHERE kind = ANY ($1)', [kinds]);
  const select = (table: LoadedTable) =>
    `SELECT tenant_id, '${table}' || CASE WHEN status = 'suggested' THEN ':suggested' ELSE '' END, visibility, count(*)
     FROM ${table} GROUP BY 1, 2, 3`;
  await client.query(
    `INSERT INTO entity_counters (tenant_id, kind, visibility, count)
     ${LOADED_TABLES.map(select).join(' UNION ALL ')}`,
  );
  await client.query('COMMIT');
  const { rows } = await client.query<{ kind: string; counted: string; actual: string }>(
    `SELECT k.kind, k.counted, a.actual FROM
       (SELECT split_part(kind, ':', 1) AS kind, sum(count)::bigint AS counted FROM entity_counters
        WHERE kind = ANY ($1) GROUP BY 1) k
     JOIN (SELECT 'organizations' AS kind, count(*) AS actual FROM organizations
           UNION ALL SELECT 'people', count(*) FROM people) a USING (kind)`,
    [kinds],
  );
  for (const row of rows) {
    if (row.counted !== row.actual) throw new Error(`entity_counters for ${row.kind}: ${row.counted} ≠ ${row.actual} rows`);
  }
  log(`entity_counters rebuilt: ${rows.map((row) => `${row.kind}=${Number(row.actual).toLocaleString('en-US')}`).join(', ')}`);
}

async function main(): Promise<void> {
  const settings = readSettings();
  const maintenanceWorkMem = process.env.BENCH_MAINTENANCE_WORK_MEM ?? '1GB';
  const workers = Number(process.env.BENCH_WORKERS ?? '2');
  log(`seeding ${settings.database}: ${settings.rows.toLocaleString('en-US')} organizations and people over ${settings.tenants} tenants`);

  await recreateDatabase(settings);
  await applyMigrations(settings);

  const client = await connect(settings.databaseUrl);
  try {
    const tenants = await createTenants(client, settings);
    const indexes = await dropSecondaryIndexes(client);

    await Promise.all(LOADED_TABLES.map((table) => loadTable(settings.databaseUrl, table, tenants, settings.rows)));
    await Promise.all(LOADED_TABLES.map((table) => writeSearchWords(settings.databaseUrl, table)));
    await buildIndexes(settings.databaseUrl, indexes, workers, maintenanceWorkMem);
    await rebuildCounters(client);

    log('VACUUM ANALYZE');
    // search_vocabulary too: left with the statistics of its empty table, the planner reads a
    // forgiving search's similar words (search_similar_words) off the prefix index, every word of
    // the tenant's table filtered by similarity (seconds), instead of the trigram index (~0.1 s).
    await client.query('VACUUM (ANALYZE) organizations, people, search_words, search_name_words, search_vocabulary, entity_counters, tenants, users');
    const { rows } = await client.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    log(`done: database ${settings.database} is ${rows[0]!.size}; admin ${settings.adminEmail} on ${tenants[0]!.code}.localhost … ${tenants.at(-1)!.code}.localhost`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error('bench/seed:', error instanceof Error ? error.message : error);
  process.exit(1);
});

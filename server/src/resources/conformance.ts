/**
 * The declarations and the database agree: what the conformance test
 * (conformance.test.ts) checks on a migrated database, PGlite or server.
 * Migrations write the schema, declarations describe it; this finds where they
 * drift apart, as sentences naming the table, column and rule.
 *
 * - every declared field has its columns, each of the type the field type stores;
 * - every choice list equals the CHECK constraint of its column;
 * - every tenant table has row-level security enabled and forced with the
 *   tenant_isolation policy (shared tables: read by all, written by tenant managers), and
 *   every engine table the staged_rows policy hiding an import's staged rows (migration 0115),
 *   and exactly the tables of resources declared with `owner` the owner policies (migration 0230);
 * - the counter trigger exists exactly where the entity counts read counters;
 * - the search_words trigger (quick search's word index, migration 0120) exists exactly on the
 *   tables of resources declared with `quickSearch`;
 * - every relation column and every filter column has an index that starts with it
 *   (after tenant_id, on tenant tables);
 * - every unique key and foreign key of a tenant table includes tenant_id.
 */
import { sql } from 'drizzle-orm';
import { query, type Executor } from '../db/client.ts';
import type { FieldType } from './fields.ts';
import { filterNames } from './list-query.ts';
import { counterKindsOf, OWNER_COLUMN } from './repository.ts';
import type { Resource } from './resource.ts';

/** The SQL type (format_type, without a numeric's precision) of each column a field writes. */
export function expectedColumnTypes(field: FieldType, name: string): Record<string, string> {
  const [main, ...extra] = field.columns(name);
  const types: Record<string, string> = {};
  switch (field.kind) {
    case 'text': case 'category': case 'choice': case 'visibility': case 'url':
      types[main!] = 'text';
      break;
    case 'boolean':
      types[main!] = 'boolean';
      break;
    case 'date': case 'incomplete_date':
      types[main!] = 'date';
      break;
    case 'datetime':
      types[main!] = 'timestamp with time zone';
      break;
    case 'emails': case 'phones': case 'urls': case 'strings':
      types[main!] = 'text[]';
      break;
    case 'object':
      types[main!] = 'jsonb';
      break;
    case 'integer':
      types[main!] = field.columnCast ?? 'integer';
      break;
    case 'decimal':
      types[main!] = 'numeric';
      break;
    case 'relation':
      types[main!] = field.columnCast!;
      break;
    default:
      throw new Error(`No column type known for field kind "${field.kind}" (${name}): add it to expectedColumnTypes.`);
  }
  // An incomplete date's flags; a keyed URL's match keys.
  for (const column of extra) types[column] = field.kind === 'incomplete_date' ? 'boolean' : 'text[]';
  return types;
}

/** Columns every row of an engine table has, besides its fields. */
function engineColumns(resource: Resource): Record<string, string> {
  return {
    id: 'uuid',
    ...(resource.shared ? {} : { tenant_id: 'uuid' }),
    display_name: 'text',
    created_at: 'timestamp with time zone',
    updated_at: 'timestamp with time zone',
    created_by: 'uuid',
    updated_by: 'uuid',
    // Staged writes of an all-or-nothing import job (migration 0115, staging.ts).
    staged_by: 'uuid',
    ...(resource.identity ? { name_keys: 'text[]' } : {}),
    ...(resource.owner ? { [OWNER_COLUMN]: 'uuid' } : {}),
    ...(resource.search ? { search_vector: 'tsvector' } : {}),
    ...(resource.quickSearch ? { search_name: 'text' } : {}),
  };
}

interface ColumnRow { table: string; column: string; type: string }
interface CheckRow { table: string; column: string; definition: string }
interface TableRow { table: string; enabled: boolean; forced: boolean; tenant: boolean }
interface PolicyRow { table: string; name: string; command: string; using: string | null; check: string | null; permissive: string }
interface TriggerRow { table: string; definition: string }
interface IndexRow { table: string; name: string; columns: string[]; unique: boolean; predicate: string | null }
interface ForeignKeyRow { table: string; name: string; columns: string[]; target: string; target_columns: string[]; target_tenant: boolean }

/** What the database holds, read once from pg_catalog (public schema only). */
async function readSchema(executor: Executor) {
  const columns = await query<ColumnRow>(
    executor,
    sql`SELECT c.relname AS table, a.attname AS column,
               regexp_replace(format_type(a.atttypid, a.atttypmod), '\\(.*\\)', '') AS type
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  // CHECK constraints on exactly one column.
  const checks = await query<CheckRow>(
    executor,
    sql`SELECT c.relname AS table, a.attname AS column, pg_get_constraintdef(k.oid) AS definition
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
        WHERE k.contype = 'c' AND c.relnamespace = 'public'::regnamespace AND array_length(k.conkey, 1) = 1`,
  );
  const tables = await query<TableRow>(
    executor,
    sql`SELECT c.relname AS table, c.relrowsecurity AS enabled, c.relforcerowsecurity AS forced,
               EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = c.oid AND attname = 'tenant_id' AND NOT attisdropped) AS tenant
        FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')`,
  );
  const policies = await query<PolicyRow>(
    executor,
    sql`SELECT tablename AS table, policyname AS name, cmd AS command, qual AS using, with_check AS check, permissive
        FROM pg_policies WHERE schemaname = 'public'`,
  );
  const triggers = await query<TriggerRow>(
    executor,
    sql`SELECT c.relname AS table, pg_get_triggerdef(t.oid) AS definition
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
          AND t.tgfoid = 'maintain_entity_counter'::regproc`,
  );
  const wordTriggers = await query<TriggerRow>(
    executor,
    sql`SELECT c.relname AS table, pg_get_triggerdef(t.oid) AS definition
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
          AND t.tgfoid = 'maintain_search_words'::regproc`,
  );
  // Key columns in order; an expression key reads '(expression)'.
  const indexes = await query<IndexRow>(
    executor,
    sql`SELECT c.relname AS table, ic.relname AS name, i.indisunique AS unique, pg_get_expr(i.indpred, i.indrelid) AS predicate,
               ARRAY(SELECT coalesce(a.attname::text, '(expression)')
                     FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                     LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                     WHERE k.position <= i.indnkeyatts
                     ORDER BY k.position) AS columns
        FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
        WHERE c.relnamespace = 'public'::regnamespace`,
  );
  const foreignKeys = await query<ForeignKeyRow>(
    executor,
    sql`SELECT c.relname AS table, k.conname AS name, t.relname AS target,
               ARRAY(SELECT a.attname::text FROM unnest(k.conkey) AS n JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = n) AS columns,
               ARRAY(SELECT a.attname::text FROM unnest(k.confkey) AS n JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = n) AS target_columns,
               EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = t.oid AND attname = 'tenant_id' AND NOT attisdropped) AS target_tenant
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid
        WHERE k.contype = 'f' AND c.relnamespace = 'public'::regnamespace`,
  );
  return { columns, checks, tables, policies, triggers, wordTriggers, indexes, foreignKeys };
}

type Schema = Awaited<ReturnType<typeof readSchema>>;

/** The string literals of a CHECK such as `(x = ANY (ARRAY['a'::text, 'b'::text]))`, or null when it is no list of values. */
export function checkedValues(definition: string): string[] | null {
  if (!/= ANY \(ARRAY\[|^CHECK \(\(\w+ = '/.test(definition)) return null;
  return [...definition.matchAll(/'((?:[^']|'')*)'::text/g)].map((match) => match[1]!.replaceAll("''", "'"));
}

/** The problems found, grouped by rule; every group empty when declarations and database agree. */
export interface Problems {
  columns: string[];
  choices: string[];
  rowLevelSecurity: string[];
  counters: string[];
  searchWords: string[];
  indexes: string[];
  tenantKeys: string[];
}

export async function conformanceProblems(executor: Executor, resources: Resource[]): Promise<Problems> {
  const schema = await readSchema(executor);
  const problems: Problems = { columns: [], choices: [], rowLevelSecurity: [], counters: [], searchWords: [], indexes: [], tenantKeys: [] };
  for (const resource of resources) {
    columnProblems(schema, resource, problems.columns);
    choiceProblems(schema, resource, problems.choices);
    counterProblems(schema, resource, problems.counters);
    searchWordProblems(schema, resource, problems.searchWords);
    indexProblems(schema, resource, problems.indexes);
  }
  rowLevelSecurityProblems(schema, resources, problems.rowLevelSecurity);
  for (const resource of resources) stagedRowsProblems(schema, resource, problems.rowLevelSecurity);
  for (const resource of resources) ownerRowsProblems(schema, resource, problems.rowLevelSecurity);
  tenantKeyProblems(schema, problems.tenantKeys);
  return problems;
}

function columnProblems(schema: Schema, resource: Resource, out: string[]): void {
  const actual = new Map(schema.columns.filter((row) => row.table === resource.table).map((row) => [row.column, row.type]));
  if (actual.size === 0) {
    out.push(`${resource.table}: no such table (declared by ${resource.kind})`);
    return;
  }
  const expected: Record<string, string> = engineColumns(resource);
  for (const [name, field] of Object.entries(resource.fields)) Object.assign(expected, expectedColumnTypes(field, name));
  for (const [column, type] of Object.entries(expected)) {
    const found = actual.get(column);
    if (found === undefined) out.push(`${resource.table}.${column}: missing (${type} expected)`);
    else if (found !== type) out.push(`${resource.table}.${column}: ${found}, but its field stores ${type}`);
  }
}

function choiceProblems(schema: Schema, resource: Resource, out: string[]): void {
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field.choices) continue;
    const lists = schema.checks
      .filter((row) => row.table === resource.table && row.column === name)
      .map((row) => checkedValues(row.definition))
      .filter((values): values is string[] => values !== null);
    const declared = [...field.choices].sort();
    if (lists.length !== 1) {
      out.push(`${resource.table}.${name}: ${lists.length === 0 ? 'no' : lists.length} CHECK (${name} IN (…)) constraint(s); expected one listing ${declared.length > 12 ? `the ${declared.length} choices ${declared.slice(0, 12).join(', ')}, …` : declared.join(', ')}`);
      continue;
    }
    const checked = [...lists[0]!].sort();
    const missing = declared.filter((value) => !checked.includes(value));
    const extra = checked.filter((value) => !declared.includes(value));
    if (missing.length > 0 || extra.length > 0) {
      out.push(`${resource.table}.${name}: CHECK differs from the declared choices (not allowed: ${missing.join(', ') || '-'}; not declared: ${extra.join(', ') || '-'})`);
    }
  }
}

const TENANT_CONDITION = '(tenant_id = app_tenant_id())';
const SHARED_POLICIES: Record<string, { command: string; using: string | null; check: string | null }> = {
  shared_read: { command: 'SELECT', using: 'true', check: null },
  shared_insert: { command: 'INSERT', using: null, check: 'app_manages_tenants()' },
  shared_update: { command: 'UPDATE', using: 'app_manages_tenants()', check: 'app_manages_tenants()' },
  shared_delete: { command: 'DELETE', using: 'app_manages_tenants()', check: null },
};

/**
 * Permissive policies a tenant table may have besides tenant_isolation. PostgreSQL ORs
 * permissive policies, so any other one widens what tenant isolation allows; each here is
 * reviewed for that.
 */
const EXTRA_PERMISSIVE_POLICIES: Record<string, string[]> = {
  // Job workers claim and settle every tenant's jobs, only with app.jobs_worker set (migration 0090).
  jobs: ['jobs_worker'],
};

/** Every table with tenant_id, and every shared resource's table. */
function rowLevelSecurityProblems(schema: Schema, resources: Resource[], out: string[]): void {
  const shared = new Set(resources.filter((resource) => resource.shared).map((resource) => resource.table));
  for (const table of schema.tables) {
    if (!table.tenant && !shared.has(table.table)) continue;
    if (!table.enabled || !table.forced) out.push(`${table.table}: row-level security not ${table.enabled ? 'forced' : 'enabled'}`);
    const policies = schema.policies.filter((row) => row.table === table.table);
    if (table.tenant) {
      const isolation = policies.find((row) => row.name === 'tenant_isolation');
      if (!isolation || isolation.command !== 'ALL' || isolation.using !== TENANT_CONDITION || isolation.check !== TENANT_CONDITION) {
        out.push(`${table.table}: no tenant_isolation policy FOR ALL USING and WITH CHECK ${TENANT_CONDITION}`);
      }
      for (const policy of policies) {
        if (policy.permissive !== 'PERMISSIVE' || policy.name === 'tenant_isolation' || EXTRA_PERMISSIVE_POLICIES[table.table]?.includes(policy.name)) continue;
        out.push(`${table.table}: permissive policy ${policy.name} besides tenant_isolation (permissive policies are ORed: it widens tenant isolation)`);
      }
    } else {
      for (const [name, expected] of Object.entries(SHARED_POLICIES)) {
        const found = policies.find((row) => row.name === name);
        if (!found || found.command !== expected.command || found.using !== expected.using || found.check !== expected.check) {
          out.push(`${table.table}: shared table without policy ${name} (${expected.command}${expected.using ? ` USING ${expected.using}` : ''}${expected.check ? ` WITH CHECK ${expected.check}` : ''})`);
        }
      }
    }
  }
}

const STAGED_CONDITION = '((staged_by IS NULL) OR (staged_by = app_import_stage()))';

/** An import's staged rows are hidden from everyone else (enable_staged_writes, migration 0115). */
function stagedRowsProblems(schema: Schema, resource: Resource, out: string[]): void {
  const policy = schema.policies.find((row) => row.table === resource.table && row.name === 'staged_rows');
  if (!policy || policy.permissive !== 'RESTRICTIVE' || policy.command !== 'ALL' || policy.using !== STAGED_CONDITION) {
    out.push(`${resource.table}: no restrictive staged_rows policy FOR ALL USING ${STAGED_CONDITION} (SELECT enable_staged_writes('${resource.table}'))`);
  }
}

const OWNER_CONDITION = '(owner_id = app_user_id())';

/**
 * The restrictive policies of rows that belong to a user (`owner`, enable_owner_rows in
 * migration 0230): read by the owner (and the team where shared), written only by the owner.
 * A resource without `owner` has none of them.
 */
function ownerRowsProblems(schema: Schema, resource: Resource, out: string[]): void {
  const share = resource.owner?.shareField;
  const expected: Record<string, { command: string; using: string | null; check: string | null }> = {
    owner_read: { command: 'SELECT', using: share ? `((owner_id = app_user_id()) OR ${share})` : OWNER_CONDITION, check: null },
    owner_insert: { command: 'INSERT', using: null, check: OWNER_CONDITION },
    owner_update: { command: 'UPDATE', using: OWNER_CONDITION, check: OWNER_CONDITION },
    owner_delete: { command: 'DELETE', using: OWNER_CONDITION, check: null },
  };
  const policies = schema.policies.filter((row) => row.table === resource.table && row.name in expected);
  if (!resource.owner) {
    if (policies.length > 0) out.push(`${resource.table}: owner policies (${policies.map((row) => row.name).join(', ')}), but ${resource.kind} declares no owner`);
    return;
  }
  for (const [name, wanted] of Object.entries(expected)) {
    const found = policies.find((row) => row.name === name);
    if (!found || found.permissive !== 'RESTRICTIVE' || found.command !== wanted.command || found.using !== wanted.using || found.check !== wanted.check) {
      out.push(`${resource.table}: no restrictive ${name} policy FOR ${wanted.command}${wanted.using ? ` USING ${wanted.using}` : ''}${wanted.check ? ` WITH CHECK ${wanted.check}` : ''} (SELECT enable_owner_rows('${resource.table}'${share ? `, '${share}'` : ''}))`);
    }
  }
}

/**
 * Where totals read counters, a trigger keeps them: maintain_entity_counter('<kind>'), or '*'
 * when the counter kinds are the values of the row's own `kind` column (lists). Nowhere else.
 */
function counterProblems(schema: Schema, resource: Resource, out: string[]): void {
  const kinds = counterKindsOf(resource);
  const triggers = schema.triggers.filter((row) => row.table === resource.table);
  if (kinds.length === 0) {
    if (triggers.length > 0) out.push(`${resource.table}: counter trigger, but ${resource.kind} totals do not read counters (counterKinds is empty)`);
    return;
  }
  const kindColumn = resource.fields['kind']?.choices;
  const own = kinds.length === 1 && kinds[0] === resource.kind;
  const byRow = !own && kindColumn !== undefined && [...kindColumn].sort().join() === [...kinds].sort().join();
  if (!own && !byRow) {
    out.push(`${resource.table}: counterKinds ${kinds.join(', ')} are neither the resource's kind nor the choices of its kind column`);
    return;
  }
  const argument = own ? resource.kind : '*';
  const wanted = new RegExp(`AFTER INSERT OR DELETE OR UPDATE ON public\\.${resource.table} FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter\\('${argument.replace('*', '\\*')}'\\)$`);
  if (triggers.length !== 1 || !wanted.test(triggers[0]!.definition)) {
    out.push(`${resource.table}: expected one counter trigger AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('${argument}'), found ${triggers.map((row) => row.definition).join('; ') || 'none'}`);
  }
}

/**
 * Quick search reads a resource's words from search_words: the trigger setup_search_words()
 * creates keeps them on the tables of resources declared with `quickSearch`, and on no other
 * (words nobody reads would only slow writes).
 */
function searchWordProblems(schema: Schema, resource: Resource, out: string[]): void {
  const triggers = schema.wordTriggers.filter((row) => row.table === resource.table);
  const wanted = new RegExp(`AFTER INSERT OR DELETE OR UPDATE ON public\\.${resource.table} FOR EACH ROW EXECUTE FUNCTION maintain_search_words\\(\\)$`);
  if (!resource.quickSearch) {
    if (triggers.length > 0) out.push(`${resource.table}: search_words trigger, but ${resource.kind} is not quick-searched`);
  } else if (triggers.length !== 1 || !wanted.test(triggers[0]!.definition)) {
    out.push(`${resource.table}: expected one search_words trigger AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW EXECUTE FUNCTION maintain_search_words() (setup_search_words('${resource.table}')), found ${triggers.map((row) => row.definition).join('; ') || 'none'}`);
  }
}

/** An index serves a column when its first key column is that column, or tenant_id then that column. */
export function servesColumn(columns: string[], column: string): boolean {
  return columns[0] === column || (columns[0] === 'tenant_id' && columns[1] === column);
}

function indexProblems(schema: Schema, resource: Resource, out: string[]): void {
  const indexes = schema.indexes.filter((row) => row.table === resource.table);
  const relations = Object.entries(resource.fields).filter(([, field]) => field.relation).map(([name]) => name);
  for (const column of new Set([...relations, ...filterNames(resource)])) {
    if (!indexes.some((index) => servesColumn(index.columns, column))) {
      out.push(`${resource.table}.${column}: no index starts with it${resource.shared ? '' : ' (after tenant_id)'}, yet it is ${relations.includes(column) ? 'a relation' : 'a filter'}`);
    }
  }
  // Visitors' searches read the public rows' own indexes (search-index.ts visitorIndexStatements).
  if (resource.search && !resource.shared && resource.hasVisibility) {
    const visitorColumns = ['search_vector', ...(resource.quickSearch ? ['search_name'] : [])];
    for (const column of visitorColumns) {
      const visitors = indexes.some(
        (index) => index.columns.join() === `tenant_id,${column}` && index.predicate !== null && index.predicate.includes(`visibility = 'public'`),
      );
      if (!visitors) out.push(`${resource.table}: no search index of the public rows (tenant_id, ${column}) WHERE visibility = 'public'`);
    }
  }
}

/** Every table with tenant_id: unique keys hold tenant_id; a foreign key to a tenant table matches on it. */
function tenantKeyProblems(schema: Schema, out: string[]): void {
  const tenantTables = new Set(schema.tables.filter((table) => table.tenant).map((table) => table.table));
  for (const index of schema.indexes) {
    if (index.unique && tenantTables.has(index.table) && !index.columns.includes('tenant_id')) {
      out.push(`${index.table}: unique index ${index.name} (${index.columns.join(', ')}) without tenant_id`);
    }
  }
  // A key to a table without tenant_id (tenants, shared tables) holds no other tenant's rows.
  for (const key of schema.foreignKeys.filter((row) => row.target_tenant)) {
    const at = key.columns.indexOf('tenant_id');
    if (at === -1 || key.target_columns[at] !== 'tenant_id') {
      out.push(`${key.table}: foreign key ${key.name} (${key.columns.join(', ')}) → ${key.target} (${key.target_columns.join(', ')}) does not match on tenant_id`);
    }
  }
}

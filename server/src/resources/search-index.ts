/**
 * Full-text search built from the declarations: each resource's `search`
 * fields (with a weight, 'A' for names) become a generated `search_vector`
 * column with a GIN index, and list and quick search query it with
 * search_query() (migration 0040): every word of the search text must start a
 * word of the record — accent- and case-insensitive, punctuation ignored.
 *
 * The columns are kept in step with the declarations at start-up
 * (applySearchIndexes, under the migration lock): a table whose column was
 * built from other fields gets it rebuilt, recorded in the column's comment.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../db/client.ts';
import type { FieldType } from './fields.ts';
import type { Resource, SearchWeight } from './resource.ts';

export const SEARCH_WEIGHTS: readonly SearchWeight[] = ['A', 'B', 'C', 'D'];
const LOCK_KEY = 'intelnotes:migrate';
const COMMENT_PREFIX = 'intelnotes search vector ';

/** Field kinds that hold text a user would search for. */
const SEARCHABLE_KINDS = new Set(['text', 'category', 'choice', 'url', 'emails', 'phones', 'urls', 'strings']);

/** Why a declared search field cannot be searched, or null when it can. */
export function searchFieldProblem(name: string, field: FieldType | undefined): string | null {
  if (!field) return `unknown field "${name}"`;
  if (!SEARCHABLE_KINDS.has(field.kind)) return `field "${name}" (${field.kind}) holds no searchable text`;
  // A restricted field would let those who may not read it find records by its content.
  if (field.readAccess) return `field "${name}" is restricted to some readers and cannot be searched`;
  return null;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A searched field's text in the vector. Phone numbers are searched by their digits in the forms
 * a reader types them (search_phone_words, migration 0200: international, national with and
 * without the trunk 0), not by the groups of their punctuation.
 */
function fieldSearchText(name: string, field: FieldType): string {
  if (field.kind === 'phones') return `search_phone_words(${quoteIdent(name)})`;
  return field.multiple ? `f_join(${quoteIdent(name)})` : `${quoteIdent(name)}::text`;
}

/** The generated column's expression: one weighted vector per weight, concatenated. */
export function searchVectorExpression(resource: Resource): string {
  const fields = Object.entries(resource.search?.fields ?? {});
  const serverColumns = Object.entries(resource.search?.serverColumns ?? {});
  return SEARCH_WEIGHTS.flatMap((weight) => {
    const parts = [
      ...fields
        .filter(([, fieldWeight]) => fieldWeight === weight)
        .map(([name]) => fieldSearchText(name, resource.fields[name]!)),
      ...serverColumns.filter(([, columnWeight]) => columnWeight === weight).map(([name]) => `${quoteIdent(name)}::text`),
    ];
    return parts.length === 0 ? [] : [`search_vector_of('${weight}', ${parts.join(', ')})`];
  }).join(' || ');
}

/** The statements that (re)build a resource's search column and indexes. */
export function searchIndexStatements(resource: Resource): { signature: string; statements: string[] } {
  const table = quoteIdent(resource.table);
  const expression = searchVectorExpression(resource);
  const signature = createHash('sha256').update(expression).digest('hex').slice(0, 16);
  const leading = resource.shared ? '' : 'tenant_id, ';
  return {
    signature,
    statements: [
      `ALTER TABLE ${table} DROP COLUMN IF EXISTS search_vector`,
      `ALTER TABLE ${table} ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${expression}) STORED`,
      // btree_gin lets the tenant lead, so a search reads only the tenant's own entries.
      `CREATE INDEX ${quoteIdent(`${resource.table}_search_vector`)} ON ${table} USING gin (${leading}search_vector)`,
      // A large sample keeps the planner's estimate of common words close (it picks between
      // the index and walking the list order, and estimates totals beyond the exact cap).
      `ALTER TABLE ${table} ALTER COLUMN search_vector SET STATISTICS 1000`,
      `COMMENT ON COLUMN ${table}.search_vector IS '${COMMENT_PREFIX}${signature}'`,
    ],
  };
}

/**
 * The name-prefix index quick search and the ranked list read names in order
 * from (created for every searched resource that lacks it).
 */
export function prefixIndexStatement(resource: Resource): string {
  const leading = resource.shared ? '' : 'tenant_id, ';
  return `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${resource.table}_search_name_prefix`)}
    ON ${quoteIdent(resource.table)} (${leading}search_name text_pattern_ops, id)`;
}

/** The rows a visitor may find: public, and curated where the resource is reviewed. */
const visitorPredicate = (resource: Resource): string =>
  `visibility = 'public'${resource.review ? ` AND status = '${resource.status}'` : ''}`;

/**
 * The visitors' search indexes: the public, curated rows only (tables with visibility) — of the
 * search vector, and for quick-searched tables of the names' trigrams (quick search's typo and
 * several-word tiers). Anonymous traffic is most of a public site's searches; a common word
 * matches a tenant's hidden and paywalled rows and its suggestions too, and these indexes let
 * the planner skip them instead of reading and rechecking every match (docs/engine.md "Search
 * totals and plans"). Statements carry the visibility and status as values the planner sees
 * (custom plans of unnamed statements, literals in quick search), so it can prove the predicate.
 */
export function visitorIndexStatements(resource: Resource): string[] {
  if (resource.shared || !resource.hasVisibility) return [];
  const predicate = visitorPredicate(resource);
  const table = quoteIdent(resource.table);
  return [
    `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${resource.table}_search_vector_public`)}
      ON ${table} USING gin (tenant_id, search_vector) WHERE ${predicate}`,
    ...(resource.quickSearch
      ? [`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${resource.table}_search_name_public`)}
           ON ${table} USING gin (tenant_id, search_name gin_trgm_ops) WHERE ${predicate}`]
      : []),
  ];
}

/**
 * What quick search reads besides the search vector: the name-prefix index,
 * and the record's words in search_words with the trigger keeping them
 * (migration 0120) — written anew when the vector was rebuilt, as a rebuild
 * fires no row triggers.
 */
export function quickSearchStatements(resource: Resource, rebuild: boolean): string[] {
  return [prefixIndexStatement(resource), `SELECT setup_search_words('${resource.table}', ${rebuild})`];
}

/**
 * The weights whose words join the tenant's vocabulary for a table that is not quick-searched
 * (migration 0201): its names and main fields, where typos are typed.
 */
const VOCABULARY_WEIGHTS: readonly SearchWeight[] = ['A', 'B'];

/**
 * For a searched table of the tenants' own records that is not quick-searched: the trigger that
 * adds its words to the tenant's vocabulary (which a list search forgives typos by, migration
 * 0200), on insert and on update of the columns those words come from, and its words written
 * when the trigger is new or the vector was rebuilt. Quick-searched tables fill the vocabulary
 * from search_words; shared tables (no tenant) keep none, so their lists do not forgive typos.
 */
export function vocabularyStatements(resource: Resource, rebuild: boolean): string[] {
  if (resource.quickSearch || resource.shared || !resource.search) return [];
  const columns = [
    ...Object.entries(resource.search.fields ?? {}),
    ...Object.entries(resource.search.serverColumns ?? {}),
  ].filter(([, weight]) => VOCABULARY_WEIGHTS.includes(weight)).map(([name]) => name);
  if (columns.length === 0) return [];
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return [`SELECT setup_search_vocabulary(${literal(resource.table)}, ARRAY[${columns.map(literal).join(', ')}]::text[], ${rebuild})`];
}

/** Every statement the resources' search needs, for a fingerprint of the derived schema (test templates). */
export function searchSchemaFingerprint(resources: Resource[]): string {
  const parts = resources
    .filter((resource) => resource.search)
    .map((resource) => `${resource.table}:${searchIndexStatements(resource).signature}:${visitorIndexStatements(resource).join(';')}:${vocabularyStatements(resource, false).join(';')}`);
  return createHash('sha256').update(parts.join(',')).digest('hex').slice(0, 16);
}

/**
 * Brings every searched table's search column in step with its declaration.
 * Returns the tables rebuilt. A rebuild rewrites the table (minutes on
 * millions of rows); an unchanged declaration costs one catalog query.
 */
export async function applySearchIndexes(database: Database, resources: Resource[]): Promise<string[]> {
  const searched = resources.filter((resource) => resource.search);
  return database.withAdvisoryLock(LOCK_KEY, async (session) => {
    const current = new Map(
      (
        await session.query<{ table_name: string; comment: string | null }>(
          `SELECT c.relname AS table_name, col_description(c.oid, a.attnum) AS comment
           FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
           WHERE c.relnamespace = 'public'::regnamespace AND a.attname = 'search_vector' AND NOT a.attisdropped`,
        )
      ).map((row) => [row.table_name, row.comment]),
    );
    const rebuilt: string[] = [];
    for (const resource of searched) {
      const { signature, statements } = searchIndexStatements(resource);
      // Created when missing (IF NOT EXISTS): the column's rebuild drops them with it.
      const derived = (rebuild: boolean) => [
        ...(resource.quickSearch ? quickSearchStatements(resource, rebuild) : []),
        ...vocabularyStatements(resource, rebuild),
        ...visitorIndexStatements(resource),
      ];
      if (current.get(resource.table) === `${COMMENT_PREFIX}${signature}`) {
        const statements = derived(false);
        if (statements.length > 0) await session.execInTransaction(statements.join(';\n'));
        continue;
      }
      await session.execInTransaction([...statements, ...derived(true), `ANALYZE ${quoteIdent(resource.table)}`].join(';\n'));
      rebuilt.push(resource.table);
    }
    // The word tables were written anew for the rebuilt tables (every row deleted and written
    // again): vacuumed, so that quick search does not walk the dead half of search_words (2.1x
    // slower on the bench until autovacuum came round), and analyzed — without fresh statistics
    // the planner takes a tenant's whole vocabulary for a few rows and reads it by the prefix
    // btree instead of the trigram index (a typo's similar words: ~900 ms instead of ~40 ms on
    // the bench's 80,000-person tenant). Outside a transaction, as VACUUM must be.
    if (rebuilt.length > 0) await session.query('VACUUM (ANALYZE) search_words, search_name_words, search_vocabulary');
    return rebuilt;
  });
}

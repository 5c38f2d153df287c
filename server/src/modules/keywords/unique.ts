/**
 * A beforeSave hook refusing a value another record already holds (a
 * keyword's name ignoring case, a geo's code, a source URL's match key), so
 * the caller gets a 400 naming the field instead of the database's unique
 * index failing the write. The unique indexes still guard against races.
 */
import { sql, type SQL } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { fieldError } from '../../resources/errors.ts';
import type { SaveContext } from '../../resources/resource.ts';

export interface UniqueRule {
  /** The field named in the error. */
  field: string;
  /** The value compared, taken from the record as it will be saved (null: nothing to check). */
  value: (record: Record<string, unknown>) => string | null;
  /** A condition true for rows holding `value` (the tenant is added by row-level security). */
  matches: (value: string) => SQL;
  message: string;
}

export function unique(rule: UniqueRule) {
  return async ({ tx, resource, record, current }: SaveContext): Promise<void> => {
    const value = rule.value(record);
    if (value === null || value === '') return;
    const others = await query<{ id: string }>(
      tx,
      sql`SELECT id FROM ${sql.identifier(resource.table)}
          WHERE ${rule.matches(value)} ${current ? sql`AND id <> ${current.id}` : sql``}
          LIMIT 1`,
    );
    if (others.length > 0) throw fieldError(rule.field, rule.message);
  };
}

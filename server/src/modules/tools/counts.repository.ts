/** The entity counts read, from the counters every write keeps current. */
import { sql, type SQL } from 'drizzle-orm';

/**
 * Every counter in one statement. Users have no visibility, so admins get
 * their number as the hidden count of 'users'. Exported for the benchmark's floor.
 */
export const countsStatement = (withHidden: boolean): SQL =>
  sql`SELECT kind, visibility, sum(count)::int AS n FROM entity_counters GROUP BY 1, 2
      ${withHidden ? sql`UNION ALL SELECT 'users', 'hidden', count(*)::int FROM users` : sql``}`;

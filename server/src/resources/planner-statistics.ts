/**
 * PostgreSQL's planner statistics, refreshed after writes too big to wait for autovacuum.
 *
 * Search totals beyond the exact cap are the planner's share of matches times the rows the
 * counters hold (repository.ts estimateMatching), and whether a search is counted at all
 * follows the same share (service.ts `list`). On a table the planner knows nothing of yet —
 * a fresh tenant after a spreadsheet import of a few thousand rows, before autovacuum's next
 * round — that share is meaningless (every row "matches"), and a search for a word found
 * nowhere reported the tenant's whole row count. So the writes that add or change many rows
 * at once (imports, bulk actions) ANALYZE their table when they are done, outside their
 * transaction, on the owner connection (ANALYZE needs the table's owner; the app role is not).
 * A failure is logged and forgotten: the statistics only steer estimates and plans, and
 * autovacuum gathers them later anyway.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Rows written at once from which a write refreshes its table's statistics. */
export const REFRESH_AFTER_ROWS = 200;

export class PlannerStatistics {
  /** Tables being analyzed: a second refresh meanwhile waits for the first instead of running again. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly onError: (table: string, error: unknown) => void = () => {},
  ) {}

  /** Refreshes `table`'s statistics when `rows` rows were just written to it (REFRESH_AFTER_ROWS or more). */
  async afterWrites(table: string, rows: number): Promise<void> {
    if (rows >= REFRESH_AFTER_ROWS) await this.refresh(table);
  }

  async refresh(table: string): Promise<void> {
    const current = this.running.get(table);
    if (current) return current;
    const run = this.db.owner
      .execute(sql`ANALYZE ${sql.identifier(table)}`)
      .then(() => {}, (error: unknown) => this.onError(table, error))
      .finally(() => this.running.delete(table));
    this.running.set(table, run);
    return run;
  }
}

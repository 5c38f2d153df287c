/** Entity counts per kind and visibility, read from the counters every write keeps current. */
import type { EntityCounts } from '../../contracts.ts';
import { query } from '../../db/client.ts';
import type { EngineContext } from '../../resources/context.ts';
import { COUNTED_KINDS, COUNTER_KIND_OF } from '../registry.ts';
import { countsStatement } from './counts.repository.ts';

type CountRow = { kind: string; visibility: string; n: number };

/** Public and paywalled counts of every counted kind, and hidden ones with `withHidden`. */
export async function entityCounts({ tx }: EngineContext, withHidden: boolean): Promise<EntityCounts> {
  const counters = await query<CountRow>(tx, countsStatement(withHidden));
  const result: EntityCounts = {};
  for (const kind of COUNTED_KINDS) {
    const counterKind = COUNTER_KIND_OF[kind] ?? kind;
    const of = (visibility: string) => counters.find((row) => row.kind === counterKind && row.visibility === visibility)?.n ?? 0;
    result[kind] = { public_count: of('public'), paywall_count: of('paywalled') };
    if (withHidden) result[kind]!.hidden_count = of('hidden');
  }
  return result;
}

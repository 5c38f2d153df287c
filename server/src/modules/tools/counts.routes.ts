/**
 * GET tools/entities-count (signed in) and GET tools/free-ahead-entities-count
 * (no auth): per-kind totals by visibility, read from the counters that every
 * write keeps current — never a scan of the entity tables — and kept in memory between changes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EntityCounts } from '../../contracts.ts';
import { query } from '../../db/client.ts';
import { countsStatement } from './counts.repository.ts';
import type { CountsCache } from './counts-cache.ts';
import { COUNTED_KINDS, COUNTER_KIND_OF } from '../registry.ts';

type CountRow = { kind: string; visibility: string; n: number };

export async function countsRoutes(app: FastifyInstance, { cache }: { cache: CountsCache<EntityCounts> }): Promise<void> {
  const load = async (request: FastifyRequest, withHidden: boolean) => {
    const counters = await request.tx((tx) => query<CountRow>(tx, countsStatement(withHidden)));
    const result: EntityCounts = {};
    for (const kind of COUNTED_KINDS) {
      const counterKind = COUNTER_KIND_OF[kind] ?? kind;
      const of = (visibility: string) => counters.find((row) => row.kind === counterKind && row.visibility === visibility)?.n ?? 0;
      result[kind] = { public_count: of('public'), paywall_count: of('paywalled') };
      if (withHidden) result[kind]!.hidden_count = of('hidden');
    }
    return result;
  };
  // Every request of a tenant and variant gets the same numbers until a write changes them:
  // kept in memory (counts-cache.ts).
  const collect = (request: FastifyRequest, withHidden: boolean) =>
    request.tenant ? cache.get(request.tenant.id, withHidden ? 'with-hidden' : 'public-paywall', () => load(request, withHidden)) : load(request, withHidden);

  app.get('/tools/entities-count/', {
    config: { access: 'paywall' },
    schema: { tags: ['tools'], summary: 'Entity counts per kind and visibility (hidden counts for admins)', security: [{ bearer: [] }], response: { 200: EntityCounts } },
  }, async (request) => collect(request, request.principal.access === 'admin'));

  app.get('/tools/free-ahead-entities-count/', {
    schema: { tags: ['tools'], summary: 'Public and paywalled entity counts (no auth)', response: { 200: EntityCounts } },
  }, async (request) => collect(request, false));
}

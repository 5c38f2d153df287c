/**
 * GET tools/entities-count (signed in) and GET tools/free-ahead-entities-count
 * (no auth): per-kind totals by visibility, read from the counters that every
 * write keeps current — never a scan of the entity tables — and kept in memory between changes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EntityCounts } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { withContext } from '../../http/engine-context.ts';
import { dropOnWriteRequests } from '../../http/read-cache.plugin.ts';
import { followCountChanges, type CountsCache } from './counts-cache.ts';
import { entityCounts } from './counts.service.ts';

/**
 * Keeps the engine's counts cache current for as long as the app runs: follows change
 * notifications, and drops a tenant's counts when this process answers a request that may have written.
 */
export async function registerCountsCache<T>(app: FastifyInstance, db: Database, cache: CountsCache<T>): Promise<void> {
  const stop = await followCountChanges(db, cache);
  app.addHook('onClose', stop);
  dropOnWriteRequests(app, cache);
}

export async function countsRoutes(app: FastifyInstance, { cache }: { cache: CountsCache<EntityCounts> }): Promise<void> {
  // Every request of a tenant and variant gets the same numbers until a write changes them:
  // kept in memory (counts-cache.ts).
  const collect = (request: FastifyRequest, withHidden: boolean) => {
    const load = () => withContext(request, (ctx) => entityCounts(ctx, withHidden));
    return request.tenant ? cache.get(request.tenant.id, withHidden ? 'with-hidden' : 'public-paywall', load) : load();
  };

  // Both fill the counts cache, which the primary's notifications empty: filled from a replica
  // not yet at the notification, it would keep the old numbers until the next change.
  app.get('/tools/entities-count/', {
    config: { access: 'paywall', readsFromPrimary: true },
    schema: { tags: ['tools'], summary: 'Entity counts per kind and visibility (hidden counts for admins)', security: [{ bearer: [] }], response: { 200: EntityCounts } },
  }, async (request) => collect(request, request.principal.access === 'admin'));

  app.get('/tools/free-ahead-entities-count/', {
    config: { readsFromPrimary: true },
    schema: { tags: ['tools'], summary: 'Public and paywalled entity counts (no auth)', response: { 200: EntityCounts } },
  }, async (request) => collect(request, false));
}

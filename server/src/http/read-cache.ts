/**
 * The read cache at the routes (resources/read-cache.ts, docs/cache.md): keeps it in step with
 * every process's writes for as long as the app runs, and serves a route's answer from it when
 * the caller's audience is one whose answers are the same for all its members.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { cacheableAudience, followWrites, type ReadCache } from '../resources/read-cache.ts';

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function registerReadCache(app: FastifyInstance, db: Database, cache: ReadCache): Promise<void> {
  const stop = await followWrites(db, cache);
  app.addHook('onClose', stop);
  // onSend runs once the handler's transaction has committed (or rolled back), before the
  // client has the answer: its next read here never sees the cache from before its write,
  // even while the notification is on its way. Without a tenant, any tenant may have changed.
  app.addHook('onSend', async (request) => {
    if (READ_ONLY_METHODS.has(request.method)) return;
    if (request.tenant) cache.invalidate(request.tenant.id);
    else cache.invalidateAll();
  });
}

/**
 * `load()`'s answer, from the cache when the caller is a visitor or a paywall reader of a
 * tenant; `query` must name everything the answer depends on besides tenant and audience
 * (the route and its normalised parameters).
 */
export function cachedRead<T>(cache: ReadCache, request: FastifyRequest, query: string, load: () => Promise<T>): Promise<T> {
  const audience = cacheableAudience(request.principal.access);
  if (!audience || !request.tenant) return load();
  return cache.get(request.tenant.id, audience, query, load);
}

/**
 * The read cache at the routes (resources/read-cache.ts, docs/cache.md): keeps it in step with
 * every process's writes for as long as the app runs, and serves a route's answer from it when
 * the caller's audience is one whose answers are the same for all its members.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { cacheableAudience, followWrites, type ReadCache, type TenantChanges } from '../resources/read-cache.ts';
import { READ_ONLY_METHODS } from './methods.ts';


export async function registerReadCache(app: FastifyInstance, db: Database, cache: ReadCache): Promise<void> {
  const stop = await followWrites(db, cache);
  app.addHook('onClose', stop);
  dropOnWriteRequests(app, cache);
}

/**
 * Moves the request's tenant on in the cache when this process answers a request that may have
 * written. onSend runs once the handler's transaction has committed (or rolled back), before the
 * client has the answer: its next read here never sees the cache from before its write, even
 * while the notification is on its way. Without a tenant, any tenant may have changed.
 */
export function dropOnWriteRequests(app: FastifyInstance, cache: Pick<TenantChanges, 'invalidate' | 'invalidateAll'>): void {
  app.addHook('onSend', async (request) => {
    if (READ_ONLY_METHODS.has(request.method)) return;
    if (request.tenant) cache.invalidate(request.tenant.id);
    else cache.invalidateAll();
  });
}

/**
 * `load()`'s answer, from the cache when the caller is a visitor or a paywall reader of a tenant
 * (`query` names everything it depends on besides tenant and audience: the route and its
 * normalised parameters), and its body as sent as well: the route's own serializer (its
 * response schema) runs once per loaded value and variant, so a cached answer costs neither a database round
 * trip nor serialization. `shape` turns the cached value into the answer (a page with its
 * links); `variant` names what the answer holds beyond the value (those links).
 */
export async function cachedReply<T, A = T>(
  cache: ReadCache,
  request: FastifyRequest,
  reply: FastifyReply,
  query: string,
  load: () => Promise<T>,
  shape: (value: T) => A = (value) => value as unknown as A,
  variant: (answer: A) => string = () => '',
): Promise<A> {
  const audience = cacheableAudience(request.principal.access);
  if (!audience || !request.tenant) return shape(await load());
  // What is kept is kept until a change notification of the primary: loaded from a replica it
  // could predate a change already announced (docs/scaling.md, "Caches").
  if (cache.active) request.readsFromPrimary = true;
  const source = await cache.entry(request.tenant.id, audience, query, load);
  const answer = shape(source.value);
  const body = cache.body(request.tenant.id, audience, query, source, variant(answer), () => reply.serialize(answer) as string);
  // The reply is sent: Fastify takes a returned reply as the answer given.
  return reply.type('application/json; charset=utf-8').send(body) as unknown as A;
}

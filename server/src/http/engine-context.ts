/**
 * Where HTTP meets the engine: a request's actor (its tenant and signed-in
 * user) and the engine context its route runs an operation in. Nothing below
 * the routes sees the request.
 */
import type { FastifyRequest } from 'fastify';
import type { EngineContext, UserActor } from '../resources/context.ts';
import { tenantNotFound } from '../tenancy/tenancy.plugin.ts';

export function actorOf(request: FastifyRequest): UserActor {
  if (!request.tenant) throw tenantNotFound();
  const { user, access, canManageTenants } = request.principal;
  return {
    kind: 'user',
    tenantId: request.tenant.id,
    access,
    manageTenants: canManageTenants,
    user: user ? { id: user.id, email: user.email } : null,
  };
}

/**
 * Runs an engine operation for the request, in a transaction scoped to its tenant. `once`: the
 * operation has effects outside the transaction (request.tx).
 */
export function withContext<T>(request: FastifyRequest, fn: (ctx: EngineContext) => Promise<T>, options: { once?: boolean } = {}): Promise<T> {
  const actor = actorOf(request);
  return request.tx((tx) => fn({ tx, actor }), options);
}

/**
 * Resolves the tenant of every API request from its Host header and gives the
 * request a `tx()` that runs queries under that tenant's row-level security — on the primary,
 * or for a read with read replicas configured, on a replica (http/read-routing.plugin.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, RenderedStatement, Tx } from '../db/client.ts';
import type { ReadRouting } from '../http/read-routing.plugin.ts';
import { ApiError } from '../resources/errors.ts';
import { noteWrites } from '../resources/read-cache.ts';
import { tenantFromHost, type HostTenant } from './host.ts';
import type { TenantCache } from './tenant-cache.ts';
import type { TenantRow } from './tenants.repository.ts';
import { READ_ONLY_METHODS } from '../http/methods.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the Host header names (default tenant, a code, or an impossible label). */
    hostTenant: HostTenant;
    /** The tenant row, or null when the host names no existing tenant. */
    tenant: TenantRow | null;
    /**
     * Runs `fn` in a transaction scoped to this request's tenant. `once`: `fn` has effects
     * outside the transaction (it streams a file), so a replica failing under it does not run
     * it again on the primary.
     */
    tx<T>(fn: (tx: Tx) => Promise<T>, options?: { once?: boolean }): Promise<T>;
    /**
     * Set while this request loads an answer that a change notification of the primary keeps
     * current (the read cache): its reads then go to the primary, never to a replica that may
     * not have replayed the change yet (docs/scaling.md, "Caches").
     */
    readsFromPrimary: boolean;
    /** Runs one read-only statement scoped to this request's tenant (`Database.readOnce`). */
    readOnce<T>(statement: RenderedStatement): Promise<T[]>;
  }
  interface FastifyContextConfig {
    /** Set on routes that work without an existing tenant (e.g. clients/info). */
    tenantOptional?: boolean;
  }
}


export const tenantNotFound = () => new ApiError(404, 'tenant_not_found', 'This tenant does not exist.');

export const tenancyPlugin = fp(
  async (app: FastifyInstance, options: { db: Database; mainHost: string | null; cache: TenantCache; reads?: ReadRouting | null }) => {
    app.decorateRequest('hostTenant', null as never);
    app.decorateRequest('tenant', null);
    const contextOf = (request: FastifyRequest) => ({
      tenantId: request.tenant?.id ?? null,
      manageTenants: request.principal?.canManageTenants ?? false,
      userId: request.principal?.user?.id ?? null,
    });
    const reads = options.reads ?? null;
    app.decorateRequest('readsFromPrimary', false);
    app.decorateRequest('tx', function tx<T>(this: FastifyRequest, fn: (tx: Tx) => Promise<T>, { once = false } = {}): Promise<T> {
      const context = contextOf(this);
      if (reads && !this.readsFromPrimary && reads.readsFromReplica(this)) return reads.replicas.withTenant(context, fn, { after: reads.readAfter(this), once });
      // A request that may write tells every process's read cache at commit when it did
      // (read-cache.ts); reads skip the extra statement.
      if (READ_ONLY_METHODS.has(this.method)) return options.db.withTenant(context, fn);
      return options.db.withTenant(context, async (tx) => {
        const result = await fn(tx);
        await noteWrites(tx, context.tenantId);
        return result;
      });
    });
    app.decorateRequest('readOnce', function readOnce<T>(this: FastifyRequest, statement: RenderedStatement): Promise<T[]> {
      if (reads && !this.readsFromPrimary && reads.readsFromReplica(this)) return reads.replicas.readOnce<T>(contextOf(this), statement, { after: reads.readAfter(this) });
      return options.db.readOnce<T>(contextOf(this), statement);
    });

    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/v1/')) return;
      request.hostTenant = tenantFromHost(request.headers.host, options.mainHost);
      request.tenant = await options.cache.resolve(request.hostTenant);
      if (!request.tenant && !request.routeOptions.config.tenantOptional) throw tenantNotFound();
    });
  },
  { name: 'tenancy' },
);

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
import { tenantFromHost, type HostTenant } from './host.ts';
import type { TenantCache } from './tenant-cache.ts';
import type { TenantRow } from './tenants.repository.ts';

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
    });
    const reads = options.reads ?? null;
    app.decorateRequest('tx', function tx<T>(this: FastifyRequest, fn: (tx: Tx) => Promise<T>, { once = false } = {}): Promise<T> {
      if (reads?.readsFromReplica(this)) return reads.replicas.withTenant(contextOf(this), fn, { after: reads.readAfter(this), once });
      return options.db.withTenant(contextOf(this), fn);
    });
    app.decorateRequest('readOnce', function readOnce<T>(this: FastifyRequest, statement: RenderedStatement): Promise<T[]> {
      if (reads?.readsFromReplica(this)) return reads.replicas.readOnce<T>(contextOf(this), statement, { after: reads.readAfter(this) });
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

/**
 * Public tenant information: GET clients/info/{code}/ (SPEC §7) and
 * GET tenant/ for the tenant the request's host names.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ClientInfo, ErrorBody } from '../../contracts.ts';
import type { TenantCache } from '../../tenancy/tenancy.plugin.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { TENANT_CODE_RE } from '../../tenancy/host.ts';

export function clientInfo(tenant: TenantRow | null): ClientInfo {
  return {
    id: tenant?.id ?? null,
    exists: tenant !== null,
    code: tenant?.code ?? null,
    name: tenant?.name ?? null,
    is_default: tenant?.is_default ?? false,
    payment_access_link: tenant?.payment_access_link ?? null,
    payment_access_message: tenant?.payment_access_message ?? null,
  };
}

export const clientsRoutes: FastifyPluginAsyncTypebox<{ cache: TenantCache }> = async (app, { cache }) => {
  app.get(
    '/clients/info/:code/',
    {
      config: { tenantOptional: true },
      schema: {
        tags: ['clients'],
        summary: 'Whether a tenant code exists, and its payment-access link and message (no auth)',
        params: Type.Object({ code: Type.String({ maxLength: 253 }) }),
        response: { 200: ClientInfo, 400: ErrorBody },
      },
    },
    async (request) => {
      const code = request.params.code.toLowerCase();
      // A code that is not a DNS label cannot name a tenant: answer, don't query.
      if (!TENANT_CODE_RE.test(code)) return clientInfo(null);
      return clientInfo(await cache.resolve({ kind: 'tenant', code }));
    },
  );

  app.get(
    '/tenant/',
    {
      config: { tenantOptional: true },
      schema: {
        tags: ['clients'],
        summary: "The tenant named by this request's host (exists: false when unknown)",
        response: { 200: ClientInfo },
      },
    },
    async (request) => clientInfo(request.tenant),
  );
};

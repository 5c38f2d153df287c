/**
 * Tenants ("clients" in SPEC §7). Public: GET clients/info/{code}/ and GET
 * tenant/ (the tenant the request's host names, with what the layout shows).
 * Tenant managers: GET/POST clients/, GET/PATCH/DELETE clients/{id}/.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Client, ClientDeletion, ClientInfo, ClientInput, ClientPatch, ErrorBody, resourcePage } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { actorOf } from '../../http/engine-context.ts';
import { listQuerystring, parseListParams } from '../../http/list-params.ts';
import { pageOf } from '../../http/pages.ts';
import { everyProblem } from '../../http/validation.ts';
import { IdParam } from '../../http/resource.routes.ts';
import type { TenantCache } from '../../tenancy/tenant-cache.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { TENANT_CODE_RE } from '../../tenancy/host.ts';
import { CLIENT_ORDERING } from './clients.repository.ts';
import { ClientsService, RESERVED_TENANT_CODES } from './clients.service.ts';

export function clientInfo(tenant: TenantRow | null): ClientInfo {
  return {
    id: tenant?.id ?? null,
    exists: tenant !== null,
    code: tenant?.code ?? null,
    name: tenant?.name ?? null,
    is_default: tenant?.is_default ?? false,
    payment_access_link: tenant?.payment_access_link ?? null,
    payment_access_message: tenant?.payment_access_message ?? null,
    open_data_link: tenant?.open_data_link ?? null,
    header_show_tenant_name: tenant?.header_show_tenant_name ?? true,
    header_show_access_level: tenant?.header_show_access_level ?? true,
    footer_text: tenant?.footer_text ?? null,
    footer_show_open_data_link: tenant?.footer_show_open_data_link ?? true,
    footer_show_setup_invite: tenant?.footer_show_setup_invite ?? true,
  };
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const managers = { access: 'manage-tenants' as const };
const tags = ['clients'];
const security = [{ bearer: [] }];
const CLIENTS_LIST = { ordering: CLIENT_ORDERING, defaultOrdering: 'code', booleanFilters: [], searched: 'Part of the code or name' };

export const clientsRoutes: FastifyPluginAsyncTypebox<{ cache: TenantCache; db: Database }> = async (app, { cache, db }) => {
  const clients = new ClientsService(db, cache);

  app.get(
    '/clients/info/:code/',
    {
      config: { tenantOptional: true },
      schema: {
        tags,
        summary: 'Whether a tenant code exists, its payment-access link and message, and what its layout shows (no auth)',
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
        tags,
        summary: "The tenant named by this request's host (exists: false when unknown)",
        response: { 200: ClientInfo },
      },
    },
    async (request) => clientInfo(request.tenant),
  );

  app.get(
    '/clients/',
    {
      config: managers,
      schema: {
        tags,
        security,
        summary: 'List tenants (tenant managers)',
        querystring: listQuerystring(CLIENTS_LIST),
        response: { 200: resourcePage(Client), ...errors },
      },
    },
    async (request) => pageOf(request, await clients.list(actorOf(request), parseListParams(CLIENTS_LIST, request.query))),
  );

  app.post(
    '/clients/',
    {
      config: managers,
      schema: {
        tags,
        security,
        summary: 'Create a tenant, optionally with its first admin (admin_email + admin_password)',
        description:
          'The code is the subdomain: 1–63 lowercase letters, digits and hyphens, no hyphen first or last, ' +
          `not reserved (${RESERVED_TENANT_CODES.join(', ')}), not taken (409).`,
        body: everyProblem(ClientInput),
        response: { 201: Client, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await clients.create(request.body)),
  );

  app.get(
    '/clients/:id/',
    { config: managers, schema: { tags, security, summary: 'Get a tenant', params: IdParam, response: { 200: Client, ...errors } } },
    async (request) => clients.get(actorOf(request), request.params.id),
  );

  app.patch(
    '/clients/:id/',
    {
      config: managers,
      schema: {
        tags,
        security,
        summary: "Change a tenant's name, payment-access link or message",
        params: IdParam,
        body: everyProblem(ClientPatch),
        response: { 200: Client, ...errors },
      },
    },
    async (request) => clients.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/clients/:id/',
    {
      config: managers,
      schema: {
        tags,
        security,
        summary: 'Delete a tenant and all of its data; ?confirm= must repeat its code',
        description:
          'Removes every row of every table with a tenant_id that belongs to the tenant, then the tenant, in one ' +
          'transaction. The default tenant and your own tenant cannot be deleted (409).',
        params: IdParam,
        querystring: Type.Object({ confirm: Type.Optional(Type.String({ maxLength: 253 })) }, { additionalProperties: false }),
        response: { 200: ClientDeletion, ...errors, 409: ErrorBody },
      },
    },
    async (request) => clients.remove(actorOf(request), request.params.id, request.query.confirm),
  );
};

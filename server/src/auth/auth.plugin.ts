/**
 * Authenticates the bearer token of every API request and enforces each
 * route's declared requirement (`config.access`), so no handler checks roles
 * by hand. A token that is present but unknown, expired, revoked or issued on
 * another tenant is a 401 even on public routes: the web app then signs out.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notAuthenticated } from '../resources/errors.ts';
import { authorize, PUBLIC_PRINCIPAL, type Principal, type Requirement } from './access.ts';
import type { AuthService } from './auth.service.ts';
import { bearerToken } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Minimum audience or capability for the route; public when absent. */
    access?: Requirement;
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance, options: { auth: AuthService }) => {
    app.decorateRequest('principal', null as unknown as Principal);

    app.addHook('onRequest', async (request) => {
      request.principal = PUBLIC_PRINCIPAL;
      if (!request.url.startsWith('/api/v1/')) return;
      const token = bearerToken(request.headers.authorization);
      if (token === null) throw notAuthenticated('Malformed Authorization header; expected "Bearer <token>".');
      // Without a tenant (routes that allow an unknown host) no token can be valid: the caller is public.
      if (token !== undefined && request.tenant) {
        request.principal = await options.auth.authenticate(request.tenant, token);
      }
      authorize(request.principal, request.routeOptions.config.access ?? 'public');
    });
  },
  { name: 'auth', dependencies: ['tenancy'] },
);

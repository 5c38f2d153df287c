/** POST auth/login/, POST auth/logout/, GET auth/me/ (SPEC §3 "Auth state"). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CurrentUser, ErrorBody, LoginRequest, LoginResponse } from '../contracts.ts';
import { currentUser, type AuthService } from './auth.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/auth/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password; returns a bearer token',
        body: LoginRequest,
        response: { 200: LoginResponse, ...errors },
      },
    },
    async (request) =>
      auth.login(request.tenant!, {
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      }),
  );

  app.post(
    '/auth/logout/',
    {
      config: { access: 'paywall' },
      schema: {
        tags: ['auth'],
        summary: 'Revoke the bearer token of this request',
        security: [{ bearer: [] }],
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await auth.logout(request.tenant!, request.principal);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/auth/me/',
    {
      config: { access: 'paywall' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: CurrentUser, ...errors },
      },
    },
    async (request) => currentUser(request.principal.user!, request.tenant!),
  );
};

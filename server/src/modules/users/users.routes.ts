/**
 * Users of the current tenant, for its admins: list, create, get, patch and
 * reset-password. There is no DELETE: users are disabled instead, which keeps
 * what they wrote attributed and revokes their sessions at once.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, PasswordReset, resourcePage, User, UserInput, UserPatch } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { actorOf } from '../../http/engine-context.ts';
import { listQuerystring, parseListParams } from '../../http/list-params.ts';
import { pageOf } from '../../http/pages.ts';
import { everyProblem } from '../../http/validation.ts';
import { IdParam } from '../../http/resource.routes.ts';
import { USER_FILTERS, USER_ORDERING } from './users.repository.ts';
import { UsersService } from './users.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const admin = { access: 'admin' as const };
const tags = ['users'];
const security = [{ bearer: [] }];
const USERS_LIST = { ordering: USER_ORDERING, defaultOrdering: 'email', booleanFilters: USER_FILTERS, searched: 'Part of the email or alias' };

export const usersRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  const users = new UsersService(db);

  app.get(
    '/users/',
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'List the users of this tenant',
        querystring: listQuerystring(USERS_LIST),
        response: { 200: resourcePage(User), ...errors },
      },
    },
    async (request) => pageOf(request, await users.list(actorOf(request), parseListParams(USERS_LIST, request.query))),
  );

  app.post(
    '/users/',
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create a user (password at least 10 characters)',
        body: everyProblem(UserInput),
        response: { 201: User, ...errors, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await users.create(actorOf(request), request.body)),
  );

  app.get(
    '/users/:id/',
    { config: admin, schema: { tags, security, summary: 'Get a user', params: IdParam, response: { 200: User, ...errors } } },
    async (request) => users.get(actorOf(request), request.params.id),
  );

  app.patch(
    '/users/:id/',
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Change email, alias, admin and research flags, or disable (revokes the sessions)',
        params: IdParam,
        body: everyProblem(UserPatch),
        response: { 200: User, ...errors, 409: ErrorBody },
      },
    },
    async (request) => users.update(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/users/:id/reset-password/',
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: "Set a new password chosen by the admin; revokes the user's sessions",
        params: IdParam,
        body: everyProblem(PasswordReset),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await users.resetPassword(actorOf(request), request.params.id, request.body, request.principal.sessionId);
      return reply.status(204).send(null);
    },
  );
};

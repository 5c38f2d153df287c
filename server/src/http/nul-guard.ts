/**
 * NUL characters (nul.ts) are rejected at the edge, for every route in one hook:
 * any NUL in the path parameters, the query string or a JSON body — in a value
 * or an object key, at any depth — is a 400 naming the field.
 */
import type { FastifyInstance } from 'fastify';
import { fieldError } from '../resources/errors.ts';
import { NUL_MESSAGE, nulField } from '../resources/nul.ts';

export function registerNulGuard(app: FastifyInstance): void {
  // preValidation: after authentication (onRequest) and body parsing, before the route's schema and handler.
  app.addHook('preValidation', async (request) => {
    const field = nulField(request.params) ?? nulField(request.query) ?? nulField(request.body);
    if (field !== null) throw fieldError(field, NUL_MESSAGE);
  });
}

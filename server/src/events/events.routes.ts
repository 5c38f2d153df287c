/**
 * GET events/?channels=…: the tenant's live events as a server-sent stream (docs/events.md).
 * Everything that can be refused is refused before the stream opens, as an ordinary JSON
 * error: no token (401), a channel the caller may not have (403), an unknown channel or a
 * malformed Last-Event-ID (400). Then the reply is taken over from Fastify and the process's
 * event hub writes to it until the client leaves, the server ends it, or the process stops.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { ErrorBody, type AccessLevel } from '../contracts.ts';
import type { Database } from '../db/client.ts';
import { fieldError, permissionDenied } from '../resources/errors.ts';
import { CHANNELS_OF_ACCESS, EVENT_CHANNELS, type EventChannel } from './event-map.ts';
import { EventHub } from './hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's open event streams (for logs and tests). */
    eventHub: EventHub;
  }
}

/** Starts the process's event hub with the app, and ends every stream before the server closes. */
export async function registerEventHub(app: FastifyInstance, db: Database, settings: Config['events']): Promise<EventHub> {
  const hub = await EventHub.start(db, settings, app.log);
  app.decorate('eventHub', hub);
  // preClose: before the server stops taking connections and waits for the open ones, which
  // an open stream would otherwise keep it waiting for.
  app.addHook('preClose', () => hub.close());
  return hub;
}

const isChannel = (name: string): name is EventChannel => (EVENT_CHANNELS as readonly string[]).includes(name);

/** The channels asked for (all the caller's when none are named). */
function requestedChannels(raw: string | undefined, access: AccessLevel): Set<EventChannel> {
  const allowed = CHANNELS_OF_ACCESS[access];
  const names = (raw ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) return new Set(allowed);
  const unknown = names.find((name) => !isChannel(name));
  if (unknown !== undefined) throw fieldError('channels', `Unknown channel "${unknown}"; the channels are ${EVENT_CHANNELS.join(', ')}.`);
  const refused = (names as EventChannel[]).filter((name) => !allowed.includes(name));
  if (refused.length > 0) {
    throw permissionDenied(`You may not receive the ${refused.join(', ')} channel${refused.length > 1 ? 's' : ''}; yours: ${allowed.join(', ')}.`);
  }
  return new Set(names as EventChannel[]);
}

/** Event ids are whole numbers; bigger than any a tenant reaches, they are still exact in JavaScript. */
const EVENT_ID_RE = /^\d{1,15}$/;

function lastEventIdOf(header: string | string[] | undefined): number | null {
  if (header === undefined || header === '') return null;
  if (typeof header !== 'string' || !EVENT_ID_RE.test(header.trim())) {
    throw fieldError('Last-Event-ID', 'Must be the id of an event this stream sent (a whole number).');
  }
  return Number(header.trim());
}

export const eventsRoutes: FastifyPluginAsyncTypebox<{ hub: EventHub }> = async (app, { hub }) => {
  app.get(
    '/events/',
    {
      config: { access: 'paywall' },
      schema: {
        tags: ['events'],
        summary: 'Live events of the tenant: a text/event-stream (docs/events.md); Last-Event-ID resumes a dropped stream',
        security: [{ bearer: [] }],
        querystring: Type.Object({
          channels: Type.Optional(
            Type.String({ maxLength: 200, description: 'Comma-separated channels: all, research, admin (default: every channel the caller may have)' }),
          ),
        }, { additionalProperties: false }),
        response: { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request, reply) => {
      const { user, sessionId, access } = request.principal;
      const channels = requestedChannels(request.query.channels, access);
      const lastEventId = lastEventIdOf(request.headers['last-event-id']);
      const tenantId = request.tenant!.id;
      const identity = { tenantId, userId: user!.id, sessionId: sessionId!, channels };
      const start = await hub.register(identity, lastEventId);

      reply.hijack();
      // Headers set so far (CORS) go out with the stream's own; onSend hooks do not run for a
      // reply taken over, so the request id is set here.
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      reply.raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // nginx and similar proxies would otherwise hold events back in their buffers.
        'x-accel-buffering': 'no',
        // The stream is its connection's last response: when the server ends it (a limit,
        // a sign-out, shutdown) the socket closes too, rather than idling in keep-alive.
        connection: 'close',
        'x-request-id': request.id,
      });
      hub.attach(identity, reply.raw, start);
    },
  );
};

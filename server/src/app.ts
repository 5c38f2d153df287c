/**
 * buildApp(deps) → a ready Fastify instance on the engine's services (engine.ts). It never
 * listens: main.ts does, and tests drive it with app.inject.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import { authPlugin } from './auth/auth.plugin.ts';
import { authRoutes } from './auth/auth.routes.ts';
import type { Config } from './config.ts';
import { guardConnections } from './db/pool-guard.ts';
import type { Engine } from './engine.ts';
import { withLogHygiene } from './logging.ts';
import { eventsRoutes, registerEventHub } from './events/events.routes.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { requireParamsSchemas, schemaController } from './http/validation.ts';
import { registerNulGuard } from './http/nul-guard.ts';
import multipart from '@fastify/multipart';
import { mailTransportFor, type MailTransport } from './mail/mail.ts';
import { clientsRoutes } from './modules/clients/clients.routes.ts';
import { emailsRoutes } from './modules/emails/emails.routes.ts';
import { factsRoutes } from './modules/facts/facts.routes.ts';
import { listsRoutes } from './modules/lists/lists.routes.ts';
import { notesRoutes } from './modules/notes/notes.routes.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { rawdataRoutes } from './modules/rawdata/rawdata.routes.ts';
import { reviewRoutes } from './modules/review/review.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { taggingRoutes } from './modules/tagging/tagging.routes.ts';
import { countsRoutes, registerCountsCache } from './modules/tools/counts.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { viewsRoutes } from './modules/views/views.routes.ts';
import { jobsRoutes } from './jobs/jobs.routes.ts';
import { probeRoutes } from './modules/probe/probe.routes.ts';
import { metadataRoutes } from './http/metadata.routes.ts';
import { registerResource } from './http/resource.routes.ts';
import { ReadRouting, registerReadYourWrites } from './http/read-routing.plugin.ts';
import { replicasRoutes } from './http/replicas.routes.ts';
import { registerReadCache } from './http/read-cache.plugin.ts';
import { normalizeHost } from './tenancy/host.ts';
import { tenancyPlugin } from './tenancy/tenancy.plugin.ts';

export const API_PREFIX = '/api/v1';
export const VERSION = '1.0.0';

export interface AppDeps {
  /** The composition root: the catalog, services, caches and file store the routes use. */
  engine: Engine;
  /** Overrides the logger (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Outgoing mail (mail/mail.ts); the transport MAIL_TRANSPORT names by default. */
  mail?: MailTransport;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,100}$/;

export async function buildApp({ engine, logger, mail }: AppDeps): Promise<FastifyInstance> {
  const { config, db, files, caches } = engine;
  const app = Fastify({
    // Every logger the app is given gets the log hygiene (logging.ts): no parameters, tokens or hashes.
    logger: logger === false ? false : withLogHygiene(logger === undefined || logger === true ? { level: config.logLevel } : logger),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    // Every params, query string and body schema is validated, except record bodies (validation.ts).
    schemaController,
    // Response serializers check nullable and union fields with validators that are otherwise
    // compiled on a route's first answer — a second or more for a list of records, seconds on
    // a busy machine, so the first visitor of each page after a start waited. In production
    // they are compiled at start instead (a few seconds of CPU once); tests and development
    // keep the fast start.
    serializerOpts: { compileValidators: config.env === 'production' },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // A connection lost while a request holds it must fail that request (503), not the process.
  guardConnections(db, app.log);

  registerErrorHandling(app);
  registerNulGuard(app);
  requireParamsSchemas(app, API_PREFIX);
  // Spreadsheet uploads are streamed; one file per request, capped in size.
  await app.register(multipart, { limits: { fileSize: config.uploadLimitBytes, files: 1, fields: 10 } });
  await registerSecurity(app, config);
  await registerOpenApi(app);

  const { auth, replicas } = engine;
  // Read replicas: checked from now on; reads of GET requests go to them (http/read-routing.plugin.ts).
  let reads: ReadRouting | null = null;
  if (replicas) {
    await replicas.start(app.log);
    app.addHook('onClose', () => replicas.stop());
    reads = new ReadRouting(replicas, config.replicas);
  }
  await app.register(tenancyPlugin, { db, mainHost: config.mainHost, cache: caches.tenants, reads });
  await app.register(authPlugin, { auth });
  if (reads) registerReadYourWrites(app, reads);
  await registerCountsCache(app, db, caches.counts);
  await registerReadCache(app, db, caches.reads);
  const events = await registerEventHub(app, db, config.events);

  await app.register(
    async (api) => {
      await api.register(authRoutes, { auth });
      await api.register(clientsRoutes, { cache: caches.tenants, db });
      await api.register(usersRoutes, { db });
      await api.register(settingsRoutes, { cache: caches.tenants, db });
      await api.register(countsRoutes, { cache: caches.counts });
      await api.register(replicasRoutes, { replicas });
      await api.register(searchRoutes, { catalog: engine.catalog, cache: caches.reads });
      await api.register(organizationsRoutes, { config });
      await api.register(operatorRoutes, { config, catalog: engine.catalog });
      await api.register(listsRoutes, { service: engine.lists });
      await api.register(factsRoutes, { service: engine.facts, cache: caches.reads });
      await api.register(reviewRoutes, { reviews: engine.reviews });
      await api.register(rawdataRoutes, { services: engine.services, processing: engine.rawDataProcessing, reports: engine.rawDataReports, files, config });
      await api.register(emailsRoutes, { list: engine.emailList, db, config, mail: mail ?? mailTransportFor(config, app.log) });
      await api.register(taggingRoutes, { services: engine.services });
      await api.register(viewsRoutes, { services: engine.services });
      await api.register(notesRoutes, { services: engine.services });
      await api.register(metadataRoutes, { catalog: engine.catalog });
      await api.register(jobsRoutes);
      await api.register(eventsRoutes, { hub: events });
      if (config.jobs.probe) await api.register(probeRoutes);
      for (const service of engine.services.all()) await registerResource(api, service, { files, importWaitSeconds: config.importWaitSeconds, statistics: engine.statistics, cache: caches.reads });
    },
    { prefix: API_PREFIX },
  );

  await registerWebApp(app, config.webDist);
  return app;
}

async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  // helmet's middleware is built once here: @fastify/helmet rebuilds it (and re-parses the
  // CSP directives) on every request.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // MUI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Self-hosted instances often run on plain http (e.g. *.localhost).
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined)),
  );

  // Only the tenant's own origin (and configured extras) may call the API from a browser.
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      let allowed = false;
      if (origin) {
        try {
          allowed =
            config.corsOrigins.includes(origin) ||
            normalizeHost(new URL(origin).host) === normalizeHost(request.headers.host ?? '');
        } catch {
          allowed = false;
        }
      }
      callback(null, {
        origin: allowed,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
        exposedHeaders: ['Retry-After', 'X-Request-Id', 'Content-Disposition'],
        maxAge: 600,
      });
    },
  });
}

async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'intelnotes API',
        version: VERSION,
        description:
          'Multi-tenant intelligence-notes workspace. The tenant is the first label of the Host header (SPEC §1). ' +
          'Errors are JSON {detail, code, errors?}. Authenticated calls send `Authorization: Bearer <token>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}

/** Built files whose names carry a hash of their content: a changed file gets a new name. */
const HASHED_ASSETS = `${path.sep}assets${path.sep}`;
/** Cache-Control of the built files. */
export const WEB_CACHE_CONTROL = {
  /** Hashed assets never change under their name. */
  hashed: 'public, max-age=31536000, immutable',
  /** index.html names the current assets: browsers revalidate it on every load. */
  index: 'no-cache',
  /** Other files of web/public (favicon…) keep their names across releases. */
  other: 'public, max-age=3600',
} as const;

/**
 * Serves the built single-page app; every non-API GET falls back to index.html. The build
 * writes a brotli and a gzip copy beside each file (web/precompress.ts), sent as they are
 * to browsers that accept them (`preCompressed`, with `Vary: Accept-Encoding`).
 */
async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web app not built; serving the API only (npm start builds it)');
    return;
  }
  const root = path.resolve(webDist);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      // `file` may be the compressed copy (index.html.br): the logical file decides.
      const relative = `${path.sep}${path.relative(root, file).replace(/\.(?:br|gz)$/, '')}`;
      const cacheControl =
        relative === `${path.sep}index.html` ? WEB_CACHE_CONTROL.index : relative.startsWith(HASHED_ASSETS) ? WEB_CACHE_CONTROL.hashed : WEB_CACHE_CONTROL.other;
      reply.header('cache-control', cacheControl);
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ detail: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
    }
    // Built files have their own routes (wildcard: false). A hashed asset that is not there
    // (a tab still running the previous release) is a 404, not a page parsed as a script.
    if (request.url.startsWith('/assets/')) {
      return reply.status(404).send({ detail: `No file ${request.url.split('?')[0]}.`, code: 'not_found' });
    }
    // Anything else is a client-side route.
    return reply.sendFile('index.html');
  });
}

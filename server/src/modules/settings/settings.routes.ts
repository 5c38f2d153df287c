/** GET and PATCH settings/: the current tenant's settings, for its admins. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, Settings, SettingsPatch } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { actorOf } from '../../http/engine-context.ts';
import type { TenantCache } from '../../tenancy/tenant-cache.ts';
import { SettingsService } from './settings.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['settings'];
const security = [{ bearer: [] }];

export const settingsRoutes: FastifyPluginAsyncTypebox<{ cache: TenantCache; db: Database }> = async (app, { cache, db }) => {
  const settings = new SettingsService(db, cache);

  app.get(
    '/settings/',
    {
      config: { access: 'admin' },
      schema: { tags, security, summary: "This tenant's settings", response: { 200: Settings, ...errors } },
    },
    async (request) => settings.get(actorOf(request)),
  );

  app.patch(
    '/settings/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security,
        summary: "Change this tenant's name, paywall link and message, open-data link, header and footer",
        body: SettingsPatch,
        response: { 200: Settings, ...errors },
      },
    },
    async (request) => settings.update(actorOf(request), request.body),
  );
};

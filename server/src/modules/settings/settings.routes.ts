/** GET and PATCH settings/: the current tenant's settings, for its admins. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, Settings, SettingsPatch } from '../../contracts.ts';
import type { TenantCache } from '../../tenancy/tenancy.plugin.ts';
import { SettingsService } from './settings.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['settings'];
const security = [{ bearer: [] }];

export const settingsRoutes: FastifyPluginAsyncTypebox<{ cache: TenantCache }> = async (app, { cache }) => {
  const settings = new SettingsService(cache);

  app.get(
    '/settings/',
    {
      config: { access: 'admin' },
      schema: { tags, security, summary: "This tenant's settings", response: { 200: Settings, ...errors } },
    },
    async (request) => settings.get(request),
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
    async (request) => settings.update(request, request.body),
  );
};

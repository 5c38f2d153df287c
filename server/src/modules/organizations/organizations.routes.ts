/**
 * Organization calls beyond the engine's (SPEC §7): suggested_fields_from_url/?url=
 * (count?status= is review's, modules/review/review.routes.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { ErrorBody, OrganizationSuggestion } from '../../contracts.ts';
import { ApiError, fieldError } from '../../resources/errors.ts';
import { safeFetchText, SafeFetchError } from '../../http/safe-fetch.ts';
import { parseEmail, parsePhone, parseUrl } from '../../resources/values.ts';
import { extractOrganizationSuggestion } from './url-suggestions.ts';

/** Outbound-fetch failures that are the caller's input, not the remote site. */
const INPUT_REASONS = new Set(['invalid_url', 'blocked_address']);

export const organizationsRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, { config }) => {
  app.get('/assets/organizations/suggested_fields_from_url/', {
    config: { access: 'research' },
    schema: {
      tags: ['organizations'],
      summary: "Fetch a web page and suggest an organization's fields from its meta tags and JSON-LD",
      security: [{ bearer: [] }],
      querystring: Type.Object({ url: Type.String({ description: 'An http(s) address; one without a scheme is read as https' }) }, { additionalProperties: false }),
      response: {
        200: OrganizationSuggestion,
        400: ErrorBody,
        401: ErrorBody,
        403: ErrorBody,
        422: ErrorBody,
      },
    },
  }, async (request) => {
    if (request.query.url.trim() === '') throw fieldError('url', 'This field is required.');
    const url = parseUrl(request.query.url);
    if (!url.ok) throw fieldError('url', url.message);
    try {
      const page = await safeFetchText(url.value, { ...config.fetch, userAgent: 'intelnotes/1.0 (+suggested fields)' });
      const suggestion = extractOrganizationSuggestion(page.body, page.finalUrl);
      // Only values that pass the same validation as a saved organization are suggested.
      const valid = <T>(values: string[], parse: (value: string) => { ok: true; value: T } | { ok: false }) =>
        [...new Set(values.map(parse).flatMap((parsed) => (parsed.ok ? [parsed.value] : [])))];
      return {
        name_inc: suggestion.name,
        notes: suggestion.description,
        emails: valid(suggestion.emails, parseEmail),
        phones: valid(suggestion.phones, (value) => parsePhone(value)),
        associated_urls: valid(suggestion.associated_urls, parseUrl),
        source_url: page.finalUrl,
      };
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      if (INPUT_REASONS.has(error.reason)) throw fieldError('url', error.message);
      // The URL is well formed but the page could not be used: 422 names the field and the reason.
      throw new ApiError(422, 'url_unreachable', `url: ${error.message}`, { url: [error.message] });
    }
  });
};

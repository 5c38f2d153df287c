/**
 * Email list calls beyond the engine's (SPEC §7 "Email list", docs/emails.md): the paste of a
 * text full of addresses, the typeahead, who holds an address, and the public sign-up widget's
 * subscribe, confirm and unsubscribe.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import type { Config } from '../../config.ts';
import { ErrorBody, RelatedRef } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { withContext } from '../../http/engine-context.ts';
import { ApiError, badRequest } from '../../resources/errors.ts';
import type { MailTransport } from '../../mail/mail.ts';
import { tenantOrigin } from '../../tenancy/host.ts';
import { tenantNotFound } from '../../tenancy/tenancy.plugin.ts';
import { extractAddresses } from './email-extract.ts';
import { emailList } from './emails.resource.ts';
import { PARSE_MAX_CANDIDATES, RAW_TEXT_MAX_BYTES, type EmailListService } from './emails.service.ts';
import { SubscriptionService } from './subscription.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const Position = { start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }), line: Type.Integer({ minimum: 1 }) };
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ParseTextResult = Type.Object({
  created: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  duplicates: Type.Array(Type.Object({
    email: Type.String(),
    name: Nullable(Type.String()),
    existing_id: Nullable(Type.String({ format: 'uuid' })),
    reason: Type.Union([Type.Literal('already in the list'), Type.Literal('repeated in the text')]),
    ...Position,
  })),
  invalid: Type.Array(Type.Object({ text: Type.String(), reason: Type.String(), ...Position })),
  counts: Type.Object({ found: Type.Integer(), created: Type.Integer(), duplicates: Type.Integer(), invalid: Type.Integer() }),
});

const Holder = Type.Object({ id: Type.String({ format: 'uuid' }), display_name: Nullable(Type.String()) });
const Token = Type.Object({ token: Type.String({ maxLength: 500 }) }, { additionalProperties: false });

/** JSON escapes can make a body up to six times its text (\u0000 for one byte): room for the largest allowed text. */
const PARSE_BODY_LIMIT = 7 * RAW_TEXT_MAX_BYTES;
const tooLarge = () =>
  new ApiError(413, 'payload_too_large', `raw_text: the text is larger than ${RAW_TEXT_MAX_BYTES} bytes (1 MB); paste it in parts.`, {
    raw_text: [`The text is larger than ${RAW_TEXT_MAX_BYTES} bytes (1 MB); paste it in parts.`],
  });

export async function emailsRoutes(instance: FastifyInstance, options: { list: EmailListService; db: Database; config: Config; mail: MailTransport }): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { list } = options;
  const subscriptions = new SubscriptionService(options.db, list, options.config.emails, options.mail, instance.log);
  const base = emailList.path;
  const tags = [emailList.kind];
  const research = { config: { access: 'research' as const } };
  const appErrorHandler = instance.errorHandler;

  app.post(`${base}/bulk_create/parse_text/`, {
    ...research,
    bodyLimit: PARSE_BODY_LIMIT,
    // A body past even that limit is still refused naming raw_text.
    errorHandler: (error, request, reply) => {
      if ((error as { statusCode?: number }).statusCode === 413) return reply.status(413).send(tooLarge().toBody());
      return appErrorHandler.call(instance, error, request, reply);
    },
    schema: {
      tags,
      summary: 'Add every e-mail address of a pasted text (up to 1 MB) to the list',
      description: 'Answers what was created, the duplicates (of the list or of the text) and what looked like an address but is none, each with its place in the text.',
      security: [{ bearer: [] }],
      body: Type.Object({ raw_text: Type.String() }, { additionalProperties: false }),
      response: { 200: ParseTextResult, ...errors, 413: ErrorBody },
    },
  }, async (request) => {
    const text = request.body.raw_text;
    if (Buffer.byteLength(text, 'utf8') > RAW_TEXT_MAX_BYTES) throw tooLarge();
    // Read before the transaction: the work is the text's, not the database's.
    const extraction = extractAddresses(text);
    if (extraction.found.length + extraction.invalid.length > PARSE_MAX_CANDIDATES) {
      throw badRequest(`raw_text: the text holds more than ${PARSE_MAX_CANDIDATES} addresses; paste it in parts.`, {
        raw_text: [`The text holds more than ${PARSE_MAX_CANDIDATES} addresses; paste it in parts.`],
      });
    }
    return withContext(request, (ctx) => list.addFound(ctx, extraction));
  });

  app.get(`${base}/search_input_form/`, {
    ...research,
    schema: {
      tags,
      summary: 'Up to ten list items whose address starts with the text, then whose address or name holds it',
      security: [{ bearer: [] }],
      querystring: Type.Object({ query: Type.Optional(Type.String({ maxLength: 254 })) }, { additionalProperties: false }),
      response: {
        200: Type.Object({
          results: Type.Array(Type.Object({ id: Type.String(), email: Type.String(), name: Nullable(Type.String()), domain: Nullable(RelatedRef) })),
        }),
        ...errors,
      },
    },
  }, async (request) => withContext(request, (ctx) => list.searchInputForm(ctx, request.query.query ?? '')));

  app.get(`${base}/email-asset-lookup/`, {
    ...research,
    schema: {
      tags,
      summary: 'The organizations and people holding an e-mail address (those the caller may see)',
      security: [{ bearer: [] }],
      querystring: Type.Object({ email: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ email: Type.String(), organizations: Type.Array(Holder), people: Type.Array(Holder) }), ...errors },
    },
  }, async (request) => withContext(request, (ctx) => list.assetLookup(ctx, request.query.email)));

  app.post(`${base}/subscribe/`, {
    schema: {
      tags,
      summary: "Join the tenant's mailing list (public; double opt-in: a confirmation link is mailed)",
      description: 'The answer is the same whether or not the address is on the list already. `website` must stay empty and `started_at` is when the form was shown (ms since 1970).',
      body: Type.Object({
        email: Type.String({ maxLength: 1000 }),
        name: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
        website: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
        started_at: Type.Integer({ minimum: 0 }),
      }, { additionalProperties: false }),
      response: { 202: Type.Object({ status: Type.Literal('pending'), message: Type.String() }), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
    },
  }, async (request, reply) => {
    const tenant = request.tenant;
    if (!tenant) throw tenantNotFound();
    const origin = tenantOrigin(request, tenant, options.config.mainHost);
    if (!origin) throw new ApiError(503, 'not_configured', 'Sign-up mails need the deployment\'s own host name: set MAIN_HOST.');
    const answer = await subscriptions.subscribe(request.body, { tenantId: tenant.id, tenantName: tenant.name, ip: request.ip, origin });
    return reply.status(202).send(answer);
  });

  app.get(`${base}/confirm/`, {
    schema: {
      tags,
      summary: 'Confirm a subscription with the link mailed to the address (public)',
      querystring: Token,
      response: { 200: Type.Object({ status: Type.Literal('confirmed') }), 400: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    if (!request.tenant) throw tenantNotFound();
    return subscriptions.confirm(request.tenant.id, request.query.token);
  });

  // RFC 8058's one-click unsubscribe POSTs `List-Unsubscribe=One-Click` as a form: taken, and ignored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  // POST only: a GET that unsubscribed would be followed by mail scanners and link prefetchers.
  // The mail's link opens the web page, which asks for a click.
  app.post(`${base}/unsubscribe/`, {
    schema: {
      tags,
      summary: 'Leave the mailing list (public; also the one-click unsubscribe of RFC 8058)',
      querystring: Token,
      response: { 200: Type.Object({ status: Type.Literal('unsubscribed') }), 400: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    if (!request.tenant) throw tenantNotFound();
    return subscriptions.unsubscribe(request.tenant.id, request.query.token);
  });
}

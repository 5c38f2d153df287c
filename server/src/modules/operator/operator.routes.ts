/**
 * POST ai-assistant/queries/nlp-to-query/ (SPEC §7) and ai-assistant/queries/validate/: the
 * Operator's question → structured query → list request, for any audience (anonymous
 * visitors too: names resolve among what the caller may see). docs/operator.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { ErrorBody, OperatorAnswer, OperatorQuestion, ValidateQueryRequest } from '../../contracts.ts';
import { withContext } from '../../http/engine-context.ts';
import { engineParsed } from '../../http/validation.ts';
import { OperatorModel, type ModelAnswer } from './operator-model.ts';
import { answerQuestion, checkQuestion, validateQuery } from './operator.service.ts';
import { writeRefusal, writeVerb } from './refusal.ts';

export async function operatorRoutes(app: FastifyInstance, { config, catalog }: { config: Config; catalog: Catalog }): Promise<void> {
  const model = config.operator.llm ? new OperatorModel(config.operator.llm) : null;

  app.post<{ Body: OperatorQuestion }>('/ai-assistant/queries/nlp-to-query/', {
    schema: {
      tags: ['operator'],
      summary: 'A question in plain English → a structured query, the list request running it, and what was understood',
      body: OperatorQuestion,
      response: { 200: OperatorAnswer, 400: ErrorBody },
    },
  }, async (request) => {
    const question = checkQuestion(request.body.query);
    const acceptPartial = request.body.accept_partial === true;
    // Refused before any endpoint is asked: the Operator never changes data.
    const verb = writeVerb(question);
    if (verb) throw writeRefusal(verb);
    // Relative dates ("last quarter") count from today, UTC.
    const day = new Date();
    // Asked before the transaction opens: an endpoint may take seconds.
    let modelAnswer: ModelAnswer | null = null;
    if (model) {
      try {
        modelAnswer = await model.ask(question, request.principal.access, day);
      } catch (error) {
        request.log.warn({ reason: (error as Error).message }, 'Operator chat endpoint failed; the built-in parser answers');
      }
    }
    return withContext(request, (ctx) => answerQuestion(ctx, question, {
      today: day,
      modelAnswer,
      acceptPartial,
      onModelRejected: (reason) => request.log.warn({ reason }, "Operator chat endpoint's query was not usable; the built-in parser answers"),
    }));
  });

  app.post<{ Body: { query: unknown } }>('/ai-assistant/queries/validate/', {
    schema: {
      tags: ['operator'],
      summary: 'Checks a structured query (chips edited by hand) and answers its list request and explanation',
      // Checked by the Operator itself, so a 400 names the path at fault (query.conditions[1].op).
      body: engineParsed(ValidateQueryRequest),
      response: { 200: OperatorAnswer, 400: ErrorBody },
    },
  }, async (request) => {
    const body = request.body as unknown;
    const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['query'] : undefined;
    return withContext(request, (ctx) => validateQuery(ctx, catalog, input));
  });
}

/**
 * POST taggingrules/test/: the "test this rule" box. Runs a rule — the one
 * sent, or a saved one by id — over a text and answers where it matches.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ErrorBody, RelatedRef } from '../../contracts.ts';
import { badRequest, fieldError } from '../../resources/errors.ts';
import { withContext } from '../../http/engine-context.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { MAX_SCANNED_CHARS } from './apply-tagging-rules.ts';
import { findMatches, MATCH_TYPES, MAX_REPORTED_MATCHES, PatternError, type MatchType, type RuleSpec } from './matcher.ts';
import { taggingRules } from './tagging-rules.resource.ts';

const TestBody = Type.Object({
  id: Type.Optional(Type.String({ format: 'uuid', description: 'A saved rule to test; its pattern, match type and case are used' })),
  pattern: Type.Optional(Type.String()),
  match_type: Type.Optional(Type.Enum(MATCH_TYPES)),
  case_sensitive: Type.Optional(Type.Boolean()),
  text: Type.String({ maxLength: MAX_SCANNED_CHARS, description: 'Rules read no more of a record' }),
});

const TestResult = Type.Object({
  matches: Type.Array(Type.Object({ start: Type.Integer(), end: Type.Integer(), text: Type.String() })),
  /** More matches than MAX_REPORTED_MATCHES were found; only the first are listed. */
  truncated: Type.Boolean(),
  /** The keywords the rule would add (a saved rule's, when tested by id). */
  keywords: Type.Optional(Type.Array(RelatedRef)),
});

export async function taggingRoutes(app: FastifyInstance, { services }: { services: ResourceServices }): Promise<void> {
  const service = services.get(taggingRules.kind);

  app.post<{ Body: Static<typeof TestBody> }>('/taggingrules/test/', {
    config: { access: 'research' },
    schema: {
      tags: ['tagging_rules'],
      summary: 'Where a rule (sent, or saved: by id) matches a text, and the keywords it would add',
      body: TestBody,
      response: { 200: TestResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    const { id, text } = request.body;
    let rule: RuleSpec;
    let keywords: unknown;
    if (id !== undefined) {
      const saved = await withContext(request, (ctx) => service.get(ctx, id));
      rule = { pattern: String(saved['pattern']), match_type: saved['match_type'] as MatchType, case_sensitive: Boolean(saved['case_sensitive']) };
      keywords = saved['keywords'];
    } else {
      const { pattern, match_type: matchType = 'word', case_sensitive: caseSensitive = false } = request.body;
      if (pattern === undefined || pattern.trim() === '') throw fieldError('pattern', 'This field is required.');
      rule = { pattern, match_type: matchType, case_sensitive: caseSensitive };
    }

    try {
      const matches = findMatches(rule, text, MAX_REPORTED_MATCHES + 1);
      return {
        matches: matches.slice(0, MAX_REPORTED_MATCHES),
        truncated: matches.length > MAX_REPORTED_MATCHES,
        ...(keywords === undefined ? {} : { keywords }),
      };
    } catch (error) {
      if (error instanceof PatternError) throw badRequest(`pattern: ${error.message}`, { pattern: [error.message] });
      throw error;
    }
  });
}

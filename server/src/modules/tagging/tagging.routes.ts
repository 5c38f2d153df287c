/**
 * POST taggingrules/test/: the "test this rule" box. Runs a rule — the one
 * sent, or a saved one by id — over a text and answers where it matches.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody, RelatedRef } from '../../contracts.ts';
import { badRequest, type FieldErrors } from '../../http/errors.ts';
import { withContext } from '../../http/engine-context.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { ResourceService } from '../../resources/service.ts';
import { MAX_SCANNED_CHARS } from './apply-tagging-rules.ts';
import { findMatches, MATCH_TYPES, MAX_REPORTED_MATCHES, PatternError, type MatchType, type RuleSpec } from './matcher.ts';
import { taggingRules } from './tagging-rules.resource.ts';

const TestBody = Type.Object({
  id: Type.Optional(Type.String({ description: 'A saved rule to test; its pattern, match type and case are used' })),
  pattern: Type.Optional(Type.String()),
  match_type: Type.Optional(Type.Union(MATCH_TYPES.map((value) => Type.Literal(value)))),
  case_sensitive: Type.Optional(Type.Boolean()),
  text: Type.String({ maxLength: MAX_SCANNED_CHARS }),
});

const TestResult = Type.Object({
  matches: Type.Array(Type.Object({ start: Type.Integer(), end: Type.Integer(), text: Type.String() })),
  /** More matches than MAX_REPORTED_MATCHES were found; only the first are listed. */
  truncated: Type.Boolean(),
  /** The keywords the rule would add (a saved rule's, when tested by id). */
  keywords: Type.Optional(Type.Array(RelatedRef)),
});

function ruleFromBody(body: Record<string, unknown>, errors: FieldErrors): RuleSpec | null {
  const pattern = body['pattern'];
  const matchType = body['match_type'] ?? 'word';
  const caseSensitive = body['case_sensitive'] ?? false;
  if (typeof pattern !== 'string' || pattern.trim() === '') errors['pattern'] = ['This field is required.'];
  if (typeof matchType !== 'string' || !MATCH_TYPES.includes(matchType as MatchType)) errors['match_type'] = [`Must be one of: ${MATCH_TYPES.join(', ')}.`];
  if (typeof caseSensitive !== 'boolean') errors['case_sensitive'] = ['Must be true or false.'];
  if (Object.keys(errors).length > 0) return null;
  return { pattern: pattern as string, match_type: matchType as MatchType, case_sensitive: caseSensitive as boolean };
}

export async function taggingRoutes(app: FastifyInstance, { catalog }: { catalog: Catalog }): Promise<void> {
  const service = new ResourceService(taggingRules, catalog);

  app.post('/taggingrules/test/', {
    config: { access: 'research' },
    // Validated here, so every problem is a 400 naming its field.
    validatorCompiler: () => () => true,
    schema: {
      tags: ['tagging_rules'],
      summary: 'Where a rule (sent, or saved: by id) matches a text, and the keywords it would add',
      body: TestBody,
      response: { 200: TestResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
  }, async (request) => {
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object.'] });
    }
    const input = body as Record<string, unknown>;
    const errors: FieldErrors = {};
    const text = input['text'];
    if (typeof text !== 'string') errors['text'] = ['Must be text.'];
    else if (text.length > MAX_SCANNED_CHARS) errors['text'] = [`Ensure this field has no more than ${MAX_SCANNED_CHARS} characters (rules read no more of a record).`];

    let rule: RuleSpec | null;
    let keywords: unknown;
    if (input['id'] !== undefined && input['id'] !== null) {
      if (typeof input['id'] !== 'string') throw badRequest('id: Must be the id of a tagging rule.', { id: ['Must be the id of a tagging rule.'] });
      const id = input['id'];
      const saved = await withContext(request, (ctx) => service.get(ctx, id));
      rule = { pattern: String(saved['pattern']), match_type: saved['match_type'] as MatchType, case_sensitive: Boolean(saved['case_sensitive']) };
      keywords = saved['keywords'];
    } else {
      rule = ruleFromBody(input, errors);
    }
    const first = Object.entries(errors)[0];
    if (first || !rule) throw badRequest(first ? `${first[0]}: ${first[1][0]}` : 'Invalid rule.', errors);

    try {
      const matches = findMatches(rule, text as string, MAX_REPORTED_MATCHES + 1);
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

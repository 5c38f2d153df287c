/**
 * The global handler that maps every thrown error to the API's one error shape (errors.ts):
 * an ApiError as it says, a schema validation failure as a 400 naming each field and why (in
 * the engine's words), Fastify's own 4xx with its message, a database that is away as a 503
 * with Retry-After (db/errors.ts). Clients never see stack traces; anything unexpected is
 * logged with its request id (log-hygiene.ts keeps values out) and answered with a 500.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorBody } from '../contracts.ts';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { itemMessage } from '../resources/values.ts';
import { ApiError, badRequest, databaseUnavailable, type FieldErrors, type ItemErrors } from './errors.ts';

interface AjvIssue {
  instancePath?: string;
  schemaPath?: string;
  message?: string;
  params?: Record<string, unknown>;
  keyword?: string;
}

/**
 * A value refused by every branch of an anyOf (a nullable field: text or null) comes as one
 * issue per branch, then one for the anyOf. Told as one: the branch's own rule when the value
 * had a branch's type but broke its rule (too long), else the types it may have ("Must be text
 * or null.").
 */
function mergeAlternatives(issues: AjvIssue[]): AjvIssue[] {
  const merged: AjvIssue[] = [];
  for (const issue of issues) {
    if (issue.keyword !== 'anyOf' || issue.schemaPath === undefined) {
      merged.push(issue);
      continue;
    }
    const branches: AjvIssue[] = [];
    while (merged.length > 0 && merged.at(-1)!.schemaPath?.startsWith(`${issue.schemaPath}/`)) branches.unshift(merged.pop()!);
    const broken = branches.filter((branch) => branch.keyword !== 'type');
    if (broken.length > 0) merged.push(...broken);
    else merged.push({ ...issue, keyword: 'type', params: { type: branches.map((branch) => branch.params?.['type']).join(',') } });
  }
  return merged;
}

/**
 * At most this many problems are told: a form's body (validation.ts, everyProblem) is checked
 * to the end, and one of thousands of unknown keys would otherwise answer thousands of them.
 */
const MAX_ISSUES = 100;

/**
 * Turns schema validation issues into {field: [messages]}; an issue with an item of a list
 * (`/ids/2`) is also an item error of the list's field.
 */
function fieldErrorsFromValidation(issues: AjvIssue[], context: string | undefined): { errors: FieldErrors; itemErrors: ItemErrors } {
  const errors: FieldErrors = {};
  const itemErrors: ItemErrors = {};
  // Own keys only: a field named "constructor" or "toString" must not find a built-in of the object.
  const add = <T>(into: Record<string, T[]>, key: string, value: T) => {
    if (!Object.hasOwn(into, key)) into[key] = [];
    into[key]!.push(value);
  };
  for (const issue of mergeAlternatives(issues).slice(0, MAX_ISSUES)) {
    let field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const missing = issue.params?.['requiredProperties'] ?? issue.params?.['missingProperty'];
    if (issue.keyword === 'required' && missing !== undefined) {
      field = [field, Array.isArray(missing) ? missing[0] : missing].filter(Boolean).join('.');
    }
    const additional = issue.params?.['additionalProperty'] ?? issue.params?.['additionalProperties'];
    if (issue.keyword === 'additionalProperties' && additional !== undefined) {
      field = [field, Array.isArray(additional) ? additional[0] : additional].filter(Boolean).join('.');
      add(errors, field || rootName(context), context === 'querystring' ? 'Unknown parameter.' : 'Unknown field.');
      continue;
    }
    let message = issueMessage(issue);
    const item = /^(.+)\.(\d+)$/.exec(field);
    if (item) {
      field = item[1]!;
      const refused = { index: Number(item[2]), message };
      add(itemErrors, field, refused);
      message = itemMessage(refused);
    }
    add(errors, field || rootName(context), message);
  }
  return { errors, itemErrors };
}

/** Where an issue with the whole part is reported: a body's as non_field_errors, as the engine does. */
const rootName = (context: string | undefined) => (context === undefined || context === 'body' ? 'non_field_errors' : context);

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'text',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** "Must be a whole number.", or for a value of several allowed types "Must be text or null.". */
const typeMessage = (types: string) => `Must be ${types.split(',').map((type) => TYPE_NAMES[type] ?? type).join(' or ')}.`;

/** A schema issue in the words the engine uses for the same problems ("Must be a whole number."). */
function issueMessage(issue: AjvIssue): string {
  const params = issue.params ?? {};
  const limit = params['limit'];
  switch (issue.keyword) {
    case 'required':
      return 'This field is required.';
    case 'format':
      return params['format'] === 'uuid' ? 'Must be the id of a record.' : `Must be a valid ${String(params['format'])}.`;
    case 'type':
      return typeMessage(String(params['type']));
    case 'enum':
      return `Must be one of: ${(params['allowedValues'] as unknown[] | undefined)?.join(', ')}.`;
    case 'minimum':
      return `Must be at least ${String(limit)}.`;
    case 'maximum':
      return `Must be at most ${String(limit)}.`;
    case 'minLength':
      return limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${String(limit)} characters.`;
    case 'maxLength':
      return `Ensure this field has no more than ${String(limit)} characters.`;
    case 'minItems':
      return `Ensure this list has at least ${String(limit)} item${limit === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `Ensure this list has no more than ${String(limit)} items.`;
    default:
      return `${capitalize(issue.message ?? 'is invalid')}.`;
  }
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(error.toBody());
    }
    if (isDatabaseUnavailable(error)) {
      // The server is away (down, restarting, unreachable): the request may be retried as it is.
      request.log.warn({ err: error }, 'database unavailable');
      const unavailable = databaseUnavailable();
      return reply.status(unavailable.statusCode).headers(unavailable.headers ?? {}).send(unavailable.toBody());
    }
    if (error.validation) {
      const { errors, itemErrors } = fieldErrorsFromValidation(error.validation as AjvIssue[], error.validationContext);
      const first = Object.entries(errors)[0];
      return reply.status(400).send(badRequest(first ? `${first[0]}: ${first[1][0]}` : 'Invalid request.', errors, itemErrors).toBody());
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known: Record<number, [string, string]> = {
        400: ['invalid', 'Malformed request.'],
        404: ['not_found', 'Not found.'],
        405: ['method_not_allowed', 'Method not allowed.'],
        406: ['not_acceptable', 'Not acceptable.'],
        413: ['payload_too_large', 'Request body is too large.'],
        415: ['unsupported_media_type', 'Unsupported content type.'],
      };
      const [code, fallback] = known[status] ?? ['client_error', 'Bad request.'];
      // Fastify's own 4xx messages (bad JSON, wrong content type) are safe to show.
      return reply.status(status).send({ detail: error.message || fallback, code } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error.', code: 'server_error' } satisfies ErrorBody);
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ detail: `No route for ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' });
  });
}

/**
 * Validation at the edge: every route's params, query string and body are checked against
 * its TypeBox schema by Fastify's Ajv compiler before the handler runs (a 400 naming the
 * field and the reason, errors.ts) — except a record's body (create, edit), which the
 * resource engine parses itself, field by field, with the same rules a spreadsheet import
 * uses. Such a body schema is marked with `engineParsed()`: still in the OpenAPI document,
 * never compiled.
 */
import { AjvCompiler, type Ajv, type RouteDefinition, type ValidatorFactory } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { isUuid } from '../resources/values.ts';

const ENGINE_PARSED = 'x-engine-parsed';

/** A body schema the resource engine parses itself (documented, not validated by Fastify). */
export function engineParsed<T extends TSchema>(schema: T): T {
  return { ...schema, [ENGINE_PARSED]: true };
}

const acceptAll = () => true;
// The package types its compiler as taking a schema; Fastify calls it with the route's part.
type RouteCompiler = (route: RouteDefinition) => unknown;

const buildValidator = ((externalSchemas, given) => {
  // ajv-formats' uuid also takes "urn:uuid:…", which no id column holds: a uuid is what isUuid says.
  const options = { ...given, onCreate: (ajv: Ajv) => ajv.addFormat('uuid', { type: 'string', validate: isUuid }) };
  const compile = AjvCompiler()(externalSchemas, options) as unknown as RouteCompiler;
  // A JSON body has its types: 5 is not the text "5" there, as it is in a query string or a path.
  const strict = { ...options, customOptions: { ...given?.customOptions, coerceTypes: false } };
  const compileBody = AjvCompiler()(externalSchemas, strict as typeof options) as unknown as RouteCompiler;
  const skipEngineParsed: RouteCompiler = (route) => {
    if (route.httpPart !== 'body') return compile(route);
    const schema = route.schema as Record<string, unknown> | undefined;
    return schema?.[ENGINE_PARSED] === true ? acceptAll : compileBody(route);
  };
  return skipEngineParsed;
}) as ValidatorFactory;

/**
 * Fastify's own Ajv compiler with the app's `ajv` options (types coerced in query strings and
 * paths, not in bodies), skipping the bodies marked engineParsed().
 */
export const schemaController: FastifyServerOptions['schemaController'] = { compilersFactory: { buildValidator } };

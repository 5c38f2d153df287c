/**
 * Validation at the edge: every route's params, query string and body are checked against
 * its TypeBox schema by Fastify's Ajv compiler before the handler runs (a 400 naming the
 * field and the reason, errors.ts) — except a record's body (create, edit), which the
 * resource engine parses itself, field by field, with the same rules a spreadsheet import
 * uses. Such a body schema is marked with `engineParsed()`: still in the OpenAPI document,
 * never compiled. A form's body marked with `everyProblem()` is checked with Ajv's
 * allErrors, so its 400 names every field at fault, not only the first.
 */
import { AjvCompiler, type Ajv, type RouteDefinition, type ValidatorFactory } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { isUuid } from '../resources/values.ts';

const ENGINE_PARSED = 'x-engine-parsed';
const EVERY_PROBLEM = 'x-every-problem';

/** A body schema the resource engine parses itself (documented, not validated by Fastify). */
export function engineParsed<T extends TSchema>(schema: T): T {
  return { ...schema, [ENGINE_PARSED]: true };
}

/**
 * A form's body (users, tenants): its 400 names every problem at once, so the form marks every
 * field from one answer. Only for small flat bodies: Ajv stops at the first problem elsewhere
 * (allErrors off), since a body of thousands of bad items would otherwise make thousands of errors.
 */
export function everyProblem<T extends TSchema>(schema: T): T {
  return { ...schema, [EVERY_PROBLEM]: true };
}

/**
 * A body that may be left out (a POST with nothing to say), or sent as the object. Fastify
 * validates a missing body as null, which `nullable` lets through.
 */
export function optionalBody<T extends TObject>(schema: T) {
  return Type.Unsafe<Static<T> | null | undefined>({ ...schema, nullable: true });
}

const acceptAll = () => true;
// The package types its compiler as taking a schema; Fastify calls it with the route's part.
type RouteCompiler = (route: RouteDefinition) => unknown;

/**
 * Compiled validators and serializers by what they were compiled from (compiler, its options
 * and shared schemas, the route part's schema), for the life of the process. Compiling is
 * nearly all of what building the app costs (about a CPU-second: ~300 routes, each with params,
 * query, body and response schemas, many of them alike), and a compiled function depends on
 * nothing else. So identical schemas of different routes are compiled once, and an app built
 * again in the same process — each test file of a test worker builds its own app — compiles
 * nothing (docs/BENCHMARKS.md "Where CI stands").
 */
const compiled = new Map<string, unknown>();

/** `compile`, remembered under `scope` (the compiler and its options) and the route's schema. */
function memoized(scope: string, compile: RouteCompiler): RouteCompiler {
  return (route) => {
    let key: string;
    try {
      key = `${scope}\u0000${JSON.stringify(route.schema)}`;
    } catch {
      return compile(route); // not JSON (none of ours): compiled each time
    }
    let fn = compiled.get(key);
    if (fn === undefined) {
      fn = compile(route);
      compiled.set(key, fn);
    }
    return fn;
  };
}

/** What a compiler's output depends on besides the schema: its kind, options and the shared schemas. */
const scopeOf = (kind: string, externalSchemas: unknown, options: unknown) =>
  `${kind}\u0000${JSON.stringify(externalSchemas ?? null)}\u0000${JSON.stringify(options ?? null)}`;

const buildValidator = ((externalSchemas, given) => {
  // ajv-formats' uuid also takes "urn:uuid:…", which no id column holds: a uuid is what isUuid says.
  const options = { ...given, onCreate: (ajv: Ajv) => ajv.addFormat('uuid', { type: 'string', validate: isUuid }) };
  const compile = memoized(scopeOf('query/params', externalSchemas, given), AjvCompiler()(externalSchemas, options) as unknown as RouteCompiler);
  // A JSON body has its types: 5 is not the text "5" there, as it is in a query string or a path.
  const strict = { ...options, customOptions: { ...given?.customOptions, coerceTypes: false } };
  const compileBody = memoized(scopeOf('body', externalSchemas, given), AjvCompiler()(externalSchemas, strict as typeof options) as unknown as RouteCompiler);
  const reportAll = { ...strict, customOptions: { ...strict.customOptions, allErrors: true } };
  const compileEveryProblem = memoized(
    scopeOf('body, every problem', externalSchemas, given),
    AjvCompiler()(externalSchemas, reportAll as typeof options) as unknown as RouteCompiler,
  );
  const byMarker: RouteCompiler = (route) => {
    if (route.httpPart !== 'body') return compile(route);
    const { [ENGINE_PARSED]: engine, [EVERY_PROBLEM]: every, ...schema } = (route.schema ?? {}) as Record<string, unknown>;
    if (engine === true) return acceptAll;
    // The marker is no JSON Schema keyword: Ajv's strict mode would refuse it.
    return every === true ? compileEveryProblem({ ...route, schema }) : compileBody(route);
  };
  return byMarker;
}) as ValidatorFactory;

/** Fastify's own response serializer compiler (fast-json-stringify), remembered as above. */
const buildSerializer = (externalSchemas: unknown, serializerOpts: unknown) =>
  memoized(
    scopeOf('response', externalSchemas, serializerOpts),
    SerializerSelector()(externalSchemas as never, serializerOpts as never) as unknown as RouteCompiler,
  );

/**
 * Fastify's own Ajv compiler with the app's `ajv` options (types coerced in query strings and
 * paths, not in bodies), skipping the bodies marked engineParsed() and reporting every problem
 * of those marked everyProblem(); and its own serializer compiler. Both compile each distinct
 * schema once per process (`compiled`).
 */
export const schemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator, buildSerializer: buildSerializer as never },
};

/**
 * Refuses, at start, an API route whose path has parameters but whose schema does not declare
 * them: its ids would reach the handler unchecked (docs/validation.md, "How it was checked").
 */
export function requireParamsSchemas(app: FastifyInstance, prefix: string): void {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(prefix) && route.url.includes('/:') && !route.schema?.params) {
      throw new Error(`${String(route.method)} ${route.url} has path parameters but no params schema.`);
    }
  });
}

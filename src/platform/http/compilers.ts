import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = NonNullable<CompilersFactory['buildValidator']>;
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>;

/**
 * Route validators and serializers compiled once per process, not once per Fastify instance. Fastify makes new
 * compilers for each instance, so every app compiled every route's schemas again (about a second of CPU per app, and
 * a test run builds a few hundred apps per worker). The compiled functions are kept by the schema's JSON and the
 * compiler's options: many route schemas are written inline in the route plugins, a new object per app but the same
 * content. The caches are bounded by the distinct schemas of the route table.
 */
function memoise<R extends { schema?: unknown }, F>(compile: (route: R) => F, cache: Map<string, F>): (route: R) => F {
  return (route) => {
    const key = JSON.stringify(route.schema);
    // a schema JSON cannot express (a function, a cycle) is compiled as Fastify would
    if (key === undefined) return compile(route);
    let fn = cache.get(key);
    if (fn === undefined) cache.set(key, (fn = compile(route)));
    return fn;
  };
}

const cachesByOptions = new Map<string, Map<string, unknown>>();
function cacheFor<F>(kind: string, externalSchemas: unknown, options: unknown): Map<string, F> {
  const key = JSON.stringify([kind, externalSchemas ?? {}, options ?? {}]);
  let cache = cachesByOptions.get(key);
  if (!cache) cachesByOptions.set(key, (cache = new Map()));
  return cache as Map<string, F>;
}

const ajvPool = AjvCompiler();
const buildValidator: BuildValidator = (externalSchemas, options) =>
  memoise(ajvPool(externalSchemas, options), cacheFor('validator', externalSchemas, options?.customOptions));

const serializers = SerializerSelector();
const buildSerializer: BuildSerializer = (externalSchemas, options) =>
  memoise(serializers(externalSchemas, options), cacheFor('serializer', externalSchemas, options));

export const sharedCompilers: CompilersFactory = { buildValidator, buildSerializer };

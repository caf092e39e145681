import { Type } from '@sinclair/typebox';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { routePolicy } from '../auth/guard.js';

/**
 * The nonce of a cookie session may travel as a body parameter, `_wpnonce` (WordPress semantics; ARCHITECTURE.md).
 * Write schemas are closed (`additionalProperties: false`), so every JSON body of a route that takes credentials
 * names `_wpnonce` — added here, in one place, for every such route, also the ones added later — and the parameter
 * is taken out of the body before the handler runs: no service ever sees it (or copies it into a row).
 * Public routes do not take it: nothing on them depends on who is calling, so a nonce there is an unknown field.
 */
export const NONCE_PARAM = '_wpnonce';

const NonceProperty = Type.Optional(
  Type.String({
    maxLength: 200,
    description:
      "The cookie session's nonce, instead of the X-WP-Nonce header (removed from the body before the handler runs)",
  }),
);

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body schema with `_wpnonce` named in each object it may be (the root, or each object branch of a root anyOf). */
function withNonce(schema: Json): Json | null {
  if (schema.type === 'object' && isJson(schema.properties)) {
    if (NONCE_PARAM in schema.properties) return null;
    return { ...schema, properties: { ...schema.properties, [NONCE_PARAM]: NonceProperty } };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    let changed = false;
    const branches = list.map((b) => {
      const nb = isJson(b) ? withNonce(b) : null;
      if (nb) changed = true;
      return nb ?? b;
    });
    return changed ? { ...schema, [key]: branches } : null;
  }
  return null;
}

async function dropNonce(req: FastifyRequest): Promise<void> {
  const body = req.body;
  if (isJson(body) && Object.hasOwn(body, NONCE_PARAM)) delete body[NONCE_PARAM];
}

/** onRoute hook: authenticated routes with a body accept `_wpnonce` in it and hand the body on without it. */
export function acceptNonceInBody(restRoot: string) {
  return (route: RouteOptions): void => {
    const schema = route.schema as Json | undefined;
    if (!schema || !isJson(schema.body) || routePolicy(route, restRoot) === 'public') return;
    // A copy: TypeBox schemas are shared between routes (and with responses).
    const body = withNonce(schema.body);
    if (!body) return;
    route.schema = { ...schema, body };
    const own = route.preHandler;
    route.preHandler = [...(Array.isArray(own) ? own : own ? [own] : []), dropNonce];
  };
}

import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { DEFAULT_POLICY, requiredScopeFor, routePolicy } from '../../auth/guard.js';
import type { RoutePolicy } from '../../auth/types.js';
import type { NamespaceRegistry } from '../namespaces.js';
import { VERSION } from '../../../version.js';
import {
  ERROR_FINGERPRINTS,
  fingerprint,
  HEADERS,
  isJson,
  ref,
  SCHEMAS,
  shareRentalEnvelope,
  type Json,
} from './components.js';
import { exampleFor } from './examples.js';
import { tagDescription } from './tags.js';

/**
 * The OpenAPI document is generated from the route schemas. Everything a route does not say itself is derived
 * here, in one place, from its method, path, namespace and `config.auth`, so every route — also the ones added
 * later — gets an operationId, tags, accurate security, the standard 4xx answers in its namespace's error shape
 * and an example request body.
 */
export interface OpenApiContext {
  restRoot: string;
  namespaces: NamespaceRegistry;
}

/** Authenticated routes accept an API key (header or Bearer; Bearer also carries a JWT) or a cookie session with its nonce. */
export const AUTHENTICATED_SECURITY: Json[] = [{ apiKey: [] }, { bearer: [] }, { sessionCookie: [], nonce: [] }];

const SECURITY_SCHEMES: Json = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Rova-API-Key',
    description: 'An API key (`rova apikey create`, `POST /rova/v1/api-keys`).',
  },
  bearer: { type: 'http', scheme: 'bearer', description: 'An API key as a Bearer token, or a JWT access token.' },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'rova_session',
    description: 'Session cookie set by `POST /rova/v1/auth/login`; counts only with a nonce.',
  },
  nonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-WP-Nonce',
    description:
      'Nonce of the session (from the login answer or `GET /rova/v1/auth/nonce`); `_wpnonce` as a query or body parameter works too.',
  },
};

const POLICY_KEY = 'x-rova-policy';
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid parameters or body',
  401: 'No or invalid credentials',
  403: 'Authenticated, but lacking the capability or the API key scope',
  404: 'Unknown id or route',
  405: 'Method not allowed',
  409: 'Conflicts with the current state',
  410: 'Gone',
  413: 'Request too large',
  429: 'Too many requests (see Retry-After)',
  500: 'Internal error',
  501: 'Not implemented',
  502: 'An upstream service failed',
  503: 'Not ready or degraded',
};

export function swaggerOptions(ctx: OpenApiContext): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Rova API',
        version: VERSION,
        description:
          'Headless back end for vehicle-rental storefronts. Namespaces: wc/v3 (catalogue), rova-fx/v1 (currency), rova-rental/v1 (rental), rova/v1 (platform). Paths include the REST root. Errors of wc/v3, rova-fx/v1 and rova/v1 have the WordPress shape `{code, message, data:{status}}`; the rental namespaces answer `{success, data, message}` and `{success:false, error_code, message}`.',
      },
      servers: [{ url: '/', description: 'This server' }],
      components: { securitySchemes: SECURITY_SCHEMES as never },
      security: AUTHENTICATED_SECURITY as never,
    },
    transform: ({ schema, url, route }) => ({ schema: routeSchema(ctx, schema, route), url }),
    transformObject: (d) =>
      'openapiObject' in d ? (finishDocument(ctx, d.openapiObject as Json) as never) : d.swaggerObject,
  };
}

function routeSchema(ctx: OpenApiContext, schema: FastifySchema | undefined, route: RouteOptions): FastifySchema {
  const s: Json = { ...(schema ?? {}) };
  s[POLICY_KEY] = routePolicy(route, ctx.restRoot);
  // The raw TypeBox body is at hand only here: an example built from it is checked against it.
  const body = s.body;
  if (isJson(body) && !Array.isArray(body.examples) && !('example' in body)) {
    const example = exampleFor(body);
    if (example !== undefined) s.body = { ...body, examples: [example] };
  }
  return s as FastifySchema;
}

function finishDocument(ctx: OpenApiContext, doc: Json): Json {
  const paths = isJson(doc.paths) ? doc.paths : {};
  const out: Json = {};
  const ids = new Set<string>();
  const tags = new Set<string>();
  for (const [raw, item] of Object.entries(paths)) {
    if (!isJson(item)) continue;
    // The router ignores trailing slashes; WordPress clients call `/wp-json/`, which the document spells `/wp-json`.
    const path = raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
    const target: Json = isJson(out[path]) ? (out[path] as Json) : {};
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method) || !isJson(value)) {
        target[method] = value;
        continue;
      }
      // @fastify/swagger shares one object between the methods of a multi-method route: give each its own.
      const op = structuredClone(value);
      finishOperation(ctx, path, method, op, ids);
      for (const t of op.tags as string[]) tags.add(t);
      target[method] = op;
    }
    out[path] = target;
  }
  doc.paths = out;
  doc.tags = [...tags].sort().map((name) => ({ name, description: tagDescription(name) }));
  // Only the shared pieces some operation refers to (an app without the rental module has no rental envelope).
  const text = JSON.stringify(out);
  const used = (kind: string, all: Record<string, Json>) =>
    Object.fromEntries(Object.entries(all).filter(([n]) => text.includes(`"#/components/${kind}/${n}"`)));
  const components = isJson(doc.components) ? doc.components : {};
  components.schemas = { ...used('schemas', SCHEMAS), ...(isJson(components.schemas) ? components.schemas : {}) };
  components.headers = { ...used('headers', HEADERS), ...(isJson(components.headers) ? components.headers : {}) };
  doc.components = components;
  return doc;
}

function finishOperation(ctx: OpenApiContext, path: string, method: string, op: Json, ids: Set<string>): void {
  const policy = (op[POLICY_KEY] as RoutePolicy | undefined) ?? DEFAULT_POLICY;
  delete op[POLICY_KEY];
  const ns = ctx.namespaces.forUrl(path);
  const inRest = path === ctx.restRoot || path.startsWith(ctx.restRoot + '/');
  const errorSchema = ns?.shape === 'rental' ? 'RentalError' : 'WpError';

  let id =
    typeof op.operationId === 'string' && !ids.has(op.operationId)
      ? op.operationId
      : operationId(ctx.restRoot, method, path);
  for (let n = 2; ids.has(id); n += 1) id = `${operationId(ctx.restRoot, method, path)}${n}`;
  ids.add(id);
  op.operationId = id;

  if (!Array.isArray(op.tags) || op.tags.length === 0) op.tags = [ns?.name ?? (inRest ? 'platform' : 'pages')];

  if (policy === 'public') {
    op.security = [];
  } else if (!Array.isArray(op.security) || op.security.length === 0) {
    op.security = AUTHENTICATED_SECURITY;
  }
  const who = permissionText(policy, method);
  op.description = typeof op.description === 'string' && op.description ? `${op.description}\n\n${who}` : who;

  const responses = isJson(op.responses) ? op.responses : {};
  for (const [status, r] of Object.entries(responses)) {
    if (!isJson(r) || !isJson(r.content)) continue;
    for (const media of Object.values(r.content)) {
      if (!isJson(media) || !isJson(media.schema)) continue;
      const shared = ERROR_FINGERPRINTS[fingerprint(media.schema)];
      if (shared && Number(status) >= 400) {
        // The response took the schema's description ("WordPress REST error shape"): say what the status means.
        if (r.description === media.schema.description) r.description = ERROR_TEXT[Number(status)] ?? r.description;
        media.schema = ref('schemas', shared);
      } else if (ns?.shape === 'rental' && /^2/.test(status)) media.schema = shareRentalEnvelope(media.schema);
    }
    if (r.description === 'Default Response')
      r.description = Number(status) >= 400 ? (ERROR_TEXT[Number(status)] ?? 'Error') : 'Success';
  }
  const hasInput = (Array.isArray(op.parameters) && op.parameters.length > 0) || isJson(op.requestBody);
  const add = (status: number, when: boolean) => {
    if (!when || responses[String(status)]) return;
    responses[String(status)] = {
      description: ERROR_TEXT[status],
      content: { 'application/json': { schema: ref('schemas', errorSchema) } },
    };
  };
  add(400, hasInput);
  add(401, policy !== 'public');
  add(403, policy !== 'public');
  add(404, path.includes('{'));
  op.responses = responses;

  if (method === 'get' && ns?.shape === 'wp' && hasQuery(op, 'page')) {
    const ok = responses['200'];
    if (isJson(ok))
      ok.headers = {
        ...Object.fromEntries(Object.keys(HEADERS).map((h) => [h, ref('headers', h)])),
        ...(isJson(ok.headers) ? ok.headers : {}),
      };
  }

  const body = isJson(op.requestBody) && isJson(op.requestBody.content) ? op.requestBody.content : null;
  for (const media of Object.values(body ?? {})) {
    if (!isJson(media) || 'example' in media || 'examples' in media) continue;
    const example = exampleFor(media.schema);
    if (example !== undefined) media.example = example;
  }
}

const hasQuery = (op: Json, name: string) =>
  Array.isArray(op.parameters) && op.parameters.some((p) => isJson(p) && p.in === 'query' && p.name === name);

function permissionText(policy: RoutePolicy, method: string): string {
  if (policy === 'public') return '**Public**: no credentials needed.';
  const scope = requiredScopeFor(method.toUpperCase(), policy);
  const who = policy.cap ? `the \`${policy.cap}\` capability` : 'any signed-in user';
  return `**Needs** ${who}; an API key needs the \`${scope}\` scope.`;
}

/** `GET /wp-json/wc/v3/products/{id}` → `getWcV3ProductsById`; `/` → `getRoot`, the REST root → `getRestIndex`. */
export function operationId(restRoot: string, method: string, path: string): string {
  let rest = path;
  let name = '';
  if (path === restRoot || path.startsWith(restRoot + '/')) {
    rest = path.slice(restRoot.length);
    name = rest.replace(/\//g, '') === '' ? 'RestIndex' : '';
  } else if (path.replace(/\//g, '') === '') {
    name = 'Root';
  }
  const words = rest
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => {
      const param = /^\{(.+)\}$/.exec(seg);
      return param ? ['by', ...split(param[1] ?? '')] : split(seg);
    });
  return method.toLowerCase() + (name || words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(''));
}

const split = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());

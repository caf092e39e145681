import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpErrors, invalidParam } from '../../platform/http/errors.js';

/**
 * Query strings of the wc/v3 routes as WordPress reads them (PHP's `$_GET`):
 * - a repeated name keeps its LAST value (`?per_page=5&per_page=20` → 20);
 * - `name[]=1&name[]=2` and `name[0]=1&name[1]=2` make a list (for the list parameters of the route);
 * - a parameter the route does not know is a 400 rest_invalid_param naming it, never silently ignored.
 * Credentials (`consumer_key`, `oauth_*`, `_wpnonce`) and WordPress' global `_fields` and `context` are allowed everywhere.
 */

const GLOBAL = new Set(['_wpnonce', 'consumer_key', 'consumer_secret', '_fields', 'context']);
const BRACKET = /^(.+?)\[(\d*)\]$/;

function isGlobal(name: string): boolean {
  return GLOBAL.has(name) || name.startsWith('oauth_');
}

/** Names of the route's list parameters (schema: string or array of strings). */
function listParams(schema: unknown): Set<string> {
  const props =
    (schema as { properties?: Record<string, { anyOf?: { type?: string }[] }> } | undefined)?.properties ?? {};
  return new Set(
    Object.entries(props)
      .filter(([, p]) => p.anyOf?.some((x) => x.type === 'array'))
      .map(([k]) => k),
  );
}

function known(schema: unknown): Set<string> {
  return new Set(Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}));
}

export function normaliseQuery(raw: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  const lists = listParams(schema);
  const names = known(schema);
  const out: Record<string, unknown> = {};
  const indexed = new Map<string, { index: number; order: number; value: string }[]>();
  let order = 0;
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const values = (Array.isArray(value) ? value : [value]).map(String);
    const m = BRACKET.exec(key);
    if (m && lists.has(m[1]!)) {
      const list = indexed.get(m[1]!) ?? [];
      for (const v of values)
        list.push({ index: m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]), order: order++, value: v });
      indexed.set(m[1]!, list);
      continue;
    }
    if (!names.has(key) && !isGlobal(key)) {
      unknown.push(key);
      continue;
    }
    out[key] = values.at(-1);
  }
  if (unknown.length) {
    const params = Object.fromEntries(
      unknown.map((k) => [k, `${k} is not a parameter of this route (Rova does not support it)`]),
    );
    throw HttpErrors.invalidParam(`Invalid parameter(s): ${unknown.join(', ')}`, { params });
  }
  for (const [name, list] of indexed) {
    list.sort((a, b) => a.index - b.index || a.order - b.order);
    out[name] = list.map((x) => x.value);
  }
  const context = out.context;
  if (context !== undefined && context !== 'view' && context !== 'edit') {
    throw invalidParam('context', 'context must be one of: view, edit');
  }
  return out;
}

/** preValidation hook: rewrites `req.query` the WordPress way before the schema checks it. */
export async function wordpressQuery(req: FastifyRequest): Promise<void> {
  const raw = (req.query ?? {}) as Record<string, unknown>;
  req.query = normaliseQuery(raw, req.routeOptions.schema?.querystring);
}

/** `_fields=id,name,meta.x`: only these fields of each returned object (WordPress rest_filter_response_fields). */
export function pickFields(value: unknown, fields: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => pickFields(v, fields));
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const [head, ...rest] = f.split('.');
    if (!head || !(head in src)) continue;
    if (rest.length === 0) out[head] = src[head];
    else {
      const inner = pickFields(src[head], [rest.join('.')]);
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        out[head] = {
          ...((out[head] as Record<string, unknown> | undefined) ?? {}),
          ...(inner as Record<string, unknown>),
        };
      }
    }
  }
  return out;
}

/** onSend hook: applies `_fields` to successful JSON answers. */
export async function applyFields(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const raw = (req.query as Record<string, unknown> | undefined)?._fields;
  if (typeof raw !== 'string' || raw.trim() === '' || reply.statusCode >= 300 || typeof payload !== 'string')
    return payload;
  const fields = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return JSON.stringify(pickFields(JSON.parse(payload) as unknown, fields));
}

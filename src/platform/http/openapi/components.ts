import { Type } from '@sinclair/typebox';
import { RentalError, WpError } from '../schemas.js';

/** Shared pieces of the document: error shapes, the rental envelope and paging, paging headers. */

export type Json = Record<string, unknown>;
export const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const RentalEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Unknown({ description: 'The answer; its shape is given per operation' }),
    message: Type.String(),
  },
  { description: 'Success envelope of the rental namespaces' },
);

const RentalPage = Type.Object(
  {
    items: Type.Array(Type.Unknown(), { description: 'The items of this page; their shape is given per operation' }),
    total: Type.Integer({ minimum: 0 }),
    total_pages: Type.Integer({ minimum: 0 }),
    page: Type.Integer({ minimum: 1 }),
    per_page: Type.Integer({ minimum: 1 }),
  },
  { description: 'One page of a rental list; a page past the end has `items: []`' },
);

/** Plain JSON schema in the form @fastify/swagger emits (no `$id`, `const` written as a one-value enum). */
export function plain(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plain);
  if (!isJson(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$id') continue;
    if (k === 'const') out.enum = [v];
    // TypeBox writes Type.Record(String, X) as a catch-all pattern; @fastify/swagger emits additionalProperties.
    else if (k === 'patternProperties' && isJson(v) && Object.keys(v).join() === '^(.*)$')
      out.additionalProperties = plain(v['^(.*)$']);
    else out[k] = plain(v);
  }
  return out;
}

/** Key-order-free fingerprint of a schema, ignoring descriptions (used to spot the shared error shapes). */
export function fingerprint(schema: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (!isJson(v)) return v;
    const o: Json = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'description' || k === 'title' || k === '$id') continue;
      if (k === 'const') o.enum = [norm(x)];
      else o[k] = norm(x);
    }
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  };
  return JSON.stringify(norm(schema));
}

export const SCHEMAS: Record<string, Json> = {
  WpError: plain(WpError) as Json,
  RentalError: plain(RentalError) as Json,
  RentalEnvelope: plain(RentalEnvelope) as Json,
  RentalPage: plain(RentalPage) as Json,
};

export const ERROR_FINGERPRINTS: Record<string, string> = {
  [fingerprint(SCHEMAS.WpError)]: 'WpError',
  [fingerprint(SCHEMAS.RentalError)]: 'RentalError',
};

export const HEADERS: Record<string, Json> = {
  'X-WP-Total': { description: 'Number of items over all pages', schema: { type: 'integer', minimum: 0 } },
  'X-WP-TotalPages': {
    description: 'Number of pages (0 when there are no items)',
    schema: { type: 'integer', minimum: 0 },
  },
  Link: { description: 'RFC 8288 links to the `prev` and `next` pages, when they exist', schema: { type: 'string' } },
};

export const ref = (kind: 'schemas' | 'headers' | 'responses' | 'parameters', name: string): Json => ({
  $ref: `#/components/${kind}/${name}`,
});

/** `{success:true, data:X, message}` → the shared envelope with X (and a rental page of items the same way). */
export function shareRentalEnvelope(schema: Json): Json {
  const p = isJson(schema.properties) ? schema.properties : null;
  if (schema.type !== 'object' || !p || !isJson(p.success) || !('data' in p) || !('message' in p)) return schema;
  if (fingerprint(p.success) !== fingerprint({ type: 'boolean', enum: [true] })) return schema;
  return { allOf: [ref('schemas', 'RentalEnvelope'), { type: 'object', properties: { data: sharePage(p.data) } }] };
}

function sharePage(data: unknown): unknown {
  if (!isJson(data) || data.type !== 'object' || !isJson(data.properties)) return data;
  const p = data.properties;
  const keys = Object.keys(p).sort().join(',');
  if (keys !== 'items,page,per_page,total,total_pages') return data;
  return { allOf: [ref('schemas', 'RentalPage'), { type: 'object', properties: { items: p.items } }] };
}

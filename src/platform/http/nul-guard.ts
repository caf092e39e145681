import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

const NUL = '\u0000';
const MAX_DEPTH = 64;

/** The first parameter (path, query or body; keys included) holding a NUL character, or null. */
function nulParameter(value: unknown, name: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? name : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const hit = nulParameter(v, name, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const field = depth === 0 ? k : name;
    if (k.includes(NUL)) return field.replaceAll(NUL, '\\0');
    const hit = nulParameter(v, field, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * Platform rule for every text parameter: PostgreSQL text and jsonb cannot hold U+0000, so a NUL character in
 * a path parameter, query parameter or JSON body is a 400 naming the parameter, never a database error.
 * Runs as a preValidation hook after authentication (401/403 first, then 400, as for schema validation).
 */
export async function refuseNulCharacters(req: FastifyRequest): Promise<void> {
  const name = nulParameter(req.params, '') ?? nulParameter(req.query, '') ?? nulParameter(req.body, 'body');
  if (name === null) return;
  const field = name || 'body';
  throw new HttpError(400, undefined, `Invalid parameter(s): ${field}`, { params: { [field]: `${field} must not contain a NUL character` } });
}

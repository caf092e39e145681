import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { HttpErrors, type HttpError } from './errors.js';

const NUL = '\u0000';
const MAX_DEPTH = 64;
// A high surrogate not followed by a low one, or a low one not preceded by a high one: not Unicode text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

type Problem = 'a NUL character' | 'an unpaired UTF-16 surrogate (not valid Unicode text)';
interface Found {
  field: string;
  problem: Problem;
}

const problemOf = (s: string): Problem | null =>
  s.includes(NUL)
    ? 'a NUL character'
    : LONE_SURROGATE.test(s)
      ? 'an unpaired UTF-16 surrogate (not valid Unicode text)'
      : null;

/** A key shown in the error without the bad character itself. */
const printable = (k: string): string => k.replaceAll(NUL, '\\0').replace(LONE_SURROGATES, '\uFFFD');

/** The first parameter (path, query or body; keys included) holding text PostgreSQL cannot store, or null. */
function badText(value: unknown, name: string, depth = 0): Found | null {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { field: name, problem } : null;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const hit = badText(v, name, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const field = depth === 0 ? k : name;
    const problem = problemOf(k);
    if (problem) return { field: printable(field), problem };
    const hit = badText(v, field, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * Bodies known clean: frozen ones (shared by identical requests, json-body.ts) already walked, and parsed ones whose
 * JSON text held no `\u` escape (markCleanJson).
 */
const cleanBodies = new WeakSet<object>();

/**
 * A body parsed from JSON `text` needs no walk when the text holds no `\u` escape: JSON refuses a raw control
 * character, and text decoded from UTF-8 has no lone surrogate, so only an escape could put either in a value or key.
 */
export function markCleanJson(text: string, value: unknown): void {
  if (typeof value === 'object' && value !== null && !text.includes('\\u')) cleanBodies.add(value);
}

/**
 * Platform rule for every text parameter: PostgreSQL text and jsonb cannot hold U+0000, and a lone UTF-16
 * surrogate (JSON allows the escape `"\ud800"`) is no Unicode text at all, so either in a path parameter, query
 * parameter or JSON body is a 400 naming the parameter, never a database error.
 * Runs as a preValidation hook after authentication (401/403 first, then 400, as for schema validation);
 * a synchronous (callback) hook, as it runs on every request.
 */
export function refuseNulCharacters(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(nulProblem(req) ?? undefined);
}

function nulProblem(req: FastifyRequest): HttpError | null {
  const body = req.body;
  const frozen = typeof body === 'object' && body !== null && Object.isFrozen(body);
  const hit =
    badText(req.params, '') ??
    badText(req.query, '') ??
    (typeof body === 'object' && body !== null && cleanBodies.has(body) ? null : badText(body, 'body'));
  if (hit === null) {
    if (frozen) cleanBodies.add(body);
    return null;
  }
  const field = hit.field || 'body';
  return HttpErrors.badRequest(`Invalid parameter(s): ${field}`, {
    params: { [field]: `${field} must not contain ${hit.problem}` },
  });
}

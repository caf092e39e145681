/**
 * Ajv plugin: after a request part validates, no number in it may be non-finite.
 *
 * Why here: Ajv's type coercion turns the query or path text "1e309" or "Infinity" into Infinity, and with
 * Ajv 8's default strictNumbers the numeric keywords (`maximum`, `minimum`) then skip it as "not a finite
 * number" while the coerced value is never type-checked again — Infinity reached handlers (500 on serialising,
 * or database errors). JSON bodies give the same through `1e309`. Wrapping every compiled validator once, where
 * coercion happens, makes all of them a 400 on every route of every namespace.
 */

interface ValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}
type Validate = ((this: unknown, data: unknown, ...rest: unknown[]) => boolean | Promise<unknown>) & {
  errors?: ValidationError[] | null;
};
interface AjvLike {
  compile(schema: unknown, meta?: boolean): Validate;
}

const MAX_DEPTH = 64;

/** Does data hold a non-finite number? (The common answer, no, without building a path per key.) */
function hasNonFinite(data: unknown, depth = 0): boolean {
  if (typeof data === 'number') return !Number.isFinite(data);
  if (data === null || typeof data !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(data)) {
    for (const v of data) if (hasNonFinite(v, depth + 1)) return true;
    return false;
  }
  for (const k in data)
    if (Object.hasOwn(data, k) && hasNonFinite((data as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/** JSON pointer of the first non-finite number in data, or null. */
function nonFinitePath(data: unknown, path = '', depth = 0): string | null {
  if (typeof data === 'number') return Number.isFinite(data) ? null : path;
  if (data === null || typeof data !== 'object' || depth > MAX_DEPTH) return null;
  for (const [k, v] of Object.entries(data)) {
    const hit = nonFinitePath(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/** Frozen request parts (bodies shared by identical requests, json-body.ts) already found finite: they cannot change. */
const allFinite = new WeakSet<object>();

export function finiteNumbers<A>(ajv: A): A {
  const target = ajv as unknown as AjvLike;
  const compile = target.compile.bind(target);
  target.compile = (schema, meta) => {
    const validate = compile(schema, meta);
    const wrapped: Validate = function (this: unknown, data: unknown, ...rest: unknown[]) {
      const ok = validate.call(this, data, ...rest);
      if (typeof ok !== 'boolean') return ok; // async schemas are not used for requests
      wrapped.errors = validate.errors;
      if (!ok) return false;
      if (typeof data === 'object' && data !== null && allFinite.has(data)) return true;
      if (!hasNonFinite(data)) {
        if (typeof data === 'object' && data !== null && Object.isFrozen(data)) allFinite.add(data);
        return true;
      }
      const at = nonFinitePath(data);
      if (at === null) return true;
      wrapped.errors = [
        {
          instancePath: at,
          schemaPath: '#/type',
          keyword: 'type',
          params: { type: 'number' },
          message: 'must be a finite number',
        },
      ];
      return false;
    };
    return Object.assign(wrapped, { schema: (validate as unknown as { schema?: unknown }).schema });
  };
  return ajv;
}

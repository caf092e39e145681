import { Value } from '@sinclair/typebox/value';
import { NONCE_PARAM } from '../nonce-body.js';

/**
 * An example value for a request body, derived from its JSON schema (TypeBox or plain), for routes that give
 * none (`examples` on the body schema wins). Explicit `examples`, `default`, `const` and enums come first; for
 * free text, values are picked by the property's name and checked against `format`, `pattern` and lengths.
 * Returns undefined when no value satisfying the schema was found — the OpenAPI test then names the route.
 */
export function exampleFor(schema: unknown): unknown {
  if (!isSchema(schema)) return undefined;
  for (const full of [true, false]) {
    const v = build(schema, '', full, 0);
    if (v !== undefined && conforms(schema, v)) return v;
  }
  return undefined;
}

type Schema = Record<string, unknown>;
const isSchema = (s: unknown): s is Schema => typeof s === 'object' && s !== null && !Array.isArray(s);

/**
 * TypeBox schemas are checked with TypeBox, minus string formats (not registered there; known formats get
 * well-formed values below); plain JSON schemas are trusted (Redocly lint checks every example).
 */
function conforms(schema: Schema, value: unknown): boolean {
  try {
    return Value.Check(withoutFormats(schema) as never, value);
  } catch {
    return true;
  }
}

const formatFree = new WeakMap<object, unknown>();

/** A copy without `format` keywords, keeping TypeBox's symbol keys (they tell TypeBox the kind of each node). */
function withoutFormats(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const done = formatFree.get(node);
  if (done) return done;
  let copy: unknown;
  if (Array.isArray(node)) {
    copy = node.map(withoutFormats);
  } else {
    const o: Record<string | symbol, unknown> = {};
    for (const k of Object.keys(node)) if (k !== 'format') o[k] = withoutFormats((node as Schema)[k]);
    for (const k of Object.getOwnPropertySymbols(node)) o[k] = (node as Record<symbol, unknown>)[k];
    copy = o;
  }
  formatFree.set(node, copy);
  return copy;
}

const MAX_DEPTH = 6;

function build(s: Schema, name: string, full: boolean, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) {
      // Prefer a non-null branch: an example that only says `null` explains nothing.
      const ordered = [
        ...list.filter((b) => isSchema(b) && b.type !== 'null'),
        ...list.filter((b) => isSchema(b) && b.type === 'null'),
      ];
      for (const b of ordered) {
        const v = build(b as Schema, name, full, depth + 1);
        if (v !== undefined && conforms(b as Schema, v)) return v;
      }
      return undefined;
    }
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.filter(isSchema).map((b) => build(b, name, full, depth + 1));
    if (parts.every((p) => isSchema(p))) return Object.assign({}, ...parts);
    return parts.find((p) => p !== undefined);
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type) {
    case 'object':
      return objectExample(s, full, depth);
    case 'array':
      return arrayExample(s, name, full, depth);
    case 'string':
      return stringExample(s, name);
    case 'integer':
    case 'number':
      return numberExample(s, name, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // No type: any value is valid; one that suits the name reads best (`product_ids` → [1, 2, 3]).
      if (isSchema(s.properties)) return objectExample(s, full, depth);
      if (/_ids$/.test(name)) return [1, 2, 3];
      // A description that starts with the choices (`anomaly | fragments`) names a good value.
      return (
        /^([A-Za-z0-9_-]+)(?: \| [A-Za-z0-9_-]+)+/.exec(typeof s.description === 'string' ? s.description : '')?.[1] ??
        stringCandidates(name)[0]
      );
  }
}

function objectExample(s: Schema, full: boolean, depth: number): Record<string, unknown> | undefined {
  const props = isSchema(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) {
    if (!isSchema(p)) continue;
    // Optional nested objects make the example long without teaching much; top-level fields are shown.
    if (!required.has(k) && (!full || depth > 1)) continue;
    // Read-only fields (accepted and ignored) and the nonce (a credential) teach nothing about a write.
    if (!required.has(k) && (p.readOnly === true || k === NONCE_PARAM)) continue;
    const v = build(p, k, full, depth + 1);
    if (v === undefined) {
      if (required.has(k)) return undefined;
      continue;
    }
    out[k] = v;
  }
  return out;
}

function arrayExample(s: Schema, name: string, full: boolean, depth: number): unknown[] | undefined {
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  if (!isSchema(s.items)) return min === 0 ? [] : undefined;
  const item = build(s.items, name.replace(/s$/, ''), full, depth + 1);
  if (item === undefined) return min === 0 ? [] : undefined;
  if (s.uniqueItems === true && min > 1) return undefined;
  return Array.from({ length: Math.max(1, min) }, () => item);
}

function numberExample(s: Schema, name: string, integer: boolean): number {
  const min =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof s.maximum === 'number'
      ? s.maximum
      : typeof s.exclusiveMaximum === 'number'
        ? s.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  let v = /(^|_)id$/.test(name)
    ? 1
    : name === 'year'
      ? 2024
      : /percent|rate/.test(name)
        ? 10
        : /price|amount|total/.test(name)
          ? 25
          : 1;
  if (min !== undefined && v < min) v = min;
  if (max !== undefined && v > max) v = max;
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) v = Math.ceil(v / s.multipleOf) * s.multipleOf;
  return integer ? Math.ceil(v) : v;
}

const BY_FORMAT: Record<string, string> = {
  'date-time': '2027-07-02T09:00:00Z',
  date: '2027-07-02',
  time: '09:00:00',
  email: 'ada@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

/** Candidates by property name, then generic ones; the first that fits the schema wins. */
function stringCandidates(name: string): string[] {
  const n = name.toLowerCase();
  const c: string[] = [];
  if (n.includes('email')) c.push('ada@example.com');
  if (n === 'login' || n === 'user' || n === 'username') c.push('ops');
  if (n.includes('password')) c.push('a long password');
  // An end a week after the start keeps ranges (pickup → return, from → to) meaningful.
  if (/return|end|_to$|until/.test(n)) c.push('2027-07-09', '2027-07-09T10:00:00Z');
  if (n.includes('date') || n.endsWith('_from') || n === 'since') c.push('2027-07-02', '2027-07-02T09:00:00Z');
  if (n.endsWith('_at') || n.endsWith('_gmt')) c.push('2027-07-02T09:00:00Z');
  if (n.includes('time')) c.push(/return|end/.test(n) ? '10:00' : '09:00');
  if (n.includes('currency') || n === 'code' || n === 'base') c.push('EUR');
  if (n.includes('price') || n.includes('amount')) c.push('19.90');
  if (n.includes('phone')) c.push('+90 555 000 0000');
  if (n.includes('url') || n === 'src' || n.includes('link')) c.push('https://example.com/');
  if (n === 'slug') c.push('example');
  if (n === 'sku') c.push('DEMO-SKU-1');
  if (n.includes('country')) c.push('DE');
  if (n === 'path') c.push('/shop/');
  c.push('Example', 'example', 'example-1', 'EXAMPLE', '1', 'a', '2027-07-02', '09:00', 'EUR', 'x'.repeat(16));
  return c;
}

function stringExample(s: Schema, name: string): string | undefined {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  let re: RegExp | null = null;
  if (typeof s.pattern === 'string') {
    try {
      re = new RegExp(s.pattern, 'u');
    } catch {
      re = null;
    }
  }
  const fmt = typeof s.format === 'string' ? BY_FORMAT[s.format] : undefined;
  for (const c of fmt ? [fmt] : stringCandidates(name)) {
    if (c.length < min || c.length > max) continue;
    if (re && !re.test(c)) continue;
    return c;
  }
  if (fmt) return undefined;
  return re ? undefined : 'x'.repeat(Math.max(min, 1)).slice(0, max === Infinity ? undefined : max);
}

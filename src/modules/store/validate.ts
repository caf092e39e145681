import type { TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import type { FastifySchemaCompiler } from 'fastify';
import { HttpErrors } from '../../platform/http/errors.js';

/**
 * Strict validator for the catalogue routes: bodies are checked exactly as sent (no type coercion, so
 * `"regular_price": 12` is a 400 like WordPress' rest_invalid_type), query strings and path parameters are
 * converted from text first. Errors are handed to the platform error handler (rest_invalid_param).
 */
interface Issue {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

/** "must be one of: a, b" for enums (unions of literals), else TypeBox's text ("Expected string" → "must be string"). */
function describe(schema: TSchema, message: string): string {
  const any = (schema as { anyOf?: { const?: unknown }[] }).anyOf;
  if (any && any.length > 0 && any.every((s) => s.const !== undefined))
    return `must be one of: ${any.map((s) => String(s.const)).join(', ')}`;
  return message.replace(/^Expected/, 'must be');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first string (value or key) PostgreSQL cannot store: a NUL character (text and jsonb reject it) or a
 * lone UTF-16 surrogate (jsonb rejects it). Walks iteratively, so deep nesting cannot overflow the stack.
 */
export function unstorableText(input: unknown): { path: string; why: string } | null {
  const stack: [unknown, string][] = [[input, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { path, why: 'must not contain NUL characters' };
      if (LONE_SURROGATE.test(v)) return { path, why: 'must be valid Unicode text' };
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${path}/${i}`]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const bad = unstorableText(k);
        if (bad)
          return {
            path: `${path}/${[...k].map((ch) => (ch === '\u0000' || /[\uD800-\uDFFF]/.test(ch) ? '?' : ch)).join('')}`,
            why: `key ${bad.why}`,
          };
        stack.push([x, `${path}/${k}`]);
      }
    }
  }
  return null;
}

/**
 * The first integer field of a query string or path whose text is not a plain integer. TypeBox's Convert
 * would read "true" as 1 and "1e300" or "2abc" by their leading digits, so `DELETE /products/true` must not
 * reach it.
 */
function looseInteger(schema: TSchema, input: unknown): string | null {
  const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (!props || input === null || typeof input !== 'object') return null;
  for (const [name, prop] of Object.entries(props)) {
    if (prop.type !== 'integer') continue;
    const raw = (input as Record<string, unknown>)[name];
    if (raw === undefined) continue;
    if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw.trim())) return name;
  }
  return null;
}

export const strictCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  return (input: unknown) => {
    let data = input;
    if (httpPart !== 'body') {
      const loose = looseInteger(schema, input);
      // WordPress routes spell ids as `(?P<id>[\d]+)`: `/products/categories` with PUT, `/products/abc` are no route at all.
      if (loose && httpPart === 'params')
        return {
          error: HttpErrors.noRoute('No route was found matching the URL and request method.'),
        } as never;
      if (loose)
        return {
          error: [{ instancePath: `/${loose}`, keyword: 'type', message: 'must be integer', params: {} }] as Issue[],
        } as never;
      data = Value.Convert(schema, Value.Default(schema, Value.Clone(input ?? {})));
    }
    if (httpPart === 'body' && (data === null || data === undefined)) {
      return {
        error: [{ instancePath: '', keyword: 'type', message: 'must be a JSON object', params: {} }] as Issue[],
      } as never;
    }
    const first = Value.Errors(schema, data).First();
    if (!first) {
      const bad = unstorableText(data);
      if (!bad) return { value: data };
      return {
        error: [{ instancePath: bad.path, keyword: 'format', message: bad.why, params: {} }] as Issue[],
      } as never;
    }
    if (first.type === ValueErrorType.ObjectAdditionalProperties) {
      // said as the platform says it for every other route: the object's path and the field it does not take
      const at = first.path.lastIndexOf('/');
      const name = first.path
        .slice(at + 1)
        .replace(/~1/g, '/')
        .replace(/~0/g, '~');
      return {
        error: [
          {
            instancePath: first.path.slice(0, at),
            keyword: 'additionalProperties',
            message: 'must NOT have additional properties',
            params: { additionalProperty: name },
          },
        ] as Issue[],
      } as never;
    }
    const issue: Issue = {
      instancePath: first.path,
      keyword: 'type',
      message: describe(first.schema, first.message),
      params: {},
    };
    return { error: [issue] } as never;
  };
};

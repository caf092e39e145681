import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifySchemaCompiler } from 'fastify';

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
  if (any && any.length > 0 && any.every((s) => s.const !== undefined)) return `must be one of: ${any.map((s) => String(s.const)).join(', ')}`;
  return message.replace(/^Expected/, 'must be');
}

export const strictCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  return (input: unknown) => {
    let data = input;
    if (httpPart !== 'body') {
      data = Value.Convert(schema, Value.Default(schema, Value.Clone(input ?? {})));
    }
    if (httpPart === 'body' && (data === null || data === undefined)) {
      return { error: [{ instancePath: '', keyword: 'type', message: 'body must be a JSON object', params: {} }] as Issue[] } as never;
    }
    const first = Value.Errors(schema, data).First();
    if (!first) return { value: data };
    const issue: Issue = { instancePath: first.path, keyword: 'type', message: describe(first.schema, first.message), params: {} };
    return { error: [issue] } as never;
  };
};

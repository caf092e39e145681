import { Type, type SchemaOptions, type TLiteral, type TUnion } from '@sinclair/typebox';

/** A TypeBox union of string literals that keeps the literal types (T[number]) for handlers. */
export function literalUnion<const T extends readonly string[]>(
  values: T,
  options?: SchemaOptions,
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<TLiteral<T[number]>[]>;
}

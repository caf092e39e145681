import { Type, type SchemaOptions, type StringOptions, type TSchema } from '@sinclair/typebox';
import { RentalEnvelope, rentalErrors } from '../../platform/http/schemas.js';

/** Ids are bigint; beyond 2^53 − 1 a JSON number loses precision, so larger values are refused (400, never a database error). */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
export const Id = (o: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...o });
/** A priority (integer column): bounded so it never overflows. */
export const Priority = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });
export const IdParams = Type.Object({ id: Id({ description: 'Numeric id' }) });
export const DateStr = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (store timezone)' });
export const TimeStr = Type.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  description: 'HH:MM, 24 h (store timezone)',
});
/** Free text: PostgreSQL text cannot hold U+0000, so a NUL character is a 400 INVALID_PARAMS, never a database error. */
export const Text = (o: StringOptions = {}) => Type.String({ pattern: '^[^\\u0000]*$', ...o });
/** A union of string literals (an enum in OpenAPI). */
export const lit = <const S extends string>(xs: readonly S[], o: SchemaOptions = {}) =>
  Type.Union(
    xs.map((x) => Type.Literal(x)),
    o,
  );
export const Nullable = <T extends TSchema>(t: T, o: SchemaOptions = {}) => Type.Union([t, Type.Null()], o);
/** An instant in an answer: ISO-8601 UTC with milliseconds (`2026-05-01T10:00:00.000Z`). */
export const Instant = Type.String({ format: 'date-time', description: 'ISO-8601 UTC' });

/** Admin route response set: 200 envelope + the error classes every admin route can give. */
export function adminResponses<T extends TSchema>(data: T, ok = 200, ...extra: number[]) {
  return { [ok]: RentalEnvelope(data), ...rentalErrors(400, 401, 403, 429, ...extra) };
}

export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });

import { Type, type TProperties } from '@sinclair/typebox';

/** Columns the database owns: no request may set them (a PUT with `id` once rewrote a primary key). */
export const READ_ONLY_FIELDS = ['id', 'created_at', 'updated_at'] as const;

/**
 * The input schemas of a rental admin resource, built from ONE allow-list of writable fields. Create keeps the
 * fields' own optionality, update makes every field optional; both refuse any other key (unknown or read-only)
 * with 400 INVALID_PARAMS naming it, so nothing but allow-listed columns can reach the repo's INSERT / UPDATE.
 */
export function writeSchemas<P extends TProperties>(fields: P) {
  for (const f of READ_ONLY_FIELDS) {
    if (Object.hasOwn(fields, f)) throw new Error(`writeSchemas: "${f}" is read-only and cannot be a writable field`);
  }
  return {
    create: Type.Object(fields, { additionalProperties: false }),
    update: Type.Partial(Type.Object(fields), { additionalProperties: false }),
  };
}

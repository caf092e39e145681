import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * wc/v3 write bodies are closed (`additionalProperties: false`) without breaking WooCommerce clients, which send
 * back the whole object they read (WooCommerce ignores what it cannot write): every field of the response that a
 * write does not set is named in the write schema as read-only — accepted, typed as in the response, and ignored
 * (the input mapping reads writable fields only) — and so is WordPress' `_links`. Anything else is a 400
 * `rest_invalid_param` naming the field.
 */
export function readOnlyFields(out: TObject, writable: TProperties): TProperties {
  const fields: TProperties = {};
  for (const [name, schema] of Object.entries(out.properties)) {
    if (Object.hasOwn(writable, name)) continue;
    fields[name] = readOnly(schema, `Read-only (${name} of the response): accepted and ignored`);
  }
  fields._links = readOnly(Type.Unknown(), 'WordPress hypermedia links (read-only): accepted and ignored');
  return fields;
}

function readOnly(schema: TSchema, description: string): TSchema {
  // A copy (TypeBox's own keys kept): the response schema itself stays as it is.
  return Type.Optional({ ...schema, readOnly: true, description } as TSchema);
}

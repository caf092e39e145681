import { Type, type TSchema } from '@sinclair/typebox';

/** WordPress REST error body. */
export const WpError = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    // WordPress's free-form error data bag: besides status, what the error names (params, details, field)
    data: Type.Object({ status: Type.Integer() }, { additionalProperties: true }),
  },
  { $id: 'WpError', description: 'WordPress REST error shape' },
);

/** Rental namespaces' error body. */
export const RentalError = Type.Object(
  {
    success: Type.Literal(false),
    error_code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { description: 'Rental error envelope' },
);

export const RentalEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data, message: Type.String() });

export const Paging = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

/** Standard error responses for the OpenAPI document. */
export function wpErrors(...statuses: number[]): Record<number, typeof WpError> {
  return Object.fromEntries(statuses.map((s) => [s, WpError]));
}

export function rentalErrors(...statuses: number[]): Record<number, typeof RentalError> {
  return Object.fromEntries(statuses.map((s) => [s, RentalError]));
}

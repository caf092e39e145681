import { Type, type Static } from '@sinclair/typebox';
import { Instant, Nullable } from '../schemas.js';

/** A customer as POST /customers and PUT /customers/{id} answer it (`customerView`); the list adds statistics. */
export const CustomerView = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    address: Type.String(),
    user_id: Nullable(Type.Integer({ description: 'The customer’s user account, when they have one' })),
    created_at: Instant,
    updated_at: Instant,
  },
  { additionalProperties: false, description: 'Customer' },
);
export type CustomerView = Static<typeof CustomerView>;

/** The columns a customer INSERT sets (phone and address default to ''). */
export const CustomerColumns = Type.Object(
  {
    name: Type.String(),
    email: Type.String(),
    phone: Type.Optional(Type.String()),
    address: Type.Optional(Type.String()),
    user_id: Type.Optional(Nullable(Type.Integer())),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type CustomerInsert = Static<typeof CustomerColumns>;
export type CustomerUpdate = Partial<Omit<CustomerInsert, 'created_at' | 'updated_at'>>;

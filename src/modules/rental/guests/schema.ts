import { Type, type Static } from '@sinclair/typebox';
import { Instant } from '../schemas.js';

const Email = Type.String({ format: 'email', maxLength: 200 });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*$' });

export const CodeRequest = Type.Object(
  { email: Email, name: Name },
  { additionalProperties: false, description: 'Who books: the code goes to this address' },
);

export const CodeSent = Type.Object(
  {
    verification_id: Type.Integer({ description: 'Send it back with the code' }),
    expires_at: Instant,
  },
  { additionalProperties: false },
);

export const CodeCheck = Type.Object(
  {
    verification_id: Type.Integer({ minimum: 1 }),
    code: Type.String({ pattern: '^[0-9]{6}$', description: 'The 6 digits of the mail' }),
  },
  { additionalProperties: false, examples: [{ verification_id: 1, code: '123456' }] },
);

export const GuestPass = Type.Object(
  {
    guest_pass: Type.String({ description: 'Send it as `X-Rova-Guest-Pass` to POST /guest/booking/create' }),
    email: Type.String(),
    name: Type.String(),
    expires_at: Instant,
  },
  { additionalProperties: false },
);
export type GuestPass = Static<typeof GuestPass>;

export const GuestPassHeaders = Type.Object({
  'x-rova-guest-pass': Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'From POST /guest/verification/confirm',
  }),
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

export const ManageHeaders = Type.Object({
  'x-rova-manage-token': Type.String({
    minLength: 1,
    maxLength: 300,
    description: 'The `rova_manage` parameter of a booking mail’s “manage your booking” link',
  }),
});

export const GuestMessage = Type.Object(
  {
    subject: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^\\u0000]*$' })),
    message: Type.String({ minLength: 1, maxLength: 5000, pattern: '^[^\\u0000]*$' }),
  },
  { additionalProperties: false },
);

export const GuestMessageSent = Type.Object(
  { id: Type.Integer({ description: 'The new thread' }), booking_id: Type.Integer() },
  { additionalProperties: false },
);

export const LinksRevoked = Type.Object(
  { booking_id: Type.Integer(), revoked_at: Instant },
  { additionalProperties: false },
);

import { Type, type Static } from '@sinclair/typebox';
import { BookingView } from '../schema.js';

/** What POST /booking/create answers: the booking, the amount due now, and how to pay it. */
export const CreatedBookingView = Type.Object(
  {
    booking: BookingView,
    amount_due: Type.Number({ description: 'What to pay now (the deposit or the total, by the payment plan)' }),
    currency: Type.String(),
    payment: Type.Object(
      {
        provider: Type.String({ description: 'offline | stripe' }),
        instructions: Type.Optional(Type.String({ description: 'offline: how to pay' })),
        client_secret: Type.Optional(Type.String({ description: 'stripe: the PaymentIntent’s client secret' })),
        checkout_url: Type.Optional(Type.String()),
      },
      { additionalProperties: false, description: 'How to pay; absent fields do not apply to the provider' },
    ),
  },
  { additionalProperties: false, description: 'Created booking' },
);
export type CreatedBookingView = Static<typeof CreatedBookingView>;

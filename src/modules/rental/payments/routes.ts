import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { bookingView } from '../bookings/view.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { BookingView } from '../bookings/schema.js';
import { adminResponses, IdParams, lit, Nullable } from '../schemas.js';
import { paymentConfig, settlePayment } from './service.js';

const PaymentConfig = Type.Object({
  providers: Type.Array(Type.Union([Type.Literal('offline'), Type.Literal('stripe')]), {
    description: 'The payment_method values POST /booking/create accepts',
  }),
  stripe: Type.Union(
    [
      Type.Object({
        publishable_key: Type.String({ description: 'STRIPE_PUBLISHABLE_KEY, for Stripe.js' }),
        js_url: Type.String({
          description: 'Where to load Stripe.js from (ROVA_STRIPE_JS_URL, default https://js.stripe.com/v3/)',
        }),
      }),
      Type.Null(),
    ],
    { description: 'Card payment in a browser: null unless stripe is enabled and a publishable key is set' },
  ),
});

export const paymentAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/payments/config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['rental v2: booking journey'],
        summary:
          'How a storefront can take payment: the enabled providers and, for card payment, Stripe.js and the publishable key (public)',
        security: [],
        response: { 200: RentalEnvelope(PaymentConfig), ...rentalErrors(429) },
      },
    },
    async () => rentalOk(paymentConfig(p)),
  );

  app.post(
    '/bookings/:id/mark-paid',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags: ['rental v2: booking journey'],
        summary:
          'Admin: the offline payment was received → booking confirmed (refunded and cancelled when its slot was taken meanwhile)',
        description:
          'outcome `confirmed`; `balance_paid` for the payment of an amount due after a price change or of the rest after a deposit (payment_status paid); ' +
          '`already_settled`; `refunded_slot_taken`. Settles the payment named by `payment_id`, or without it the ' +
          "booking's one pending offline payment: 409 `payment_ambiguous` (details.pending_payments) when several are pending " +
          'and none is named, 400 when the booking has no payment of that id, 409 when none is pending, 409 ' +
          '`payment_by_card` (details.payment_id) when the payment named, or the only one pending, is a card payment: ' +
          'Stripe settles those; record money the desk received with POST /bookings/{id}/payments.',
        params: IdParams,
        body: Type.Optional(
          Nullable(
            Type.Object(
              {
                payment_id: Type.Optional(
                  Type.Integer({
                    minimum: 1,
                    description:
                      "The payment received (one of the booking's payments); required when several are pending",
                  }),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        ),
        response: adminResponses(
          Type.Object(
            {
              outcome: lit(['confirmed', 'balance_paid', 'already_settled', 'refunded_slot_taken']),
              booking: BookingView,
            },
            { additionalProperties: false },
          ),
          200,
          404,
          409,
        ),
      },
    },
    async (req) => {
      const paymentId = (req.body as { payment_id?: number } | null | undefined)?.payment_id;
      const r = await settlePayment(p, req.params.id, {
        desk: true,
        ...(paymentId === undefined ? {} : { paymentId }),
      });
      return rentalOk(
        { outcome: r.outcome, booking: bookingView(r.booking) },
        r.outcome === 'confirmed'
          ? 'Payment recorded; booking confirmed.'
          : r.outcome === 'balance_paid'
            ? 'Payment of the amount due recorded.'
            : r.outcome === 'already_settled'
              ? 'The payment was already recorded.'
              : 'The slot was taken: payment refunded and booking cancelled.',
      );
    },
  );
};

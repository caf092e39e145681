import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import { RentalErrors } from '../errors.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { journeySettings } from '../bookings/settings.js';
import { handleStripeEvent, verifyStripeEvent } from './stripe-webhook.js';

const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const events = new WeakMap<FastifyRequest, Stripe.Event>();

const Result = Type.Object({
  event_id: Type.String(),
  type: Type.String(),
  outcome: Type.Union(
    [
      'confirmed',
      'balance_paid',
      'already_settled',
      'refunded_slot_taken',
      'duplicate',
      'payment_failed_recorded',
      'ignored',
    ].map((x) => Type.Literal(x)),
  ),
  booking_id: Type.Union([Type.Integer(), Type.Null()]),
});

/** Stripe's webhook: its own scope keeps the raw bytes, which the SDK's signature check needs untouched. */
export const stripeWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (req, body, done) => {
    rawBodies.set(req, body as Buffer);
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(RentalErrors.invalidParams('The body is not valid JSON.'), undefined);
    }
  });
  app.post(
    '/payments/stripe/webhook',
    {
      config: { auth: 'public' },
      preValidation: async (req) => {
        if (!journeySettings(p).stripe) throw RentalErrors.notFound('The stripe payment provider is not configured.');
        events.set(req, verifyStripeEvent(p, rawBodies.get(req), req.headers['stripe-signature']));
      },
      schema: {
        tags: ['rental v2: booking journey'],
        summary:
          'Stripe webhook (signed): payment_intent.succeeded → booking confirmed (or refunded + cancelled when the slot was taken); payment_failed → recorded, booking waits for its deadline',
        description:
          'Verified with the Stripe SDK over the raw body (Stripe-Signature, tolerance STRIPE_WEBHOOK_TOLERANCE_SECONDS, default 300 s). Missing, forged, stale or future (beyond the tolerance) signature → 400 INVALID_PARAMS with details.reason missing_signature | signature_mismatch | timestamp_outside_tolerance; a signed event without a string id, a type or a data.object → 400 malformed_event; nothing changes. payment_intent.succeeded for the payment of an amount due (a booking re-priced up after it was paid) answers outcome "balance_paid" (payment_status back to paid). A replayed event id answers outcome "duplicate" and acts once. 404 when the stripe provider is not configured.',
        headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String()) }),
        // a request body, not an answer: Stripe's event object, whose other members Stripe defines and adds to
        body: Type.Object(
          { id: Type.String({ minLength: 1, maxLength: 255 }), type: Type.String({ minLength: 1, maxLength: 255 }) },
          { additionalProperties: true },
        ),
        response: { 200: RentalEnvelope(Result), ...rentalErrors(400, 404, 409, 503) },
      },
    },
    async (req) => {
      const ev = events.get(req)!;
      const r = await handleStripeEvent(p, ev);
      if (r.booking_id !== null) req.auditTarget = `booking:${r.booking_id}`;
      return rentalOk(
        { event_id: ev.id, type: ev.type, outcome: r.outcome, booking_id: r.booking_id },
        r.outcome === 'duplicate' ? 'Event already processed.' : 'Event processed.',
      );
    },
  );
};

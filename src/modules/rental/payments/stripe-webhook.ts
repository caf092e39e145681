import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Platform } from '../../../platform/context.js';
import { one } from '../../../platform/db/types.js';
import { emitEvent } from '../../../platform/events/emit.js';
import { RentalErrors } from '../errors.js';
import { settlePayment, type Settlement } from './service.js';
import { stripeSettings } from './stripe.js';

export type WebhookOutcome = Settlement | 'duplicate' | 'payment_failed_recorded' | 'ignored';

/**
 * Verifies a Stripe webhook with the SDK over the exact bytes received (Stripe-Signature: HMAC-SHA256 of
 * "timestamp.body" with the endpoint secret; timestamp within STRIPE_WEBHOOK_TOLERANCE_SECONDS). Any failure is
 * 400 INVALID_PARAMS — what Stripe's own docs answer — with `details.reason` saying which check failed.
 */
export function verifyStripeEvent(
  p: Platform,
  raw: Buffer | undefined,
  header: string | string[] | undefined,
  now = Date.now(),
): Stripe.Event {
  if (typeof header !== 'string' || header === '')
    throw RentalErrors.invalidParams('Missing Stripe-Signature header.', {
      field: 'Stripe-Signature',
      reason: 'missing_signature',
    });
  const s = stripeSettings(p);
  const outsideTolerance = () =>
    RentalErrors.invalidParams('The webhook signature timestamp is outside the tolerance window.', {
      field: 'Stripe-Signature',
      reason: 'timestamp_outside_tolerance',
    });
  // The SDK refuses only timestamps too far in the past; one far in the future is as unusable for replay protection.
  const t = Number(/(?:^|,)\s*t=(\d{1,15})(?:,|$)/.exec(header)?.[1]);
  if (Number.isFinite(t) && t * 1000 - now > s.webhookToleranceSeconds * 1000) throw outsideTolerance();
  let ev: Stripe.Event;
  try {
    ev = Stripe.webhooks.constructEvent(raw ?? Buffer.alloc(0), header, s.webhookSecret, s.webhookToleranceSeconds);
  } catch (err) {
    if (err instanceof Error && /tolerance/i.test(err.message)) throw outsideTolerance();
    throw RentalErrors.invalidParams('The webhook signature does not match the body.', {
      field: 'Stripe-Signature',
      reason: 'signature_mismatch',
    });
  }
  return wellFormed(ev);
}

/** A signed body is still input: an event without an id, a type or a data object is refused before anything acts on it. */
function wellFormed(ev: Stripe.Event): Stripe.Event {
  const e = ev as unknown as { id?: unknown; type?: unknown; data?: unknown };
  const data = e.data as { object?: unknown } | null | undefined;
  const obj = data && typeof data === 'object' ? data.object : undefined;
  const intent = typeof e.type === 'string' && e.type.startsWith('payment_intent.');
  const ok =
    typeof e.id === 'string' &&
    e.id !== '' &&
    e.id.length <= 255 &&
    typeof e.type === 'string' &&
    e.type !== '' &&
    e.type.length <= 255 &&
    data !== null &&
    typeof data === 'object' &&
    obj !== null &&
    typeof obj === 'object' &&
    (!intent || typeof (obj as { id?: unknown }).id === 'string');
  if (!ok)
    throw RentalErrors.invalidParams(
      'The event needs a string id, a string type and a data.object (with an id for payment_intent events).',
      { reason: 'malformed_event' },
    );
  return ev;
}

/** Our booking for a PaymentIntent: by the stored external id, else by the ids we put in its metadata. */
async function bookingOf(p: Platform, pi: Stripe.PaymentIntent): Promise<number | null> {
  const r = await one<{ booking_id: number }>(
    p.db,
    sql`SELECT booking_id::int AS booking_id FROM rental_payments WHERE provider = 'stripe' AND external_id = ${pi.id}`,
  );
  if (r) return r.booking_id;
  const pid = Number(pi.metadata?.payment_id);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  const byId = await one<{ booking_id: number }>(
    p.db,
    sql`UPDATE rental_payments SET external_id = ${pi.id}, updated_at = now()
    WHERE id = ${pid} AND provider = 'stripe' AND external_id IS NULL AND booking_id = ${Number(pi.metadata?.booking_id) || 0} RETURNING booking_id::int AS booking_id`,
  );
  return byId?.booking_id ?? null;
}

/**
 * Acts on a verified event once per event id (Stripe retries and may replay): payment_intent.succeeded settles
 * the payment (confirmed, or refunded + cancelled when the slot was taken after the hold lapsed);
 * payment_intent.payment_failed is recorded (`payment.failed`) and the booking keeps waiting until its deadline,
 * since the customer may retry the same intent. Other types are acknowledged and ignored.
 */
export async function handleStripeEvent(
  p: Platform,
  ev: Stripe.Event,
): Promise<{ outcome: WebhookOutcome; booking_id: number | null }> {
  const pi =
    ev.type === 'payment_intent.succeeded' || ev.type === 'payment_intent.payment_failed' ? ev.data.object : null;
  const fresh = await one<{ event_id: string }>(
    p.db,
    sql`INSERT INTO rental_stripe_events (event_id, type, payment_intent) VALUES (${ev.id}, ${ev.type}, ${pi?.id ?? null})
    ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
  );
  if (!fresh) return { outcome: 'duplicate', booking_id: null };
  try {
    let outcome: WebhookOutcome = 'ignored';
    let bookingId: number | null = null;
    if (pi) {
      bookingId = await bookingOf(p, pi);
      if (bookingId !== null && ev.type === 'payment_intent.succeeded') {
        outcome = (await settlePayment(p, bookingId, { externalId: pi.id })).outcome;
      } else if (bookingId !== null) {
        const booking = bookingId;
        await p.transaction((tx) =>
          emitEvent(tx, 'payment.failed', {
            booking_id: booking,
            provider: 'stripe',
            external_id: pi.id,
            reason: pi.last_payment_error?.code ?? null,
          }),
        );
        outcome = 'payment_failed_recorded';
      }
    }
    await p.db.execute(sql`UPDATE rental_stripe_events SET outcome = ${outcome} WHERE event_id = ${ev.id}`);
    return { outcome, booking_id: bookingId };
  } catch (err) {
    // not acted on: forget the id so Stripe's retry of this event runs again
    await p.db.execute(sql`DELETE FROM rental_stripe_events WHERE event_id = ${ev.id}`).catch(() => undefined);
    throw err;
  }
}

import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { idempotent } from '../../../../platform/idempotency/store.js';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { CheckFields } from '../../availability/check/schema.js';
import { journeySettings } from '../settings.js';
import { CreatedBookingView } from './schema.js';
import { createCustomerBooking, type CreatedBooking } from './service.js';
import { AMOUNT_BOUND_DOC } from '../amount-bound.js';
import { DriverFields } from '../driver/schema.js';

const T = ['rental v2: booking journey'];
const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max, pattern: '^[^\\u0000]*$' });

export const CreateBody = Type.Object(
  {
    ...CheckFields,
    payment_method: Type.Union(
      [Type.Literal('offline'), Type.Literal('pay_at_pickup'), Type.Literal('bank_transfer'), Type.Literal('stripe')],
      {
        description:
          'pay_at_pickup: a reservation held until pick-up (no payment deadline); bank_transfer: due within ' +
          'BOOKING_BANK_TRANSFER_DAYS (default 2, never after pick-up); stripe (card) and offline: the short hold ' +
          '(BOOKING_HOLD_MINUTES, default 15). The three offline ones need the offline provider enabled.',
      },
    ),
    payment_plan: Type.Union([Type.Literal('deposit'), Type.Literal('full')]),
    customer: Type.Optional(
      Type.Object(
        { name: Text(200, 1), email: Type.String({ format: 'email', maxLength: 200 }), phone: Type.Optional(Text(50)) },
        { additionalProperties: false },
      ),
    ),
    ...DriverFields,
  },
  { additionalProperties: false },
);

/** The answer's message: a reservation is paid at pick-up; otherwise the deadline, as the booking says it. */
function createdMessage(data: CreatedBooking): string {
  const d = data.booking.payment_deadline;
  return d === null
    ? 'Booking reserved: the vehicle is held until pick-up, pay at the desk.'
    : `Booking created: pay before ${d} to confirm it.`;
}

export const createRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.post(
    '/booking/create',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags: T,
        summary:
          'Book: re-checked and priced on the server, pending_payment holding the slot until the payment deadline (Idempotency-Key honoured)',
        description:
          'Idempotency-Key (optional, per caller, kept 24 h): the same key and body answer the stored answer with `Idempotent-Replayed: true`; ' +
          'another body → 422 `IDEMPOTENCY_KEY_MISMATCH`; while the first request runs → 409 `STATE_CONFLICT` (`details.reason: idempotency_key_in_flight`). ' +
          'The key is stored in the transaction that creates the booking, so a key never yields two bookings. A request that failed before that commit ' +
          'leaves the key free for a retry: at once, or — when its database connection or process died — once its lease (the request timeout, ' +
          '`BOOKING_IDEMPOTENCY_LEASE_SECONDS`, default 60) has run out. If the booking committed but its request never finished, the key answers, after ' +
          'the lease, the booking as committed (201, replayed) without the payment start (instructions, client_secret). ' +
          'When the payment cannot start, the booking is cancelled (503) and the key freed with it. ' +
          AMOUNT_BOUND_DOC,
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({ minLength: 1, maxLength: 255, description: 'Makes a retry safe: see the description' }),
          ),
        }),
        body: CreateBody,
        response: {
          201: RentalEnvelope(CreatedBookingView),
          ...rentalErrors(400, 401, 403, 404, 409, 422, 429, 503),
        },
      },
    },
    async (req, reply) => {
      const auth = req.auth;
      const scope =
        auth.apiKeyId !== null ? `booking-create:key:${auth.apiKeyId}` : `booking-create:user:${auth.user!.id}`;
      const key = req.headers['idempotency-key'];
      const answer = (data: CreatedBooking) => ({
        status: 201,
        body: rentalOk(data, createdMessage(data)),
      });
      // the key commits with the booking (and is freed with its cancellation when the payment cannot start)
      const r = await idempotent(
        p.db,
        scope,
        typeof key === 'string' ? key : undefined,
        req.body,
        async (claim) =>
          answer(
            await createCustomerBooking(
              p,
              auth,
              req.body,
              claim.keyed
                ? {
                    created: (tx, data) => claim.commit(tx, answer(data)),
                    withdrawn: (tx) => claim.release(tx),
                  }
                : undefined,
            ),
          ),
        { leaseMs: journeySettings(p).idempotencyLeaseMs, answerWaitMs: p.config.databaseCommitOutcomeWaitMs },
      );
      const body = r.body as { data?: { booking?: { id?: number } } };
      if (body.data?.booking?.id) req.auditTarget = `booking:${body.data.booking.id}`;
      if (r.replayed) reply.header('Idempotent-Replayed', 'true');
      // a replay answers with the stored status and body, whatever they were
      return reply.code(r.status as 201).send(r.body as never);
    },
  );
};

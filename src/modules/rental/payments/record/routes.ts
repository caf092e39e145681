import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidField } from '../../errors.js';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { idempotent } from '../../../../platform/idempotency/store.js';
import { adminResponses, IdParams } from '../../schemas.js';
import { BookingView } from '../../bookings/schema.js';
import { bookingView } from '../../bookings/view.js';
import { recordPayment, type RecordedPayment } from './service.js';

export const RecordPaymentBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('full'), Type.Literal('deposit')], {
      description: 'full: the whole amount due; deposit: the deposit (what is asked when no amount is sent)',
    }),
    amount: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description: 'In the store currency, at most 2 decimals, at most the amount due; default: what kind asks',
      }),
    ),
    method: Type.Union(
      [Type.Literal('cash'), Type.Literal('card_terminal'), Type.Literal('bank_transfer'), Type.Literal('other')],
      { description: 'How the desk was paid' },
    ),
    reference: Type.Optional(
      Type.String({ maxLength: 100, pattern: '^[^\\u0000]*$', description: 'Receipt number, transfer reference…' }),
    ),
  },
  { additionalProperties: false },
);

const Recorded = Type.Object(
  {
    outcome: Type.Union([Type.Literal('confirmed'), Type.Literal('recorded')]),
    payment_id: Type.Integer(),
    amount: Type.String({ description: 'This payment' }),
    paid: Type.String({ description: "What the booking's payments hold now" }),
    due: Type.String({ description: 'What is still due' }),
    booking: BookingView,
  },
  { additionalProperties: false },
);

export const recordPaymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.post(
    '/bookings/:id/payments',
    {
      // store staff take payments at the desk (shop managers too); vendors and customers never record one
      config: { auth: { cap: 'manage_store', scope: 'write' } },
      schema: {
        tags: ['rental v2: booking journey'],
        summary: 'Record a payment the desk took (cash, card terminal, bank transfer): full or deposit',
        description:
          'Idempotency-Key required (a double click or a retry records once; another body → 422). Under the booking lock: ' +
          'the payment is written succeeded with its method and reference, a booking waiting for payment is confirmed ' +
          '(outcome `confirmed`; one cancelled because its deadline passed too, when its slot is still free, else 409 ' +
          '`VEHICLE_NOT_AVAILABLE`), otherwise `recorded`. payment_status: paid, deposit_paid or partially_paid. ' +
          '400 when the amount exceeds what is due; 409 when nothing is due or the booking is cancelled. Event ' +
          '`payment.succeeded`; the customer is mailed. Capability manage_store.',
        params: IdParams,
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Required' })),
        }),
        body: RecordPaymentBody,
        response: adminResponses(Recorded, 201, 404, 409, 422),
      },
    },
    async (req, reply) => {
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string' || key === '')
        throw invalidField('Idempotency-Key', 'Recording a payment needs an Idempotency-Key header.');
      const id = req.params.id;
      req.auditTarget = `booking:${id}`;
      const answer = (r: RecordedPayment) => ({
        status: 201,
        body: rentalOk(
          {
            outcome: r.outcome,
            payment_id: r.payment_id,
            amount: r.amount,
            paid: r.paid,
            due: r.due,
            booking: bookingView(r.booking),
          },
          r.outcome === 'confirmed' ? 'Payment recorded; booking confirmed.' : 'Payment recorded.',
        ),
      });
      const r = await idempotent(p.db, `booking-payment:user:${req.auth.user!.id}`, key, { id, ...req.body }, (claim) =>
        recordPayment(p, id, req.body, req.auth.user!.id, (tx, rec) => claim.commit(tx, answer(rec))).then(answer),
      );
      if (r.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(r.status as 201).send(r.body as never);
    },
  );
};

import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { bookingView } from '../../bookings/view.js';
import { money } from '../../money.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../../paging.js';
import { IdParams } from '../../schemas.js';
import { cancelMyBooking, myBookingDetail, myBookings } from './service.js';
import { balanceOf, payMyDue } from './pay-due.js';
import { journeySettings } from '../settings.js';

const T = ['rental v2: booking journey'];
const Obj = Type.Object({}, { additionalProperties: true });
const VehicleName = Type.Union([Type.String(), Type.Null()], {
  description: 'The vehicle’s name (null when it was deleted)',
});
const MyBookingItem = Type.Object({ vehicle_name: VehicleName }, { additionalProperties: true });
const CancelQuote = Type.Object(
  {
    cancellable: Type.Boolean({
      description: 'The status allows a customer cancellation (pending_payment, pending, confirmed)',
    }),
    free_cancellation_until: Type.String({ description: 'ISO-8601 UTC: BOOKING_FREE_CANCEL_HOURS before pickup' }),
    free: Type.Boolean({ description: 'Cancelling now costs nothing' }),
    fee: Type.Number({
      description:
        'What would be kept if cancelled now (BOOKING_CANCEL_FEE_PERCENT of what was paid after the deadline)',
    }),
    refund: Type.Number({ description: 'What would be refunded if cancelled now' }),
    currency: Type.String(),
  },
  { description: 'What a cancellation would cost now (the cancel route decides again under the booking lock)' },
);
const Balance = Type.Object(
  {
    paid: Type.Number({ description: 'What the customer paid and was not refunded' }),
    due: Type.Number({
      description:
        'What the customer is asked to pay now: the rest after a price change (payment_status partially_paid), else 0',
    }),
    currency: Type.String(),
    provider: Type.Union([Type.Literal('offline'), Type.Literal('stripe'), Type.Null()], {
      description: 'How the amount due is asked now (null when nothing is due or not asked yet)',
    }),
    instructions: Type.Union([Type.String(), Type.Null()], {
      description: 'How to pay the amount due offline (when it is asked offline)',
    }),
  },
  { description: 'Paid and due; pay the rest with POST /my/bookings/{id}/pay-due' },
);
const MyBookingDetail = Type.Object(
  { vehicle_name: VehicleName, cancellation: CancelQuote, balance: Balance },
  { additionalProperties: true },
);
const DuePayment = Type.Object(
  {
    booking_id: Type.Integer(),
    payment_id: Type.Integer(),
    provider: Type.Union([Type.Literal('offline'), Type.Literal('stripe')]),
    amount: Type.Number(),
    currency: Type.String(),
    client_secret: Type.Optional(
      Type.String({ description: 'stripe: confirm this PaymentIntent with Stripe.js; the signed webhook settles it' }),
    ),
    instructions: Type.Optional(Type.String({ description: 'offline: how to pay' })),
  },
  { additionalProperties: false },
);

export const myRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/my/bookings',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: T,
        summary: 'The signed-in customer’s bookings (latest pickup first)',
        querystring: Type.Object(PagingQuery),
        response: { 200: RentalEnvelope(PageSchema(MyBookingItem)), ...rentalErrors(400, 401, 403, 429) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await myBookings(p, req.auth.user!.id, pg.limit, pg.offset);
      return rentalOk(
        pageOf(
          r.items.map((b) => ({ ...bookingView(b), vehicle_name: b.vehicle_name })),
          r.total,
          pg,
        ),
      );
    },
  );

  app.get(
    '/my/bookings/:id',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: T,
        summary:
          'One of the signed-in customer’s bookings with its order lines, payments and what cancelling it now would cost (another’s → 404)',
        params: IdParams,
        response: { 200: RentalEnvelope(MyBookingDetail), ...rentalErrors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const { b, order, payments, refs, cancellation } = await myBookingDetail(p, req.auth.user!.id, req.params.id);
      const bal = balanceOf(b, payments);
      return rentalOk({
        ...bookingView(b),
        vehicle_name: refs.vehicle_name,
        cancellation,
        balance: {
          paid: bal.paid.toNumber(),
          due: bal.due.toNumber(),
          currency: b.currency,
          provider: bal.asking?.provider ?? null,
          instructions:
            bal.asking?.provider === 'offline'
              ? `${journeySettings(p).offlineInstructions} Reference: ${b.reference}. Amount due: ${bal.due.toFixed(2)} ${b.currency}.`
              : null,
        },
        order: order
          ? { payment_plan: order.payment_plan, amount_due: money(order.amount_due), lines: order.lines }
          : null,
        payments: payments.map((x) => ({
          id: x.id,
          provider: x.provider,
          amount: money(x.amount),
          currency: x.currency,
          status: x.status,
          refunded_amount: money(x.refunded_amount),
        })),
      });
    },
  );

  app.post(
    '/my/bookings/:id/pay-due',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags: T,
        summary: 'Pay the rest: the amount due on one of my bookings after its price went up (another’s → 404)',
        description:
          'For a booking whose payment_status is `partially_paid`. `payment_method` (default: how the amount due is asked ' +
          'now) `stripe` answers the client_secret of a PaymentIntent for the amount due (the same intent on a repeat; ' +
          'the signed webhook settles it: payment_status back to `paid`), `offline` the instructions. Asking another way ' +
          'than before supersedes the earlier request (its intent is cancelled at Stripe). 409 when nothing is due; ' +
          '400 when the method is not enabled; 503 when Stripe cannot start it (nothing charged; it stays due).',
        params: IdParams,
        body: Type.Optional(
          Type.Object(
            { payment_method: Type.Optional(Type.Union([Type.Literal('offline'), Type.Literal('stripe')])) },
            { additionalProperties: false },
          ),
        ),
        response: { 200: RentalEnvelope(DuePayment), ...rentalErrors(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (req) => {
      const r = await payMyDue(p, req.auth.user!.id, req.params.id, req.body?.payment_method);
      req.auditTarget = `booking:${r.booking_id}`;
      return rentalOk(
        r,
        r.provider === 'stripe' ? 'Confirm the payment with the client secret.' : 'Pay as instructed.',
      );
    },
  );

  app.post(
    '/my/bookings/:id/cancel',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags: T,
        summary:
          'Cancel one of my bookings: free until the cancellation deadline, then the configured fee; the rest is refunded through the provider',
        params: IdParams,
        response: { 200: RentalEnvelope(Obj), ...rentalErrors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      const r = await cancelMyBooking(p, req.auth.user!.id, req.params.id);
      return rentalOk(
        {
          booking: bookingView(r.booking),
          fee: r.fee,
          refund: r.refund,
          free_cancellation_until: r.free_cancellation_until,
        },
        r.fee > 0 ? 'Booking cancelled; the cancellation fee was kept.' : 'Booking cancelled free of charge.',
      );
    },
  );
};

import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { bookingView } from '../view.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../../paging.js';
import { IdParams } from '../../schemas.js';
import {
  DuePayment,
  MyBookingDetail,
  MyBookingItem,
  MyCancellation,
  MyChange,
  MyChangeBody,
  PayDueBody,
} from './schema.js';
import { changeMyBooking, quoteMyChange, type MyChangeOutcome } from './change.js';
import { cancelledAnswer } from './cancel-view.js';
import { CHANGE_RULES, changedAnswer, changeView } from './change-view.js';
import { IdempotencyKeyHeader, keyedRun } from '../../../../platform/idempotency/route.js';
import { cancelMyBooking, myBookingDetail, myBookings } from './service.js';
import { payMyDue } from './pay-due.js';
import { keyedPayDue } from './pay-due-route.js';
import { detailView, storeClock } from './detail.js';

const T = ['rental v2: booking journey'];
export const myRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/my/bookings',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: T,
        summary: 'The signed-in customer’s bookings (latest pickup first)',
        querystring: Type.Object({
          ...PagingQuery,
          reference: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 40,
              description: 'Only the booking with this reference (a booking mail’s link opens it)',
            }),
          ),
        }),
        response: { 200: RentalEnvelope(PageSchema(MyBookingItem)), ...rentalErrors(400, 401, 403, 429) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await myBookings(p, req.auth.user!.id, pg.limit, pg.offset, req.query.reference);
      return rentalOk(
        pageOf(
          r.items.map((b): MyBookingItem => ({ ...bookingView(b), vehicle_name: b.vehicle_name, ...storeClock(p, b) })),
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
      const detail = detailView(p, await myBookingDetail(p, req.auth.user!.id, req.params.id));
      return rentalOk(detail);
    },
  );

  app.post(
    '/my/bookings/:id/pay-due',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags: T,
        summary:
          'Pay what is due on one of my bookings: after a price rise, a deposit, or before pick-up (another’s → 404)',
        description:
          'For a booking whose payment_status is `partially_paid` (its price went up) or `deposit_paid` (the rest, ' +
          'otherwise due at pick-up), or an unpaid reservation paid at pick-up or by bank transfer (what it asks: ' +
          'the total or the deposit; paid by card, the webhook confirms it). `payment_method` (default: how the amount due is asked ' +
          'now) `stripe` answers the client_secret of a PaymentIntent for the amount due (the same intent on a repeat; ' +
          'the signed webhook settles it: payment_status back to `paid`), `offline` the instructions. Asking another way ' +
          'than before supersedes the earlier request (its intent is cancelled at Stripe). 409 `nothing_due` when ' +
          'nothing is due (also when the booking was cancelled meanwhile), `payment_superseded` when another request ' +
          'asked for it meanwhile; 400 when the method is not enabled; 503 when Stripe cannot start it (nothing ' +
          'charged; it stays due). Idempotency-Key honoured per caller (the answer is kept sealed): the same key and ' +
          'body answer the first answer without asking Stripe again, another body → 422.',
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: PayDueBody,
        response: { 200: RentalEnvelope(DuePayment), ...rentalErrors(400, 401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (req, reply) => {
      const body = await keyedPayDue(p, req, reply, {
        action: 'booking-my-pay-due',
        pay: () => payMyDue(p, req.auth.user!.id, req.params.id, req.body?.payment_method),
      });
      req.auditTarget = `booking:${req.params.id}`;
      return reply.code(200).send(body as never);
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
        response: { 200: RentalEnvelope(MyCancellation), ...rentalErrors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      return cancelledAnswer(await cancelMyBooking(p, req.auth.user!.id, req.params.id));
    },
  );

  app.post(
    '/my/bookings/:id/change/quote',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: T,
        summary: 'What moving one of my bookings to other dates or another vehicle would cost (nothing is written)',
        description: CHANGE_RULES + 'The quote runs the change under the booking’s lock and rolls it back.',
        params: IdParams,
        body: MyChangeBody,
        response: { 200: RentalEnvelope(MyChange), ...rentalErrors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => rentalOk(changeView(await quoteMyChange(p, req.auth.user!.id, req.params.id, req.body))),
  );

  app.post(
    '/my/bookings/:id/change',
    {
      config: { auth: { authenticated: true, scope: 'write' } },
      schema: {
        tags: T,
        summary: 'Move one of my bookings to other dates or another vehicle of the same category (another’s → 404)',
        description:
          CHANGE_RULES +
          'Mails the customer one `booking_changed` with the booking as .ics: the new dates and total, and the refund ' +
          'or the amount due and how to pay it (no separate `amount_due` mail); event `booking.repriced` when the ' +
          'total changes. Idempotency-Key honoured.',
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: MyChangeBody,
        response: { 200: RentalEnvelope(MyChange), ...rentalErrors(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (req, reply) => {
      const answer = (o: MyChangeOutcome) => ({ status: 200, body: changedAnswer(o) });
      // the key commits in the change's transaction: one key never changes twice
      const r = await keyedRun(p, req, reply, {
        action: 'booking-my-change',
        run: async (claim) =>
          answer(
            await changeMyBooking(p, req.auth.user!.id, req.params.id, req.body, (tx, o) =>
              claim.commit(tx, answer(o)),
            ),
          ),
      });
      req.auditTarget = `booking:${req.params.id}`;
      return reply.code(200).send(r.body as never);
    },
  );
};

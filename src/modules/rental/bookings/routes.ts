import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidField } from '../errors.js';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { rentalErrors } from '../../../platform/http/schemas.js';
import { IdempotencyKeyHeader, keyedRun } from '../../../platform/idempotency/route.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { adminResponses, DateStr, IdParams, TimeStr, Id, Text, lit } from '../schemas.js';
import { isValidDate } from '../time.js';
import {
  bookingDetail,
  bookingsPage,
  changeStatus,
  createBooking,
  editBooking,
  quoteBookingChange,
} from './service.js';
import { Decimal } from '../money.js';
import { BOOKING_STATUSES, INITIAL_STATUSES } from './status.js';
import { bookingView } from './view.js';
import { BookingDetailView as BookingDetail, BookingView as Booking, PAYMENT_STATUSES } from './schema.js';
import { AMOUNT_BOUND_DOC } from './amount-bound.js';
import { DriverFields } from './driver/schema.js';
import { driverOfOperatorBooking, saveDriverOf } from './driver/service.js';

const T = ['rental: bookings'];

/** New dates, times or vehicle of a booking (PUT /bookings/{id} and its quote). */
const Move = {
  pickup_date: Type.Optional(DateStr),
  return_date: Type.Optional(DateStr),
  pickup_time: Type.Optional(TimeStr),
  return_time: Type.Optional(TimeStr),
  vehicle_id: Type.Optional(Id({ description: 'Another vehicle (rentals): re-checked and re-priced on it' })),
};

const QuoteView = Type.Object(
  {
    booking: Booking,
    previous_total: Type.Number({ description: 'The total now' }),
    total: Type.Number({ description: 'The total after the change' }),
    difference: Type.Number({ description: 'total − previous_total' }),
    refund: Type.Number({ description: 'What the change would refund of what was paid' }),
    due: Type.Number({ description: 'What the change would ask beyond what was paid (a fully paid booking)' }),
    payment_status: lit(PAYMENT_STATUSES),
  },
  { additionalProperties: false, description: 'Booking change quote' },
);
const Status = Type.Union(BOOKING_STATUSES.map((s) => Type.Literal(s)));

export const bookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/bookings',
    {
      schema: {
        tags: T,
        summary: 'List bookings (newest first)',
        querystring: Type.Object({
          ...PagingQuery,
          status: Type.Optional(Status),
          vehicle_id: Type.Optional(Id()),
          customer_id: Type.Optional(Id()),
          kind: Type.Optional(Type.Union([Type.Literal('rental'), Type.Literal('transfer')])),
          pickup_from: Type.Optional(DateStr),
          pickup_to: Type.Optional(DateStr),
          search: Type.Optional(Text({ maxLength: 100 })),
          payment_due: Type.Optional(
            Type.Boolean({ description: 'true: only bookings under way whose payment is not complete' }),
          ),
        }),
        response: adminResponses(PageSchema(Booking)),
      },
    },
    async (req) => {
      const q = req.query;
      for (const f of ['pickup_from', 'pickup_to'] as const) {
        if (q[f] !== undefined && !isValidDate(q[f])) throw invalidField(f, `${f} is not a valid date.`);
      }
      const pg = parsePaging(q);
      const r = await bookingsPage(
        p.db,
        {
          status: q.status,
          vehicle_id: q.vehicle_id,
          customer_id: q.customer_id,
          kind: q.kind,
          search: q.search,
          payment_due: q.payment_due,
          pickup_from: q.pickup_from ? new Date(q.pickup_from + 'T00:00:00Z') : undefined,
          pickup_to: q.pickup_to ? new Date(new Date(q.pickup_to + 'T00:00:00Z').getTime() + 86_400_000) : undefined,
        },
        pg.limit,
        pg.offset,
      );
      return rentalOk(pageOf(r.items.map(bookingView), r.total, pg));
    },
  );

  app.get(
    '/bookings/:id',
    {
      schema: {
        tags: T,
        summary: 'One booking with its vehicle and locations by name, price lines, payments and refunds',
        params: IdParams,
        response: adminResponses(BookingDetail, 200, 404),
      },
    },
    async (req) => rentalOk(await bookingDetail(p.db, req.params.id)),
  );

  app.post(
    '/bookings',
    {
      schema: {
        tags: T,
        summary:
          'Create a booking (checks availability atomically; 409 VEHICLE_NOT_AVAILABLE on overlap; Idempotency-Key honoured)',
        description:
          'The customer is mailed in the same transaction: `booking_confirmed` for a booking created confirmed, ' +
          '`booking_created` for one waiting for payment, nothing for a draft. ' +
          AMOUNT_BOUND_DOC,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            vehicle_id: Id(),
            customer_id: Type.Optional(Id()),
            customer: Type.Optional(
              Type.Object(
                {
                  name: Text({ minLength: 1, maxLength: 200 }),
                  email: Text({ minLength: 3, maxLength: 200 }),
                  phone: Type.Optional(Text({ maxLength: 50 })),
                },
                { additionalProperties: false },
              ),
            ),
            kind: Type.Optional(Type.Union([Type.Literal('rental'), Type.Literal('transfer')], { default: 'rental' })),
            transfer_route_id: Type.Optional(Id({ description: 'Transfers: the route' })),
            passengers: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            pickup_date: DateStr,
            return_date: Type.Optional(DateStr),
            pickup_time: Type.Optional(TimeStr),
            return_time: Type.Optional(TimeStr),
            location_id: Type.Optional(Id({ description: "Pick-up location (default: the vehicle's)" })),
            return_location_id: Type.Optional(Id({ description: 'Return location (default: the pick-up location)' })),
            addons: Type.Optional(Type.Array(Text({ maxLength: 50 }), { maxItems: 20 })),
            status: Type.Optional(Type.Union(INITIAL_STATUSES.map((s) => Type.Literal(s)))),
            payment_method: Type.Optional(Text({ maxLength: 50 })),
            notes: Type.Optional(Text({ maxLength: 5000 })),
            ...DriverFields,
          },
          { additionalProperties: false },
        ),
        response: { 201: adminResponses(Booking)[200], ...rentalErrors(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (req, reply) => {
      const answer = (b: Parameters<typeof bookingView>[0]) => ({
        status: 201,
        body: rentalOk(bookingView(b), 'Booking created.'),
      });
      const { driver: _d, flight_number: _f, terms_accepted: _t, terms_version: _v, ...input } = req.body;
      // the key and the driver row commit in the booking's transaction: one key never books twice
      const r = await keyedRun(p, req, reply, {
        action: 'booking-admin-create',
        run: async (claim) => {
          const driver = await driverOfOperatorBooking(p, req.body);
          return answer(
            await createBooking(p, { ...input, source: 'admin' }, async (tx, b) => {
              await saveDriverOf(tx, Number(b.id), driver);
              await claim.commit(tx, answer(b));
            }),
          );
        },
      });
      req.auditTarget = `booking:${(r.body as { data: { id: number } }).data.id}`;
      return reply.code(r.status as 201).send(r.body as never);
    },
  );

  app.put(
    '/bookings/:id',
    {
      schema: {
        tags: T,
        summary: 'Change the dates or vehicle (re-priced, re-checked for overlap) or notes of a booking',
        params: IdParams,
        description:
          'New dates (or `vehicle_id`: another vehicle, for a rental) re-price the booking under its lock, and the price change settles its money in the same transaction: what was paid ' +
          "beyond the new total is refunded (reason `booking_repriced`; through the payment's provider after commit, recorded for offline payments), " +
          'and a fully paid booking that now costs more owes the difference (`payment_status` `partially_paid`, a pending payment of the difference ' +
          'with the same provider: Stripe gets a PaymentIntent, offline is settled by mark-paid). Event `booking.repriced`. Completed, cancelled, ' +
          'no-show and refunded bookings keep their dates (409). ' +
          AMOUNT_BOUND_DOC,
        body: Type.Object(
          { ...Move, notes: Type.Optional(Text({ maxLength: 5000 })) },
          { additionalProperties: false },
        ),
        response: adminResponses(Booking, 200, 404, 409),
      },
    },
    async (req) => rentalOk(bookingView(await editBooking(p, req.params.id, req.body)), 'Booking updated.'),
  );

  app.post(
    '/bookings/:id/quote',
    {
      schema: {
        tags: T,
        summary: 'What new dates or another vehicle would do to a booking’s price, without changing it',
        params: IdParams,
        description:
          'The change PUT /bookings/{id} would make, by the same rules and in the same transaction, rolled back: the ' +
          'booking as it would be, its old and new total, and what settling its money would do (`refund`: owed to ' +
          'the customer; `due`: asked of them). Nothing is written. A change PUT would refuse is refused the same way ' +
          '(409 `VEHICLE_NOT_AVAILABLE` with its reason, 409 for a completed, cancelled, no-show or refunded booking).',
        body: Type.Object(Move, { additionalProperties: false }),
        response: adminResponses(QuoteView, 200, 404, 409),
      },
    },
    async (req) => {
      const q = await quoteBookingChange(p, req.params.id, req.body);
      const before = new Decimal(q.previous.total);
      return rentalOk({
        booking: bookingView(q.booking),
        previous_total: before.toNumber(),
        total: new Decimal(q.booking.total).toNumber(),
        difference: new Decimal(q.booking.total).minus(before).toNumber(),
        refund: Number(q.refunded),
        due: Number(q.due),
        payment_status: q.payment_status,
      });
    },
  );

  app.post(
    '/bookings/:id/status',
    {
      schema: {
        tags: T,
        summary: 'Move a booking along the status machine (illegal move → 409 STATE_CONFLICT)',
        description:
          'A move to `confirmed` mails the customer `booking_confirmed`, a move to `cancelled` `booking_cancelled`, ' +
          'written in the transaction of the move.',
        params: IdParams,
        body: Type.Object({ status: Text({ minLength: 1, maxLength: 30 }) }, { additionalProperties: false }),
        response: adminResponses(
          Type.Object({ booking: Booking, previous_status: Status }, { additionalProperties: false }),
          200,
          404,
          409,
        ),
      },
    },
    async (req) => {
      const r = await changeStatus(p, req.params.id, req.body.status, { by: 'admin' });
      return rentalOk(
        { booking: bookingView(r.booking), previous_status: r.previous },
        `Booking is now ${r.booking.status}.`,
      );
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../../paging.js';
import { Id, Nullable, lit } from '../../schemas.js';
import { BOOKING_STATUSES } from '../../bookings/status.js';
import { actionConsequences, listVendorBookings } from './service.js';

const V1 = '/rova-rental/v1';
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const tags = ['rental v1: vendor self-service'];

const VendorBooking = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  vehicle_id: Type.Integer(),
  vehicle_name: Type.String(),
  customer_name: Type.String({
    description: "The renter's name (no contact data: the platform talks to its customers)",
  }),
  pickup_at: Type.String(),
  return_at: Type.String(),
  days: Type.Integer(),
  total: Type.Number(),
  currency: Type.String(),
  status: lit(BOOKING_STATUSES),
  cancelled_by: Nullable(Type.String()),
  can_cancel: Type.Boolean({ description: 'Whether POST /vendor/bookings/{id}/cancel can still cancel it' }),
});

const BookingsQuery = Type.Object({
  scope: Type.Optional(lit(['upcoming', 'all'] as const)),
  status: Type.Optional(lit(BOOKING_STATUSES)),
  ...PagingQuery,
});

const ConsequencesQuery = Type.Object({
  action: lit(['pause', 'withdraw', 'cancel'] as const),
  vehicle_id: Type.Optional(Id({ description: 'The vehicle to withdraw (required for withdraw)' })),
});

const Consequences = Type.Object({
  action: Type.String(),
  vehicle_id: Nullable(Type.Integer()),
  reliability_score: Type.Integer({ description: 'The score now' }),
  reliability_score_after: Type.Integer({ description: 'The score the action would leave' }),
  penalty: Type.Number({ description: 'Withdrawal penalty taken from available (0 for pause and cancel)' }),
  penalty_rate_percent: Type.Number(),
  penalty_deferred: Type.Boolean({
    description: 'An open vehicle_action report about the vehicle defers the penalty until it is decided',
  }),
  currency: Type.String(),
});

/** The vendor portal's reads (the admin app's /admin/vendor/… screens): own bookings, the cost of an action before confirming it. */
export const vendorPortalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;

  app.get(
    `${V1}/vendor/bookings`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "Bookings of the calling vendor's own vehicles",
        description:
          'scope=upcoming (default): pickup from now on, pending or confirmed, soonest first; scope=all: every booking, newest pickup first; status filters either.',
        querystring: BookingsQuery,
        response: { 200: RentalEnvelope(PageSchema(VendorBooking)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await listVendorBookings(
        p,
        req.auth.user!,
        { scope: req.query.scope ?? 'upcoming', status: req.query.status },
        pg,
      );
      return rentalOk(pageOf(r.items, r.total, pg), '');
    },
  );

  app.get(
    `${V1}/vendor/consequences`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary:
          'What pausing or withdrawing a vehicle, or cancelling a booking, would cost: the reliability score after it and the withdrawal penalty (nothing is changed)',
        querystring: ConsequencesQuery,
        response: { 200: RentalEnvelope(Consequences), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await actionConsequences(p, req.auth.user!, req.query.action, req.query.vehicle_id), ''),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { money } from '../money.js';
import { PageSchema, PagingQuery, pageOf, parsePaging } from '../paging.js';
import { Id, Nullable, Text, lit } from '../schemas.js';
import { toDate } from '../../../platform/db/types.js';
import { IdempotencyKeyHeader, keyedWrite } from '../../../platform/idempotency/route.js';
import { catalogueChanged } from '../catalogue.js';
import {
  createVendorVehicle,
  decideVendorVehicle,
  editVendorVehicle,
  moveVendorVehicle,
  ownVehicle,
  ownVehicles,
  listingForReview,
  waitingListingCount,
  waitingListings,
  type ListingRow,
  type WaitingListingRow,
} from './vendor-service.js';
import { IdParams, RejectBody } from '../vendors/schemas.js';
import { photoViewsOf } from './photos/service.js';
import { PhotoView } from './photos/views.js';
import { waitingApplicationCount } from '../vendors/applications/service.js';

const V1 = '/rova-rental/v1';
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const admin = { auth: { cap: 'manage_options' } } as const;
const tags = ['rental v1: vendor vehicles'];

/** The fields a vendor may set (reference §2.14); status, owner, currency, slug and dates are the platform's. */
const Fields = {
  name: Text({ minLength: 1, maxLength: 200 }),
  price_per_day: Type.Number({ minimum: 0, maximum: 1_000_000 }),
  category: Type.Optional(Text({ minLength: 1, maxLength: 50 })),
  brand: Type.Optional(Text({ maxLength: 100 })),
  model: Type.Optional(Text({ maxLength: 100 })),
  year: Type.Optional(Nullable(Type.Integer({ minimum: 1900, maximum: 2100 }))),
  seats: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100 }))),
  transmission: Type.Optional(lit(['manual', 'automatic'] as const)),
  fuel_type: Type.Optional(lit(['petrol', 'diesel', 'hybrid', 'electric', 'lpg'] as const)),
  location_id: Type.Optional(Nullable(Id())),
  description: Type.Optional(Text({ maxLength: 10000 })),
};

const VendorVehicle = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  lifecycle: lit(['pending_review', 'active', 'paused', 'expired', 'withdrawn', 'rejected'] as const),
  status: Type.String({ description: 'Bookable status of the vehicle (active only while the listing is active)' }),
  price_per_day: Type.Number(),
  currency: Type.String(),
  category: Type.String(),
  brand: Type.String(),
  model: Type.String(),
  year: Nullable(Type.Integer()),
  seats: Nullable(Type.Integer()),
  transmission: Type.String(),
  fuel_type: Type.String(),
  location_id: Nullable(Type.Integer()),
  description: Type.String(),
  withdrawn_at: Nullable(Type.String()),
  withdrawal_reason: Nullable(Type.String()),
  review_reason: Nullable(
    Type.String({ description: "The administrator's reason when the listing was rejected (null otherwise)" }),
  ),
  reviewed_at: Nullable(Type.String({ description: 'When an administrator last decided on the listing' })),
  created_at: Type.String(),
});

/** A vendor's listing as the operator reviews it: the vehicle, its prices, who listed it and where. */
const ReviewListing = Type.Object({
  ...VendorVehicle.properties,
  vendor_id: Type.Integer(),
  vendor_name: Type.String(),
  vendor_email: Type.String(),
  location_name: Nullable(Type.String()),
  deposit_percent: Nullable(
    Type.Number({ description: 'Deposit share of the total, percent (null: the store default)' }),
  ),
  submitted_at: Type.String({
    description: 'When the listing entered its current lifecycle (for a waiting one: submitted)',
  }),
});

function view(l: ListingRow) {
  return {
    id: Number(l.vehicle_id),
    name: l.name,
    lifecycle: l.lifecycle,
    status: l.status,
    price_per_day: money(l.price_per_day),
    currency: l.currency,
    category: l.category,
    brand: l.brand,
    model: l.model,
    year: l.year,
    seats: l.seats,
    transmission: l.transmission,
    fuel_type: l.fuel_type,
    location_id: l.location_id === null ? null : Number(l.location_id),
    description: l.description,
    withdrawn_at: l.withdrawn_at === null ? null : toDate(l.withdrawn_at).toISOString(),
    withdrawal_reason: l.withdrawal_reason,
    // the reason belongs to a rejection: once the listing is resubmitted and approved, it no longer applies
    review_reason: l.lifecycle === 'rejected' ? l.review_reason : null,
    reviewed_at: l.reviewed_at === null ? null : toDate(l.reviewed_at).toISOString(),
    created_at: toDate(l.created_at).toISOString(),
  };
}

function reviewView(l: WaitingListingRow) {
  return {
    ...view(l),
    review_reason: l.review_reason,
    vendor_id: Number(l.vendor_id),
    vendor_name: l.vendor_name,
    vendor_email: l.vendor_email,
    location_name: l.location_name,
    deposit_percent: l.deposit_percent === null ? null : Number(l.deposit_percent),
    submitted_at: toDate(l.submitted_at).toISOString(),
  };
}

/** One listing under review: what the queue lists, with the photos the vendor uploaded (cover first). */
const ReviewListingDetail = Type.Object({ ...ReviewListing.properties, photos: Type.Array(PhotoView) });

const ReviewQueue = Type.Object({
  vehicles: Type.Integer({ description: 'Vendor listings waiting (pending_review)' }),
  applications: Type.Integer({ description: 'Vendor applications waiting (pending)' }),
  total: Type.Integer(),
});

const SUMMARIES = {
  pause: 'Pause an active own vehicle (409 with confirmed/in-progress bookings)',
  resume: 'Resume a paused own vehicle',
  withdraw:
    'Withdraw an own vehicle (optional reason; 409 with confirmed/in-progress bookings; penalty deferred while a vehicle_action report about it is open)',
  relist:
    'Relist a withdrawn or rejected own vehicle: back to pending_review for an administrator (409 within 7 days of a withdrawal)',
} as const;
const DONE = {
  pause: 'paused',
  resume: 'resumed',
  withdraw: 'withdrawn',
  relist: 'relisted (pending review)',
} as const;

/** Vendors manage their own vehicles only: another vendor's vehicle answers 404, exactly like a missing one. */
export const vendorVehicleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const own = async (userId: number, id: number) => view(await ownVehicle(p.db, userId, id));

  app.get(
    `${V1}/vendor/vehicles`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "The calling vendor's vehicles (paged)",
        querystring: Type.Object(PagingQuery),
        response: { 200: RentalEnvelope(PageSchema(VendorVehicle)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await ownVehicles(p.db, req.auth.user!.id, pg.limit, pg.offset);
      return rentalOk(pageOf(r.items.map(view), r.total, pg), '');
    },
  );

  app.post(
    `${V1}/vendor/vehicles`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: 'List a new vehicle (pending_review until an administrator approves it; Idempotency-Key honoured)',
        headers: IdempotencyKeyHeader,
        body: Type.Object(Fields, { additionalProperties: false }),
        response: { 201: RentalEnvelope(VendorVehicle), ...rentalErrors(400, 401, 403, 409, 422) },
      },
    },
    async (req, reply) => {
      const user = req.auth.user!;
      const r = await keyedWrite(p, req, reply, {
        action: 'vendor-vehicle-create',
        async write(tx) {
          const id = await createVendorVehicle(p, tx, user, req.body);
          return {
            status: 201,
            body: rentalOk(view(await ownVehicle(tx, user.id, id)), 'Vehicle submitted for review.'),
          };
        },
        after: () => catalogueChanged(p),
      });
      req.auditTarget = `vehicle:${(r.body as { data: { id: number } }).data.id}`;
      return reply.code(r.status as 201).send(r.body as never);
    },
  );

  app.get(
    `${V1}/vendor/vehicles/:id`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "One of the calling vendor's vehicles",
        params: IdParams,
        response: { 200: RentalEnvelope(VendorVehicle), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await own(req.auth.user!.id, req.params.id), ''),
  );

  app.put(
    `${V1}/vendor/vehicles/:id`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: 'Edit an own vehicle (not once withdrawn)',
        params: IdParams,
        body: Type.Partial(Type.Object(Fields, { additionalProperties: false })),
        response: { 200: RentalEnvelope(VendorVehicle), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      await editVendorVehicle(p, req.auth.user!, req.params.id, req.body);
      return rentalOk(await own(req.auth.user!.id, req.params.id), 'Vehicle updated.');
    },
  );

  for (const move of ['pause', 'resume', 'withdraw', 'relist'] as const) {
    app.post(
      `${V1}/vendor/vehicles/:id/${move}`,
      {
        config: vendorOnly,
        schema: {
          tags,
          params: IdParams,
          summary: SUMMARIES[move],
          ...(move === 'withdraw'
            ? {
                body: Type.Object(
                  { reason: Type.Optional(Text({ maxLength: 2000 })) },
                  { additionalProperties: false },
                ),
              }
            : {}),
          response: { 200: RentalEnvelope(VendorVehicle), ...rentalErrors(400, 401, 403, 404, 409) },
        },
      },
      async (req) => {
        const reason = move === 'withdraw' ? (req.body as { reason?: string } | undefined)?.reason : undefined;
        await moveVendorVehicle(p, req.auth.user!, req.params.id, move, reason);
        return rentalOk(await own(req.auth.user!.id, req.params.id), `Vehicle ${DONE[move]}.`);
      },
    );
  }

  app.get(
    `${V1}/vendor-management/review-queue`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'How many vendor listings and vendor applications wait for a decision',
        response: { 200: RentalEnvelope(ReviewQueue), ...rentalErrors(401, 403) },
      },
    },
    async () => {
      const [vehicles, applications] = await Promise.all([waitingListingCount(p.db), waitingApplicationCount(p.db)]);
      return rentalOk({ vehicles, applications, total: vehicles + applications }, '');
    },
  );

  app.get(
    `${V1}/vendor-management/vehicles`,
    {
      config: admin,
      schema: {
        tags,
        summary: "Vendors' vehicle listings waiting for review (pending_review), oldest first (paged)",
        querystring: Type.Object(PagingQuery),
        response: { 200: RentalEnvelope(PageSchema(ReviewListing)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await waitingListings(p.db, pg.limit, pg.offset);
      return rentalOk(pageOf(r.items.map(reviewView), r.total, pg), '');
    },
  );

  app.get(
    `${V1}/vendor-management/vehicles/:id`,
    {
      config: admin,
      schema: {
        tags,
        summary: "One vendor's vehicle listing with its prices, vendor and last review (any lifecycle)",
        params: IdParams,
        response: { 200: RentalEnvelope(ReviewListingDetail), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const l = reviewView(await listingForReview(p.db, req.params.id));
      return rentalOk({ ...l, photos: await photoViewsOf(p, req.params.id) }, '');
    },
  );

  app.post(
    `${V1}/vendor-management/vehicles/:id/approve`,
    {
      config: admin,
      schema: {
        tags,
        summary:
          "Approve a vendor's pending vehicle listing (it becomes bookable; the vendor is mailed; 409 unless pending_review)",
        params: IdParams,
        response: {
          200: RentalEnvelope(Type.Object({ id: Type.Integer(), lifecycle: Type.Literal('active') })),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req) => {
      req.auditTarget = `vehicle:${req.params.id}`;
      await decideVendorVehicle(p, req.auth.user!, req.params.id, 'approve');
      return rentalOk({ id: req.params.id, lifecycle: 'active' as const }, 'Vehicle approved.');
    },
  );

  app.post(
    `${V1}/vendor-management/vehicles/:id/reject`,
    {
      config: admin,
      schema: {
        tags,
        summary:
          "Reject a vendor's pending vehicle listing with a reason (400 when empty) the vendor reads in the portal and by mail; 409 unless pending_review",
        params: IdParams,
        body: RejectBody,
        response: {
          200: RentalEnvelope(
            Type.Object({ id: Type.Integer(), lifecycle: Type.Literal('rejected'), reason: Type.String() }),
          ),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req) => {
      req.auditTarget = `vehicle:${req.params.id}`;
      await decideVendorVehicle(p, req.auth.user!, req.params.id, 'reject', req.body.reason);
      return rentalOk(
        { id: req.params.id, lifecycle: 'rejected' as const, reason: req.body.reason.trim() },
        'Vehicle rejected.',
      );
    },
  );
};

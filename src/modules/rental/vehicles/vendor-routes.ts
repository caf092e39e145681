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
  approveVendorVehicle,
  createVendorVehicle,
  editVendorVehicle,
  moveVendorVehicle,
  ownVehicle,
  ownVehicles,
  type ListingRow,
} from './vendor-service.js';
import { IdParams } from '../vendors/schemas.js';

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
  lifecycle: lit(['pending_review', 'active', 'paused', 'expired', 'withdrawn'] as const),
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
  created_at: Type.String(),
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
    created_at: toDate(l.created_at).toISOString(),
  };
}

const SUMMARIES = {
  pause: 'Pause an active own vehicle (409 with confirmed/in-progress bookings)',
  resume: 'Resume a paused own vehicle',
  withdraw:
    'Withdraw an own vehicle (optional reason; 409 with confirmed/in-progress bookings; penalty deferred while a vehicle_action report about it is open)',
  relist:
    'Relist a withdrawn own vehicle: back to pending_review for an administrator (409 within 7 days of the withdrawal)',
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

  app.post(
    `${V1}/vendor-management/vehicles/:id/approve`,
    {
      config: admin,
      schema: {
        tags,
        summary: "Approve a vendor's pending vehicle listing (it becomes bookable; 409 unless pending_review)",
        params: IdParams,
        response: {
          200: RentalEnvelope(Type.Object({ id: Type.Integer(), lifecycle: Type.Literal('active') })),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req) => {
      await approveVendorVehicle(p, req.auth.user!, req.params.id);
      return rentalOk({ id: req.params.id, lifecycle: 'active' as const }, 'Vehicle approved.');
    },
  );
};

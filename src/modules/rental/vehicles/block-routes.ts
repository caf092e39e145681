import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { toDate } from '../../../platform/db/types.js';
import { DateStr, Id, Instant, Text, lit } from '../schemas.js';
import { IdParams } from '../vendors/schemas.js';
import { addOwnBlock, ownVehicleBlocks, ownVehicleMonth, removeOwnBlock, type BlockRow } from './block-service.js';

const V1 = '/rova-rental/v1';
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const tags = ['rental v1: vendor vehicles'];
const REASONS = ['maintenance', 'own_use'] as const;

const Block = Type.Object({
  id: Type.Integer(),
  vehicle_id: Type.Integer(),
  from: Type.String({ description: 'First blocked day, YYYY-MM-DD (store timezone)' }),
  to: Type.String({ description: 'Last blocked day, included' }),
  reason: lit(REASONS),
  note: Type.String(),
  created_at: Instant,
});

const CalendarBookingSchema = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  status: Type.String(),
  from: Type.String({ description: 'Pick-up day (store timezone)' }),
  to: Type.String({ description: 'Return day, included' }),
});

const BlockBody = Type.Object(
  {
    from: DateStr,
    to: DateStr,
    reason: lit(REASONS),
    note: Type.Optional(Text({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

function view(b: BlockRow) {
  return {
    id: Number(b.id),
    vehicle_id: Number(b.vehicle_id),
    from: b.from_date,
    to: b.to_date,
    reason: b.reason,
    note: b.note,
    created_at: toDate(b.created_at).toISOString(),
  };
}

/**
 * A vendor's blocks on its own vehicles (maintenance, own use): listed, added, removed; and the vehicle's month as
 * its calendar shows it. Another vendor's vehicle answers 404, exactly like a missing one.
 */
export const vendorBlockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;

  app.get(
    `${V1}/vendor/vehicles/:id/blocks`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "An own vehicle's blocked periods, oldest first",
        params: IdParams,
        response: { 200: RentalEnvelope(Type.Array(Block)), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk((await ownVehicleBlocks(p, req.auth.user!, req.params.id)).map(view), ''),
  );

  app.post(
    `${V1}/vendor/vehicles/:id/blocks`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary:
          'Block days of an own vehicle (maintenance, own use): not bookable on them; 409 naming the booking or block it overlaps',
        params: IdParams,
        body: BlockBody,
        response: { 201: RentalEnvelope(Block), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const b = await addOwnBlock(p, req.auth.user!, req.params.id, req.body);
      req.auditTarget = `vehicle:${req.params.id}`;
      return reply.code(201).send(rentalOk(view(b), 'Dates blocked.'));
    },
  );

  app.delete(
    `${V1}/vendor/vehicles/:id/blocks/:block`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: 'Remove a block of an own vehicle (its days are bookable again)',
        params: Type.Object({ id: Id({ description: 'Vehicle id' }), block: Id({ description: 'Block id' }) }),
        response: {
          200: RentalEnvelope(Type.Object({ id: Type.Integer(), removed: Type.Literal(true) })),
          ...rentalErrors(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      await removeOwnBlock(p, req.auth.user!, req.params.id, req.params.block);
      req.auditTarget = `vehicle:${req.params.id}`;
      return rentalOk({ id: req.params.block, removed: true as const }, 'Block removed.');
    },
  );

  app.get(
    `${V1}/vendor/vehicles/:id/calendar`,
    {
      config: vendorOnly,
      schema: {
        tags,
        summary: "An own vehicle's month: the bookings that take its days and its blocks (store timezone)",
        params: IdParams,
        querystring: Type.Object({
          month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
        }),
        response: {
          200: RentalEnvelope(
            Type.Object({
              month: Type.String(),
              from: Type.String(),
              to: Type.String(),
              bookings: Type.Array(CalendarBookingSchema),
              blocks: Type.Array(Block),
            }),
          ),
          ...rentalErrors(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      const m = await ownVehicleMonth(p, req.auth.user!, req.params.id, req.query.month);
      return rentalOk({ ...m, blocks: m.blocks.map(view) }, '');
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { Nullable, Text } from '../schemas.js';
import { vendorCancelBooking } from './vendor-service.js';
import { IdParams } from '../vendors/schemas.js';

const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;

export const vendorBookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.post(
    '/rova-rental/v1/vendor/bookings/:id/cancel',
    {
      config: vendorOnly,
      schema: {
        tags: ['rental v1: vendor vehicles'],
        params: IdParams,
        summary:
          "Cancel a booking of an own vehicle (vendor-initiated: lowers the reliability score; 404 for another vendor's booking; 409 when it cannot be cancelled)",
        body: Type.Optional(
          Nullable(Type.Object({ reason: Type.Optional(Text({ maxLength: 2000 })) }, { additionalProperties: false })),
        ),
        response: {
          200: RentalEnvelope(
            Type.Object({
              id: Type.Integer(),
              status: Type.Literal('cancelled'),
              previous_status: Type.String(),
              reliability_score: Type.Integer(),
            }),
          ),
          ...rentalErrors(400, 401, 403, 404, 409),
        },
      },
    },
    async (req) => {
      req.auditTarget = `booking:${req.params.id}`;
      const reason = (req.body as { reason?: string } | null | undefined)?.reason;
      return rentalOk(await vendorCancelBooking(p, req.auth.user!, req.params.id, reason), 'Booking cancelled.');
    },
  );
};

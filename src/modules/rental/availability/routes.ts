import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { publicReadLimit } from '../http/rate-limits.js';
import { Id, Text } from '../schemas.js';
import { sendJsonOnce } from '../../../platform/http/json-once.js';
import { availabilityAnswersOf } from './answers.js';
import { AvailabilityView } from './schema.js';
import { AMOUNT_BOUND_DOC } from '../bookings/amount-bound.js';

export const availabilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.post(
    '/availability',
    {
      config: { auth: 'public', readOnly: true },
      onRequest: publicReadLimit,
      schema: {
        tags: ['rental: public'],
        summary: 'Is a vehicle free for these dates, and what does it cost (public)',
        description: AMOUNT_BOUND_DOC,
        security: [],
        body: Type.Object(
          {
            vehicle_id: Id(),
            // formats are checked in code so that a bad date is INVALID_PARAMS with the field named
            pickup_date: Text({ description: 'YYYY-MM-DD, store timezone' }),
            return_date: Text({ description: 'YYYY-MM-DD, store timezone' }),
            pickup_time: Type.Optional(Text({ description: 'HH:MM, default 10:00' })),
            return_time: Type.Optional(Text({ description: 'HH:MM, default 10:00' })),
            location_id: Type.Optional(Id()),
            addons: Type.Optional(Type.Array(Text({ maxLength: 50 }), { maxItems: 20 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: RentalEnvelope(AvailabilityView),
          ...rentalErrors(400, 404, 429),
        },
      },
    },
    async (req, reply) => {
      const a = await availabilityAnswersOf(p).answer(req.body);
      return sendJsonOnce(reply, a, () => rentalOk(a.data, a.message));
    },
  );
};

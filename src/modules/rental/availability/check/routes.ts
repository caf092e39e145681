import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { publicReadLimit } from '../../http/rate-limits.js';
import { BookingCheckBody, publishedCheckSchema } from './schema.js';
import { BookingCheckView } from '../schema.js';
import { bookingCheck } from './service.js';
import { AMOUNT_BOUND_DOC } from '../../bookings/amount-bound.js';

const T = ['rental v2: booking journey'];

export const checkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/schemas/booking-check.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: T,
        summary: 'The JSON Schema that POST /booking/check enforces',
        security: [],
        // a JSON Schema document (draft 2020-12, built from BookingCheckBody), open by nature: not an entity
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600');
      const url = `${req.protocol}://${req.host}${req.url.split('?')[0]}`;
      return publishedCheckSchema(url);
    },
  );

  app.post(
    '/booking/check',
    {
      config: { auth: 'public', readOnly: true },
      onRequest: publicReadLimit,
      schema: {
        tags: T,
        summary: 'Is the vehicle free, the full price breakdown, and up to 3 alternatives when it is not (public)',
        security: [],
        description: `${AMOUNT_BOUND_DOC} Alternatives whose price would not fit are left out.`,
        body: BookingCheckBody,
        response: {
          200: RentalEnvelope(BookingCheckView),
          ...rentalErrors(400, 404, 429),
        },
      },
    },
    async (req) => {
      const { result, data } = await bookingCheck(p, req.body);
      return rentalOk(
        data,
        result.available ? 'The vehicle is available.' : `The vehicle is not available (${result.reason}).`,
      );
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { rentalSettings } from '../../settings.js';
import { MAX_WINDOW_DAYS, PlannerAnswer, PlannerQuery } from './schemas.js';
import * as service from './service.js';

/** GET /admin/planner: the fleet planner's window (vehicles × days) in one answer. */
export const plannerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  app.get(
    '/rova-rental/v1/admin/planner',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags: ['rental v1: planner'],
        summary: 'Fleet planner: vehicles and the bookings overlapping a window of days, in one answer',
        description:
          `from/to: YYYY-MM-DD in the store time zone, inclusive, at most ${MAX_WINDOW_DAYS} days. Vehicles are filtered by location, category and vendor, ` +
          'ordered by location then name, at most `limit` (default 200; the rest counted in vehicles_more). Bookings: every non-draft booking of those ' +
          'vehicles whose period overlaps the window (cancelled, refunded and no-show only with closed=true), with its hold state, the payment deadline of a pending hold and the buffer the availability engine keeps. ' +
          'Bad date or parameter → 400 INVALID_PARAMS; from after to or a window too long → 400 INVALID_DATE_RANGE.',
        querystring: PlannerQuery,
        response: { 200: RentalEnvelope(PlannerAnswer), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) =>
      rentalOk(
        await service.planner(
          { db: p.db, timezone: p.config.storeTimezone, bufferMinutes: rentalSettings(p).bufferMinutes },
          req.query,
        ),
        '',
      ),
  );
};

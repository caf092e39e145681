import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import {
  BookingsFields,
  CustomersFields,
  OverviewFields,
  RangeQuery,
  RevenueFields,
  VehiclesFields,
  report,
} from './schemas.js';
import * as service from './service.js';

const tags = ['rental v1: reports'];
const RANGE_DOC =
  'start_date/end_date: YYYY-MM-DD in the store time zone, inclusive, optional (default: the last 30 days ending today). Keyed on the booking creation date. ' +
  'Bad format → 400 INVALID_PARAMS; start after end or a range over 1096 days → 400 INVALID_DATE_RANGE.';

/** GET /reports/overview|revenue|bookings|vehicles|customers. */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.platform;
  const ctx = () => ({
    db,
    timezone: config.storeTimezone,
    currency: app.platform.storeCurrency.code,
    now: new Date(),
  });

  const add = (
    name: service.ReportName,
    summary: string,
    data: TSchema,
    run: (c: service.ReportContext, q: service.RangeInput) => Promise<unknown>,
  ) =>
    app.get(
      `/rova-rental/v1/reports/${name}`,
      {
        config: { auth: { cap: 'manage_options' } },
        schema: {
          tags,
          summary,
          description: RANGE_DOC,
          querystring: RangeQuery,
          response: { 200: RentalEnvelope(data), ...rentalErrors(400, 401, 403) },
        },
      },
      async (req) => rentalOk(await run(ctx(), req.query), ''),
    );

  add('overview', 'Summary of the four reports', report(OverviewFields), service.overviewReport);
  add(
    'revenue',
    'Revenue per day (every day of the range), by payment method and by month',
    report(RevenueFields),
    service.revenueReport,
  );
  add(
    'bookings',
    'Booking status distribution, daily counts, cancellation and conversion rates',
    report(BookingsFields),
    service.bookingsReport,
  );
  add('vehicles', 'Top vehicles, occupancy and category performance', report(VehiclesFields), service.vehiclesReport);
  add(
    'customers',
    'Customer lifecycle (new vs returning per day), segments and summary',
    report(CustomersFields),
    service.customersReport,
  );
};

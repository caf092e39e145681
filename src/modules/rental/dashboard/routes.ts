import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { PageSchema, PagingQuery } from '../paging.js';
import { DashboardStats, RecentBooking, RecentTransfer } from './schemas.js';
import * as service from './service.js';

const admin = { auth: { cap: 'manage_options' } } as const;
const tags = ['rental v1: dashboard'];
const Paging = Type.Object(PagingQuery);

/** GET /dashboard/stats, /dashboard/recent-bookings, /dashboard/recent-transfers. */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.platform;

  app.get(
    '/rova-rental/v1/dashboard/stats',
    {
      config: admin,
      schema: {
        tags,
        summary: 'KPI cards: total bookings, revenue, active vehicles, customers, with month-over-month deltas',
        description:
          '"This month" is the calendar month in STORE_TIMEZONE. Revenue = Σ total of confirmed + completed bookings. Drafts are not counted.',
        response: { 200: RentalEnvelope(DashboardStats), ...rentalErrors(401, 403) },
      },
    },
    async () =>
      rentalOk(
        await service.stats({
          db,
          timezone: config.storeTimezone,
          currency: app.platform.storeCurrency.code,
          now: new Date(),
        }),
        '',
      ),
  );

  app.get(
    '/rova-rental/v1/dashboard/recent-bookings',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Recent bookings, newest first (paginated)',
        querystring: Paging,
        response: { 200: RentalEnvelope(PageSchema(RecentBooking)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => rentalOk(await service.recentBookings(db, req.query), ''),
  );

  app.get(
    '/rova-rental/v1/dashboard/recent-transfers',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Upcoming transfer bookings (pickup ≥ now), soonest first (paginated)',
        querystring: Paging,
        response: { 200: RentalEnvelope(PageSchema(RecentTransfer)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => rentalOk(await service.recentTransfers(db, new Date(), req.query), ''),
  );
};

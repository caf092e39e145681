import type { FastifyInstance } from 'fastify';
import { checkRoutes } from './check/routes.js';
import { createRoutes } from './create/routes.js';
import { scheduleJourneyJobs } from './jobs.js';
import { myRoutes } from './my/routes.js';
import { paymentAdminRoutes } from './payments/routes.js';
import { searchRoutes } from './search/routes.js';
import { recordPaymentRoutes } from '../bookings/record-payment/routes.js';
import { stripeWebhookRoutes } from './payments/stripe-routes.js';

/** The customer booking journey on rova-rental/v2 (design §8): check, create, pay, manage, search. */
export async function journeyRoutes(app: FastifyInstance): Promise<void> {
  scheduleJourneyJobs(app.platform);
  await app.register(checkRoutes);
  await app.register(createRoutes);
  await app.register(paymentAdminRoutes);
  await app.register(recordPaymentRoutes);
  await app.register(stripeWebhookRoutes);
  await app.register(myRoutes);
  await app.register(searchRoutes);
}

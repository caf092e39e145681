import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { availabilityRoutes } from './availability/routes.js';
import { checkRoutes } from './availability/check/routes.js';
import { searchRoutes } from './availability/search/routes.js';
import { bookingRoutes } from './bookings/routes.js';
import { createRoutes } from './bookings/create/routes.js';
import { myRoutes } from './bookings/my/routes.js';
import { guestRoutes } from './guests/routes.js';
import { driverRoutes } from './bookings/driver/routes.js';
import { plannerRoutes } from './bookings/planner/routes.js';
import { vendorBookingRoutes } from './bookings/vendor-routes.js';
import { customerWriteRoutes } from './customers/customer-writes.js';
import { customerRoutes } from './customers/directory-routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { exportRoutes } from './export/routes.js';
import { healthRoutes, type HealthOptions } from './health/routes.js';
import { locationRoutes } from './locations/routes.js';
import { myMessageRoutes } from './messages/my-routes.js';
import { messageRoutes } from './messages/routes.js';
import { recordPaymentRoutes } from './payments/record/routes.js';
import { paymentAdminRoutes } from './payments/routes.js';
import { stripeWebhookRoutes } from './payments/stripe-routes.js';
import { payoutRoutes } from './payouts/routes.js';
import { pricingRoutes } from './pricing/routes.js';
import { reportRoutes } from './reports/routes.js';
import { transferRouteRoutes } from './transfer-routes/routes.js';
import { vehicleRoutes } from './vehicles/routes.js';
import { vendorVehicleRoutes } from './vehicles/vendor-routes.js';
import { vendorBlockRoutes } from './vehicles/block-routes.js';
import { vehiclePhotoRoutes } from './vehicles/photos/routes.js';
import { applicationRoutes } from './vendors/applications/routes.js';
import { vendorPortalRoutes } from './vendors/portal/routes.js';
import { vendorReportRoutes } from './vendors/reports/routes.js';
import { vendorRoutes } from './vendors/routes.js';

export const V1 = '/rova-rental/v1';
export const V2 = '/rova-rental/v2';

/**
 * The table of every rova-rental route: each domain folder holds its v1, v2 and back-office route files, and this
 * file says where each is mounted. All of it is ONE encapsulated scope. Writes per API key are counted by the
 * platform's quota (the namespaces declare `writeQuota`; design §2). Routes without `config.auth` are
 * administrators-only (manage_options).
 */
export function rentalRoutes(health: HealthOptions = {}): FastifyPluginAsync {
  return async (app) => {
    await app.register(async (scope) => {
      await scope.register(async (v1) => v1Routes(v1, health), { prefix: V1 });
      // the back office's and the marketplace's routes carry their full path
      await scope.register(adminRoutes);
      await scope.register(marketplaceRoutes);
      await scope.register(v2Routes, { prefix: V2 });
    });
  };
}

/** rova-rental/v1: the plugin API the storefront and the old WordPress clients speak. */
async function v1Routes(scope: FastifyInstance, health: HealthOptions): Promise<void> {
  await scope.register(healthRoutes(health));
  await scope.register(locationRoutes);
  await scope.register(availabilityRoutes);
  await scope.register(vehicleRoutes);
  await scope.register(transferRouteRoutes);
  await scope.register(pricingRoutes);
  await scope.register(customerWriteRoutes);
  await scope.register(bookingRoutes);
}

/**
 * The back office's read models and the customer's messages (rova-rental/v1 paths): dashboard, reports, the
 * customer directory, messages (admin inbox and the customer side under /my/messages), data export, planner.
 */
export const adminRoutes: FastifyPluginAsync = async (app) => {
  await app.register(dashboardRoutes);
  await app.register(reportRoutes);
  await app.register(customerRoutes);
  await app.register(messageRoutes);
  await app.register(myMessageRoutes);
  await app.register(exportRoutes);
  await app.register(plannerRoutes);
};

/**
 * The vendor marketplace (rova-rental/v1 paths): applications, vendors, their vehicles, reports, bookings and
 * portal. Its own encapsulated scope: multipart parsing stays inside it.
 */
const marketplaceRoutes: FastifyPluginAsync = async (app) => {
  await app.register(applicationRoutes);
  await app.register(vendorRoutes);
  await app.register(vendorVehicleRoutes);
  await app.register(vendorBlockRoutes);
  await app.register(vehiclePhotoRoutes);
  await app.register(vendorReportRoutes);
  await app.register(vendorBookingRoutes);
  await app.register(vendorPortalRoutes);
};

/** rova-rental/v2: payouts and the customer's booking journey (design §8): check, create, pay, manage, search. */
async function v2Routes(scope: FastifyInstance): Promise<void> {
  await scope.register(payoutRoutes);
  await scope.register(checkRoutes);
  await scope.register(createRoutes);
  await scope.register(paymentAdminRoutes);
  await scope.register(recordPaymentRoutes);
  await scope.register(stripeWebhookRoutes);
  await scope.register(myRoutes);
  await scope.register(guestRoutes);
  await scope.register(driverRoutes);
  await scope.register(searchRoutes);
}

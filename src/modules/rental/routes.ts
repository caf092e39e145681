import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { adminRoutes } from './admin/index.js';
import { availabilityRoutes } from './availability/routes.js';
import { bookingRoutes } from './bookings/routes.js';
import { customerWriteRoutes } from './customers/customer-writes.js';
import { healthRoutes, type HealthOptions } from './health/routes.js';
import { locationRoutes } from './locations/routes.js';
import { pricingRoutes } from './pricing/routes.js';
import { transferRouteRoutes } from './transfer-routes/routes.js';
import { marketplaceRoutes } from './vendors/index.js';
import { vehicleRoutes } from './vehicles/routes.js';
import { V2, v2Routes } from './v2/routes.js';

export const V1 = '/rova-rental/v1';

/**
 * Every rova-rental/v1 and v2 route, core and admin, in ONE encapsulated scope. Writes per API key are counted
 * by the platform's quota (the namespaces declare `writeQuota`; design §2). Routes without `config.auth` are
 * administrators-only (manage_options).
 */
export function rentalRoutes(health: HealthOptions = {}): FastifyPluginAsync {
  return async (app) => {
    await app.register(async (scope) => {
      await scope.register(async (core) => coreRoutes(core, health), { prefix: V1 });
      // the admin helper's routes carry the full path
      await scope.register(adminRoutes);
      await scope.register(marketplaceRoutes);
      await scope.register(v2Routes, { prefix: V2 });
    });
  };
}

async function coreRoutes(scope: FastifyInstance, health: HealthOptions): Promise<void> {
  await scope.register(healthRoutes(health));
  await scope.register(locationRoutes);
  await scope.register(availabilityRoutes);
  await scope.register(vehicleRoutes);
  await scope.register(transferRouteRoutes);
  await scope.register(pricingRoutes);
  await scope.register(customerWriteRoutes);
  await scope.register(bookingRoutes);
}

import type { FastifyPluginAsync } from 'fastify';
import { applicationRoutes } from './applications-routes.js';
import { vendorBookingRoutes } from './bookings-routes.js';
import { vendorPortalRoutes } from './portal-routes.js';
import { vendorReportRoutes } from './reports/routes.js';
import { vendorRoutes } from './vendors-routes.js';
import { vendorVehicleRoutes } from './vehicles-routes.js';

/**
 * The vendor marketplace of rova-rental/v1 (paths carry the namespace): applications, vendor management,
 * vendor vehicles, vendor reports. Its own encapsulated scope (multipart parsing stays inside it).
 */
export const marketplaceRoutes: FastifyPluginAsync = async (app) => {
  await app.register(applicationRoutes);
  await app.register(vendorRoutes);
  await app.register(vendorVehicleRoutes);
  await app.register(vendorReportRoutes);
  await app.register(vendorBookingRoutes);
  await app.register(vendorPortalRoutes);
};

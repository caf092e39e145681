import type { FastifyPluginAsync } from 'fastify';
import type { Platform } from '../../../platform/context.js';
import { exportRoutes } from '../export/routes.js';
import { customerRoutes } from './customers/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { plannerRoutes } from './planner/routes.js';
import { myMessageRoutes } from './messages/my-routes.js';
import { messageRoutes } from './messages/routes.js';
import { reportRoutes } from './reports/routes.js';
import { seedMessages } from './seed.js';

/**
 * Admin read models and customer features of rova-rental/v1: dashboard, reports, customers (list, detail,
 * bulk delete), fleet planner, messages (admin inbox and the customer side under /my/messages), data export.
 * Registered by the rental module inside its plugin scope (paths carry the namespace).
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

/** Demo message threads and customer logins for existing demo customers (deterministic, idempotent). */
export async function seedAdminDemo(platform: Platform): Promise<void> {
  await seedMessages(platform);
}

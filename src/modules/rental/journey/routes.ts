import type { FastifyInstance } from 'fastify';
import { checkRoutes } from './check/routes.js';

/** The customer booking journey on rova-rental/v2 (design §8): check, create, pay, manage, search. */
export async function journeyRoutes(app: FastifyInstance): Promise<void> {
  await app.register(checkRoutes);
}

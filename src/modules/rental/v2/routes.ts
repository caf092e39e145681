import type { FastifyInstance } from 'fastify';
import { payoutRoutes } from '../payouts/routes.js';
import { journeyRoutes } from '../journey/routes.js';

export const V2 = '/rova-rental/v2';

/**
 * Every rova-rental/v2 route, registered with prefix V2 inside the rental scope (same envelope and error
 * table as v1). Each v2 feature adds ONE line here: its own plugin from its own folder.
 */
export async function v2Routes(scope: FastifyInstance): Promise<void> {
  // feature plugins are registered below, one line each
  await scope.register(payoutRoutes);
  await scope.register(journeyRoutes);
}

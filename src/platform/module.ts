import type { RovaModule } from '../modules/types.js';
import { accountRoutes } from './routes/accounts.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { auditRoutes } from './routes/audit.js';
import { authRoutes } from './routes/auth.js';
import { outboxRoutes } from './routes/outbox.js';
import { userRoutes } from './routes/users.js';

/** The platform's own REST routes (`rova/v1`): auth, API keys, users, audit log. */
export const platformModule: RovaModule = {
  name: 'platform',
  routes: async (app) => {
    await app.register(authRoutes);
    await app.register(apiKeyRoutes);
    await app.register(userRoutes);
    await app.register(auditRoutes);
    await app.register(accountRoutes);
    await app.register(outboxRoutes);
  },
};

import type { RovaModule } from '../modules/types.js';
import { keysCommand } from './auth/jwt/cli.js';
import { jwtSessionsOf } from './auth/jwt/sessions.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { auditRoutes } from './routes/audit.js';
import { authRoutes } from './routes/auth.js';
import { quotaRoutes } from './routes/quotas.js';
import { tokenRoutes } from './routes/tokens.js';
import { accountRoutes } from './routes/accounts.js';
import { outboxRoutes } from './routes/outbox.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';
import { webhooksOf } from './webhooks/service.js';
import { mailDeliveryOf } from './mail/delivery.js';
import { securitySettings, type SecuritySettings } from './security-settings.js';
import { scheduleAuditRetention } from './audit/retention.js';
import { scheduleBackups } from './backup/job.js';
import { scheduleDeliveryLogRetention } from './retention/delivery-logs.js';

/** The platform's own REST routes (`rova/v1`): auth, JWT sessions, API keys and quotas, users, audit log, webhooks. */
export const platformModule: RovaModule<SecuritySettings> = {
  name: 'platform',
  routes: async (app) => {
    await app.register(authRoutes);
    await app.register(tokenRoutes);
    await app.register(apiKeyRoutes);
    await app.register(quotaRoutes);
    await app.register(userRoutes);
    await app.register(auditRoutes);
    await app.register(webhookRoutes);
    await app.register(accountRoutes);
    await app.register(outboxRoutes);
  },
  // JWT_* and ROVA_STRICT_METHODS checked with every other setting before anything starts (exit 2)
  checkConfig: (config) => securitySettings(config),
  /** The platform's own background work: webhook and mail delivery loops, audit and delivery-log retention and backups (jobs). */
  start(platform) {
    const sessions = jwtSessionsOf(platform);
    platform.auth.setJwtVerifier((token) => sessions.verify(token));
    webhooksOf(platform).start();
    mailDeliveryOf(platform).start();
    if (platform.config.jobs) {
      scheduleAuditRetention(platform);
      scheduleDeliveryLogRetention(platform);
      scheduleBackups(platform);
    }
  },
  async stop(platform) {
    webhooksOf(platform).stop();
    await mailDeliveryOf(platform).stop();
  },
  commands: { keys: keysCommand },
};

import type { Platform } from './context.js';
import type { AuthContext, RoutePolicy } from './auth/types.js';

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
  }
  interface FastifyRequest {
    auth: AuthContext;
    /** What a write acted on, for the audit log (defaults to the `id` route parameter). */
    auditTarget?: string;
    auditDetails?: Record<string, unknown>;
  }
  interface FastifyContextConfig {
    /** Who may call the route; see platform/auth/guard.ts. Missing = administrators only. */
    auth?: RoutePolicy;
    /** A POST that only answers a question (convert, availability, preview): not audited as a write. */
    readOnly?: boolean;
    /**
     * A session probe (GET /auth/nonce: the admin app asks on every load and every hour whether its cookie still holds a
     * session): never an audit event, whatever it answers — a cookie sent without its nonce, or no cookie, is the
     * question being asked, not an authentication failure.
     */
    sessionProbe?: boolean;
  }
}
export {};

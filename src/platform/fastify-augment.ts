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
  }
}
export {};

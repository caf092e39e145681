import type { FastifyInstance } from 'fastify';
import { ANONYMOUS } from '../auth/types.js';
import { isDatabaseUnavailable } from '../db/outage.js';
import { clientAddress } from '../http/client-ip.js';
import type { AuthFailureAudit } from './auth-failures.js';
import type { AuditEntry } from './log.js';
import type { AuditWriter } from './writer.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The request audit: every write, and every read that was refused or carried failing credentials, becomes an audit
 * row. Written before the response leaves (onSend), so a caller that reads the log next sees its own write.
 */
export function installRequestAudit(
  app: FastifyInstance,
  restRoot: string,
  auditWriter: AuditWriter,
  authFailures: AuthFailureAudit,
): void {
  app.addHook('onSend', async (req, reply, payload) => {
    // Requests answered before the auth hook ran (CORS preflight) count as anonymous.
    const auth = req.auth ?? ANONYMOUS;
    const status = reply.statusCode;
    const isWrite = WRITE_METHODS.has(req.method) && req.routeOptions.config?.readOnly !== true;
    // the admin app's session probe asks whether its cookie still holds a session: a question, never an event
    if (req.routeOptions.config?.sessionProbe === true) return payload;
    // A read is an event when refused, or when the credentials it carried failed (someone trying keys or tokens).
    // A session cookie without its nonce is not such a failure: browsers send the cookie with every request.
    const failedCredentials = auth.failure !== null && auth.failure !== 'missing_nonce';
    if (!isWrite && status !== 401 && status !== 403 && !failedCredentials) return payload;
    if (!req.url.startsWith(restRoot + '/') && !isWrite) return payload;
    const params = req.params as Record<string, unknown> | undefined;
    const target =
      req.auditTarget ?? (params && (params.id ?? params.vid) !== undefined ? String(params.id ?? params.vid) : null);
    // Authentication failures go through the collapser (counted per address and minute beyond the first few);
    // a failure the route described itself (e.g. a refresh-token reuse that revoked a session) is an incident,
    // always written in full.
    const authFailure =
      status >= 400 && (status === 401 || status === 403 || auth.failure !== null) && !req.auditDetails;
    const write = authFailure ? (e: AuditEntry) => authFailures.record(e) : (e: AuditEntry) => auditWriter.append(e);
    try {
      await write({
        requestId: String(req.id),
        actorUserId: auth.user?.id ?? null,
        actorLogin: auth.user?.login ?? null,
        authMethod: auth.method,
        apiKeyId: auth.apiKeyId,
        ip: clientAddress(req),
        method: req.method,
        route: req.routeOptions.url ?? req.url.split('?')[0] ?? '',
        path: (req.url.split('?')[0] ?? '').slice(0, 500),
        target,
        status,
        outcome: status === 401 || status === 403 ? 'denied' : status < 400 ? 'success' : 'failure',
        details:
          auth.failure || req.auditDetails
            ? { ...(req.auditDetails ?? {}), ...(auth.failure ? { auth_failure: auth.failure } : {}) }
            : null,
      });
    } catch (err) {
      if (isDatabaseUnavailable(err))
        req.log.warn(
          { method: req.method, route: req.routeOptions.url, status },
          'audit row not written: database unavailable',
        );
      else req.log.error({ err }, 'audit log write failed');
    }
    return payload;
  });
}

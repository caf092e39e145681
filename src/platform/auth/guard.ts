import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpErrors } from '../http/errors.js';
import { roleHasCap } from './roles.js';
import type { AuthContext, AuthFailure, RoutePolicy, Scope } from './types.js';

/** Routes that declare no policy are admin-only: forgetting to declare one must never open a route. */
export const DEFAULT_POLICY: RoutePolicy = { cap: 'manage_options' };

const FAILURE_TEXT: Record<AuthFailure, string> = {
  invalid_api_key: 'The API key is not valid. Check the X-Rova-API-Key header (or Authorization: Bearer).',
  expired_api_key: 'The API key has expired. Ask an administrator for a new key.',
  revoked_api_key: 'The API key was revoked. Ask an administrator for a new key.',
  invalid_session: 'The session has ended. Log in again.',
  missing_nonce: 'Cookie authentication needs a nonce: send the X-WP-Nonce header (GET /rova/v1/auth/nonce gives one).',
  invalid_nonce: 'The nonce is not valid for this session. Fetch a new one from GET /rova/v1/auth/nonce.',
  invalid_token: 'The access token is not valid or has expired. Refresh it or log in again.',
  invalid_consumer_key: 'The consumer key or consumer secret is not valid.',
  insecure_transport:
    'Send the consumer key and secret (HTTP Basic or consumer_key/consumer_secret) over HTTPS only; over plain HTTP sign the request with OAuth 1.0a.',
  invalid_oauth_request:
    'OAuth 1.0a needs exactly one each of oauth_consumer_key, oauth_signature, oauth_signature_method (HMAC-SHA1 or HMAC-SHA256), oauth_timestamp and oauth_nonce.',
  invalid_timestamp: 'Invalid timestamp: oauth_timestamp must be within 15 minutes of the server clock.',
  invalid_signature: 'Invalid signature: the provided OAuth signature does not match.',
  replayed_nonce: 'Invalid nonce: this oauth_nonce has already been used.',
};

export function requiredScope(req: FastifyRequest, policy: RoutePolicy): Scope {
  return requiredScopeFor(req.method, policy);
}

/** The API key scope a method needs under a policy (also what the OpenAPI document states). */
export function requiredScopeFor(method: string, policy: RoutePolicy): Scope {
  if (policy !== 'public' && policy.scope) return policy.scope;
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

/** Throws 401/403 when the caller may not use the route. */
export function enforcePolicy(req: FastifyRequest, auth: AuthContext, policy: RoutePolicy): void {
  if (policy === 'public') return;
  if (!auth.user) {
    const why = auth.failure
      ? FAILURE_TEXT[auth.failure]
      : 'Authentication required: send an API key (X-Rova-API-Key) or log in and send a nonce.';
    throw HttpErrors.unauthorized(why, auth.failure ? { reason: auth.failure } : undefined);
  }
  const scope = requiredScope(req, policy);
  if (auth.scopes && !auth.scopes.has(scope)) {
    throw HttpErrors.forbidden(`This API key lacks the "${scope}" scope needed for this request.`, {
      reason: 'insufficient_scope',
    });
  }
  if (policy.cap && !roleHasCap(auth.user.role, policy.cap)) {
    throw HttpErrors.forbidden(`Sorry, you are not allowed to do that (needs the ${policy.cap} capability).`, {
      reason: 'missing_capability',
    });
  }
}

/** Declared policy; undeclared REST routes are admin-only, pages outside the REST root (docs, assets) public. */
export function policyOf(req: FastifyRequest, restRoot: string): RoutePolicy {
  if (req.is404) return 'public';
  return routePolicy({ url: req.routeOptions.url ?? '', config: req.routeOptions.config }, restRoot);
}

/** The policy of a route as declared (`config.auth`), before any request: the same rule as policyOf. */
export function routePolicy(route: { url: string; config?: unknown }, restRoot: string): RoutePolicy {
  const declared = (route.config as { auth?: RoutePolicy } | undefined)?.auth;
  if (declared) return declared;
  return route.url.startsWith(restRoot + '/') ? DEFAULT_POLICY : 'public';
}

export type { FastifyReply };

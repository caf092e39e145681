// The rova/v1 error catalogue: the platform's own codes (accounts, sessions, API keys, webhooks, idempotency,
// metrics). Routes and services throw these entries (or the shared HttpErrors); they never build an HttpError
// themselves (test/ops/error-catalogue.test.ts keeps it so).
import { errorKind, type ErrorCatalogue } from './http/errors.js';

export const RovaErrors = {
  userNotFound: errorKind(404, 'rova_user_not_found', 'The user id (or login) does not exist, or no longer does.'),
  userExists: errorKind(409, 'rova_user_exists', 'A user with this login or e-mail address already exists.'),
  cannotDeleteSelf: errorKind(400, 'rova_cannot_delete_self', 'An administrator asked to delete their own account.'),
  invalidCredentials: errorKind(
    401,
    'rova_invalid_credentials',
    'Unknown login or wrong password (at login, or the current password when changing it).',
  ),
  tooManyLogins: errorKind(
    429,
    'rova_too_many_logins',
    "The address's or the account's budget of failed logins is spent; `Retry-After` says when to try again.",
  ),
  tooManyRequests: errorKind(
    429,
    'rova_too_many_requests',
    'Too many sign-ups, password-reset requests or resets from this address; `Retry-After` says when to try again.',
  ),
  invalidToken: errorKind(
    400,
    'rova_invalid_token',
    'The e-mail verification link or the password reset token is not valid, was already used, or has expired.',
  ),
  invalidGrant: errorKind(
    401,
    'rova_invalid_grant',
    'App (JWT) sessions: the refresh token is unknown, its session ended or sat idle too long, or it was already used (the session is then revoked).',
  ),
  noSession: errorKind(401, 'rova_no_session', 'A nonce was asked for without a live session cookie.'),
  notASession: errorKind(
    400,
    'rova_not_a_session',
    'Log out was called with an API key: only cookie and app (JWT) sessions can log out.',
  ),
  sessionNotFound: errorKind(
    404,
    'rova_session_not_found',
    'The app session id does not exist or is not one of yours.',
  ),
  apiKeyNotFound: errorKind(404, 'rova_api_key_not_found', 'The API key id does not exist.'),
  notAnApiKey: errorKind(
    400,
    'rova_not_an_api_key',
    'The quota usage of the caller was asked for without authenticating with an API key.',
  ),
  webhookNotFound: errorKind(404, 'rova_webhook_not_found', 'The webhook endpoint id does not exist.'),
  deliveryNotFound: errorKind(404, 'rova_delivery_not_found', 'The webhook delivery id does not exist.'),
  webhookUrlRefused: errorKind(
    400,
    'rova_webhook_url_refused',
    'The webhook URL is malformed or points at a private or local address; `params.url` says why.',
  ),
  webhookUnknownEvent: errorKind(
    400,
    'rova_webhook_unknown_event',
    'No event type, or an unknown one, was given for a webhook endpoint (GET /rova/v1/webhooks/event-types lists them).',
  ),
  idempotencyKeyInFlight: errorKind(
    409,
    'rova_idempotency_key_in_flight',
    'A request with this Idempotency-Key is still being processed (`reason: idempotency_key_in_flight`); retry later.',
  ),
  idempotencyKeyMismatch: errorKind(
    422,
    'rova_idempotency_key_mismatch',
    'This Idempotency-Key was already used with a different request body.',
  ),
  metricsUnauthorized: errorKind(
    401,
    'rova_metrics_unauthorized',
    'GET /metrics without the `Authorization: Bearer <METRICS_TOKEN>` the node is configured with.',
  ),
} as const;

export const rovaErrorCatalogue: ErrorCatalogue = { namespace: 'rova/v1', kinds: RovaErrors };

/**
 * The one error type modules throw. `code` is the namespace's own error code (e.g. `rest_invalid_param`,
 * `VEHICLE_NOT_AVAILABLE`); when omitted the namespace's default code for the status is used.
 */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string | undefined,
    message: string,
    /** Extra fields: WordPress shape puts them in `data`, the rental shape uses `details`. */
    public readonly data?: Record<string, unknown>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * One entry of a namespace's error catalogue (fastify's `lib/errors.js` is the model): the status, the code the
 * client switches on, and what it means, for the docs (`docs/integrators/errors.md` lists every entry; a test keeps
 * the two equal). Call it with the message (and extra fields) to get the error to throw. A `code` of `undefined`
 * answers with the namespace's own default code for the status (`rest_invalid_param` in wc/v3, `INVALID_PARAMS` in
 * rova-rental), for the errors every namespace shares.
 */
export interface ErrorKind {
  (message: string, data?: Record<string, unknown>, headers?: Record<string, string>): HttpError;
  readonly status: number;
  readonly code: string | undefined;
  readonly description: string;
}

/** Declares a catalogue entry. Only catalogue files (`errors.ts`) call it; everything else throws their entries. */
export function errorKind(status: number, code: string | undefined, description: string): ErrorKind {
  const make = (message: string, data?: Record<string, unknown>, headers?: Record<string, string>) =>
    new HttpError(status, code, message, data, headers);
  return Object.assign(make, { status, code, description });
}

/** A namespace's catalogue: its name, its entries (keyed by a name the code uses), for the docs test. */
export interface ErrorCatalogue {
  namespace: string;
  kinds: Record<string, ErrorKind>;
}

/**
 * The kinds every namespace shares, thrown by the platform's mechanisms (method rules, the NUL guard, idempotency,
 * quotas, the guard) and by modules for the generic cases. A `code` of `undefined` answers with the namespace's
 * default code for the status (see `namespaces.ts`); the WordPress-shape codes several namespaces answer with
 * (`rest_invalid_param`, `rest_missing_callback_param`, …) are fixed.
 */
export const HttpErrors = {
  badRequest: errorKind(
    400,
    undefined,
    'A parameter, header or body field is invalid; `params` (or `field`) names it.',
  ),
  unauthorized: errorKind(
    401,
    undefined,
    'No credentials, or credentials that failed, on a protected route; `reason` says why they failed.',
  ),
  forbidden: errorKind(
    403,
    undefined,
    'Authenticated, but the API key lacks the scope (`reason: insufficient_scope`) or the role the capability (`reason: missing_capability`).',
  ),
  notFound: errorKind(404, undefined, 'The resource or page does not exist.'),
  methodNotAllowed: errorKind(
    405,
    undefined,
    'Strict method mode: the path does not serve this method; `allow` and the `Allow` header list the ones it serves.',
  ),
  conflict: errorKind(
    409,
    undefined,
    'The request conflicts with the current state (rental namespaces: a request with this Idempotency-Key is still being processed, `reason: idempotency_key_in_flight`).',
  ),
  tooManyRequests: errorKind(
    429,
    undefined,
    "The API key's quota is spent; `Retry-After` and the `RateLimit` headers say when it refills.",
  ),
  invalidParam: errorKind(
    400,
    'rest_invalid_param',
    'WordPress-shape namespaces: a parameter or body field is invalid; `params` maps each to what is wrong with it.',
  ),
  missingCallbackParam: errorKind(
    400,
    'rest_missing_callback_param',
    'WordPress-shape namespaces: a required parameter is missing; `params` lists them.',
  ),
  invalidJson: errorKind(400, 'rest_invalid_json', 'WordPress-shape namespaces: the request body is not valid JSON.'),
  noRoute: errorKind(404, 'rest_no_route', 'WordPress-shape namespaces: no route matches the URL and method.'),
  nonceRequired: errorKind(
    403,
    'NONCE_REQUIRED',
    'Namespaces that require the nonce: a cookie-authenticated request came without X-WP-Nonce.',
  ),
  nonceInvalid: errorKind(
    403,
    'NONCE_INVALID',
    'Namespaces that require the nonce: the X-WP-Nonce sent is not valid for this session.',
  ),
  idempotencyKeyMismatch: errorKind(
    422,
    'IDEMPOTENCY_KEY_MISMATCH',
    'Rental namespaces: this Idempotency-Key was already used with a different request body.',
  ),
} as const;

/** `Invalid parameter(s): <field>` with `params.<field>` saying why: the WordPress shape's invalid parameter. */
export const invalidParam = (field: string, why: string, extra?: Record<string, unknown>) =>
  HttpErrors.invalidParam(`Invalid parameter(s): ${field}`, { params: { [field]: why }, ...(extra ?? {}) });

/** `Missing parameter(s): <field>` with `params: [field]`: the WordPress shape's missing parameter. */
export const missingParam = (field: string) =>
  HttpErrors.missingCallbackParam(`Missing parameter(s): ${field}`, { params: [field] });

/** The kinds every namespace shares (`*`), for the docs. */
export const sharedErrorCatalogue: ErrorCatalogue = { namespace: '*', kinds: HttpErrors };

/** Is `err` an error of this kind (same status and code)? For the few places that recover from one kind. */
export const isKind = (err: unknown, kind: ErrorKind): err is HttpError =>
  err instanceof HttpError && err.status === kind.status && err.code === kind.code;

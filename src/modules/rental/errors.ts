// The rova-rental error catalogue: every error the rental namespaces answer with, and the one place domain errors
// become HTTP. Routes, services and repositories throw these entries (or domain errors); they never build an
// HttpError themselves (test/ops/error-catalogue.test.ts keeps it so, and checks docs/integrators/errors.md lists
// each entry).
import type { DomainError } from '../../platform/domain-error.js';
import { VehicleNotAvailable } from './availability/not-available.js';
import { LedgerKeyReused } from './ledger/post.js';
import { errorKind, type ErrorCatalogue, type HttpError } from '../../platform/http/errors.js';

export const RentalErrors = {
  invalidParams: errorKind(
    400,
    'INVALID_PARAMS',
    'A parameter or body field is missing or invalid; `details.field` (or `details.params`) names it.',
  ),
  invalidDateRange: errorKind(400, 'INVALID_DATE_RANGE', 'The start of a period is after its end.'),
  authRequired: errorKind(401, 'AUTH_REQUIRED', 'No credentials, or credentials that failed, on a protected route.'),
  permissionDenied: errorKind(
    403,
    'PERMISSION_DENIED',
    'Authenticated, but the role, the capability or the ownership of the resource does not allow it.',
  ),
  notFound: errorKind(404, 'RESOURCE_NOT_FOUND', 'The route or the id does not exist (or is not yours to see).'),
  vehicleNotFound: errorKind(404, 'VEHICLE_NOT_FOUND', 'The vehicle id does not exist.'),
  stateConflict: errorKind(
    409,
    'STATE_CONFLICT',
    'The request conflicts with the current state (a status that does not allow it, a taken slug or e-mail); `details.reason` says which, where there are several.',
  ),
  vehicleNotAvailable: errorKind(
    409,
    'VEHICLE_NOT_AVAILABLE',
    'The vehicle is booked, blocked, inactive or not offered for this kind of rental in the period asked.',
  ),
} as const;

/** A required or malformed field, named in `details.field`. */
export const invalidField = (field: string, message: string) => RentalErrors.invalidParams(message, { field });

/** `<Noun> <id> does not exist.` — the rental namespaces' not-found message. */
export const notFoundError = (noun: string, id: string | number) =>
  RentalErrors.notFound(`${noun} ${id} does not exist.`);

// ── bookings, payments, availability, ledger, payouts, export (entries and helpers added by that conversion) ──

/** The entries only the booking journey, its payments and the HTTP guards answer with. */
export const JourneyErrors = {
  rateLimited: errorKind(
    429,
    'RATE_LIMIT_EXCEEDED',
    'Too many requests from this client in the window; `Retry-After` and `X-RateLimit-*` say when to try again.',
  ),
  providerNotConfigured: errorKind(
    500,
    'INTERNAL_ERROR',
    'A payment provider is enabled without its settings (a server misconfiguration the operator must fix).',
  ),
  paymentProviderUnavailable: errorKind(
    503,
    'SERVICE_UNAVAILABLE',
    'The payment provider could not be reached or refused; nothing was charged. `Retry-After` says when to try again.',
  ),
} as const;

/** `Booking <id> does not exist.` (404 RESOURCE_NOT_FOUND). */
export const bookingNotFound = (id: string | number) => notFoundError('Booking', id);

/** `Payout <id> does not exist.` (404 RESOURCE_NOT_FOUND). */
export const payoutNotFound = (id: string | number) => notFoundError('Payout', id);

/** A location id in the body or query that does not exist (400 INVALID_PARAMS naming the field). */
export const unknownLocation = (field: string, id: string | number) =>
  invalidField(field, `Location ${id} does not exist.`);

/** A payment method that is not enabled (400 INVALID_PARAMS, field payment_method). */
export const paymentMethodNotEnabled = (method: string) =>
  invalidField('payment_method', `Payment method "${method}" is not enabled.`);

/** A 409 STATE_CONFLICT whose `details.reason` names the state that refused it. */
export const stateConflictFor = (reason: string, message: string, details?: Record<string, unknown>) =>
  RentalErrors.stateConflict(message, { reason, ...details });

/** The payment provider failed to `what` (start the payment, refund…): 503, retry in a minute. */
export const paymentProviderFailed = (what: string) =>
  JourneyErrors.paymentProviderUnavailable(
    `The payment provider could not ${what}; nothing was charged. Try again in a minute.`,
    { reason: 'payment_provider_error' },
    { 'Retry-After': '60' },
  );

// ── vehicles, locations, pricing, transfer routes, customers, messages, dashboard, reports, vendors ──

/** `Vehicle <id> does not exist.` (404 VEHICLE_NOT_FOUND): an unknown vehicle, or a vendor's look at another's. */
export const vehicleNotFound = (id: string | number) => RentalErrors.vehicleNotFound(`Vehicle ${id} does not exist.`);

/** A slug another record has (409 STATE_CONFLICT, `details.field` = `slug`); names the slug the server chose. */
export const slugTaken = (slug?: string) =>
  RentalErrors.stateConflict(slug === undefined ? 'The slug is taken.' : `The slug "${slug}" is taken.`, {
    field: 'slug',
  });

/** One bad parameter told the WordPress way (400 INVALID_PARAMS): `details.params` maps its name to why. */
export const invalidParam = (param: string, message: string, why: string) =>
  RentalErrors.invalidParams(message, { params: { [param]: why } });

/** `Message not found.` (404): an unknown message id, or another customer's thread (no existence oracle). */
export const messageNotFound = () => RentalErrors.notFound('Message not found.');

/** The rental namespaces' mapping of domain errors (registered on both namespaces in module.ts). */
export function rentalHttpErrorOf(err: DomainError): HttpError | undefined {
  if (err instanceof LedgerKeyReused) return RentalErrors.stateConflict(err.message);
  // bookings, payments, availability
  if (err instanceof VehicleNotAvailable) return RentalErrors.vehicleNotAvailable(err.message, err.details);
  return undefined;
}

export const rentalErrorCatalogue: ErrorCatalogue = {
  namespace: 'rova-rental',
  kinds: { ...RentalErrors, ...JourneyErrors },
};

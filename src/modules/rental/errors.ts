// The rova-rental error catalogue: every error the rental namespaces answer with, and the one place domain errors
// become HTTP. Routes, services and repositories throw these entries (or domain errors); they never build an
// HttpError themselves (test/ops/error-catalogue.test.ts keeps it so, and checks docs/integrators/errors.md lists
// each entry).
import type { DomainError } from '../../platform/domain-error.js';
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

// ── vehicles, locations, pricing, transfer routes, customers, messages, dashboard, reports, vendors ──

/** `Vehicle <id> does not exist.` (404 VEHICLE_NOT_FOUND): an unknown vehicle, or a vendor's look at another's. */
export const vehicleNotFound = (id: number) => RentalErrors.vehicleNotFound(`Vehicle ${id} does not exist.`);

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
  return undefined;
}

export const rentalErrorCatalogue: ErrorCatalogue = { namespace: 'rova-rental', kinds: RentalErrors };

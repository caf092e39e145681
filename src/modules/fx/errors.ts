// The rova-fx/v1 error catalogue: the currency module's own codes, and the one place its domain errors become
// HTTP. Routes and services throw these entries (or the shared HttpErrors) or domain errors; they never build an
// HttpError themselves (test/ops/error-catalogue.test.ts keeps it so).
import type { DomainError } from '../../platform/domain-error.js';
import { errorKind, type ErrorCatalogue, type HttpError } from '../../platform/http/errors.js';
import { RatesUnavailable } from './admin-service.js';

export const FxErrors = {
  nothingToSnooze: errorKind(
    409,
    'rova_fx_nothing_to_snooze',
    'A notice was snoozed while the storefronts report nothing of its kind.',
  ),
  ratesUnavailable: errorKind(
    502,
    'rova_fx_rates_unavailable',
    'A rate sync found no exchange-rate source answering; the stored rates were kept. `attempts` lists each source and its error.',
  ),
  rateLimited: errorKind(
    429,
    'rova_fx_rate_limited',
    'POST /convert was called too often from this address; `Retry-After` says when to try again (the body has no `data`).',
  ),
} as const;

/** The rova-fx/v1 mapping of domain errors (registered on the namespace in index.ts). */
export function fxHttpErrorOf(err: DomainError): HttpError | undefined {
  if (err instanceof RatesUnavailable) return FxErrors.ratesUnavailable(err.message, err.details);
  return undefined;
}

export const fxErrorCatalogue: ErrorCatalogue = { namespace: 'rova-fx/v1', kinds: FxErrors };

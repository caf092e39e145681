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

// Being replaced by the catalogues (issue 38, item 5); removed once nothing calls them.
/** @deprecated throw an entry of the namespace's catalogue */
export const badRequest = (message: string, code?: string, data?: Record<string, unknown>) =>
  new HttpError(400, code, message, data);
/** @deprecated throw an entry of the namespace's catalogue */
export const unauthorized = (message = 'Authentication required.', code?: string) => new HttpError(401, code, message);
/** @deprecated throw an entry of the namespace's catalogue */
export const forbidden = (message = 'Sorry, you are not allowed to do that.', code?: string) =>
  new HttpError(403, code, message);
/** @deprecated throw an entry of the namespace's catalogue */
export const notFound = (message = 'Not found.', code?: string) => new HttpError(404, code, message);
/** @deprecated throw an entry of the namespace's catalogue */
export const conflict = (message: string, code?: string, data?: Record<string, unknown>) =>
  new HttpError(409, code, message, data);

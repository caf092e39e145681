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

export const badRequest = (message: string, code?: string, data?: Record<string, unknown>) =>
  new HttpError(400, code, message, data);
export const unauthorized = (message = 'Authentication required.', code?: string) => new HttpError(401, code, message);
export const forbidden = (message = 'Sorry, you are not allowed to do that.', code?: string) =>
  new HttpError(403, code, message);
export const notFound = (message = 'Not found.', code?: string) => new HttpError(404, code, message);
export const conflict = (message: string, code?: string, data?: Record<string, unknown>) =>
  new HttpError(409, code, message, data);

import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

// One client for every screen. The session cookie travels by itself (same origin); every request adds the
// nonce (the server ignores a cookie without it); a 401 anywhere means the session is gone → login and back.

let nonce: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setNonce(n: string | null): void {
  nonce = n;
}
export function currentNonce(): string | null {
  return nonce;
}
export function setUnauthorizedHandler(fn: (() => void) | null): void {
  onUnauthorized = fn;
}

const SESSION_PROBES = ['/wp-json/rova/v1/auth/login', '/wp-json/rova/v1/auth/nonce'];

const auth: Middleware = {
  onRequest({ request }) {
    if (nonce) request.headers.set('X-WP-Nonce', nonce);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !SESSION_PROBES.some((p) => new URL(request.url).pathname === p)) onUnauthorized?.();
    return response;
  },
};

// A request that got no answer (offline, or the connection closed under it) says so in words, not "Failed to fetch".
const network: Middleware = {
  onError({ error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return; // a query the screen no longer wants
    return new ApiError(0, 'network_error', 'The server could not be reached. Check the connection and try again.');
  },
};

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use(auth, network);

/** An error answer in the namespace's own words: message, code, and per-field messages when the server names fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Reads any of the error shapes: rental `{success:false, error_code, message, details}`, WordPress `{code, message, data}`. */
export function toApiError(status: number, body: unknown): ApiError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const code = String(b.error_code ?? b.code ?? `http_${status}`);
  // The key is the form's, not the operator's: say what happened instead of naming it.
  const message =
    code === 'IDEMPOTENCY_KEY_MISMATCH'
      ? 'An earlier try of this form was saved with other values. Close the form and look for it in the list.'
      : typeof b.message === 'string' && b.message
        ? b.message
        : `Request failed (${status})`;
  const extra = (b.details ?? b.data) as Record<string, unknown> | undefined;
  const fields: Record<string, string> = {};
  const params = extra?.params;
  if (Array.isArray(params)) {
    // `params: ['user_id']`: the named fields are the ones the message is about.
    for (const k of params) if (typeof k === 'string') fields[k] = message;
  } else if (params && typeof params === 'object') {
    for (const [k, v] of Object.entries(params as Record<string, unknown>))
      fields[k] = typeof v === 'string' && v !== 'invalid' ? v : message;
  }
  // Some rental errors name one field: `details.field`.
  if (typeof extra?.field === 'string' && !(extra.field in fields)) fields[extra.field] = message;
  const errors = extra?.errors;
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    for (const [k, v] of Object.entries(errors as Record<string, unknown>)) if (typeof v === 'string') fields[k] = v;
  }
  return new ApiError(status, code, message, fields);
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer, else throws ApiError. */
export async function unwrap<T>(p: Promise<FetchResult<T>>): Promise<NonNullable<T>> {
  const r = await p;
  if (!r.response.ok || r.data === undefined) throw toApiError(r.response.status, r.error);
  return r.data as NonNullable<T>;
}

/** The `data` of a rova-rental envelope `{success, data, message}`. */
export async function unwrapRental<D>(p: Promise<FetchResult<{ data?: D }>>): Promise<NonNullable<D>> {
  const r = await p;
  if (!r.response.ok || r.data?.data === undefined || r.data.data === null)
    throw toApiError(r.response.status, r.error);
  return r.data.data as NonNullable<D>;
}

/** A WordPress-style list: the array body and its total from X-WP-Total. */
export async function unwrapList<T>(p: Promise<FetchResult<T[]>>): Promise<{ items: T[]; total: number }> {
  const r = await p;
  if (!r.response.ok || !r.data) throw toApiError(r.response.status, r.error);
  return { items: r.data, total: Number(r.response.headers.get('X-WP-Total') ?? r.data.length) };
}

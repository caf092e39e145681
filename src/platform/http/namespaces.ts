import type { FastifyReply } from 'fastify';
import type { DomainError } from '../domain-error.js';
import type { HttpError } from './errors.js';

export type ErrorShape = 'wp' | 'rental';

export interface NamespaceInfo {
  /** e.g. `wc/v3`; matched as a path prefix after the REST root. */
  name: string;
  shape: ErrorShape;
  /** Default error code per HTTP status for this namespace. */
  codes?: Partial<Record<number, string>>;
  /** A cookie-authenticated request without a valid nonce → 403 (instead of WordPress's "anonymous"). */
  nonceRequired?: boolean;
  /** Strict method mode: a method the path does not serve → 405 with `Allow` (ROVA_STRICT_METHODS turns it on everywhere). */
  strictMethods?: boolean;
  /** With strictMethods: the only methods the namespace accepts (HEAD and OPTIONS always pass). */
  allowedMethods?: readonly string[];
  /** The default quota plan counts this namespace's writes per API key. */
  writeQuota?: boolean;
  /** The namespace's one mapping of domain errors to its HTTP errors (its catalogue's `httpErrorOf`). */
  domainErrors?: (err: DomainError) => HttpError | undefined;
}

const WP_CODES: Record<number, string> = {
  400: 'rest_invalid_param',
  401: 'rest_not_logged_in',
  403: 'rest_forbidden',
  404: 'rest_no_route',
  405: 'rest_no_route',
  409: 'rest_conflict',
  413: 'rest_payload_too_large',
  415: 'rest_invalid_content_type',
  429: 'rest_rate_limited',
  500: 'rest_internal_error',
  502: 'rest_upstream_error',
  503: 'rest_unavailable',
};

const RENTAL_CODES: Record<number, string> = {
  400: 'INVALID_PARAMS',
  401: 'AUTH_REQUIRED',
  403: 'PERMISSION_DENIED',
  404: 'RESOURCE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'STATE_CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'INVALID_PARAMS',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  502: 'UPSTREAM_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

export class NamespaceRegistry {
  private readonly list: NamespaceInfo[] = [];
  constructor(private readonly restRoot: string) {}

  register(info: NamespaceInfo): void {
    if (!this.list.some((n) => n.name === info.name)) this.list.push(info);
    this.list.sort((a, b) => b.name.length - a.name.length);
  }

  all(): readonly NamespaceInfo[] {
    return this.list;
  }

  /** The namespace a URL belongs to (null outside the REST root or for unknown namespaces). */
  forUrl(url: string): NamespaceInfo | null {
    const path = url.split('?')[0] ?? '';
    if (!path.startsWith(this.restRoot + '/')) return null;
    const rest = path.slice(this.restRoot.length + 1);
    return this.list.find((n) => rest === n.name || rest.startsWith(n.name + '/')) ?? null;
  }

  defaultCode(ns: NamespaceInfo | null, status: number): string {
    const own = ns?.codes?.[status];
    if (own) return own;
    const table = ns?.shape === 'rental' ? RENTAL_CODES : WP_CODES;
    return table[status] ?? (status >= 500 ? table[500]! : table[400]!);
  }
}

export interface ErrorBodyInput {
  status: number;
  code: string;
  message: string;
  data?: Record<string, unknown>;
}

export function errorBody(shape: ErrorShape, e: ErrorBodyInput): Record<string, unknown> {
  if (shape === 'rental') {
    const body: Record<string, unknown> = { success: false, error_code: e.code, message: e.message };
    if (e.data && Object.keys(e.data).length > 0) body.details = e.data;
    return body;
  }
  return { code: e.code, message: e.message, data: { status: e.status, ...(e.data ?? {}) } };
}

/** Success envelope of the rental namespaces. */
export function rentalOk<T>(data: T, message = ''): { success: true; data: T; message: string } {
  return { success: true, data, message };
}

/**
 * WordPress-style paging headers (X-WP-Total, X-WP-TotalPages, Link). Link URLs are absolute, as WordPress sends
 * them (clients follow them as they are): scheme and host of the request, as seen through TRUST_PROXY.
 */
export function setPagingHeaders(reply: FastifyReply, url: string, total: number, page: number, perPage: number): void {
  // WooCommerce semantics: an empty result has 0 pages.
  const totalPages = Math.ceil(total / perPage);
  reply.header('X-WP-Total', String(total));
  reply.header('X-WP-TotalPages', String(totalPages));
  const req = reply.request;
  const origin = `${req.protocol}://${req.host}`;
  const base = new URL(url, 'http://local');
  const link = (p: number, rel: string) => {
    base.searchParams.set('page', String(p));
    return `<${origin}${base.pathname}${base.search}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1 && totalPages > 0) links.push(link(Math.min(page - 1, totalPages), 'prev'));
  if (page < totalPages) links.push(link(page + 1, 'next'));
  if (links.length) reply.header('Link', links.join(', '));
}

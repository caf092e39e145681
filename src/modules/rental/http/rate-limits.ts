import type { FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { HitResult } from '../../../platform/limits/limiter.js';
import { clientAddress } from '../../../platform/http/client-ip.js';
import { HttpError } from '../../../platform/http/errors.js';
import { rentalSettings } from '../settings.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const WRITE_BUCKET = 'rental-write';
export const PUBLIC_BUCKET = 'rental-public';
const WINDOW = 60;

function rateHeaders(r: HitResult): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    // seconds until the window resets
    'X-RateLimit-Reset': String(Math.max(1, Math.ceil(r.resetMs / 1000))),
  };
}

function enforce(reply: FastifyReply, r: HitResult, what: string): void {
  const headers = rateHeaders(r);
  if (!r.allowed) {
    throw new HttpError(429, 'RATE_LIMIT_EXCEEDED', `Too many ${what}. Try again in ${headers['X-RateLimit-Reset']} s.`, undefined, {
      ...headers,
      'Retry-After': headers['X-RateLimit-Reset']!,
    });
  }
  reply.headers(headers);
}

/**
 * Per-API-key per-minute limit on every write (POST/PUT/PATCH/DELETE) in the rental namespaces (design §2).
 * Added as a preValidation hook of the rental plugin scope, after the platform has resolved `req.auth`,
 * so it covers every route registered inside that scope (core and admin). Read-only POSTs are not writes.
 */
export const writeRateLimit: preValidationHookHandler = async function (req: FastifyRequest, reply: FastifyReply) {
  if (!WRITES.has(req.method) || req.routeOptions.config?.readOnly === true) return;
  const keyId = req.auth.apiKeyId;
  if (keyId === null || keyId === undefined) return;
  const p = req.server.platform;
  const r = await p.limits.hit(WRITE_BUCKET, String(keyId), rentalSettings(p).writeRateLimit, WINDOW);
  enforce(reply, r, 'write requests for this API key');
};

/** Per-address read limit of the public endpoints (route-level onRequest hook). */
export const publicReadLimit: onRequestHookHandler = async function (req: FastifyRequest, reply: FastifyReply) {
  const p = req.server.platform;
  const r = await p.limits.hit(PUBLIC_BUCKET, clientAddress(req), rentalSettings(p).publicRateLimit, WINDOW);
  enforce(reply, r, 'requests from this address');
};

import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { HitResult } from '../../../platform/limits/limiter.js';
import { clientAddress } from '../../../platform/http/client-ip.js';
import { JourneyErrors } from '../errors.js';
import { rentalSettings } from '../settings.js';

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
    throw JourneyErrors.rateLimited(`Too many ${what}. Try again in ${headers['X-RateLimit-Reset']} s.`, undefined, {
      ...headers,
      'Retry-After': headers['X-RateLimit-Reset']!,
    });
  }
  reply.headers(headers);
}

/** Per-address read limit of the public endpoints (route-level onRequest hook). */
export const publicReadLimit: onRequestHookHandler = async function (req: FastifyRequest, reply: FastifyReply) {
  const p = req.server.platform;
  const r = await p.limits.hit(PUBLIC_BUCKET, clientAddress(req), rentalSettings(p).publicRateLimit, WINDOW);
  enforce(reply, r, 'requests from this address');
};

import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Long-lived caching for content-hashed names; they never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Unhashed aliases (converter.js) and config.js: short, so a new build or a settings change shows soon. */
export const SHORT = 'public, max-age=300';
export const CONFIG_CACHE = 'public, max-age=60, s-maxage=60';
/** Demo pages: browsers a minute, shared caches five minutes. */
export const PAGE_CACHE = 'public, max-age=60, s-maxage=300';

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Sends a public, validator-carrying response (304 when If-None-Match matches). Never sets cookies. */
export function sendCacheable(
  req: FastifyRequest,
  reply: FastifyReply,
  o: { body: string | Buffer; type: string; etag: string; cacheControl: string },
): FastifyReply {
  reply.header('Cache-Control', o.cacheControl).header('ETag', o.etag).header('X-Content-Type-Options', 'nosniff');
  if (matches(req.headers['if-none-match'], o.etag)) return reply.code(304).send();
  return reply.type(o.type).send(o.body);
}

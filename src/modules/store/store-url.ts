import type { FastifyRequest } from 'fastify';

export { storeUrl } from './settings.js';

/** Scheme, host and port the request came to (WordPress builds its absolute URLs from the same). */
export function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/** Puts `base` in front of every relative `permalink` of an answer (one object, a list, or a batch answer). */
export function absolutePermalinks(payload: unknown, base: string): unknown {
  if (Array.isArray(payload)) {
    for (const p of payload) absolutePermalinks(p, base);
  } else if (payload && typeof payload === 'object') {
    const o = payload as Record<string, unknown>;
    if (typeof o.permalink === 'string' && o.permalink.startsWith('/')) o.permalink = base + o.permalink;
    for (const k of ['create', 'update', 'delete'] as const) if (Array.isArray(o[k])) absolutePermalinks(o[k], base);
  }
  return payload;
}

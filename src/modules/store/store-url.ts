import type { FastifyRequest } from 'fastify';
import { ConfigError, type Config } from '../../config.js';

/**
 * STORE_URL: the storefront's public address, in front of product permalinks (`<STORE_URL>/product/<slug>/`).
 * Unset: the address this server was reached at (scheme and Host as seen through TRUST_PROXY).
 */
export function storeUrl(config: Config): string | null {
  const raw = config.env.STORE_URL?.trim();
  if (!raw) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`STORE_URL must be an http(s) URL such as https://shop.example.com (got "${raw}")`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password) {
    throw new ConfigError(`STORE_URL must be an http(s) URL without query, fragment or credentials (got "${raw}")`);
  }
  return u.toString().replace(/\/+$/, '');
}

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

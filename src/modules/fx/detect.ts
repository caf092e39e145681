import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../../platform/http/client-ip.js';
import type { GeoLookup } from './geo.js';
import { currencyForCountry } from './iso.js';
import type { FxSnapshot } from './state.js';

export const COOKIE = 'rova_fx_currency';

const CRAWLER =
  /bot\b|bot\/|crawler|spider|crawling|slurp|facebookexternalhit|facebookcatalog|bingpreview|mediapartners-google|adsbot|apis-google|feedfetcher|lighthouse|pingdom|embedly|quora link preview|whatsapp|telegrambot|discordbot|applebot|yandex|baiduspider|duckduckbot|semrush|ahrefs|petalbot|bytespider|gptbot|ccbot|claudebot|perplexitybot/i;

export function isCrawler(userAgent: string | undefined): boolean {
  return typeof userAgent === 'string' && CRAWLER.test(userAgent);
}

/** Trim + upper-case; a 3-letter code or null. */
export function normaliseCode(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const c = v.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(c) ? c : null;
}

/** The base or an enabled, usable currency. */
export function isOffered(snap: FxSnapshot, code: string): boolean {
  return code === snap.base || snap.offered.has(code);
}

/** Country from the first trusted CDN header that carries one (`XX` unknown and `T1` Tor are ignored). */
export function headerCountry(req: FastifyRequest, headers: readonly string[]): string | null {
  for (const h of headers) {
    const raw = req.headers[h];
    const v = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
    if (v && /^[A-Z]{2}$/.test(v) && v !== 'XX' && v !== 'T1') return v;
  }
  return null;
}

/**
 * Detection chain (design §6): cookie → geolocation (only with auto_detect; CDN header, else the local
 * database; crawlers skipped) → nothing (null). Returns an offered currency or null.
 */
export async function detectCurrency(
  req: FastifyRequest,
  snap: FxSnapshot,
  geo: GeoLookup,
  geoHeaders: readonly string[],
): Promise<string | null> {
  const fromCookie = normaliseCode(req.cookies?.[COOKIE]);
  if (fromCookie && isOffered(snap, fromCookie)) return fromCookie;
  if (!snap.settings.auto_detect) return null;
  if (isCrawler(req.headers['user-agent'])) return null;
  const country = headerCountry(req, geoHeaders) ?? (await geo.country(clientAddress(req)));
  if (!country) return null;
  const currency = currencyForCountry(country);
  return currency && isOffered(snap, currency) ? currency : null;
}

import type { FastifyRequest } from 'fastify';
import { invalidParam, missingParam } from '../../platform/http/errors.js';
import { clientAddress } from '../../platform/http/client-ip.js';
import { catalogueView } from '../store/index.js';
import { detectCurrency, normaliseCode } from './detect.js';
import type { GeoLookup } from './geo.js';
import { ConvertAnswers } from './convert-cache.js';
import type { ConvertLimit, FxRuntime } from './state.js';

export const MAX_PRODUCT_IDS = 50;
export const LIMIT_BUCKET = 'rova_fx_convert';
export const RATE_LIMITED_BODY =
  '{"code":"rova_fx_rate_limited","message":"Too many currency conversion requests. Please try again shortly."}';

declare module '../../platform/hooks.js' {
  interface FilterMap {
    /** Raise or switch off (limit ≤ 0 or window ≤ 0) the POST /convert rate limit, e.g. behind a CDN. */
    rova_fx_convert_rate_limit: [value: ConvertLimit, request: FastifyRequest];
  }
}

export interface ConvertRequest {
  /** Requested code (trimmed, upper-cased; '' when it was not a 3-letter code), or null = detect. */
  currency: string | null;
  ids: number[];
  /** The ids as the answer cache's key part (convert-cache.ts). */
  idsKey: string;
}

const invalid = (param: string, message: string, extra?: Record<string, unknown>) =>
  invalidParam(param, message, extra);

/** Valid requests of the bodies the route's parser hands out frozen and shared (one per distinct body text). */
const parsedBodies = new WeakMap<object, ConvertRequest>();

/**
 * Validates the body (design §5). These 400s come before the rate limiter. A frozen body (the same object for
 * every request with the same text, see routes.ts) is validated once.
 */
export function parseConvertBody(body: unknown): ConvertRequest {
  const shared = typeof body === 'object' && body !== null && Object.isFrozen(body);
  const known = shared ? parsedBodies.get(body) : undefined;
  if (known !== undefined) return known;
  const input = validateConvertBody(body);
  if (shared) parsedBodies.set(body, Object.freeze(input));
  return input;
}

function validateConvertBody(body: unknown): ConvertRequest {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const ids = b.product_ids;
  if (ids === undefined || ids === null) {
    throw missingParam('product_ids');
  }
  if (!Array.isArray(ids)) throw invalid('product_ids', 'The product_ids parameter must be an array of IDs.');
  if (ids.length > MAX_PRODUCT_IDS) {
    const message = `Too many product IDs in a single request (at most ${MAX_PRODUCT_IDS}).`;
    throw invalid('product_ids', message, {
      details: { product_ids: { code: 'rova_fx_too_many_products', message, data: { max: MAX_PRODUCT_IDS } } },
    });
  }
  const c = b.currency;
  if (c !== undefined && c !== null && typeof c !== 'string')
    throw invalid('currency', 'The currency parameter must be a string or null.');
  const seen = new Set<number>();
  for (const v of ids) {
    let n: number | null = null;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) n = v;
    else if (typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v)) n = Number(v.trim());
    if (n !== null && n > 0) seen.add(n);
  }
  let currency: string | null = null;
  if (typeof c === 'string' && c.trim() !== '') currency = normaliseCode(c) ?? '';
  const unique = [...seen];
  return { currency, ids: unique, idsKey: unique.join(',') };
}

export type ConvertOutcome = { limited: true; retryAfter: number } | { limited: false; body: Buffer };

/** Counts the request against the caller's address; true when it is over the limit. */
export async function overLimit(rt: FxRuntime, req: FastifyRequest): Promise<number | null> {
  const cur = rt.platform.filters.apply('rova_fx_convert_rate_limit', { ...rt.convertLimit }, req);
  const limit = Number(cur?.limit ?? rt.convertLimit.limit);
  const window = Number(cur?.window ?? rt.convertLimit.window);
  if (!(limit > 0) || !(window > 0)) return null;
  const w = Math.ceil(window);
  const hit = await rt.platform.limits.hit(LIMIT_BUCKET, clientAddress(req), Math.floor(limit), w);
  return hit.allowed ? null : w;
}

/**
 * POST /convert after validation: limiter, currency resolution, price HTML from the in-memory catalogue. The
 * answer (UTF-8 bytes) is kept in `rt.answers` until a currency, settings or catalogue change, or the next sale
 * window opening or closing among its products (convert-cache.ts).
 */
export async function convertPrices(
  rt: FxRuntime,
  geo: GeoLookup,
  req: FastifyRequest,
  input: ConvertRequest,
): Promise<ConvertOutcome> {
  const retryAfter = await overLimit(rt, req);
  if (retryAfter !== null) return { limited: true, retryAfter };
  const snap = rt.snapshot;
  let requested = input.currency;
  let detected = false;
  if (requested === null) {
    requested = await detectCurrency(req, snap, geo, rt.geoHeaders);
    detected = requested !== null;
  }
  const pricing = requested && requested !== snap.base ? (snap.offered.get(requested) ?? null) : null;
  const currency = pricing ? (requested as string) : snap.base;
  const view = catalogueView(rt.platform);
  if (view.loaded() === null) await view.load();
  const catalogue = view.loaded();
  const now = Date.now();
  const variant = ConvertAnswers.variant(currency, detected);
  const known = catalogue === null ? null : rt.answers.get(input.idsKey, variant, snap, catalogue, now);
  if (known !== null) return { limited: false, body: known };
  const at = new Date(now);
  const parts: string[] = [];
  for (const id of input.ids) {
    const json = view.priceJson(id, pricing, at);
    if (json !== null) parts.push(`"${id}":${json}`);
  }
  const body = Buffer.from(
    `{"currency":${JSON.stringify(currency)},"detected":${detected},"prices":{${parts.join(',')}}}`,
  );
  if (catalogue !== null)
    rt.answers.set(input.idsKey, variant, { body, fx: snap, catalogue, until: view.nextSaleChange(input.ids, now) });
  return { limited: false, body };
}

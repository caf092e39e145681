import { createHmac } from 'node:crypto';
import { safeEqual } from './crypto.js';

/**
 * OAuth 1.0a one-legged request signatures (RFC 5849 §3.4), as WooCommerce checks them on plain HTTP:
 * HMAC-SHA1 or HMAC-SHA256 over `METHOD&url&params`, keyed with `consumer_secret&` (no token).
 */

export type Param = readonly [string, string];

export const OAUTH_METHODS = ['HMAC-SHA1', 'HMAC-SHA256'] as const;
export type OAuthMethod = (typeof OAUTH_METHODS)[number];

/** RFC 3986 percent-encoding (encodeURIComponent leaves !*'() alone). */
export function percentEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!*'()]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Query string → decoded name/value pairs, in order, duplicates kept. */
export function parseQuery(query: string): Param[] {
  const out: Param[] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    out.push(eq < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, eq)), formDecode(part.slice(eq + 1))]);
  }
  return out;
}

/** `Authorization: OAuth k="v", …` → pairs (realm excluded), or null when the header is not an OAuth one. */
export function parseOAuthHeader(header: string): Param[] | null {
  const m = /^oauth\s+(.*)$/is.exec(header.trim());
  if (!m) return null;
  const out: Param[] = [];
  for (const item of m[1]!.split(',')) {
    const kv = /^\s*([^=\s]+)\s*=\s*"([^"]*)"\s*$/.exec(item);
    if (!kv) continue;
    const k = formDecode(kv[1]!);
    if (k !== 'realm') out.push([k, formDecode(kv[2]!)]);
  }
  return out;
}

function normalised(params: readonly Param[]): string {
  return params
    .filter(([k]) => k !== 'oauth_signature')
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/**
 * The same parameters as PHP (and so WooCommerce) reads them: a repeated plain name keeps its last value,
 * `name[]` entries are numbered `name[0]`, `name[1]`, … Clients that sign PHP's view of the query agree with it.
 */
export function phpView(params: readonly Param[]): Param[] {
  const plain = new Map<string, string>();
  const counters = new Map<string, number>();
  const out: Param[] = [];
  for (const [k, v] of params) {
    if (k.endsWith('[]')) {
      const base = k.slice(0, -2);
      const n = counters.get(base) ?? 0;
      counters.set(base, n + 1);
      out.push([`${base}[${n}]`, v]);
    } else {
      plain.set(k, v);
    }
  }
  return [...out, ...plain.entries()];
}

export function baseString(method: string, baseUrl: string, params: readonly Param[]): string {
  return `${method.toUpperCase()}&${percentEncode(baseUrl)}&${percentEncode(normalised(params))}`;
}

export function sign(method: OAuthMethod, base: string, consumerSecret: string): string {
  const alg = method === 'HMAC-SHA1' ? 'sha1' : 'sha256';
  return createHmac(alg, `${percentEncode(consumerSecret)}&`)
    .update(base)
    .digest('base64');
}

/** True when `signature` signs the request, read either the RFC way or PHP's way (constant-time compares). */
export function verifySignature(
  req: { method: string; baseUrl: string; params: readonly Param[] },
  method: OAuthMethod,
  consumerSecret: string,
  signature: string,
): boolean {
  const candidates = new Set([
    baseString(req.method, req.baseUrl, req.params),
    baseString(req.method, req.baseUrl, phpView(req.params)),
  ]);
  let ok = false;
  for (const base of candidates) ok = safeEqual(sign(method, base, consumerSecret), signature) || ok;
  return ok;
}

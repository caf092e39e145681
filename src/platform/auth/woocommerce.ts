import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { toDate, type Db } from '../db/types.js';
import { keyedHash, safeEqual } from './crypto.js';
import {
  OAUTH_METHODS,
  parseOAuthHeader,
  parseQuery,
  verifySignature,
  type OAuthMethod,
  type Param,
} from './oauth1.js';
import { createDbReplayCache, type ReplayCache } from './replay-cache.js';
import * as repo from './repo.js';
import { SecretBox } from './secret-box.js';
import { ANONYMOUS, type AuthContext, type AuthFailure, type Scope } from './types.js';
import * as wooRepo from './woocommerce-repo.js';

/**
 * WooCommerce's own credential forms for API keys issued in its format (`ck_` + 40 hex, `cs_` + 40 hex):
 *
 * - HTTPS (or a trusted proxy saying `X-Forwarded-Proto: https`): HTTP Basic `ck:cs`, or `?consumer_key=&consumer_secret=`.
 *   Over plain HTTP these forms are refused (the secret would travel in clear text) — as WooCommerce does.
 * - Any transport: OAuth 1.0a one-legged signatures (HMAC-SHA1/SHA256), with a timestamp window and a
 *   one-time nonce claimed in the shared replay cache (Redis or the database), so a captured request cannot
 *   be replayed on another node either.
 *
 * Storage: the consumer key as a keyed hash (lookup), the secret as a keyed hash (Basic) and sealed with
 * AES-256-GCM (OAuth, which needs the secret itself to recompute the signature). See migration 0010.
 */

export const CONSUMER_KEY = /^ck_[0-9a-f]{40}$/;
export const CONSUMER_SECRET = /^cs_[0-9a-f]{40}$/;
/** Clock skew WooCommerce accepts on oauth_timestamp, either way. */
export const OAUTH_WINDOW_SECONDS = 15 * 60;
const TOUCH_EVERY_MS = 60_000;

type Outcome = AuthContext | null;
const fail = (failure: AuthFailure): AuthContext => ({ ...ANONYMOUS, failure });

export class WooCommerceAuth {
  private readonly box: SecretBox;
  private replay: ReplayCache;
  private readonly lastTouched = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly secret: string,
  ) {
    this.box = new SecretBox(secret, 'wc-consumer-secret');
    this.replay = createDbReplayCache(db);
  }

  useReplayCache(cache: ReplayCache): void {
    this.replay = cache;
  }

  hashConsumerKey(ck: string): string {
    return keyedHash(this.secret, ck, 'wc-consumer-key');
  }

  private hashConsumerSecret(cs: string): string {
    return keyedHash(this.secret, cs, 'wc-consumer-secret');
  }

  /** Stores a new key pair for the user; the caller shows the secret once. */
  async issue(
    db: Db,
    input: { userId: number; name: string; scopes: Scope[]; expiresAt: Date | null },
  ): Promise<{ consumerKey: string; consumerSecret: string; row: repo.ApiKeyRow }> {
    const consumerKey = `ck_${randomBytes(20).toString('hex')}`;
    const consumerSecret = `cs_${randomBytes(20).toString('hex')}`;
    const keyHash = this.hashConsumerKey(consumerKey);
    const row = await wooRepo.insertWooKey(db, {
      ...input,
      keyHash,
      keyPrefix: consumerKey.slice(0, 12),
      secretHash: this.hashConsumerSecret(consumerSecret),
      secretSealed: this.box.seal(consumerSecret, keyHash),
    });
    return { consumerKey, consumerSecret, row };
  }

  /** The caller by WooCommerce credentials; null when the request carries none of them. */
  async resolve(req: FastifyRequest): Promise<Outcome> {
    const authz = typeof req.headers.authorization === 'string' ? req.headers.authorization.trim() : '';
    const rawQuery = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    // most requests carry no WooCommerce credentials: skip decoding their query string
    const query = rawQuery && /(consumer|oauth)(_|%5f)/i.test(rawQuery) ? parseQuery(rawQuery) : [];
    // the common case, no credentials at all: nothing more to look at
    if (authz === '' && query.length === 0) return null;
    const last = (name: string) => query.filter(([k]) => k === name).at(-1)?.[1];

    let basic: { ck: string; cs: string } | null = null;
    if (/^basic\s+/i.test(authz)) {
      const decoded = Buffer.from(authz.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      basic = colon < 0 ? { ck: decoded, cs: '' } : { ck: decoded.slice(0, colon), cs: decoded.slice(colon + 1) };
    } else if (last('consumer_key') !== undefined || last('consumer_secret') !== undefined) {
      basic = { ck: last('consumer_key') ?? '', cs: last('consumer_secret') ?? '' };
    }
    if (basic) {
      if (req.protocol !== 'https') return fail('insecure_transport');
      return this.resolveBasic(basic.ck, basic.cs);
    }
    const header = authz ? parseOAuthHeader(authz) : null;
    if (header || query.some(([k]) => k === 'oauth_consumer_key' || k === 'oauth_signature')) {
      return this.resolveOAuth(req, [...query, ...(header ?? [])]);
    }
    return null;
  }

  private async resolveBasic(ck: string, cs: string): Promise<AuthContext> {
    if (!CONSUMER_KEY.test(ck) || cs.length > 200) return fail('invalid_consumer_key');
    const row = await wooRepo.findWooKey(this.db, this.hashConsumerKey(ck));
    // Compare even for an unknown key, so timing tells nothing about which half was wrong.
    const ok = safeEqual(this.hashConsumerSecret(cs), row?.secretHash ?? '0'.repeat(64));
    if (!row || !ok) return fail('invalid_consumer_key');
    return this.accept(row);
  }

  private async resolveOAuth(req: FastifyRequest, params: Param[]): Promise<AuthContext> {
    const one = (name: string): string | null => {
      const values = params.filter(([k]) => k === name);
      return values.length === 1 ? values[0]![1] : null;
    };
    const ck = one('oauth_consumer_key');
    const signature = one('oauth_signature')?.replace(/ /g, '+') ?? null;
    const method = one('oauth_signature_method');
    const timestamp = one('oauth_timestamp');
    const nonce = one('oauth_nonce');
    if (!ck || !signature || !method || !timestamp || !nonce) return fail('invalid_oauth_request');
    if (!(OAUTH_METHODS as readonly string[]).includes(method) || nonce.length > 255 || signature.length > 200)
      return fail('invalid_oauth_request');
    const ts = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
    if (!(Math.abs(Date.now() / 1000 - ts) <= OAUTH_WINDOW_SECONDS)) return fail('invalid_timestamp');
    if (!CONSUMER_KEY.test(ck)) return fail('invalid_consumer_key');
    const keyHash = this.hashConsumerKey(ck);
    const row = await wooRepo.findWooKey(this.db, keyHash);
    const cs = row ? this.box.open(row.secretSealed, keyHash) : null;
    if (!row || cs === null) return fail('invalid_consumer_key');
    const path = req.url.split('?')[0] ?? '/';
    const origin = `${req.protocol}://${req.host}`.toLowerCase();
    const bases = new Set([
      origin + path,
      origin.replace(/^(http:\/\/[^/]+):80$|^(https:\/\/[^/]+):443$/, '$1$2') + path,
    ]);
    let valid = false;
    for (const baseUrl of bases)
      valid = verifySignature({ method: req.method, baseUrl, params }, method as OAuthMethod, cs, signature) || valid;
    if (!valid) return fail('invalid_signature');
    // Claimed only after the signature checks out: nobody without the secret can burn a client's nonces.
    const nonceId = createHash('sha256').update(nonce).digest('hex');
    if (!(await this.replay.claim(`oauth:${row.id}:${nonceId}`, 2 * OAUTH_WINDOW_SECONDS + 60)))
      return fail('replayed_nonce');
    return this.accept(row);
  }

  private accept(row: wooRepo.WooKeyRow): AuthContext {
    if (row.revokedAt) return fail('revoked_api_key');
    if (row.expiresAt && toDate(row.expiresAt).getTime() <= Date.now()) return fail('expired_api_key');
    const last = this.lastTouched.get(row.id) ?? 0;
    if (Date.now() - last > TOUCH_EVERY_MS) {
      this.lastTouched.set(row.id, Date.now());
      void repo.touchApiKey(this.db, row.id).catch(() => undefined);
    }
    return {
      user: row.user,
      method: 'api_key',
      apiKeyId: row.id,
      scopes: new Set(row.scopes),
      sessionId: null,
      failure: null,
    };
  }
}

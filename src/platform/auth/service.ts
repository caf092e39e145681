import type { FastifyRequest } from 'fastify';
import { toDate, toDateOrNull, type Db } from '../db/types.js';
import { inOwnTransaction } from '../db/answered.js';
import { sqlStateOf } from '../db/sqlstate.js';
import { HttpErrors } from '../http/errors.js';
import { RovaErrors } from '../errors.js';
import { clientAddress } from '../http/client-ip.js';
import { addressKey } from '../limits/address-key.js';
import type { HitResult, Limits } from '../limits/limiter.js';
import {
  createNonce,
  hashPassword,
  keyedHash,
  needsRehash,
  randomToken,
  verifyNonce,
  verifyPassword,
} from './crypto.js';
import * as repo from './repo.js';
import { isRole, type Role } from './roles.js';
import { WooCommerceAuth } from './woocommerce.js';
import { ApiKeyCache, AUTH_KEYS_TOPIC } from './key-cache.js';
import type { InvalidationBus } from '../kv/bus.js';
import { ANONYMOUS, SCOPES, type AuthContext, type AuthUser, type Scope } from './types.js';

export const SESSION_COOKIE = 'rova_session';
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** Verifies a JWT access token; provided by the JWT session service (platform/auth/jwt). */
export type JwtVerifier = (token: string) => Promise<{ user: AuthUser; sessionId: number } | null>;

/**
 * Login attempt limits per window. An account is keyed by the resolved user (its login and its email are one
 * bucket), an address by its IPv4 address or IPv6 /64. Guessing is bounded per (account, address); a looser
 * ceiling per account bounds guessing spread over many addresses, and since one address can add at most
 * `perAccountAddress` to it, locking an owner out needs `perAccount / perAccountAddress` distinct addresses.
 */
export interface LoginLimits {
  /** Attempts from one address (any accounts). */
  perAddress: number;
  /** Attempts at one account from one address: what one attacker gets, and all one attacker can block. */
  perAccountAddress: number;
  /** Attempts at one account from all addresses together. */
  perAccount: number;
  windowSeconds: number;
}

export interface ApiKeyView {
  id: number;
  user_id: number;
  user_login?: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
  status: 'active' | 'revoked' | 'expired';
}

const TOUCH_EVERY_MS = 60_000;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export class AuthService {
  private jwtVerifier: JwtVerifier | null = null;
  private readonly lastTouched = new Map<number, number>();
  private readonly keyLookups = new Map<string, Promise<Awaited<ReturnType<typeof repo.findApiKeyByHash>>>>();
  private keyCache: ApiKeyCache | null = null;
  private bus: InvalidationBus | null = null;

  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private readonly limits: Limits,
    readonly loginLimits: LoginLimits = { perAddress: 20, perAccountAddress: 10, perAccount: 100, windowSeconds: 900 },
  ) {}

  /** Keys resolved from memory, emptied on every node through the bus when a key or a user changes (issue 25). */
  useKeyCache(bus: InvalidationBus, ttlMs: number): void {
    this.keyCache = new ApiKeyCache(ttlMs);
    this.keyCache.listen(bus);
    this.bus = bus;
  }

  /**
   * Call after a user's role, profile or existence, or a key, changed — after the commit when the change was made
   * in a transaction, so no node caches what the transaction replaced.
   */
  async usersChanged(): Promise<void> {
    this.keyCache?.drop();
    await this.bus?.publish(AUTH_KEYS_TOPIC).catch(() => undefined);
  }

  private wooAuth: WooCommerceAuth | null = null;

  /** WooCommerce-format keys (Basic, consumer_key query, OAuth 1.0a): see woocommerce.ts. */
  get woo(): WooCommerceAuth {
    return (this.wooAuth ??= new WooCommerceAuth(this.db, this.secret));
  }

  /** A key in WooCommerce's format; the secret is in this answer only. */
  async createWooCommerceKey(
    input: {
      userId: number;
      name?: string;
      scopes?: string[];
      expiresAt?: Date | null;
    },
    db = this.db,
  ): Promise<{ consumerKey: string; consumerSecret: string; view: ApiKeyView }> {
    const scopes = normaliseScopes(input.scopes);
    if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
      throw HttpErrors.badRequest('expires_at must be in the future', { params: { expires_at: 'in the past' } });
    const user = await repo.findUserById(db, input.userId);
    if (!user) throw RovaErrors.userNotFound(`user ${input.userId} not found`);
    const r = await this.woo.issue(db, {
      userId: input.userId,
      name: (input.name ?? '').trim().slice(0, 100),
      scopes,
      expiresAt: input.expiresAt ?? null,
    });
    return { consumerKey: r.consumerKey, consumerSecret: r.consumerSecret, view: apiKeyView(r.row) };
  }

  setJwtVerifier(v: JwtVerifier): void {
    this.jwtVerifier = v;
  }

  hashKey(key: string): string {
    return keyedHash(this.secret, key, 'api-key');
  }

  private hashSessionToken(token: string): string {
    return keyedHash(this.secret, token, 'session');
  }

  /** Resolves who is calling. Anonymous requests cost nothing (no database round trip). */
  async resolve(req: FastifyRequest): Promise<AuthContext> {
    const headerKey = headerValue(req.headers['x-rova-api-key']);
    const authz = headerValue(req.headers.authorization);
    let bearer: string | null = null;
    if (authz && /^bearer\s+/i.test(authz)) bearer = authz.replace(/^bearer\s+/i, '').trim();
    if (headerKey) return this.resolveApiKey(headerKey);
    if (bearer) {
      if (JWT_SHAPE.test(bearer) && !bearer.startsWith('rova_')) return this.resolveJwt(bearer);
      return this.resolveApiKey(bearer);
    }
    const woo = await this.woo.resolve(req);
    if (woo) return woo;
    const cookie = req.cookies?.[SESSION_COOKIE];
    if (cookie) return this.resolveSession(req, cookie);
    return ANONYMOUS;
  }

  private async resolveApiKey(key: string): Promise<AuthContext> {
    if (key.length > 512) return { ...ANONYMOUS, failure: 'invalid_api_key' };
    const hash = this.hashKey(key);
    const readIn = this.keyCache?.current ?? 0;
    let row = this.keyCache?.get(hash);
    if (!row) {
      // concurrent requests with a key the cache does not hold (yet, or since its TTL ran out) share one lookup; one
      // that starts after an invalidation never joins a lookup begun before it (it could read the key unrevoked)
      const shared = `${readIn}:${hash}`;
      let lookup = this.keyLookups.get(shared);
      if (!lookup) {
        lookup = repo.findApiKeyByHash(this.db, hash).finally(() => this.keyLookups.delete(shared));
        this.keyLookups.set(shared, lookup);
      }
      row = await lookup;
      if (!row) return { ...ANONYMOUS, failure: 'invalid_api_key' };
      this.keyCache?.keep(hash, row, readIn);
    }
    if (row.revokedAt) return { ...ANONYMOUS, failure: 'revoked_api_key' };
    if (row.expiresAt && toDate(row.expiresAt).getTime() <= Date.now())
      return { ...ANONYMOUS, failure: 'expired_api_key' };
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

  private async resolveJwt(token: string): Promise<AuthContext> {
    const r = this.jwtVerifier ? await this.jwtVerifier(token).catch(() => null) : null;
    if (!r) return { ...ANONYMOUS, failure: 'invalid_token' };
    return { user: r.user, method: 'jwt', apiKeyId: null, scopes: null, sessionId: r.sessionId, failure: null };
  }

  private async resolveSession(req: FastifyRequest, token: string): Promise<AuthContext> {
    if (token.length > 200) return { ...ANONYMOUS, failure: 'invalid_session' };
    const tokenHash = this.hashSessionToken(token);
    const nonce = nonceFromRequest(req);
    // WordPress semantics: a cookie without a nonce is simply logged out (CSRF defence), not an error.
    if (!nonce) return { ...ANONYMOUS, failure: 'missing_nonce' };
    if (!verifyNonce(this.secret, tokenHash, nonce)) return { ...ANONYMOUS, failure: 'invalid_nonce' };
    const s = await repo.findSession(this.db, tokenHash);
    if (!s) return { ...ANONYMOUS, failure: 'invalid_session' };
    return { user: s.user, method: 'cookie', apiKeyId: null, scopes: null, sessionId: s.id, failure: null };
  }

  /** The nonce for the session cookie on this request, or null when the cookie is not a live session. */
  async nonceForCookie(token: string | undefined): Promise<{ nonce: string; user: AuthUser } | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = this.hashSessionToken(token);
    const s = await repo.findSession(this.db, tokenHash);
    if (!s) return null;
    return { nonce: createNonce(this.secret, tokenHash), user: s.user };
  }

  async login(
    req: FastifyRequest,
    login: string,
    password: string,
  ): Promise<{ token: string; nonce: string; user: AuthUser; expiresAt: Date }> {
    const user = await this.checkPassword(req, login, password);
    const token = randomToken('', 32);
    const tokenHash = this.hashSessionToken(token);
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    // In a transaction of its own: a COMMIT whose answer was lost is resolved (pg_xact_status), so a session that
    // was stored is answered with its cookie, never with a 503 — the retry would log in again for nothing.
    await inOwnTransaction(this.db, (tx) =>
      repo.insertSession(
        tx,
        tokenHash,
        user.id,
        expiresAt,
        clientAddress(req),
        headerValue(req.headers['user-agent']) ?? '',
      ),
    );
    return { token, nonce: createNonce(this.secret, tokenHash), user, expiresAt };
  }

  /**
   * Login and password, under the login limits (every door that takes a password uses this: cookie login and
   * the JWT password grant share the buckets). 429 when a bucket is full, 401 when the pair is wrong.
   */
  async checkPassword(req: FastifyRequest, login: string, password: string): Promise<AuthUser> {
    const address = addressKey(clientAddress(req));
    const { perAddress, perAccountAddress, perAccount, windowSeconds } = this.loginLimits;
    // Each bucket is counted only when the ones before it allow the attempt: an address over its limit adds
    // nothing to the account's ceiling, so it cannot push the owner (at another address) over it.
    tooManyLogins(await this.limits.hit('login-ip', address, perAddress, windowSeconds));
    const typed = login.trim().toLowerCase().slice(0, 200);
    const user = await repo.findUserByLogin(this.db, typed);
    const account = user ? `user:${user.id}` : `login:${typed}`;
    const pair = `${account} ${address}`;
    tooManyLogins(await this.limits.hit('login-account-address', pair, perAccountAddress, windowSeconds));
    tooManyLogins(await this.limits.hit('login-account', account, perAccount, windowSeconds));
    const ok = await verifyPassword(password, user?.passwordHash ?? null);
    if (!user || !ok) throw RovaErrors.invalidCredentials('Unknown login or wrong password.');
    // an imported WordPress hash (phpass, bcrypt) becomes Rova's scrypt on the first good login
    if (needsRehash(user.passwordHash)) await repo.setUserPassword(this.db, user.id, await hashPassword(password));
    // The limits are budgets for failures: a good login takes its hits back (an operator who logs in often is
    // never locked out), and clears the pair's failures.
    await this.limits.reset('login-account-address', pair, windowSeconds);
    await this.limits.giveBack('login-ip', address, windowSeconds);
    await this.limits.giveBack('login-account', account, windowSeconds);
    const { passwordHash: _ph, createdAt: _c, ...pub } = user;
    return pub;
  }

  async logout(ctx: AuthContext): Promise<void> {
    if (ctx.sessionId !== null) await repo.deleteSession(this.db, ctx.sessionId);
  }

  /** `passwordHash`: the password already hashed (hashPassword), so a caller's transaction does not wait for it. */
  async createUser(
    input: {
      login: string;
      email: string;
      role: string;
      password?: string;
      passwordHash?: string;
      displayName?: string;
    },
    db = this.db,
  ): Promise<AuthUser> {
    const login = input.login.trim();
    const email = input.email.trim().toLowerCase();
    if (!/^[A-Za-z0-9._@-]{2,60}$/.test(login))
      throw HttpErrors.badRequest('login must be 2-60 characters: letters, digits, . _ @ -', {
        params: { login: 'invalid' },
      });
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 200)
      throw HttpErrors.badRequest('email is not a valid address', { params: { email: 'invalid' } });
    if (!isRole(input.role))
      throw HttpErrors.badRequest('role must be one of administrator, shop_manager, vendor, customer', {
        params: { role: 'invalid' },
      });
    if (input.password !== undefined && (input.password.length < 8 || input.password.length > 200)) {
      throw HttpErrors.badRequest('password must be 8-200 characters', { params: { password: 'invalid' } });
    }
    const existing = (await repo.findUserByLogin(db, login)) ?? (await repo.findUserByLogin(db, email));
    if (existing) throw RovaErrors.userExists(`a user with login "${login}" or email "${email}" already exists`);
    const passwordHash = input.passwordHash ?? (input.password ? await hashPassword(input.password) : null);
    try {
      return await repo.insertUser(db, {
        login,
        email,
        displayName: input.displayName?.trim() || login,
        role: input.role,
        passwordHash,
      });
    } catch (err) {
      // the same login or address written by a concurrent request after the check above: the unique index says so
      if (sqlStateOf(err) === '23505')
        throw RovaErrors.userExists(`a user with login "${login}" or email "${email}" already exists`);
      throw err;
    }
  }

  async findUser(loginOrEmail: string): Promise<AuthUser | undefined> {
    const u = await repo.findUserByLogin(this.db, loginOrEmail);
    if (!u) return undefined;
    const { passwordHash: _p, createdAt: _c, ...pub } = u;
    return pub;
  }

  /** In a transaction (`db` given), the caller calls usersChanged() again after the commit. */
  async setRole(userId: number, role: Role, db = this.db): Promise<void> {
    await repo.updateUserRole(db, userId, role);
    await this.usersChanged();
  }

  async setPassword(userId: number, password: string): Promise<void> {
    await this.setPasswordHash(userId, await hashPassword(password));
  }

  /** A password hashed beforehand (`hashPassword`), set in `db` (a caller's transaction). */
  async setPasswordHash(userId: number, passwordHash: string, db: Db = this.db): Promise<void> {
    await repo.setUserPassword(db, userId, passwordHash);
  }

  async createApiKey(
    input: {
      userId: number;
      name?: string;
      scopes?: string[];
      expiresAt?: Date | null;
    },
    db = this.db,
  ): Promise<{ key: string; view: ApiKeyView }> {
    const scopes = normaliseScopes(input.scopes);
    if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
      throw HttpErrors.badRequest('expires_at must be in the future', { params: { expires_at: 'in the past' } });
    const user = await repo.findUserById(db, input.userId);
    if (!user) throw RovaErrors.userNotFound(`user ${input.userId} not found`);
    const key = randomToken('rova_', 32);
    const row = await repo.insertApiKey(db, {
      userId: input.userId,
      name: (input.name ?? '').trim().slice(0, 100),
      keyHash: this.hashKey(key),
      keyPrefix: key.slice(0, 12),
      scopes,
      expiresAt: input.expiresAt ?? null,
    });
    return { key, view: apiKeyView(row) };
  }

  async listApiKeys(
    userId: number | undefined,
    page: number,
    perPage: number,
  ): Promise<{ items: ApiKeyView[]; total: number }> {
    const r = await repo.listApiKeys(this.db, userId, page, perPage);
    return { items: r.items.map((k) => ({ ...apiKeyView(k), user_login: k.userLogin })), total: r.total };
  }

  async revokeApiKey(id: number): Promise<ApiKeyView> {
    const row = await repo.revokeApiKey(this.db, id);
    if (!row) throw RovaErrors.apiKeyNotFound(`API key ${id} not found`);
    await this.usersChanged();
    return apiKeyView(row);
  }

  /** ROVA_BOOTSTRAP_ADMIN_KEY: user `admin` exists and this exact string is a live read+write key of it. */
  async ensureBootstrapAdmin(key: string): Promise<void> {
    let admin = await this.findUser('admin');
    if (!admin)
      admin = await this.createUser({ login: 'admin', email: 'admin@localhost.localdomain', role: 'administrator' });
    else if (admin.role !== 'administrator') await this.setRole(admin.id, 'administrator');
    const existing = await repo.findApiKeyByHash(this.db, this.hashKey(key));
    if (existing && existing.userId === admin.id) {
      await repo.restoreApiKey(this.db, existing.id, ['read', 'write']);
      await this.usersChanged();
      return;
    }
    if (existing) throw new Error('ROVA_BOOTSTRAP_ADMIN_KEY is already a key of another user; choose another value');
    await repo.insertApiKey(this.db, {
      userId: admin.id,
      name: 'bootstrap (ROVA_BOOTSTRAP_ADMIN_KEY)',
      keyHash: this.hashKey(key),
      // The operator chose this secret: unlike generated keys (random after `rova_`), any part of it in clear helps a guesser.
      keyPrefix: '',
      scopes: ['read', 'write'],
      expiresAt: null,
    });
  }
}

function tooManyLogins(r: HitResult): void {
  if (r.allowed) return;
  throw RovaErrors.tooManyLogins('Too many login attempts. Wait a few minutes and try again.', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(r.resetMs / 1000))),
  });
}

export function normaliseScopes(scopes: string[] | undefined): Scope[] {
  const list = scopes === undefined || scopes.length === 0 ? ['read'] : scopes.map((s) => s.trim().toLowerCase());
  for (const s of list)
    if (!(SCOPES as readonly string[]).includes(s))
      throw HttpErrors.badRequest(`unknown scope "${s}"; use read and/or write`, { params: { scopes: 'invalid' } });
  return SCOPES.filter((s) => list.includes(s));
}

function apiKeyView(k: repo.ApiKeyRow): ApiKeyView {
  const expiresAt = toDateOrNull(k.expiresAt);
  const expired = expiresAt !== null && expiresAt.getTime() <= Date.now();
  return {
    id: k.id,
    user_id: k.userId,
    name: k.name,
    prefix: k.keyPrefix,
    scopes: k.scopes,
    expires_at: expiresAt?.toISOString() ?? null,
    revoked_at: toDateOrNull(k.revokedAt)?.toISOString() ?? null,
    last_used_at: toDateOrNull(k.lastUsedAt)?.toISOString() ?? null,
    created_at: toDate(k.createdAt).toISOString(),
    status: k.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
  };
}

function headerValue(v: string | string[] | undefined): string | null {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim() : null;
}

export function nonceFromRequest(req: FastifyRequest): string | null {
  const h = headerValue(req.headers['x-wp-nonce']) ?? headerValue(req.headers['_wpnonce']);
  if (h) return h;
  const q = (req.query as Record<string, unknown> | undefined)?._wpnonce;
  if (typeof q === 'string' && q) return q;
  const b = req.body as Record<string, unknown> | undefined;
  if (b && typeof b === 'object' && typeof b._wpnonce === 'string' && b._wpnonce) return b._wpnonce;
  return null;
}

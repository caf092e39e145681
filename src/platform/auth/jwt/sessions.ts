import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { toDate, type Db } from '../../db/types.js';
import { clientAddress } from '../../http/client-ip.js';
import { RovaErrors } from '../../errors.js';
import type { Platform } from '../../context.js';
import { perPlatform } from '../../per-platform.js';
import { securitySettings } from '../../security-settings.js';
import { keyedHash, randomToken } from '../crypto.js';
import { SecretBox } from '../secret-box.js';
import type { AuthUser } from '../types.js';
import { JWT_ALG, SigningKeys } from './keys.js';
import * as repo from './repo.js';

export const CLOCK_TOLERANCE_S = 30;
export const REFRESH_IDLE_MS = 30 * 24 * 3600 * 1000;
export const REFRESH_ABSOLUTE_MS = 90 * 24 * 3600 * 1000;
/** A concurrent refresh (same token, from the same app) within this window gets the same child token. */
export const REUSE_GRACE_MS = 10_000;
const TOUCH_EVERY_MS = 60_000;

export interface TokenPair {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export interface SessionView {
  id: number;
  device: string;
  ip: string | null;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  current: boolean;
}

const invalidGrant = (message: string) => RovaErrors.invalidGrant(message);

/**
 * JWT sessions for mobile apps: short-lived EdDSA access tokens plus rotating opaque refresh tokens. Every
 * access token is checked against its session row, so a revoked session stops working at once on every
 * node (one indexed read per request, like an API key).
 */
export class JwtSessions {
  readonly keys: SigningKeys;
  private readonly box: SecretBox;
  private readonly touched = new Map<number, number>();
  private readonly db: Db;
  /** Milliseconds since the epoch; tests replace it to move through token lifetimes. */
  now: () => number = () => Date.now();

  constructor(private readonly p: Platform) {
    this.db = p.db;
    this.keys = new SigningKeys(p.db, p.config.secret, p.bus, () => this.now());
    this.box = new SecretBox(p.config.secret, 'refresh-token-child');
  }

  private get settings() {
    return securitySettings(this.p.config);
  }

  private hash(token: string): string {
    return keyedHash(this.p.config.secret, token, 'refresh-token');
  }

  /** Password grant: login (or e-mail) + password → a new session with its first token pair. */
  async login(req: FastifyRequest, login: string, password: string, device: string | undefined): Promise<TokenPair> {
    const user = await this.checkPassword(req, login, password);
    const ua = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : '';
    const dev = (device?.trim() || ua).slice(0, 200);
    const refresh = randomToken('rrt_', 32);
    const sessionId = await this.p.transaction(async (tx) => {
      const sid = await repo.insertSession(
        tx,
        user.id,
        dev,
        clientAddress(req),
        new Date(this.now() + REFRESH_ABSOLUTE_MS),
      );
      await repo.insertRefreshToken(tx, sid, this.hash(refresh), null);
      return sid;
    });
    req.auditTarget = `user:${user.id}`;
    req.auditDetails = { session_id: sessionId };
    return this.pair(user.id, sessionId, refresh);
  }

  // The cookie login's limits and timing (shared buckets: both doors count together).
  private checkPassword(req: FastifyRequest, login: string, password: string): Promise<AuthUser> {
    return this.p.auth.checkPassword(req, login, password);
  }

  /**
   * Rotates a refresh token. The immediate parent used again within REUSE_GRACE_MS (two requests of one app
   * racing) gets the same child; any other reuse means the token leaked: the whole family is revoked.
   */
  async refresh(req: FastifyRequest, token: string): Promise<TokenPair> {
    type Outcome =
      { error: string; reuse?: number; userId?: number } | { userId: number; sessionId: number; refresh: string };
    const outcome = await this.p.transaction(async (tx): Promise<Outcome> => {
      const t = await repo.lockRefreshToken(tx, this.hash(token));
      if (!t) return { error: 'The refresh token is not valid. Log in again.' };
      const s = t.session;
      const now = this.now();
      if (s.revokedAt || toDate(s.expiresAt).getTime() <= now) return { error: 'The session has ended. Log in again.' };
      if (t.usedAt === null) {
        if (toDate(t.createdAt).getTime() + REFRESH_IDLE_MS <= now)
          return { error: 'The session was idle too long. Log in again.' };
        const child = randomToken('rrt_', 32);
        const childId = await repo.insertRefreshToken(tx, s.id, this.hash(child), t.id);
        await repo.markRefreshUsed(tx, t.id, childId, this.box.seal(child));
        await repo.touchSession(tx, s.id);
        return { userId: s.userId, sessionId: s.id, refresh: child };
      }
      const sinceUse = now - toDate(t.usedAt).getTime();
      if (sinceUse <= REUSE_GRACE_MS && !t.childUsed && t.childTokenEnc) {
        return { userId: s.userId, sessionId: s.id, refresh: this.box.reveal(t.childTokenEnc) };
      }
      await repo.revokeSession(tx, s.id, null, 'refresh_token_reuse');
      return {
        error: 'The refresh token was already used: the session is revoked. Log in again.',
        reuse: s.id,
        userId: s.userId,
      };
    });
    if ('error' in outcome) {
      if (outcome.reuse !== undefined) {
        req.auditTarget = `user:${outcome.userId}`;
        req.auditDetails = { reason: 'refresh_token_reuse', session_id: outcome.reuse, revoked: 'family' };
      }
      throw invalidGrant(outcome.error);
    }
    req.auditTarget = `user:${outcome.userId}`;
    return this.pair(outcome.userId, outcome.sessionId, outcome.refresh);
  }

  /** RFC 7009 style: revoking an unknown token is not an error (nothing to reveal). */
  async revokeByRefreshToken(token: string): Promise<void> {
    const s = await repo.sessionOfRefreshHash(this.db, this.hash(token));
    if (s) await repo.revokeSession(this.db, s.sessionId, s.userId, 'revoked');
  }

  private async pair(userId: number, sessionId: number, refresh: string): Promise<TokenPair> {
    const ttl = this.settings.accessTtlSeconds;
    return {
      access_token: await this.accessToken(userId, sessionId, ttl),
      token_type: 'Bearer',
      expires_in: ttl,
      refresh_token: refresh,
    };
  }

  async accessToken(userId: number, sessionId: number, ttlSeconds: number): Promise<string> {
    const { kid, key } = await this.keys.current();
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT({ sid: String(sessionId) })
      .setProtectedHeader({ alg: JWT_ALG, kid, typ: 'JWT' })
      .setSubject(String(userId))
      .setAudience(this.settings.audience)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(key);
  }

  /** Verifies an access token (fixed algorithm list, audience, ±30 s) and that its session is live. */
  async verify(token: string): Promise<{ user: AuthUser; sessionId: number } | null> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return null;
    }
    if (typeof kid !== 'string' || kid.length > 100) return null;
    const key = await this.keys.verifying(kid);
    if (!key) return null;
    let sub: number;
    let sid: number;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [JWT_ALG],
        audience: this.settings.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'sid', 'jti', 'iat', 'exp'],
      });
      sub = Number(payload.sub);
      sid = Number(payload.sid);
    } catch {
      return null;
    }
    if (!Number.isSafeInteger(sub) || !Number.isSafeInteger(sid) || sub < 1 || sid < 1) return null;
    const u = await repo.liveSessionUser(this.db, sid, sub);
    if (!u) return null;
    const last = this.touched.get(sid) ?? 0;
    if (Date.now() - last > TOUCH_EVERY_MS) {
      this.touched.set(sid, Date.now());
      void repo.touchSession(this.db, sid).catch(() => undefined);
    }
    const { lastUsedAt: _l, ...user } = u;
    return { user, sessionId: sid };
  }

  async list(userId: number, currentSessionId: number | null): Promise<SessionView[]> {
    return (await repo.listSessions(this.db, userId)).map((s) => ({
      id: s.id,
      device: s.device,
      ip: s.ip,
      created_at: toDate(s.createdAt).toISOString(),
      last_used_at: toDate(s.lastUsedAt).toISOString(),
      expires_at: toDate(s.expiresAt).toISOString(),
      current: s.id === currentSessionId,
    }));
  }

  async revokeOne(userId: number, sessionId: number): Promise<boolean> {
    return repo.revokeSession(this.db, sessionId, userId, 'revoked');
  }

  /** Logout everywhere, password change, user deletion: every JWT and cookie session of the user ends now. */
  async revokeAll(userId: number, reason: string, db: Db = this.db): Promise<number> {
    return repo.revokeAllOfUser(db, userId, reason);
  }
}

/** The JWT session service of a running app. */
export const jwtSessionsOf: (p: Platform) => JwtSessions = perPlatform((p) => new JwtSessions(p));

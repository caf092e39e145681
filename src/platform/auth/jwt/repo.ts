import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/types.js';
import type { AuthUser } from '../types.js';

export interface SessionRow {
  id: number;
  userId: number;
  device: string;
  ip: string | null;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

const SESSION_COLS = sql`s.id::int AS id, s.user_id::int AS "userId", s.device, s.ip, s.created_at AS "createdAt",
  s.last_used_at AS "lastUsedAt", s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt"`;

export async function insertSession(
  db: Db,
  userId: number,
  device: string,
  ip: string,
  expiresAt: Date,
): Promise<number> {
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rova_auth_sessions (user_id, device, ip, expires_at) VALUES (${userId}, ${device}, ${ip}, ${expiresAt.toISOString()}) RETURNING id::int AS id`,
  );
  return r!.id;
}

/** The live session and its user (null when revoked, past its absolute expiry, or the user is gone). */
export async function liveSessionUser(
  db: Db,
  sessionId: number,
  userId: number,
): Promise<(AuthUser & { lastUsedAt: string }) | undefined> {
  return one<AuthUser & { lastUsedAt: string }>(
    db,
    sql`SELECT u.id::int AS id, u.login, u.email, u.display_name AS "displayName", u.role, s.last_used_at AS "lastUsedAt"
        FROM rova_auth_sessions s JOIN rova_users u ON u.id = s.user_id
        WHERE s.id = ${sessionId} AND s.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > now()`,
  );
}

export async function touchSession(db: Db, sessionId: number): Promise<void> {
  await db.execute(sql`UPDATE rova_auth_sessions SET last_used_at = now() WHERE id = ${sessionId}`);
}

export async function listSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return rows<SessionRow>(
    db,
    sql`SELECT ${SESSION_COLS} FROM rova_auth_sessions s WHERE s.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > now() ORDER BY s.id DESC`,
  );
}

export async function revokeSession(
  db: Db,
  sessionId: number,
  userId: number | null,
  reason: string,
): Promise<boolean> {
  const owner = userId === null ? sql`true` : sql`user_id = ${userId}`;
  const r = await rows<{ id: number }>(
    db,
    sql`UPDATE rova_auth_sessions SET revoked_at = now(), revoke_reason = ${reason}
        WHERE id = ${sessionId} AND ${owner} AND revoked_at IS NULL RETURNING id::int AS id`,
  );
  return r.length > 0;
}

/** Every JWT session and every cookie session of the user; returns how many ended. */
export async function revokeAllOfUser(db: Db, userId: number, reason: string): Promise<number> {
  const jwt = await rows<{ id: number }>(
    db,
    sql`UPDATE rova_auth_sessions SET revoked_at = now(), revoke_reason = ${reason}
        WHERE user_id = ${userId} AND revoked_at IS NULL RETURNING id::int AS id`,
  );
  const cookie = await rows<{ id: number }>(
    db,
    sql`DELETE FROM rova_sessions WHERE user_id = ${userId} RETURNING id::int AS id`,
  );
  return jwt.length + cookie.length;
}

export interface RefreshRow {
  id: number;
  sessionId: number;
  createdAt: string;
  usedAt: string | null;
  childId: number | null;
  childTokenEnc: string | null;
  /** Whether the child has itself been used (then the parent is no longer the immediate parent). */
  childUsed: boolean;
  session: SessionRow;
}

/** Locks the refresh token's row: concurrent refreshes with one token run one after the other. */
export async function lockRefreshToken(db: Db, tokenHash: string): Promise<RefreshRow | undefined> {
  const r = await one<Omit<RefreshRow, 'session'> & { s: SessionRow }>(
    db,
    sql`SELECT t.id::int AS id, t.session_id::int AS "sessionId", t.created_at AS "createdAt", t.used_at AS "usedAt",
          t.child_id::int AS "childId", t.child_token_enc AS "childTokenEnc",
          COALESCE((SELECT c.used_at IS NOT NULL FROM rova_refresh_tokens c WHERE c.id = t.child_id), false) AS "childUsed",
          (SELECT row_to_json(x) FROM (SELECT ${SESSION_COLS} FROM rova_auth_sessions s WHERE s.id = t.session_id) x) AS s
        FROM rova_refresh_tokens t WHERE t.token_hash = ${tokenHash} FOR UPDATE`,
  );
  if (!r) return undefined;
  const { s, ...t } = r;
  return { ...t, session: s };
}

export async function insertRefreshToken(
  db: Db,
  sessionId: number,
  tokenHash: string,
  parentId: number | null,
): Promise<number> {
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rova_refresh_tokens (session_id, token_hash, parent_id) VALUES (${sessionId}, ${tokenHash}, ${parentId}) RETURNING id::int AS id`,
  );
  return r!.id;
}

export async function markRefreshUsed(db: Db, id: number, childId: number, childTokenEnc: string): Promise<void> {
  await db.execute(
    sql`UPDATE rova_refresh_tokens SET used_at = now(), child_id = ${childId}, child_token_enc = ${childTokenEnc} WHERE id = ${id}`,
  );
  // this token's parent is no longer the immediate parent: its copy of this token is not needed any more
  await db.execute(sql`UPDATE rova_refresh_tokens SET child_token_enc = NULL WHERE child_id = ${id}`);
}

export async function sessionOfRefreshHash(
  db: Db,
  tokenHash: string,
): Promise<{ sessionId: number; userId: number } | undefined> {
  return one<{ sessionId: number; userId: number }>(
    db,
    sql`SELECT s.id::int AS "sessionId", s.user_id::int AS "userId" FROM rova_refresh_tokens t JOIN rova_auth_sessions s ON s.id = t.session_id
        WHERE t.token_hash = ${tokenHash}`,
  );
}

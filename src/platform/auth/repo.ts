import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../db/types.js';
import type { Role } from './roles.js';
import type { AuthUser, Scope } from './types.js';

const USER_COLS = sql`id::int AS id, login, email, display_name AS "displayName", role`;

export interface UserRow extends AuthUser {
  passwordHash: string | null;
  createdAt: string;
}

export async function findUserByLogin(db: Db, loginOrEmail: string): Promise<UserRow | undefined> {
  return one<UserRow>(
    db,
    sql`SELECT ${USER_COLS}, password_hash AS "passwordHash", created_at AS "createdAt" FROM rova_users
        WHERE lower(login) = lower(${loginOrEmail}) OR lower(email) = lower(${loginOrEmail}) ORDER BY (lower(login) = lower(${loginOrEmail})) DESC LIMIT 1`,
  );
}

export async function findUserById(db: Db, id: number): Promise<AuthUser | undefined> {
  return one<AuthUser>(db, sql`SELECT ${USER_COLS} FROM rova_users WHERE id = ${id}`);
}

export async function listUsers(
  db: Db,
  role: Role | undefined,
  page: number,
  perPage: number,
): Promise<{ items: (AuthUser & { createdAt: string })[]; total: number }> {
  const cond = role ? sql`role = ${role}` : sql`true`;
  const total = (await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rova_users WHERE ${cond}`))?.n ?? 0;
  const items = await rows<AuthUser & { createdAt: string }>(
    db,
    sql`SELECT ${USER_COLS}, created_at AS "createdAt" FROM rova_users WHERE ${cond} ORDER BY id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  return { items, total };
}

export async function insertUser(
  db: Db,
  u: { login: string; email: string; displayName: string; role: Role; passwordHash: string | null },
): Promise<AuthUser> {
  const r = await one<AuthUser>(
    db,
    sql`INSERT INTO rova_users (login, email, display_name, role, password_hash)
        VALUES (${u.login}, ${u.email}, ${u.displayName}, ${u.role}, ${u.passwordHash}) RETURNING ${USER_COLS}`,
  );
  return r!;
}

export async function updateUserRole(db: Db, id: number, role: Role): Promise<void> {
  await db.execute(sql`UPDATE rova_users SET role = ${role}, updated_at = now() WHERE id = ${id}`);
}

export async function setUserPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.execute(sql`UPDATE rova_users SET password_hash = ${passwordHash}, updated_at = now() WHERE id = ${id}`);
}

/** Deletes the user; keys, cookie sessions and app sessions go with it (ON DELETE CASCADE). */
export async function deleteUser(db: Db, id: number): Promise<boolean> {
  const r = await rows<{ id: number }>(db, sql`DELETE FROM rova_users WHERE id = ${id} RETURNING id::int AS id`);
  return r.length > 0;
}

export interface SessionRow {
  id: number;
  userId: number;
  expiresAt: string;
}

export async function insertSession(
  db: Db,
  tokenHash: string,
  userId: number,
  expiresAt: Date,
  ip: string,
  userAgent: string,
): Promise<number> {
  const r = await one<{ id: number }>(
    db,
    sql`INSERT INTO rova_sessions (token_hash, user_id, expires_at, ip, user_agent)
        VALUES (${tokenHash}, ${userId}, ${expiresAt.toISOString()}, ${ip}, ${userAgent.slice(0, 300)}) RETURNING id::int AS id`,
  );
  return r!.id;
}

export async function findSession(db: Db, tokenHash: string): Promise<(SessionRow & { user: AuthUser }) | undefined> {
  const r = await one<SessionRow & AuthUser & { sid: number }>(
    db,
    sql`SELECT s.id::int AS sid, s.user_id::int AS "userId", s.expires_at AS "expiresAt",
          u.id::int AS id, u.login, u.email, u.display_name AS "displayName", u.role
        FROM rova_sessions s JOIN rova_users u ON u.id = s.user_id
        WHERE s.token_hash = ${tokenHash} AND s.expires_at > now()`,
  );
  if (!r) return undefined;
  return {
    id: r.sid,
    userId: r.userId,
    expiresAt: r.expiresAt,
    user: { id: r.id, login: r.login, email: r.email, displayName: r.displayName, role: r.role },
  };
}

export async function deleteSession(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM rova_sessions WHERE id = ${id}`);
}

export interface ApiKeyRow {
  id: number;
  userId: number;
  name: string;
  keyPrefix: string;
  scopes: Scope[];
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

const KEY_COLS = sql`k.id::int AS id, k.user_id::int AS "userId", k.name, k.key_prefix AS "keyPrefix", k.scopes,
  k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.last_used_at AS "lastUsedAt", k.created_at AS "createdAt"`;

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<(ApiKeyRow & { user: AuthUser }) | undefined> {
  const r = await one<ApiKeyRow & { uid: number; login: string; email: string; displayName: string; role: Role }>(
    db,
    sql`SELECT ${KEY_COLS}, u.id::int AS uid, u.login, u.email, u.display_name AS "displayName", u.role
        FROM rova_api_keys k JOIN rova_users u ON u.id = k.user_id WHERE k.key_hash = ${keyHash}`,
  );
  if (!r) return undefined;
  const { uid, login, email, displayName, role, ...key } = r;
  return { ...key, user: { id: uid, login, email, displayName, role } };
}

export async function insertApiKey(
  db: Db,
  k: { userId: number; name: string; keyHash: string; keyPrefix: string; scopes: Scope[]; expiresAt: Date | null },
): Promise<ApiKeyRow> {
  const r = await one<ApiKeyRow>(
    db,
    sql`WITH k AS (INSERT INTO rova_api_keys (user_id, name, key_hash, key_prefix, scopes, expires_at)
        VALUES (${k.userId}, ${k.name}, ${k.keyHash}, ${k.keyPrefix}, ${sql.raw(`ARRAY[${k.scopes.map((s) => `'${s === 'write' ? 'write' : 'read'}'`).join(',')}]::text[]`)}, ${k.expiresAt ? k.expiresAt.toISOString() : null})
        RETURNING *) SELECT ${KEY_COLS} FROM k`,
  );
  return r!;
}

export async function restoreApiKey(db: Db, id: number, scopes: Scope[]): Promise<void> {
  await db.execute(sql`UPDATE rova_api_keys SET revoked_at = NULL, expires_at = NULL,
    scopes = ${sql.raw(`ARRAY[${scopes.map((s) => `'${s === 'write' ? 'write' : 'read'}'`).join(',')}]::text[]`)} WHERE id = ${id}`);
}

export async function listApiKeys(
  db: Db,
  userId: number | undefined,
  page: number,
  perPage: number,
): Promise<{ items: (ApiKeyRow & { userLogin: string })[]; total: number }> {
  const cond = userId !== undefined ? sql`k.user_id = ${userId}` : sql`true`;
  const total =
    (await one<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM rova_api_keys k WHERE ${cond}`))?.n ?? 0;
  const items = await rows<ApiKeyRow & { userLogin: string }>(
    db,
    sql`SELECT ${KEY_COLS}, u.login AS "userLogin" FROM rova_api_keys k JOIN rova_users u ON u.id = k.user_id
        WHERE ${cond} ORDER BY k.id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
  );
  return { items, total };
}

export async function revokeApiKey(db: Db, id: number): Promise<ApiKeyRow | undefined> {
  return one<ApiKeyRow>(
    db,
    sql`WITH k AS (UPDATE rova_api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = ${id} RETURNING *) SELECT ${KEY_COLS} FROM k`,
  );
}

export async function touchApiKey(db: Db, id: number): Promise<void> {
  await db.execute(sql`UPDATE rova_api_keys SET last_used_at = now() WHERE id = ${id}`);
}

/** The first administrator's login, if there is one (`rova setup` and the start's hint). */
export async function firstAdministrator(db: Db): Promise<string | undefined> {
  return (
    await one<{ login: string }>(db, sql`SELECT login FROM rova_users WHERE role = 'administrator' ORDER BY id LIMIT 1`)
  )?.login;
}

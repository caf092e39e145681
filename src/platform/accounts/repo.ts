import { sql } from 'drizzle-orm';
import { one, type Db } from '../db/types.js';

export type TokenPurpose = 'verify_email' | 'reset_password';

export interface ProfileRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  first_name: string;
  last_name: string;
  phone: string;
  email_verified_at: string | null;
  created_at: string;
}

const PROFILE = sql`id::int AS id, login, email, display_name, role, first_name, last_name, phone, email_verified_at, created_at`;

export async function profileById(db: Db, id: number): Promise<ProfileRow | undefined> {
  return one<ProfileRow>(db, sql`SELECT ${PROFILE} FROM rova_users WHERE id = ${id}`);
}

export async function userIdByEmail(db: Db, email: string): Promise<number | undefined> {
  return (await one<{ id: number }>(db, sql`SELECT id::int AS id FROM rova_users WHERE lower(email) = lower(${email})`))
    ?.id;
}

export async function updateProfile(
  db: Db,
  id: number,
  f: { first_name?: string; last_name?: string; phone?: string; display_name?: string },
): Promise<ProfileRow | undefined> {
  return one<ProfileRow>(
    db,
    sql`UPDATE rova_users SET
      first_name = COALESCE(${f.first_name ?? null}, first_name), last_name = COALESCE(${f.last_name ?? null}, last_name),
      phone = COALESCE(${f.phone ?? null}, phone), display_name = COALESCE(${f.display_name ?? null}, display_name), updated_at = now()
    WHERE id = ${id} RETURNING ${PROFILE}`,
  );
}

export async function insertToken(
  db: Db,
  userId: number,
  purpose: TokenPurpose,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  // a new token of the same purpose replaces the older ones (only the latest link works)
  await db.execute(
    sql`UPDATE rova_account_tokens SET used_at = now() WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`,
  );
  await db.execute(
    sql`INSERT INTO rova_account_tokens (user_id, purpose, token_hash, expires_at) VALUES (${userId}, ${purpose}, ${tokenHash}, ${expiresAt.toISOString()})`,
  );
}

/** Marks a live token used and returns its user; undefined when unknown, used or expired (single use, atomically). */
export async function consumeToken(db: Db, purpose: TokenPurpose, tokenHash: string): Promise<number | undefined> {
  const r = await one<{ user_id: number }>(
    db,
    sql`UPDATE rova_account_tokens SET used_at = now()
    WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now() RETURNING user_id::int AS user_id`,
  );
  return r?.user_id;
}

export async function markVerified(db: Db, userId: number): Promise<void> {
  await db.execute(
    sql`UPDATE rova_users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now() WHERE id = ${userId}`,
  );
}

/** A password reset ends every cookie session of the user (whoever held the old password is logged out). */
export async function endSessions(db: Db, userId: number): Promise<void> {
  await db.execute(sql`DELETE FROM rova_sessions WHERE user_id = ${userId}`);
}

import { sql } from 'drizzle-orm';
import { one, type Db } from '../db/types.js';
import type { ApiKeyRow } from './repo.js';
import type { Role } from './roles.js';
import type { AuthUser, Scope } from './types.js';

/** SQL of WooCommerce-format keys (rows of rova_api_keys that carry a consumer secret). */

export interface WooKeyRow {
  id: number;
  scopes: Scope[];
  expiresAt: string | null;
  revokedAt: string | null;
  secretHash: string;
  secretSealed: string;
  user: AuthUser;
}

export async function findWooKey(db: Db, consumerKeyHash: string): Promise<WooKeyRow | undefined> {
  const r = await one<
    Omit<WooKeyRow, 'user'> & { uid: number; login: string; email: string; displayName: string; role: Role }
  >(
    db,
    sql`SELECT k.id::int AS id, k.scopes, k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt",
          k.wc_secret_hash AS "secretHash", k.wc_secret_sealed AS "secretSealed",
          u.id::int AS uid, u.login, u.email, u.display_name AS "displayName", u.role
        FROM rova_api_keys k JOIN rova_users u ON u.id = k.user_id
        WHERE k.key_hash = ${consumerKeyHash} AND k.wc_secret_hash IS NOT NULL`,
  );
  if (!r) return undefined;
  const { uid, login, email, displayName, role, ...key } = r;
  return { ...key, user: { id: uid, login, email, displayName, role } };
}

export async function insertWooKey(
  db: Db,
  k: {
    userId: number;
    name: string;
    keyHash: string;
    keyPrefix: string;
    scopes: Scope[];
    expiresAt: Date | null;
    secretHash: string;
    secretSealed: string;
  },
): Promise<ApiKeyRow> {
  const r = await one<ApiKeyRow>(
    db,
    sql`INSERT INTO rova_api_keys (user_id, name, key_hash, key_prefix, scopes, expires_at, wc_secret_hash, wc_secret_sealed)
        VALUES (${k.userId}, ${k.name}, ${k.keyHash}, ${k.keyPrefix}, string_to_array(${k.scopes.join(',')}, ','),
                ${k.expiresAt ? k.expiresAt.toISOString() : null}, ${k.secretHash}, ${k.secretSealed})
        RETURNING id::int AS id, user_id::int AS "userId", name, key_prefix AS "keyPrefix", scopes, expires_at AS "expiresAt",
          revoked_at AS "revokedAt", last_used_at AS "lastUsedAt", created_at AS "createdAt"`,
  );
  return r!;
}

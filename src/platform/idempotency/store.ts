import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { one, type Db } from '../db/types.js';
import { HttpError } from '../http/errors.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface StoredAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

function fingerprint(body: unknown): string {
  const canon = (v: unknown): unknown => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canon(x)])) : v);
  return createHash('sha256').update(JSON.stringify(canon(body ?? null))).digest('hex');
}

/**
 * Idempotency-Key (IETF draft semantics): the first request with a key runs and its answer is stored for 24 h;
 * the same key with the same body gets the stored answer; with another body → 422; while the first still runs
 * → 409. Keys are scoped to the caller. A request that fails releases its key, so the client may retry.
 */
export async function idempotent(db: Db, scope: string, key: string | undefined, body: unknown, run: () => Promise<{ status: number; body: unknown }>): Promise<StoredAnswer> {
  if (key === undefined) return { ...(await run()), replayed: false };
  if (!KEY.test(key)) throw new HttpError(400, 'INVALID_PARAMS', 'Idempotency-Key must be 1-255 visible ASCII characters.', { field: 'Idempotency-Key' });
  const fp = fingerprint(body);
  await db.execute(sql`DELETE FROM rova_idempotent_requests WHERE scope = ${scope} AND key = ${key} AND expires_at <= now()`);
  const mine = await one<{ key: string }>(db, sql`INSERT INTO rova_idempotent_requests (scope, key, fingerprint, status, expires_at)
    VALUES (${scope}, ${key}, ${fp}, 'running', ${new Date(Date.now() + IDEMPOTENCY_TTL_MS).toISOString()}) ON CONFLICT DO NOTHING RETURNING key`);
  if (!mine) {
    const prior = await one<{ fingerprint: string; status: string; response_status: number | null; response_body: unknown }>(db,
      sql`SELECT fingerprint, status, response_status, response_body FROM rova_idempotent_requests WHERE scope = ${scope} AND key = ${key}`);
    if (!prior) throw new HttpError(409, 'STATE_CONFLICT', 'A request with this Idempotency-Key just changed state; retry.', { reason: 'idempotency_key_in_flight' });
    if (prior.fingerprint !== fp) throw new HttpError(422, 'IDEMPOTENCY_KEY_MISMATCH', 'This Idempotency-Key was used with a different request body.', { field: 'Idempotency-Key' });
    if (prior.status !== 'done') throw new HttpError(409, 'STATE_CONFLICT', 'A request with this Idempotency-Key is still being processed.', { reason: 'idempotency_key_in_flight' });
    return { status: prior.response_status ?? 200, body: prior.response_body, replayed: true };
  }
  try {
    const r = await run();
    await db.execute(sql`UPDATE rova_idempotent_requests SET status = 'done', response_status = ${r.status}, response_body = ${JSON.stringify(r.body)}::jsonb
      WHERE scope = ${scope} AND key = ${key}`);
    return { ...r, replayed: false };
  } catch (err) {
    await db.execute(sql`DELETE FROM rova_idempotent_requests WHERE scope = ${scope} AND key = ${key}`).catch(() => undefined);
    throw err;
  }
}

export async function purgeIdempotency(db: Db): Promise<void> {
  await db.execute(sql`DELETE FROM rova_idempotent_requests WHERE expires_at <= now()`);
}

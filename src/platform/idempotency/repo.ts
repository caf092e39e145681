import { sql } from 'drizzle-orm';
import { one, type Db } from '../db/types.js';

/**
 * rova_idempotent_requests (migrations 0520, 0590). A row is `running` while its request runs, under a lease
 * (`lease_until`) held by `holder`; `committed` once the request's transaction committed its effect together with
 * the answer known at that point; `done` with the final answer.
 */
export type KeyStatus = 'running' | 'committed' | 'done';

export interface KeyRow {
  fingerprint: string;
  status: KeyStatus;
  response_status: number | null;
  response_body: unknown;
  /** null for a done key (no lease). */
  lease_expired: boolean | null;
}

export interface KeyRef {
  scope: string;
  key: string;
}

export interface Lease {
  holder: string;
  fingerprint: string;
  leaseMs: number;
  expiresAt: Date;
}

export async function dropExpiredKey(db: Db, k: KeyRef): Promise<void> {
  await db.execute(
    sql`DELETE FROM rova_idempotent_requests WHERE scope = ${k.scope} AND key = ${k.key} AND expires_at <= now()`,
  );
}

/** A new running row for the key, or false when the key has a row already. */
export async function insertRunningKey(db: Db, k: KeyRef, l: Lease): Promise<boolean> {
  const r = await one<{ key: string }>(
    db,
    sql`INSERT INTO rova_idempotent_requests (scope, key, fingerprint, status, holder, lease_until, expires_at)
    VALUES (${k.scope}, ${k.key}, ${l.fingerprint}, 'running', ${l.holder}, now() + ${l.leaseMs}::integer * interval '1 millisecond', ${l.expiresAt.toISOString()})
    ON CONFLICT DO NOTHING RETURNING key`,
  );
  return r !== undefined;
}

/**
 * Takes over a running row whose lease ran out (its request died without a word, or outlived the request timeout):
 * one statement, so of two requests racing for it exactly one gets it. Only for the same request body.
 */
export async function takeOverAbandonedKey(db: Db, k: KeyRef, l: Lease): Promise<boolean> {
  const r = await one<{ key: string }>(
    db,
    sql`UPDATE rova_idempotent_requests
    SET holder = ${l.holder}, lease_until = now() + ${l.leaseMs}::integer * interval '1 millisecond', expires_at = ${l.expiresAt.toISOString()}
    WHERE scope = ${k.scope} AND key = ${k.key} AND fingerprint = ${l.fingerprint} AND status = 'running' AND lease_until < now()
    RETURNING key`,
  );
  return r !== undefined;
}

export async function readKey(db: Db, k: KeyRef): Promise<KeyRow | undefined> {
  return one<KeyRow>(
    db,
    sql`SELECT fingerprint, status, response_status, response_body, lease_until < now() AS lease_expired
    FROM rova_idempotent_requests WHERE scope = ${k.scope} AND key = ${k.key}`,
  );
}

/** In the run's transaction: running → committed with the answer so far, if this holder still holds the key. */
export async function commitKey(
  tx: Db,
  k: KeyRef,
  holder: string,
  answer: { status: number; body: unknown },
): Promise<boolean> {
  const r = await one<{ key: string }>(
    tx,
    sql`UPDATE rova_idempotent_requests
    SET status = 'committed', response_status = ${answer.status}, response_body = ${JSON.stringify(answer.body)}::jsonb
    WHERE scope = ${k.scope} AND key = ${k.key} AND holder = ${holder} AND status = 'running' RETURNING key`,
  );
  return r !== undefined;
}

/** The final answer, if this holder still holds the key (running, or committed by its own transaction). */
export async function finishKey(
  db: Db,
  k: KeyRef,
  holder: string,
  answer: { status: number; body: unknown },
): Promise<void> {
  await db.execute(sql`UPDATE rova_idempotent_requests
    SET status = 'done', response_status = ${answer.status}, response_body = ${JSON.stringify(answer.body)}::jsonb, lease_until = NULL
    WHERE scope = ${k.scope} AND key = ${k.key} AND holder = ${holder} AND status IN ('running', 'committed')`);
}

/** Frees the key this holder holds, whatever its state (the effect was undone, in `tx` when given). */
export async function releaseKey(db: Db, k: KeyRef, holder: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM rova_idempotent_requests WHERE scope = ${k.scope} AND key = ${k.key} AND holder = ${holder}`,
  );
}

/**
 * After a failed run: a key whose run committed nothing is freed; a key whose run committed its effect keeps it
 * and answers with the answer committed with it from now on.
 */
export async function settleFailedKey(db: Db, k: KeyRef, holder: string): Promise<void> {
  await db.execute(
    sql`DELETE FROM rova_idempotent_requests WHERE scope = ${k.scope} AND key = ${k.key} AND holder = ${holder} AND status = 'running'`,
  );
  await db.execute(sql`UPDATE rova_idempotent_requests SET status = 'done', lease_until = NULL
    WHERE scope = ${k.scope} AND key = ${k.key} AND holder = ${holder} AND status = 'committed'`);
}

export async function purgeExpiredKeys(db: Db): Promise<void> {
  await db.execute(sql`DELETE FROM rova_idempotent_requests WHERE expires_at <= now()`);
}

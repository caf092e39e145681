import type pg from 'pg';
import { isDatabaseUnavailable } from './outage.js';

/**
 * When a transaction's COMMIT was sent but its answer never came back (the connection died in between), the commit
 * may or may not have happened. The transaction's id, read before the COMMIT, lets another connection ask PostgreSQL
 * which it was (`pg_xact_status`): a write that committed is then answered as committed, never as failed.
 */

/** The transaction's id if it has one (it wrote or locked something), null for a transaction that changed nothing. */
export const TRANSACTION_ID = 'SELECT pg_current_xact_id_if_assigned()::text AS xid';

/**
 * A SELECT-list expression for a statement of the transaction that writes anyway: its id, read by that statement
 * instead of a round trip of its own (`transactionIdKnown`).
 */
export const TRANSACTION_ID_COLUMN = 'pg_current_xact_id()::text';

const known = new WeakMap<object, string>();

/** The transaction `tx` read its own id (TRANSACTION_ID_COLUMN): the commit then needs no round trip to ask for it. */
export function transactionIdKnown(tx: object, xid: string): void {
  known.set(tx, xid);
}

export async function transactionIdOf(tx: object, client: pg.ClientBase): Promise<string | null> {
  return known.get(tx) ?? (await client.query<{ xid: string | null }>(TRANSACTION_ID)).rows[0]?.xid ?? null;
}

/**
 * SQLSTATE 08007 (transaction_resolution_unknown): the COMMIT's answer was lost and PostgreSQL could not say within
 * the wait whether it committed. Class 08, so the request answers 503 like any lost connection.
 */
export class CommitOutcomeUnknownError extends Error {
  readonly code = '08007';
  constructor(cause: unknown) {
    super('The connection to the database was lost during COMMIT and whether the transaction committed is not known.', {
      cause,
    });
    this.name = 'CommitOutcomeUnknownError';
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Whether transaction `xid` committed, asked on another connection of `pool` until PostgreSQL says committed or
 * aborted, for at most `waitMs`. "in progress" means its backend has not finished yet: the COMMIT is still being
 * written, or the backend has not yet seen its client go (it then rolls back). A database that cannot be reached
 * yet is asked again. 'unknown' when the wait ends first.
 */
export async function commitOutcome(
  pool: pg.Pool,
  xid: string,
  waitMs: number,
): Promise<'committed' | 'aborted' | 'unknown'> {
  const until = Date.now() + waitMs;
  let pause = 10;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0) return 'unknown';
    try {
      // query_timeout: a partition that drops packets without closing the socket must not hold the wait open
      const r = await pool.query<{ status: string | null }>({
        text: 'SELECT pg_xact_status($1::xid8) AS status',
        values: [xid],
        query_timeout: Math.max(left, 50),
      } as pg.QueryConfig);
      const status = r.rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
    } catch (err) {
      if (!isDatabaseUnavailable(err) && !/Query read timeout/.test(String(err))) throw err;
    }
    await sleep(Math.min(pause, Math.max(0, until - Date.now())));
    pause = Math.min(pause * 2, 200);
  }
}

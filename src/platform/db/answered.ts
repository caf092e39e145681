import { isDatabaseUnavailable } from './outage.js';
import type { Db } from './types.js';

/**
 * Single statements outside a transaction (autocommit) have no transaction id the client knows before they commit:
 * when the connection dies with one sent, the commit-outcome question (outcome.ts) cannot be asked. A request path
 * never reports such a write as failed after it committed, in one of two ways:
 *
 * - a statement that ends in the same state however often it runs (an UPDATE setting fixed values, a mark that only
 *   matches the state before it) is sent again on another connection until one is answered (`untilAnswered`): the
 *   answer is then the truth whether or not the lost one had committed — a copy still running on the dead
 *   connection's backend holds the row lock, so the retry waits for it and sees what it did;
 * - any other statement runs in a transaction of its own (`inOwnTransaction`), so the transaction helper
 *   (connect.ts) resolves a lost COMMIT answer with pg_xact_status.
 */

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `statement` (which must be idempotent, see above) until the database answers it: a lost or refused
 * connection is retried, with pauses from 10 to 200 ms, for at most `waitMs` (DATABASE_COMMIT_OUTCOME_WAIT_MS).
 * When the database stays away that long, the last error (a 503: the write's outcome is not known).
 */
export async function untilAnswered<T>(statement: () => Promise<T>, waitMs: number): Promise<T> {
  const until = Date.now() + waitMs;
  let pause = 10;
  for (;;) {
    try {
      return await statement();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + pause > until) throw err;
    }
    await sleep(pause);
    pause = Math.min(pause * 2, 200);
  }
}

/** `write` in a transaction of its own: a COMMIT whose answer was lost is resolved, never reported as failed. */
export function inOwnTransaction<T>(db: Db, write: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(write);
}

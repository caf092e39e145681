/**
 * Whether an error means "the database cannot be reached" (as opposed to a query the database refused): the
 * request may succeed as it is once the database is back, so it is a 503 with Retry-After, not a 500.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATE classes 08 (connection exception; PgBouncer's own errors are 08P01: "server conn crashed?", "no more
// connections allowed", "query_wait_timeout") and 57P0x (admin shutdown, crash shutdown, cannot connect now, database
// dropped), 53300 (too many connections).
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-4]|53300)$/;
// 55000 is "object not in prerequisite state" in general; only "database … is not currently accepting connections" is an outage.
const NOT_ACCEPTING = /not currently accepting connections/i;
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client has encountered a connection error|connect ECONNREFUSED|PGlite is clos(ed|ing)/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (typeof e !== 'object') return false;
    const { code, message, cause, name } = e as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    // the file storage's network errors carry the same codes; they are not the database's
    if (name === 'StorageUnavailableError') return false;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (code === '55000' && typeof message === 'string' && NOT_ACCEPTING.test(message)) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}

/** Seconds a client should wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

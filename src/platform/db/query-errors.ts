import { DrizzleQueryError } from 'drizzle-orm/errors';
import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/**
 * Drizzle's query error puts every parameter of the failed statement into its message ("Failed query: … params:
 * <values>"), and so into every log line, error report and CLI message that shows it: a customer's e-mail, a password
 * hash, a 10 MB value. Every statement of either driver runs through PgPreparedQuery.queryWithCache, so its errors are
 * rewritten there, once per process: the statement text stays (it holds no values: they are parameters), the values
 * go, and so does the driver error's `detail`, which repeats key values ("Key (sku)=(…) already exists").
 */

const SCRUBBED = Symbol.for('rova.queryErrorScrubbed');

/** The error without the statement's parameter values (the same object, for `instanceof` and SQLSTATE readers). */
export function withoutParameters(err: unknown): unknown {
  if (!(err instanceof DrizzleQueryError)) return err;
  const e = err as DrizzleQueryError & { [SCRUBBED]?: true };
  if (e[SCRUBBED]) return e;
  const count = Array.isArray(e.params) ? e.params.length : 0;
  const before = e.message;
  e.message = `Failed query: ${e.query}\n(${count} parameter${count === 1 ? '' : 's'}, not shown)`;
  // the stack's first lines repeat the message as it was when the error was made
  if (typeof e.stack === 'string')
    e.stack = e.stack.startsWith(`Error: ${before}`)
      ? `Error: ${e.message}${e.stack.slice(`Error: ${before}`.length)}`
      : `Error: ${e.message}`;
  e.params = [];
  const cause = e.cause as { detail?: unknown; params?: unknown } | undefined;
  if (cause && typeof cause === 'object') {
    if (typeof cause.detail === 'string') delete cause.detail;
    if (cause.params !== undefined) delete cause.params;
  }
  e[SCRUBBED] = true;
  return e;
}

let installed = false;

/** Installs the rewrite (idempotent; connectDatabase calls it). */
export function scrubQueryErrors(): void {
  if (installed) return;
  installed = true;
  type Run = (queryString: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown>;
  const proto = PgPreparedQuery.prototype as unknown as { queryWithCache: Run };
  const original = proto.queryWithCache;
  proto.queryWithCache = async function (this: unknown, queryString, params, query) {
    try {
      return await original.call(this, queryString, params, query);
    } catch (err) {
      throw withoutParameters(err);
    }
  };
}

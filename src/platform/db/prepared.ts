import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { asSql } from './statement.js';
import { rows, type Db } from './types.js';

// Result types Drizzle's node-postgres driver keeps as PostgreSQL text (timestamps, dates, intervals and their arrays):
// a prepared statement's rows must look exactly like the same statement's rows through Drizzle.
const AS_TEXT = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    AS_TEXT.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format),
};

/** Off once a transaction-mode pooler (PgBouncer before 1.21) refused a named statement: from then on, unnamed. */
let named = true;
const names = new Map<string, string>();

/** A name per statement text, so one name never stands for two texts (on any connection, behind any pooler). */
function nameOf(text: string): string {
  let n = names.get(text);
  if (!n) {
    if (names.size > 500) names.clear();
    n = `rova_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, n);
  }
  return n;
}

interface DrizzleParts {
  session?: { client?: unknown };
  dialect?: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } };
}

/**
 * Runs a hot autocommit statement as a named prepared statement on PostgreSQL: each connection parses and plans it
 * once, then only binds new values (a booking's statement spent 0.7 ms planning per call). PGlite, and a pooler that
 * cannot keep named statements (SQLSTATE 26000 / 42P05: the statement is retried unnamed, and every later one is
 * sent unnamed), get the plain statement.
 */
export async function rowsPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const { session, dialect } = db as unknown as DrizzleParts;
  const pool = session?.client;
  if (!named || !dialect || !(pool instanceof pg.Pool)) return rows<T>(db, query);
  const built = dialect.sqlToQuery(query);
  return runNamed<T>(pool, built.sql, built.params, () => rows<T>(db, query));
}

/** The same for a statement built as text (`StatementText`): on PGlite or in a transaction, through Drizzle. */
export async function rowsPreparedText<T>(db: Db, text: string, params: readonly unknown[]): Promise<T[]> {
  const pool = (db as unknown as DrizzleParts).session?.client;
  if (!named || !(pool instanceof pg.Pool)) return rows<T>(db, asSql(text, params));
  return runNamed<T>(pool, text, params, () => rows<T>(db, asSql(text, params)));
}

/**
 * The same in a transaction on PostgreSQL (its connection is the transaction's): named on that connection. A refusal
 * by a pooler aborts the transaction, so it cannot be retried in it: the error is thrown (see `preparedStatementRefused`)
 * and the caller runs its transaction again — unnamed from then on, as everywhere.
 */
export async function rowsPreparedInTransaction<T>(tx: Db, text: string, params: readonly unknown[]): Promise<T[]> {
  const client = (tx as unknown as DrizzleParts).session?.client;
  if (!named || !(client instanceof pg.Client)) return rows<T>(tx, asSql(text, params));
  try {
    return (await client.query({ name: nameOf(text), text, values: params as unknown[], types })).rows as T[];
  } catch (err) {
    if (preparedStatementRefused(err)) unnamedFromNowOn();
    throw err;
  }
}

/** A pooler that cannot keep named statements refused one (SQLSTATE 26000 or 42P05): the statement did not run. */
export function preparedStatementRefused(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '26000' || code === '42P05';
}

function unnamedFromNowOn(): void {
  if (!named) return;
  named = false;
  process.emitWarning(
    'PostgreSQL (or a pooler in front of it) refused a named prepared statement; statements are sent unnamed from now on.',
    { code: 'ROVA_UNNAMED_STATEMENTS' },
  );
}

async function runNamed<T>(
  pool: pg.Pool,
  text: string,
  values: readonly unknown[],
  unnamed: () => Promise<T[]>,
): Promise<T[]> {
  try {
    return (await pool.query({ name: nameOf(text), text, values: values as unknown[], types })).rows as T[];
  } catch (err) {
    if (!preparedStatementRefused(err)) throw err;
    unnamedFromNowOn();
    return unnamed();
  }
}

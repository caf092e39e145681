import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../../config.js';
import { CommitOutcomeUnknownError, commitOutcome, transactionIdOf } from './outcome.js';
import { isDatabaseUnavailable } from './outage.js';
import { scrubQueryErrors } from './query-errors.js';
import type { Db } from './types.js';

/**
 * PostgreSQL's memory settings inside PGlite. Its WebAssembly heap only grows, and PostgreSQL's defaults (128 MB of
 * shared buffers, 64 MB for index builds) were touched at start and by the first migrations: a node on the embedded
 * database sat at ~300 MB before its first request (~175 MB with these). The data files are read through the OS's
 * page cache either way, so smaller shared buffers cost little on the data sizes an embedded database holds
 * (8 MB: the buffers are part of what the heap keeps once touched).
 */
const EMBEDDED_MEMORY = [
  '-c',
  'shared_buffers=8MB',
  '-c',
  'maintenance_work_mem=16MB',
  '-c',
  'wal_buffers=1MB',
  '-c',
  'temp_buffers=1MB',
];

/** Runs a whole SQL script (several statements) inside one transaction, holding a lock against other nodes. */
export type ScriptRunner = (
  fn: (
    exec: (sqlText: string) => Promise<void>,
    query: <T>(text: string, params?: unknown[]) => Promise<T[]>,
  ) => Promise<void>,
) => Promise<void>;

export interface DbHandle {
  kind: 'pglite' | 'postgres';
  /** The driver's own client (PGlite instance or pg.Pool), for tooling such as test templates. */
  raw: unknown;
  db: Db;
  runScripts: ScriptRunner;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// no error of a statement carries its parameters (a row's values) into a log or a message
scrubQueryErrors();

// pg returns int8/numeric as strings by default; keep numeric as string (exact decimals), bigint counts as numbers.
pg.types.setTypeParser(20, (v: string) => Number(v));

export interface ConnectOptions {
  /** Pre-built PGlite data (a dump) to start from, used by tests to skip re-running migrations. */
  loadDataDir?: Blob | File;
}

export async function connectDatabase(config: Config, opts: ConnectOptions = {}): Promise<DbHandle> {
  if (config.databaseUrl)
    return connectPostgres(config.databaseUrl, config.databasePoolSize, config.databaseCommitOutcomeWaitMs);
  let dataDir: string | undefined;
  let releaseLock = () => undefined as void;
  if (!config.memoryDb) {
    dataDir = path.join(config.dataDir, 'pgdata');
    mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataDir(config.dataDir);
  }
  let client: PGlite;
  try {
    // btree_gist: the bookings' exclusion constraint (migration 0500) needs it on PGlite as on PostgreSQL
    // loaded only for an embedded database: a node on PostgreSQL does not carry PGlite's code in its memory
    const [{ PGlite: Embedded }, { btree_gist }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/btree_gist'),
    ]);
    client = await Embedded.create(dataDir, {
      extensions: { btree_gist },
      startParams: [...Embedded.defaultStartParams, ...EMBEDDED_MEMORY],
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
  } catch (err) {
    releaseLock();
    throw err;
  }
  await client.exec("SET TimeZone = 'UTC'");
  const db = drizzlePglite(client) as unknown as Db;
  return {
    kind: 'pglite',
    raw: client,
    db,
    runScripts: async (fn) => {
      await client.transaction(async (tx) => {
        await fn(
          async (text) => {
            await tx.exec(text);
          },
          async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows,
        );
      });
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (!client.closed) await client.close();
      releaseLock();
    },
  };
}

async function connectPostgres(url: string, max: number, commitOutcomeWaitMs: number): Promise<DbHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    // Dates and instants are computed in UTC whatever the server's default. A SET rather than the startup `options`
    // parameter: PgBouncer refuses `options` but tracks TimeZone per client, re-applying it on whichever server
    // connection the client's next transaction gets (transaction pooling). Awaited before the client is handed out.
    onConnect: async (client) => {
      await client.query("SET TimeZone TO 'UTC'");
    },
  });
  // A connection the server closes (restart, pg_terminate_backend, network) makes its client emit 'error'. The pool
  // listens on idle clients only; a client checked out by a request or a transaction has no listener, and an
  // unheard 'error' event ends the process. Every client gets one: the query in flight rejects on its own, the
  // request answers 503 (isDatabaseUnavailable) and the pool replaces the connection.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  let lastGoodRelease = Number.NEGATIVE_INFINITY;
  pool.on('release', (err: Error | undefined) => {
    if (!err) lastGoodRelease = performance.now();
  });
  try {
    const c = await pool.connect();
    c.release();
  } catch (err) {
    await pool.end().catch(() => undefined);
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot connect to PostgreSQL at DATABASE_URL (${redactUrl(url)}): ${reason}`);
  }
  const db = drizzlePg(pool) as unknown as Db;
  db.transaction = releasingTransaction(pool, commitOutcomeWaitMs);
  return {
    kind: 'postgres',
    raw: pool,
    db,
    runScripts: async (fn) => {
      const c = await pool.connect();
      let broken: Error | undefined;
      try {
        await c.query('BEGIN');
        await fn(
          async (text) => {
            await c.query(text);
          },
          async <T>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as T[],
        );
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        broken = isDatabaseUnavailable(err) ? (err instanceof Error ? err : new Error(String(err))) : undefined;
        throw err;
      } finally {
        c.release(broken);
      }
    },
    ping: async () => {
      // Under load requests queue for a connection, and a SELECT 1 would wait its turn behind them: a readiness
      // probe answering late takes a busy but healthy node out of the load balancer (HAProxy: inter 1 s, fall 2).
      // A connection given back in good order within the last second says as much about the database.
      if (pool.waitingCount > 0 && performance.now() - lastGoodRelease < 1_000) return;
      await pool.query('select 1');
    },
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * Drizzle's own pool transaction checks a client out and sends BEGIN before its try/finally: when the server has
 * just closed that connection, BEGIN fails and the client is never released — the pool fills with dead clients and
 * every later checkout times out. This one checks the client out itself, lets Drizzle run the transaction on that
 * client alone, and always gives it back; a client whose connection broke is handed back with the error, so the
 * pool discards it instead of reusing it.
 *
 * Every transaction of the app goes through here, so this is also where a lost COMMIT answer is resolved: the
 * transaction's id is read before the COMMIT (none for a transaction that changed nothing), and when the connection
 * dies with the COMMIT sent, another connection asks PostgreSQL whether it committed (`commitOutcome`, at most
 * DATABASE_COMMIT_OUTCOME_WAIT_MS). Committed: the transaction's result is returned as if the answer had come.
 * Aborted: the connection's error (503, nothing written). Still unknown: CommitOutcomeUnknownError (503).
 */
function releasingTransaction(pool: pg.Pool, commitOutcomeWaitMs: number): Db['transaction'] {
  const drizzleOf = new WeakMap<pg.PoolClient, Db>();
  return (async (fn: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    const client = await pool.connect();
    let released = false;
    const release = (broken?: Error) => {
      if (!released) client.release(broken);
      released = true;
    };
    /** Set once `fn` is done and its id read: from here on only the COMMIT is left. */
    let done: { result: unknown; xid: string | null } | undefined;
    try {
      let onClient = drizzleOf.get(client);
      if (!onClient) drizzleOf.set(client, (onClient = drizzlePg(client) as unknown as Db));
      return await onClient.transaction(async (tx) => {
        const result = await fn(tx);
        done = { result, xid: await transactionIdOf(tx, client) };
        return result;
      }, config);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      release(err instanceof Error ? err : new Error(String(err)));
      if (!done) throw err; // lost before the COMMIT was sent: PostgreSQL rolls the transaction back
      // the COMMIT was sent and its answer lost; a transaction that changed nothing has nothing to lose
      if (done.xid === null) return done.result;
      const outcome = await commitOutcome(pool, done.xid, commitOutcomeWaitMs);
      if (outcome === 'committed') return done.result;
      throw outcome === 'aborted' ? err : new CommitOutcomeUnknownError(err);
    } finally {
      release();
    }
  }) as Db['transaction'];
}

/**
 * The embedded database is single-process: a second process opening the same directory would corrupt it.
 * A lock file with our pid keeps CLI commands from opening it while the server runs (a stale lock left by a
 * crashed process is taken over).
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'pgdata.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by another Rova process (pid ${pid}); stop it first, ` +
            'or run the server on PostgreSQL (DATABASE_URL) to use the CLI alongside it',
        );
      }
      unlinkSync(file);
    }
  }
  throw new Error(`cannot lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable url>';
  }
}

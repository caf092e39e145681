import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows, type Db } from '../../src/platform/db/types.js';
import { idempotent, type IdempotencyClaim, type IdempotentAnswer } from '../../src/platform/idempotency/store.js';
import { TEST_PG } from '../helpers/app.js';
import { TEST_POOLER } from '../helpers/pg-admin.js';
import { cuttableProxy, type CuttableProxy } from '../helpers/tcp-cut.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { vehicle } from '../rental/helpers.js';

// Issue 19 item 6 on PostgreSQL, two nodes of one deployment: an Idempotency-Key never yields two bookings, and a
// key whose request died (its connection killed, the database refusing it afterwards) is retryable after its lease.
const V2 = '/wp-json/rova-rental/v2';
const ROUNDS = 20;
// Through PgBouncer a query that finds the database refusing waits out query_wait_timeout (5 s) before it fails: the
// lease must outlast that wait, as BOOKING_IDEMPOTENCY_LEASE_SECONDS must in production
// (docs/operators/several-nodes.md, Connection pooler)
const LEASE_SECONDS = TEST_POOLER ? 8 : 3;
const IN_FLIGHT = {
  success: false,
  error_code: 'STATE_CONFLICT',
  message: 'A request with this Idempotency-Key is still being processed.',
  details: { reason: 'idempotency_key_in_flight' },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const never = () => new Promise<never>(() => undefined);

let n: TwoNodes;
let dbName = '';
/** Holds locks in the test database; never terminated by the tests. */
let holder: pg.Client;
let holderPid = 0;
/** On the server's `postgres` database: ALTER DATABASE, pg_terminate_backend. */
let admin: pg.Client;
/** Node a reaches the database through it: cutting it is node a losing the database, whatever was connecting. */
let proxy: CuttableProxy;

beforeAll(async () => {
  proxy = await cuttableProxy();
  n = await twoNodes(
    {
      RENTAL_WRITE_RATE_LIMIT: '1000000',
      RENTAL_PUBLIC_RATE_LIMIT: '1000000',
      BOOKING_IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      DATABASE_COMMIT_OUTCOME_WAIT_MS: '1000',
    },
    { routeA: (url) => proxy.route(url) },
  );
  const url = n.a.config.databaseUrl!;
  dbName = new URL(url).pathname.slice(1);
  // direct, never through a pooler: its backend (holderPid) must be the one holding the locks, and it must survive
  const direct = new URL(TEST_PG);
  direct.pathname = `/${dbName}`;
  holder = new pg.Client({ connectionString: direct.toString() });
  await holder.connect();
  holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await n.a.platform.db.execute(sql`CREATE TABLE idem_effects (id serial PRIMARY KEY, label text NOT NULL)`);
}, 240_000);
afterAll(async () => {
  if (admin && dbName) await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => undefined);
  await holder?.end().catch(() => undefined);
  await admin?.end().catch(() => undefined);
  await n?.close();
  await proxy?.close();
});

const bookingsOf = async (v: number) =>
  rows<{ id: number; status: string }>(
    n.a.platform.db,
    sql`SELECT id::int AS id, status FROM rental_bookings WHERE vehicle_id = ${v} ORDER BY id`,
  );
const keyRow = async (key: string) =>
  (
    await rows<{ status: string; lease_expired: boolean }>(
      n.a.platform.db,
      sql`SELECT status, lease_until < now() AS lease_expired FROM rova_idempotent_requests WHERE key = ${key}`,
    )
  )[0];
const effects = async (label: string) =>
  (
    await rows<{ n: number }>(n.a.platform.db, sql`SELECT count(*)::int AS n FROM idem_effects WHERE label = ${label}`)
  )[0]!.n;
const bodyFor = (v: number) => ({
  vehicle_id: v,
  pickup_date: '2036-03-01',
  return_date: '2036-03-04',
  payment_method: 'offline',
  payment_plan: 'deposit',
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Until the key's lease has run out (at most the lease and 2 s: a key that keeps running is the test's to report). */
async function leaseOver(key: string, leaseMs = LEASE_SECONDS * 1000): Promise<void> {
  const until = Date.now() + leaseMs + 2000;
  while (!(await keyRow(key))?.lease_expired && Date.now() < until) await sleep(25);
}

/**
 * The backend of the test database waiting on a lock in a statement on `table` (a request stopped where the test
 * wants it: any other wait, earlier in the request, would be killed before the request claimed its key).
 */
const waitingBackend = (table: string) =>
  waitFor(
    `a backend waiting on a lock on ${table}`,
    async () =>
      (
        await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> $2 AND position($3 in query) > 0",
          [dbName, holderPid, table],
        )
      ).rows[0]?.pid,
  );

/**
 * The database fails under the nodes: every connection but the test's own is killed, and new ones are refused until
 * `restore`, so the dying request cannot free its key either (as when the database or the process went away).
 */
async function databaseDown(): Promise<{ killed: number; restore: () => Promise<void> }> {
  await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
  const terminate = async () =>
    (
      await admin.query<{ n: number }>(
        'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2',
        [dbName, holderPid],
      )
    ).rows[0]?.n ?? 0;
  const killed = await terminate();
  // pg_terminate_backend only signals, and a connection whose login was under way when connections were refused
  // (a node's pool growing for a background query, e.g. a holding-index reload) can still complete: terminate again
  // until none is left for 10 looks in a row, so the database is really down for the nodes and every pooled
  // connection has been told
  let quiet = 0;
  await waitFor('every backend of the database to end', async () => {
    quiet =
      (await terminate()) === 0 &&
      (
        await admin.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> $2',
          [dbName, holderPid],
        )
      ).rows[0]!.n === 0
        ? quiet + 1
        : 0;
    if (quiet >= 10) return true;
    await sleep(20);
    return undefined;
  });
  return {
    killed,
    restore: async () => {
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
      // back for the nodes too: through PgBouncer a login refused while the database was down is retried only after
      // server_login_retry (1 s), and a query in that second is refused ("server login has been failing")
      for (const node of [n.a, n.b])
        await waitFor('the nodes to reach the database again', () =>
          node.platform.db.execute(sql`SELECT 1`).then(
            () => true,
            () => undefined,
          ),
        );
    },
  };
}

describe('Idempotency-Key over two nodes on PostgreSQL', () => {
  it(`${ROUNDS} rounds: the same key sent to both nodes at once → exactly one booking; the other answer is the replay or 409 in flight`, async () => {
    const { a, b } = n;
    const outcomes = new Map<string, number>();
    for (let i = 0; i < ROUNDS; i++) {
      const v = await vehicle(a);
      const { key } = await a.userWithKey('customer');
      const send = (node: typeof a) =>
        node.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': key, 'idempotency-key': `race-${i}` },
          payload: bodyFor(v),
        });
      const rs = await Promise.all([send(a), send(b)]);
      const first = rs.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(first, `round ${i}: ${rs.map((r) => `${r.statusCode} ${r.body}`).join(' | ')}`).toHaveLength(1);
      const other = rs.find((r) => r !== first[0])!;
      if (other.statusCode === 201) {
        expect(other.headers['idempotent-replayed']).toBe('true');
        expect(other.json()).toEqual(first[0]!.json());
      } else {
        expect(other.statusCode, other.body).toBe(409);
        expect(other.json()).toEqual(IN_FLIGHT);
      }
      const key2 = other.statusCode === 201 ? 'replay' : '409 in flight';
      outcomes.set(key2, (outcomes.get(key2) ?? 0) + 1);
      expect((await bookingsOf(v)).map((x) => x.id)).toEqual([first[0]!.json().data.booking.id]);
      const later = await send(b);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.json()).toEqual(first[0]!.json());
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(ROUNDS);
  }, 300_000);

  it(`${ROUNDS} rounds: two retries racing for an abandoned key on both nodes → exactly one takes it over and commits once, the other 409`, async () => {
    const dbs: Db[] = [n.a.platform.db, n.b.platform.db];
    for (let i = 0; i < ROUNDS; i++) {
      const key = `abandoned-${i}`;
      // a request took the key and died (its process stopped): its lease runs out, nothing frees the key
      let started!: () => void;
      const took = new Promise<void>((r) => (started = r));
      void idempotent(
        dbs[0]!,
        'test',
        key,
        { i },
        () => {
          started();
          return never();
        },
        { leaseMs: 50 },
      );
      await took;
      await leaseOver(key, 50);
      let runs = 0;
      const retry = (db: Db) =>
        idempotent(
          db,
          'test',
          key,
          { i },
          async (claim: IdempotencyClaim): Promise<IdempotentAnswer> => {
            runs += 1;
            await sleep(300); // still running when the other retry looks
            const answer = { status: 201, body: { key } };
            await n.a.platform.transaction(async (tx) => {
              await tx.execute(sql`INSERT INTO idem_effects (label) VALUES (${key})`);
              await claim.commit(tx, answer);
            });
            return answer;
          },
          { leaseMs: 60_000 },
        ).then(
          (r) => ({ ok: r }),
          (err: unknown) => ({ err }),
        );
      const rs = await Promise.all(dbs.map(retry));
      expect(runs, `round ${i}`).toBe(1);
      expect(rs.filter((r) => 'ok' in r).map((r) => ('ok' in r ? r.ok : null))).toEqual([
        { status: 201, body: { key }, replayed: false },
      ]);
      expect(rs.filter((r) => 'err' in r).map((r) => ('err' in r ? r.err : null))).toEqual([
        expect.objectContaining({ status: 409, data: { reason: 'idempotency_key_in_flight' } }),
      ]);
      expect(await effects(key)).toBe(1);
    }
  }, 300_000);

  it('a run whose connection is killed mid-query and whose key cannot be freed (the database refuses) → 409 while the lease lasts, then retryable', async () => {
    // one connection of its own, as a node's request would hold one
    const client = new pg.Client({ connectionString: n.a.config.databaseUrl! });
    client.on('error', () => undefined);
    await client.connect();
    const db = drizzle(client) as unknown as Db;
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let down: Awaited<ReturnType<typeof databaseDown>> | null = null;
    const failed = idempotent(
      db,
      'test',
      'killed-mid-query',
      { a: 1 },
      async () => {
        await db.execute(sql`SELECT pg_sleep(30)`);
        return { status: 201, body: { never: true } };
      },
      { leaseMs: LEASE_SECONDS * 1000 },
    );
    failed.catch(() => undefined); // it rejects while the database is taken down; the expectation below reads it
    await waitFor('the run to be in its query', async () =>
      (await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%'", [pid])).rowCount
        ? true
        : undefined,
    );
    down = await databaseDown();
    expect(down.killed).toBeGreaterThan(0);
    await expect(failed).rejects.toThrow();
    await down.restore();
    await client.end().catch(() => undefined);
    expect(await keyRow('killed-mid-query')).toEqual({ status: 'running', lease_expired: false });
    let ran = 0;
    const retry = () =>
      idempotent(n.b.platform.db, 'test', 'killed-mid-query', { a: 1 }, async () => {
        ran += 1;
        return { status: 201, body: { retried: true } };
      });
    await expect(retry()).rejects.toMatchObject({ status: 409, data: { reason: 'idempotency_key_in_flight' } });
    await leaseOver('killed-mid-query');
    expect(await retry()).toEqual({ status: 201, body: { retried: true }, replayed: false });
    expect(await retry()).toEqual({ status: 201, body: { retried: true }, replayed: true });
    expect(ran).toBe(1);
  }, 120_000);

  /**
   * Sends a request to node a while the holder's lock (taken with `lock`) keeps it waiting, then cuts node a off the
   * database (every connection dies and none can be made, so it cannot free or finish its key either), and answers
   * what the request answered. The backend left waiting ends once the lock is gone and it finds its client gone.
   */
  async function killedWhileWaiting(
    request: () => ReturnType<TwoNodes['a']['inject']>,
    lock: [string, unknown[]],
    table: string,
  ) {
    await holder.query('BEGIN');
    await holder.query(lock[0], lock[1]);
    const dying = request();
    await waitingBackend(table);
    expect(proxy.cut()).toBeGreaterThan(0);
    const answer = await dying;
    proxy.restore();
    await holder.query('ROLLBACK');
    // Through PgBouncer a failed server login fails every query for server_login_retry (1 s): wait until the nodes'
    // pool reaches the database again before the test looks (immediate when direct)
    await waitFor("the database back through the nodes' pool", () =>
      n.a.platform.db.execute(sql`SELECT 1`).then(
        () => true,
        () => undefined,
      ),
    );
    return answer;
  }

  for (const round of [1, 2]) {
    it(`kill round ${round}: the create's connection killed before its commit (waiting for the vehicle lock) → 503; the retry after the lease books exactly once`, async () => {
      const { a, b } = n;
      const v = await vehicle(a);
      const { key } = await a.userWithKey('customer');
      const ikey = `kill-before-${round}`;
      const send = (node: typeof a) =>
        node.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': key, 'idempotency-key': ikey },
          payload: bodyFor(v),
        });
      const answer = await killedWhileWaiting(
        () => send(a),
        ['SELECT 1 FROM rental_vehicles WHERE id = $1 FOR UPDATE', [v]],
        'rental_vehicles',
      );
      expect(answer.statusCode, answer.body).toBe(503);
      expect(await bookingsOf(v)).toEqual([]);
      expect(await keyRow(ikey)).toEqual({ status: 'running', lease_expired: false });
      const early = await send(b);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual(IN_FLIGHT);
      await leaseOver(ikey);
      const retry = await send(b);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      const replay = await send(a);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(retry.json());
      expect((await bookingsOf(v)).map((x) => x.id)).toEqual([retry.json().data.booking.id]);
    }, 120_000);

    it(`kill round ${round}: the create's connection killed at its COMMIT's answer and node a off the database past its outcome wait → 503; the key answers that booking after the lease, never a second one`, async () => {
      const { a, b } = n;
      const v = await vehicle(a);
      const { key } = await a.userWithKey('customer');
      const ikey = `kill-after-${round}`;
      const send = (node: typeof a) =>
        node.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': key, 'idempotency-key': ikey },
          payload: bodyFor(v),
        });
      // the booking's transaction commits and its answer is lost with every connection of node a, which cannot ask
      // the database what became of it within DATABASE_COMMIT_OUTCOME_WAIT_MS, nor mark its key done
      let order = false;
      const cut = proxy.cutAt(
        (m) => {
          if (m.type === 'B' && m.body.toString('latin1').includes('"pay":')) order = true;
          return order && m.type === 'Q' && /^commit\b/i.test(m.body.toString('latin1'));
        },
        { when: 'answer', partition: true },
      );
      const answer = await send(a);
      expect(await cut).toBeGreaterThan(0);
      proxy.restore();
      await waitFor("the database back through the nodes' pool", () =>
        n.a.platform.db.execute(sql`SELECT 1`).then(
          () => true,
          () => undefined,
        ),
      );
      expect(answer.statusCode, answer.body).toBe(503);
      const [booking] = await bookingsOf(v);
      expect(booking, 'the booking committed').toBeDefined();
      expect(await keyRow(ikey)).toEqual({ status: 'committed', lease_expired: false });
      const early = await send(b);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toEqual(IN_FLIGHT);
      await leaseOver(ikey);
      const retry = await send(b);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      // the answer committed with the booking: the booking as created, the payment not yet started
      expect(retry.json().data).toMatchObject({
        booking: { id: booking!.id, status: 'pending_payment' },
        payment: { provider: 'offline' },
      });
      expect(retry.json().data.payment).toEqual({ provider: 'offline' });
      expect((await bookingsOf(v)).map((x) => x.id)).toEqual([booking!.id]);
    }, 120_000);
  }

  it('afterwards: rova verify finds nothing (ledger, no two holders of a vehicle, no kept money)', async () => {
    expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { readJourneySettings } from '../../../src/modules/rental/bookings/settings.js';
import { rows } from '../../../src/platform/db/types.js';
import { idempotent, type IdempotencyClaim, type IdempotentAnswer } from '../../../src/platform/idempotency/store.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';

// Issue 19 item 6: an Idempotency-Key whose request did not commit stays retryable (a lease, taken over when it runs
// out), and a key whose request committed its effect is never run again (the key commits with the effect).
const V2 = '/wp-json/rova-rental/v2';
const IN_FLIGHT = {
  success: false,
  error_code: 'STATE_CONFLICT',
  message: 'A request with this Idempotency-Key is still being processed.',
  details: { reason: 'idempotency_key_in_flight' },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// a lease runs out by the clock; the tests move the clock for it (no sleeping against a loaded machine's timing)
const LEASE = 60_000;
/** A request that stopped where it was (its process died): it never finishes, never frees its key. */
const never = () => new Promise<never>(() => undefined);

describe('Idempotency-Key lease and commit (PGlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    await t.platform.db.execute(sql`CREATE TABLE idem_effects (id serial PRIMARY KEY, label text NOT NULL)`);
  }, 240_000);
  afterAll(async () => t?.close());

  const effects = async (label: string) =>
    (
      await rows<{ n: number }>(t.platform.db, sql`SELECT count(*)::int AS n FROM idem_effects WHERE label = ${label}`)
    )[0]!.n;
  /** A run that commits its effect in a transaction, the key with it, and answers `{label}`. */
  const committing =
    (label: string) =>
    async (claim: IdempotencyClaim): Promise<IdempotentAnswer> => {
      const answer = { status: 201, body: { label } };
      await t.platform.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO idem_effects (label) VALUES (${label})`);
        await claim.commit(tx, answer);
      });
      return answer;
    };
  const expireLeases = () =>
    t.platform.db.execute(
      sql`UPDATE rova_idempotent_requests SET lease_until = now() - interval '1 second' WHERE status <> 'done'`,
    );
  const bookingsOf = async (v: number) =>
    (
      await rows<{ n: number }>(
        t.platform.db,
        sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v}`,
      )
    )[0]!.n;

  it('a key left running by a request that died: 409 (exact body) while its lease lasts, then the retry books exactly once and the next replays it', async () => {
    const v = await vehicle(t);
    const { key, keyId } = await t.userWithKey('customer');
    const body = {
      vehicle_id: v,
      pickup_date: '2035-01-10',
      return_date: '2035-01-12',
      payment_method: 'offline',
      payment_plan: 'deposit',
    };
    const create = () =>
      t.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': key, 'idempotency-key': 'died-1' },
        payload: body,
      });
    // the first request took the key (the route's scope for an API key) and its process died before it wrote anything
    let started!: () => void;
    const took = new Promise<void>((r) => (started = r));
    void idempotent(
      t.platform.db,
      `booking-create:key:${keyId}`,
      'died-1',
      body,
      () => {
        started();
        return never();
      },
      { leaseMs: LEASE },
    );
    await took;
    const live = await create();
    expect(live.statusCode).toBe(409);
    expect(live.json()).toEqual(IN_FLIGHT);
    expect(await bookingsOf(v)).toBe(0);
    await expireLeases(); // the lease ran out
    const retry = await create();
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await create();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(retry.json());
    expect(await bookingsOf(v)).toBe(1);
  });

  it('a run that committed its effect with the key and never finished: 409 while its lease lasts, then the committed answer, never a second run', async () => {
    let ran = 0;
    const second = async (): Promise<IdempotentAnswer> => {
      ran += 1;
      return { status: 201, body: { label: 'second' } };
    };
    let committed!: () => void;
    const done = new Promise<void>((r) => (committed = r));
    void idempotent(
      t.platform.db,
      'test',
      'crash-after-commit',
      { a: 1 },
      async (claim) => {
        await committing('crash-after-commit')(claim);
        committed();
        return never(); // the process died after the commit, before the key was marked done
      },
      { leaseMs: LEASE },
    );
    await done;
    await expect(
      idempotent(t.platform.db, 'test', 'crash-after-commit', { a: 1 }, second, { leaseMs: LEASE }),
    ).rejects.toMatchObject({ status: 409, data: { reason: 'idempotency_key_in_flight' } });
    await expireLeases();
    expect(await idempotent(t.platform.db, 'test', 'crash-after-commit', { a: 1 }, second, { leaseMs: LEASE })).toEqual(
      { status: 201, body: { label: 'crash-after-commit' }, replayed: true },
    );
    expect(ran).toBe(0);
    expect(await effects('crash-after-commit')).toBe(1);
  });

  it('a request that outlived its lease loses the key: its commit answers 409 and rolls its transaction back; the one that took over commits once', async () => {
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    let started!: () => void;
    const took = new Promise<void>((r) => (started = r));
    const slow = idempotent(
      t.platform.db,
      'test',
      'outlived',
      { a: 1 },
      async (claim) => {
        started();
        await gate; // slower than its lease
        return committing('outlived')(claim);
      },
      { leaseMs: LEASE },
    );
    await took;
    await expireLeases();
    expect(
      await idempotent(t.platform.db, 'test', 'outlived', { a: 1 }, committing('outlived'), { leaseMs: 60_000 }),
    ).toEqual({ status: 201, body: { label: 'outlived' }, replayed: false });
    resume();
    await expect(slow).rejects.toMatchObject({ status: 409, data: { reason: 'idempotency_key_in_flight' } });
    expect(await effects('outlived')).toBe(1);
    expect(await idempotent(t.platform.db, 'test', 'outlived', { a: 1 }, committing('outlived'))).toEqual({
      status: 201,
      body: { label: 'outlived' },
      replayed: true,
    });
    expect(await effects('outlived')).toBe(1);
  });

  it('a run failing after its effect committed keeps the key: the retry gets the committed answer at once; one failing before frees it at once', async () => {
    const boom = new Error('after the commit');
    await expect(
      idempotent(t.platform.db, 'test', 'fail-after', { a: 1 }, async (claim) => {
        await committing('fail-after')(claim);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await idempotent(t.platform.db, 'test', 'fail-after', { a: 1 }, committing('fail-after'))).toEqual({
      status: 201,
      body: { label: 'fail-after' },
      replayed: true,
    });
    expect(await effects('fail-after')).toBe(1);

    await expect(
      idempotent(t.platform.db, 'test', 'fail-before', { a: 1 }, async () => {
        throw new Error('before any commit');
      }),
    ).rejects.toThrow('before any commit');
    expect(await idempotent(t.platform.db, 'test', 'fail-before', { a: 1 }, committing('fail-before'))).toEqual({
      status: 201,
      body: { label: 'fail-before' },
      replayed: false,
    });
    // a different body under a key whose lease ran out is still a mismatch, never a takeover
    void idempotent(t.platform.db, 'test', 'mismatch', { a: 1 }, never, { leaseMs: 1 });
    await sleep(50);
    await expect(idempotent(t.platform.db, 'test', 'mismatch', { a: 2 }, committing('mismatch'))).rejects.toMatchObject(
      { status: 422, code: 'IDEMPOTENCY_KEY_MISMATCH' },
    );
  });

  it('BOOKING_IDEMPOTENCY_LEASE_SECONDS: default 60 s, 1–3600', () => {
    const cfg = (env: Record<string, string>) => ({ ...loadConfig({}), env }) as ReturnType<typeof loadConfig>;
    expect(readJourneySettings(cfg({})).idempotencyLeaseMs).toBe(60_000);
    expect(readJourneySettings(cfg({ BOOKING_IDEMPOTENCY_LEASE_SECONDS: '2' })).idempotencyLeaseMs).toBe(2000);
    expect(() => readJourneySettings(cfg({ BOOKING_IDEMPOTENCY_LEASE_SECONDS: '0' }))).toThrow(
      /BOOKING_IDEMPOTENCY_LEASE_SECONDS/,
    );
  });
});

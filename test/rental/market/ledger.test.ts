// @integration: the ledger balance check is a deferred trigger; entries are append-only by trigger
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { EXTERNAL, PLATFORM_COMMISSION, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { vendorBalances } from '../../../src/modules/rental/ledger/balances.js';
import { clearMaturedCommissions } from '../../../src/modules/rental/ledger/clearing.js';
import { LedgerKeyReused, postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';
import { rentalHttpErrorOf } from '../../../src/modules/rental/errors.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { completedBooking, transactionSums, vendor, vendorVehicle } from './helpers.js';

/** The database's own message of a failed query (drivers wrap it). */
async function dbError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    const err = e as { message: string; cause?: { message?: string } };
    return `${err.message} ${err.cause?.message ?? ''}`;
  }
}

describe('ledger core (design §6; reference §8.11 scenarios 84–89)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  });
  afterAll(async () => t?.close());

  const post = (
    key: string,
    vendorId: number,
    lines: { account: string; amount: number }[],
    kind: 'commission' | 'payout_paid' | 'commission_clearing' = 'commission',
    settles?: number,
  ) =>
    t.platform.transaction((tx) =>
      postLedgerTransaction(tx, { key, kind, vendorId, reference: `test:${key}`, currency: 'USD', lines, settles }),
    );
  const earn = (key: string, vendorId: number, net: number, to: 'pending' | 'available' = 'available') =>
    post(key, vendorId, [
      { account: EXTERNAL, amount: -net },
      { account: vendorAccount(vendorId, to), amount: net },
    ]);

  it('84: the same key and request twice writes once (the replay answers the original); another request with the key → 409', async () => {
    const v = await vendor(t);
    const a = await earn(`k84-${v.id}`, v.id, 5000);
    const b = await earn(`k84-${v.id}`, v.id, 5000);
    expect(a.replayed).toBe(false);
    expect(b.replayed).toBe(true);
    expect(b.transaction.id).toEqual(a.transaction.id);
    expect((await vendorBalances(t.platform.db, v.id)).available).toBe(5000);
    const reused = await earn(`k84-${v.id}`, v.id, 6000).then(
      () => null,
      (err: unknown) => err,
    );
    expect(reused).toBeInstanceOf(LedgerKeyReused);
    expect(rentalHttpErrorOf(reused as LedgerKeyReused)).toMatchObject({ status: 409, code: 'STATE_CONFLICT' });
    expect((await vendorBalances(t.platform.db, v.id)).available).toBe(5000);
  });

  it('85–86: pending and available are separate; a refund reduces the balance', async () => {
    const v = await vendor(t);
    await earn(`k85a-${v.id}`, v.id, 10000, 'pending');
    await earn(`k85b-${v.id}`, v.id, 5000, 'available');
    let b = await vendorBalances(t.platform.db, v.id);
    expect([b.pending, b.available]).toEqual([10000, 5000]);
    await earn(`k86-${v.id}`, v.id, 150000);
    await post(`k86r-${v.id}`, v.id, [
      { account: vendorAccount(v.id, 'available'), amount: -30000 },
      { account: EXTERNAL, amount: 30000 },
    ]);
    b = await vendorBalances(t.platform.db, v.id);
    expect(b.available).toBe(5000 + 150000 - 30000);
  });

  it('87–88: payouts lower the balance but not total earned; two vendors are isolated', async () => {
    const v = await vendor(t);
    const w = await vendor(t);
    const c = await vendorVehicle(t, v.id);
    await completedBooking(t, c, '5882.35'); // 15 % → net 5000.00
    await clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000));
    await post(
      `k87-${v.id}`,
      v.id,
      [
        { account: vendorAccount(v.id, 'available'), amount: -400000 },
        { account: EXTERNAL, amount: 400000 },
      ],
      'payout_paid',
    );
    const b = await vendorBalances(t.platform.db, v.id);
    expect(b.available).toBe(100000);
    expect(b.total_earned).toBe(500000);
    await earn(`k88a-${w.id}`, w.id, 70000);
    expect((await vendorBalances(t.platform.db, w.id)).available).toBe(70000);
    expect((await vendorBalances(t.platform.db, v.id)).available).toBe(100000);
  });

  it('89: commission rate resolution vehicle → vendor → tier → global', async () => {
    const a = await vendor(t);
    const byVehicle = await completedBooking(t, await vendorVehicle(t, a.id, { commission_rate: '10' }), '1000.00');
    const b = await vendor(t, { commission_rate: '8' });
    const byVendor = await completedBooking(t, await vendorVehicle(t, b.id), '2000.00');
    const c = await vendor(t);
    const earned = await post(`k89b-${c.id}`, c.id, [
      { account: EXTERNAL, amount: -500000 },
      { account: vendorAccount(c.id, 'pending'), amount: 500000 },
    ]);
    await post(
      `k89-${c.id}`,
      c.id,
      [
        { account: vendorAccount(c.id, 'pending'), amount: -500000 },
        { account: vendorAccount(c.id, 'available'), amount: 500000 },
      ],
      'commission_clearing',
      Number(earned.transaction.id),
    );
    const byTier = await completedBooking(t, await vendorVehicle(t, c.id), '500.00');
    const d = await vendor(t);
    const byGlobal = await completedBooking(t, await vendorVehicle(t, d.id), '200.00');
    const memo = async (booking: number) =>
      (await one<{ memo: Record<string, unknown> }>(
        t.platform.db,
        sql`SELECT memo FROM ledger_transactions WHERE reference = ${'booking:' + booking} AND kind = 'commission'`,
      ))!.memo;
    expect(await memo(byVehicle)).toMatchObject({
      gross: 100000,
      rate: 10,
      rate_source: 'vehicle',
      commission: 10000,
      net: 90000,
    });
    expect(await memo(byVendor)).toMatchObject({
      gross: 200000,
      rate: 8,
      rate_source: 'vendor',
      commission: 16000,
      net: 184000,
    });
    expect(await memo(byTier)).toMatchObject({
      gross: 50000,
      rate: 13,
      rate_source: 'tier',
      commission: 6500,
      net: 43500,
    });
    expect(await memo(byGlobal)).toMatchObject({
      gross: 20000,
      rate: 15,
      rate_source: 'global',
      commission: 3000,
      net: 17000,
    });
  });

  it('completion → pending; the clearing job after the hold period → available; refund after clearing takes it from available', async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const id = await completedBooking(t, car, '100.00');
    expect(await vendorBalances(t.platform.db, v.id)).toMatchObject({ pending: 8500, available: 0 });
    expect(await clearMaturedCommissions(t.platform, new Date(Date.now() + 6 * 86_400_000))).toBe(0);
    expect(await clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000))).toBe(0);
    expect(await vendorBalances(t.platform.db, v.id)).toMatchObject({ pending: 0, available: 8500 });
    await changeStatus(t.platform, id, 'refunded');
    expect(await vendorBalances(t.platform.db, v.id)).toMatchObject({ pending: 0, available: 0, total_earned: 0 });
    const audit = await rows<{ event_type: string; note: string }>(
      t.platform.db,
      sql`SELECT event_type, note FROM vendor_audit_log WHERE vendor_id = ${v.id} ORDER BY id`,
    );
    expect(audit.map((a) => a.event_type)).toEqual(['commission_applied', 'commission_cleared', 'commission_reversed']);
    // the notes people read carry money in the currency's format, never minor units
    const { currency } = (await one<{ currency: string }>(
      t.platform.db,
      sql`SELECT currency FROM rental_bookings WHERE id = ${id}`,
    ))!;
    const m = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(n);
    expect(audit.map((a) => a.note)).toEqual([
      `Booking ${id} completed: gross ${m(100)}, commission 15 % (global) = ${m(15)}, net ${m(85)} pending.`,
      `Hold period of 7 day(s) over: ${m(85)} now available.`,
      `Booking ${id} refunded: commission reversed (${m(85)} taken from available).`,
    ]);
  });

  it('reopening a completed booking reverses from pending; completing again earns once more; operator fleet moves no money', async () => {
    const v = await vendor(t);
    const id = await completedBooking(t, await vendorVehicle(t, v.id), '200.00');
    await changeStatus(t.platform, id, 'in_progress');
    expect(await vendorBalances(t.platform.db, v.id)).toMatchObject({ pending: 0 });
    await changeStatus(t.platform, id, 'completed');
    expect(await vendorBalances(t.platform.db, v.id)).toMatchObject({ pending: 17000, total_earned: 17000 });
    const before = (await verifyLedger(t.platform.db)).transactions;
    const { vehicle } = await import('../helpers.js');
    await completedBooking(t, await vehicle(t), '300.00');
    expect((await verifyLedger(t.platform.db)).transactions).toBe(before);
  });

  it('every transaction sums to 0 and verify is clean', async () => {
    expect((await transactionSums(t)).every((s) => s === 0)).toBe(true);
    const v = await verifyLedger(t.platform.db);
    expect(v).toMatchObject({ ok: true, mismatches: [], unbalanced: [] });
    expect(v.transactions).toBeGreaterThan(10);
  });

  it('the database refuses UPDATE/DELETE on entries and transactions, and an unbalanced transaction at commit', async () => {
    expect(await dbError(t.platform.db.execute(sql`UPDATE ledger_entries SET amount = amount + 1`))).toMatch(
      /append-only/,
    );
    expect(await dbError(t.platform.db.execute(sql`DELETE FROM ledger_transactions`))).toMatch(/append-only/);
    const acc = (await one<{ id: string }>(
      t.platform.db,
      sql`SELECT id FROM ledger_accounts WHERE code = ${PLATFORM_COMMISSION}`,
    ))!;
    expect(
      await dbError(
        t.platform.transaction(async (tx) => {
          const x = (await one<{ id: string }>(
            tx,
            sql`INSERT INTO ledger_transactions (idempotency_key, request_hash, kind, currency) VALUES ('bad-1', 'h', 'commission', 'USD') RETURNING id`,
          ))!;
          await tx.execute(
            sql`INSERT INTO ledger_entries (transaction_id, account_id, amount) VALUES (${x.id}, ${acc.id}, 5)`,
          );
        }),
      ),
    ).toMatch(/not balanced/);
    expect(
      await one(t.platform.db, sql`SELECT 1 FROM ledger_transactions WHERE idempotency_key = 'bad-1'`),
    ).toBeUndefined();
  });

  it('tampering is detected: a cached balance edit, and (superuser, triggers off) an entry edit', async () => {
    const acc = (await one<{ id: string; balance: string }>(
      t.platform.db,
      sql`SELECT id, balance FROM ledger_accounts WHERE code = ${PLATFORM_COMMISSION}`,
    ))!;
    await t.platform.db.execute(sql`UPDATE ledger_accounts SET balance = balance + 1 WHERE id = ${acc.id}`);
    let v = await verifyLedger(t.platform.db);
    expect(v.ok).toBe(false);
    expect(v.mismatches).toEqual([
      { account: PLATFORM_COMMISSION, cached: Number(acc.balance) + 1, computed: Number(acc.balance) },
    ]);
    await t.platform.db.execute(sql`UPDATE ledger_accounts SET balance = balance - 1 WHERE id = ${acc.id}`);
    expect((await verifyLedger(t.platform.db)).ok).toBe(true);
    // a superuser who switches the triggers off (replica mode) can still edit an entry: verify finds it
    await t.platform.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(
        sql`UPDATE ledger_entries SET amount = amount + 7 WHERE id = (SELECT min(id) FROM ledger_entries)`,
      );
    });
    v = await verifyLedger(t.platform.db);
    expect(v.ok).toBe(false);
    expect(v.mismatches).toHaveLength(1);
    expect(v.unbalanced).toHaveLength(1);
    expect(v.unbalanced[0]!.sum).toBe(7);
  });
});

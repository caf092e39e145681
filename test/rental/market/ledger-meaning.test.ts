import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { balancesBeforeAndAfterJobs } from '../../../src/modules/import/wordpress/ledger-links.js';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { EXTERNAL, PLATFORM_COMMISSION, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { clearMaturedCommissions } from '../../../src/modules/rental/ledger/clearing.js';
import { postLedgerTransaction, type PostLedgerInput } from '../../../src/modules/rental/ledger/post.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import { one, type Db } from '../../../src/platform/db/types.js';
import { TEST_PG } from '../../helpers/app.js';
import { rovaInProcess } from '../../helpers/cli.js';
import { migratedDataDir } from '../../helpers/rova-process.js';

// Issue 34.1: `rova verify` checks what the ledger means, not only that it sums: each income credit cleared at most
// once, every clearing and refund naming the credit it acts on, no pending balance below zero.
describe.skipIf(!!TEST_PG)("the ledger's meaning (rova verify, rova ledger verify)", () => {
  const dir = migratedDataDir('rova-meaning-');
  const env = { DATA_DIR: dir, LOG_LEVEL: 'silent', STORE_CURRENCY: 'USD', ROVA_JOBS: '0' };
  let built: BuiltApp;
  let db: Db;
  beforeAll(async () => {
    built = await buildApp(loadConfig(env), { logger: false });
    db = built.platform.db;
    for (const id of [901, 902, 903, 904])
      await db.execute(
        sql`INSERT INTO rova_users (id, login, email, role) VALUES (${id}, ${'v' + id}, ${`v${id}@example.org`}, 'vendor')`,
      );
  }, 120_000);
  afterAll(async () => {
    await built?.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (i: PostLedgerInput) => built.platform.transaction((tx) => postLedgerTransaction(tx, i));
  /** Income of a booking: 100.00 gross, 15.00 commission, 85.00 net to pending (a month ago). */
  const credit = async (vendorId: number, booking: number) =>
    Number(
      (
        await post({
          key: `credit-${booking}`,
          kind: 'commission',
          vendorId,
          reference: `booking:${booking}`,
          currency: 'USD',
          at: new Date(Date.now() - 30 * 86_400_000).toISOString(),
          memo: { booking_id: booking, gross: 10000, commission: 1500, net: 8500 },
          lines: [
            { account: EXTERNAL, amount: -10000 },
            { account: vendorAccount(vendorId, 'pending'), amount: 8500 },
            { account: PLATFORM_COMMISSION, amount: 1500 },
          ],
        })
      ).transaction.id,
    );
  const clearing = (vendorId: number, booking: number, amount: number, key: string, settles?: number) =>
    post({
      key,
      kind: 'commission_clearing',
      vendorId,
      reference: `booking:${booking}`,
      currency: 'USD',
      settles,
      memo: { booking_id: booking },
      lines: [
        { account: vendorAccount(vendorId, 'pending'), amount: -amount },
        { account: vendorAccount(vendorId, 'available'), amount },
      ],
    });
  const refund = (vendorId: number, booking: number, key: string, settles?: number) =>
    post({
      key,
      kind: 'commission_refund',
      vendorId,
      reference: `booking:${booking}`,
      currency: 'USD',
      settles,
      memo: { booking_id: booking, from: 'pending' },
      lines: [
        { account: vendorAccount(vendorId, 'pending'), amount: -8500 },
        { account: PLATFORM_COMMISSION, amount: -1500 },
        { account: EXTERNAL, amount: 10000 },
      ],
    });
  const txId = async (key: string) =>
    Number(
      (await one<{ id: string }>(db, sql`SELECT id::text FROM ledger_transactions WHERE idempotency_key = ${key}`))!.id,
    );

  it('linked clearings and refunds: clean; the clearing job leaves a refunded credit alone and clears the rest once', async () => {
    const cleared = await credit(901, 1);
    const refunded = await credit(901, 2);
    await credit(901, 3);
    await refund(901, 2, 'refund-2', refunded);
    // the import's dry pass of the jobs sees what the job would do and leaves nothing behind
    const dry = await balancesBeforeAndAfterJobs(db, [901]);
    expect([dry.before.get(901), dry.after.get(901)]).toEqual([
      { available: 0, pending: 17000 },
      { available: 17000, pending: 0 },
    ]);
    expect(
      await one(db, sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'commission_clearing'`),
    ).toEqual({ n: 0 });
    expect(await clearMaturedCommissions(built.platform)).toBe(2);
    expect(await clearMaturedCommissions(built.platform)).toBe(0);
    expect(
      await one(
        db,
        sql`SELECT settles_tx_id::int AS s FROM ledger_transactions WHERE kind = 'commission_clearing' ORDER BY id LIMIT 1`,
      ),
    ).toEqual({ s: cleared });
    expect(await verifyLedger(db)).toMatchObject({ ok: true, breaches: [] });
    // the database itself refuses a second clearing or refund of one credit
    await expect(clearing(901, 1, 8500, 'again', cleared)).rejects.toThrow();
    await expect(refund(901, 2, 'refund-2-again', refunded)).rejects.toThrow();
  });

  it('three breaches, each named with its vendor, booking and transaction; rova verify and rova ledger verify exit 1', async () => {
    // 1. cleared twice: the job's linked clearing and a second one naming no credit (the import's old shape)
    const twice = await credit(902, 20);
    await clearing(902, 20, 8500, 'clearing-20-job', twice);
    await clearing(902, 20, 8500, 'clearing-20-import');
    const second = await txId('clearing-20-import');
    // 2. a refund that names no credit
    await credit(903, 30);
    await refund(903, 30, 'refund-30');
    const unlinked = await txId('refund-30');
    // 3. a clearing of more than the credit: pending below zero
    const over = await credit(904, 40);
    await clearing(904, 40, 9000, 'clearing-40', over);
    const overTx = await txId('clearing-40');

    const v = await verifyLedger(db);
    expect(v.mismatches).toEqual([]);
    expect(v.unbalanced).toEqual([]);
    expect(v.ok).toBe(false);
    expect(v.breaches).toEqual([
      {
        rule: 'cleared_twice',
        vendor_id: 902,
        booking_id: 20,
        transaction_id: twice,
        message: `vendor 902, booking 20: income credit transaction ${twice} is cleared 2 times (transactions ${second - 1}, ${second})`,
      },
      {
        rule: 'clearing_without_credit',
        vendor_id: 902,
        booking_id: 20,
        transaction_id: second,
        message: `vendor 902, booking 20: clearing transaction ${second} names no income credit of its vendor it clears`,
      },
      {
        rule: 'refund_without_credit',
        vendor_id: 903,
        booking_id: 30,
        transaction_id: unlinked,
        message: `vendor 903, booking 30: refund transaction ${unlinked} names no income credit of its vendor it refunds`,
      },
      {
        rule: 'pending_below_zero',
        vendor_id: 902,
        booking_id: 20,
        transaction_id: second,
        message: `vendor 902: pending balance -8500 is below zero (first taken below zero by transaction ${second}, booking 20)`,
      },
      {
        rule: 'pending_below_zero',
        vendor_id: 904,
        booking_id: 40,
        transaction_id: overTx,
        message: `vendor 904: pending balance -500 is below zero (first taken below zero by transaction ${overTx}, booking 40)`,
      },
    ]);
    expect((await verifyIntegrity(db)).findings).toEqual(v.breaches.map((b) => `ledger: ${b.message}`));

    await built.app.close();
    const all = await rovaInProcess(['verify'], env);
    expect(all.code).toBe(1);
    expect(all.stdout.split('\n').slice(0, 5)).toEqual(v.breaches.map((b) => `ledger: ${b.message}`));
    expect(all.stdout).toContain('verify NOT ok: 5 finding(s)');
    const ledger = await rovaInProcess(['ledger', 'verify'], env);
    expect(ledger.code).toBe(1);
    expect(ledger.stdout.split('\n').slice(0, 5)).toEqual(v.breaches.map((b) => `BREACH ${b.rule}: ${b.message}`));
    expect(ledger.stdout).toContain("5 breach(es) of the ledger's meaning");
    built = await buildApp(loadConfig(env), { logger: false });
  }, 120_000);
});

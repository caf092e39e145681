// @integration: random money operations run concurrently on the vendor lock
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { EXTERNAL, PLATFORM_PENALTIES, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { vendorBalances } from '../../../src/modules/rental/ledger/balances.js';
import { clearMaturedCommissions } from '../../../src/modules/rental/ledger/clearing.js';
import { postLedgerTransaction, type LedgerLine } from '../../../src/modules/rental/ledger/post.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import type { LedgerKind } from '../../../src/modules/rental/ledger/accounts.js';
import { prng } from '../../../src/platform/prng.js';
import { completedBooking, transactionSums, vendor, vendorVehicle } from './helpers.js';

describe('ledger: 1,000 randomized operations, then verify', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  }, 300_000);
  afterAll(async () => t?.close());

  it(
    'every transaction balances, cached balances equal the entries, replays write nothing',
    { timeout: 600_000 },
    async () => {
      const r = prng(20260423);
      const vendors = [await vendor(t), await vendor(t), await vendor(t)];
      const cars = await Promise.all(vendors.map((v) => vendorVehicle(t, v.id)));
      const completed: number[] = [];
      const keys: { key: string; kind: LedgerKind; vendorId: number; lines: LedgerLine[] }[] = [];
      let n = 0;
      const post = async (kind: LedgerKind, vendorId: number, lines: LedgerLine[]) => {
        n += 1;
        const key = `rnd-${n}`;
        keys.push({ key, kind, vendorId, lines });
        await t.platform.transaction((tx) =>
          postLedgerTransaction(tx, { key, kind, vendorId, reference: `rnd:${n}`, currency: 'USD', lines }),
        );
      };
      for (let i = 0; i < 1000; i += 1) {
        const k = r.int(0, 99);
        const vi = r.int(0, vendors.length - 1);
        const v = vendors[vi]!.id;
        const amount = r.int(1, 50_000);
        if (k < 8) completed.push(await completedBooking(t, cars[vi]!, (amount / 100).toFixed(2)));
        else if (k < 11 && completed.length)
          await changeStatus(t.platform, completed.splice(r.int(0, completed.length - 1), 1)[0]!, 'refunded');
        else if (k < 13) await clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000));
        else if (k < 40)
          await post('commission', v, [
            { account: EXTERNAL, amount: -amount },
            { account: vendorAccount(v, 'available'), amount },
          ]);
        else if (k < 50)
          await post('penalty', v, [
            { account: vendorAccount(v, 'available'), amount: -amount },
            { account: PLATFORM_PENALTIES, amount },
          ]);
        else if (k < 55)
          await post('penalty_reversal', v, [
            { account: PLATFORM_PENALTIES, amount: -amount },
            { account: vendorAccount(v, 'available'), amount },
          ]);
        else if (k < 70)
          await post('payout_hold', v, [
            { account: vendorAccount(v, 'available'), amount: -amount },
            { account: vendorAccount(v, 'payout_hold'), amount },
          ]);
        else if (k < 78)
          await post('payout_release', v, [
            { account: vendorAccount(v, 'payout_hold'), amount: -amount },
            { account: vendorAccount(v, 'available'), amount },
          ]);
        else if (k < 90)
          await post('payout_paid', v, [
            { account: vendorAccount(v, 'payout_hold'), amount: -amount },
            { account: EXTERNAL, amount },
          ]);
        else if (k < 94)
          await post('payout_reversal', v, [
            { account: EXTERNAL, amount: -amount },
            { account: vendorAccount(v, 'available'), amount },
          ]);
        else if (keys.length) {
          // a retry of an earlier movement: answered from the ledger, nothing written
          const old = keys[r.int(0, keys.length - 1)]!;
          const res = await t.platform.transaction((tx) =>
            postLedgerTransaction(tx, {
              key: old.key,
              kind: old.kind,
              vendorId: old.vendorId,
              reference: `rnd:${old.key.slice(4)}`,
              currency: 'USD',
              lines: old.lines,
            }),
          );
          expect(res.replayed).toBe(true);
        }
      }
      expect((await transactionSums(t)).every((s) => s === 0)).toBe(true);
      const v = await verifyLedger(t.platform.db);
      expect(v).toMatchObject({ ok: true, mismatches: [], unbalanced: [] });
      expect(v.transactions).toBeGreaterThan(700);
      for (const x of vendors) {
        const b = await vendorBalances(t.platform.db, x.id);
        expect(Number.isSafeInteger(b.available + b.pending + b.on_hold)).toBe(true);
      }
    },
  );
});

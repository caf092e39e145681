// @integration: penalties move vendor money under the vendor lock
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vendorBalances } from '../../../src/modules/rental/ledger/balances.js';
import {
  penaltyAmount,
  penaltyRate,
  reliabilityScore,
  scoreLabel,
} from '../../../src/modules/rental/ledger/penalty.js';
import { DEFAULT_MARKETPLACE } from '../../../src/modules/rental/ledger/settings.js';
import { verifyLedger } from '../../../src/modules/rental/ledger/verify.js';
import { one, rows } from '../../../src/platform/db/types.js';
import { V1 } from '../helpers.js';
import { clearedIncome, vendor, vendorVehicle } from './helpers.js';

describe('penalty and reliability rules (reference §8.11 scenarios 92–93)', () => {
  it('92: rate by withdrawals counted in the window (self-counting): 0 → 0, 1 → 10 %, 2 → 25 %, 5 → 25 %; zero income → zero penalty', () => {
    expect([0, 1, 2, 5].map((n) => penaltyRate(n, DEFAULT_MARKETPLACE))).toEqual([0, 10, 25, 25]);
    expect(penaltyAmount(200000, 25)).toBe(50000);
    expect(penaltyAmount(0, 25)).toBe(0);
    expect(penaltyAmount(33333, 10)).toBe(3333);
  });
  it('93: new vendor 100; one withdrawal 90; two 80; one pause 98; completions up to +20 capped at 100; 1+1+1 = 93; never below 0; labels', () => {
    const s = (w = 0, p = 0, c = 0, x = 0) =>
      reliabilityScore({ withdrawals: w, pauses: p, completed: c, cancellations: x });
    expect([s(), s(1), s(2), s(0, 1), s(0, 0, 10), s(1, 1, 1), s(20, 20)]).toEqual([100, 90, 80, 98, 100, 93, 0]);
    expect(s(3, 0, 10)).toBe(90);
    expect([95, 75, 55, 30].map(scoreLabel)).toEqual(['Excellent', 'Good', 'Fair', 'Poor']);
  });
});

describe('withdrawal penalty flow', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
  }, 300_000);
  afterAll(async () => t?.close());

  it('2000 average income and one prior withdrawal: the next withdrawal costs 25 % = 500 (balance 2000 → 1500); score drops', async () => {
    const v = await vendor(t);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    await clearedIncome(t, v.id, 200000, monthAgo);
    const old = await vendorVehicle(t, v.id, { lifecycle: 'withdrawn' });
    await t.platform.db.execute(
      sql`UPDATE vendor_listings SET withdrawn_at = now() - interval '1 month' WHERE vehicle_id = ${old}`,
    );
    const car = await vendorVehicle(t, v.id);
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/vehicles/${car}/withdraw`,
      headers: v.h,
      payload: {},
    });
    expect(r.statusCode).toBe(200);
    expect((await vendorBalances(t.platform.db, v.id)).available).toBe(150000);
    const pen = await rows<{ kind: string; reference: string }>(
      t.platform.db,
      sql`SELECT kind, reference FROM ledger_transactions WHERE vendor_id = ${v.id} AND kind = 'penalty'`,
    );
    expect(pen).toEqual([{ kind: 'penalty', reference: `vehicle:${car}` }]);
    const score = await one<{ reliability_score: number }>(
      t.platform.db,
      sql`SELECT reliability_score FROM rental_vendors WHERE user_id = ${v.id}`,
    );
    expect(score!.reliability_score).toBe(85); // 100 − 2 × 10 + 1 completed × 5
    const log = await t.inject({
      method: 'GET',
      url: `${V1}/vendor-management/${v.id}/audit-log?event_type=penalty_applied`,
      headers: { 'x-rova-api-key': (await t.userWithKey('administrator')).key },
    });
    expect(log.json().data.items).toMatchObject([{ event_type: 'penalty_applied', vehicle_id: car, amount: -500 }]);
    expect((await verifyLedger(t.platform.db)).ok).toBe(true);
  });

  it('a first withdrawal with no income costs nothing (no ledger row) but still lowers the score', async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/vendor/vehicles/${car}/withdraw`,
          headers: v.h,
          payload: { reason: 'Selling it' },
        })
      ).statusCode,
    ).toBe(200);
    expect(await rows(t.platform.db, sql`SELECT id FROM ledger_transactions WHERE vendor_id = ${v.id}`)).toEqual([]);
    expect(
      (await one<{ reliability_score: number }>(
        t.platform.db,
        sql`SELECT reliability_score FROM rental_vendors WHERE user_id = ${v.id}`,
      ))!.reliability_score,
    ).toBe(90);
  });
});

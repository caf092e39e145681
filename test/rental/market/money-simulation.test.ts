// @integration: vendor money moves under the vendor lock; operations of different vendors run at the same time
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { PLATFORM_PENALTIES, vendorAccount } from '../../../src/modules/rental/ledger/accounts.js';
import { vendorBalances } from '../../../src/modules/rental/ledger/balances.js';
import { clearMaturedCommissions } from '../../../src/modules/rental/ledger/clearing.js';
import { postLedgerTransaction } from '../../../src/modules/rental/ledger/post.js';
import { prng } from '../../../src/platform/prng.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { completedBooking, V2, vendor, vendorVehicle } from './helpers.js';

// Issue 19: the money simulation as a test of its own. 320 random operations (fixed seed) on three vendors through
// the API and the ledger functions — bookings completed and refunded, clearing, penalties, payouts requested,
// approved, rejected, paid and failed — two vendors' operations at a time. A model computes every vendor's balances
// from the rules alone (commission 20 %, minimum payout 100, one open payout, hold + available must cover a payout);
// after every round the ledger must equal it, and at the end `rova verify` must be clean.
const SECRET = 'whsec_' + Buffer.from('money-simulation-processor-secret-01234').toString('base64');
const OPS = 320;

interface Model {
  pending: Map<number, number>;
  cleared: Map<number, number>;
  available: number;
  hold: number;
  paidOut: number;
  open: { id: number; amount: number; status: 'requested' | 'approved' } | null;
}

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '1000000', ROVA_PAYOUT_WEBHOOK_SECRET: SECRET } });
  admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
}, 240_000);
afterAll(async () => t?.close());

const callback = (id: number, status: 'paid' | 'failed') => {
  const msgId = `msg_sim_${id}_${status}_${Math.random().toString(36).slice(2)}`;
  const at = new Date();
  const payload = JSON.stringify({ payout_id: id, status });
  return t.inject({
    method: 'POST',
    url: `${V2}/payouts/${id}/callback`,
    payload,
    headers: {
      'content-type': 'application/json',
      'webhook-id': msgId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign(msgId, at, payload),
    },
  });
};

describe('money simulation: random operations against a model of every vendor balance', () => {
  it(`${OPS} operations, seed 20261124: balances equal the model after every round; rova verify clean`, async () => {
    const r = prng(20261124);
    const vendors = await Promise.all([0, 1, 2].map(() => vendor(t, { commission_rate: '20' })));
    const cars = await Promise.all(vendors.map((v) => vendorVehicle(t, v.id)));
    const models: Model[] = vendors.map(() => ({
      pending: new Map(),
      cleared: new Map(),
      available: 0,
      hold: 0,
      paidOut: 0,
      open: null,
    }));
    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

    /** One random operation on vendor i; the model moves only by what the rules say the answer must be. */
    async function operate(i: number, k: number): Promise<void> {
      const v = vendors[i]!;
      const m = models[i]!;
      if (k < 25) {
        const gross = r.int(5_000, 90_000);
        const id = await completedBooking(t, cars[i]!, (gross / 100).toFixed(2));
        m.pending.set(id, gross - Math.round(gross * 0.2));
        return void count('booking completed');
      }
      if (k < 32) {
        const all = [...m.pending.keys(), ...m.cleared.keys()];
        if (!all.length) return;
        const id = all[r.int(0, all.length - 1)]!;
        await changeStatus(t.platform, id, 'refunded', { by: 'admin' });
        if (m.pending.has(id)) m.pending.delete(id);
        else {
          m.available -= m.cleared.get(id)!;
          m.cleared.delete(id);
        }
        return void count('booking refunded');
      }
      if (k < 40) {
        const amount = r.int(100, 80_000);
        await t.platform.transaction((tx) =>
          postLedgerTransaction(tx, {
            key: `sim-pen-${v.id}-${r.int(0, 1e9)}`,
            kind: 'penalty',
            vendorId: v.id,
            reference: null,
            currency: 'USD',
            lines: [
              { account: vendorAccount(v.id, 'available'), amount: -amount },
              { account: PLATFORM_PENALTIES, amount },
            ],
          }),
        );
        m.available -= amount;
        return void count('penalty');
      }
      if (k < 60) {
        const amount = r.int(9_000, 60_000);
        const res = await t.inject({
          method: 'POST',
          url: `${V2}/ledger/payouts`,
          headers: v.h,
          payload: { amount: amount / 100 },
        });
        const expected = amount < 10_000 ? 400 : m.open || amount > m.available ? 409 : 201;
        expect(res.statusCode, res.body).toBe(expected);
        if (expected === 201) {
          m.open = { id: res.json().data.payout.id as number, amount, status: 'requested' };
          m.available -= amount;
          m.hold += amount;
        }
        return void count(`payout request ${expected}`);
      }
      if (k < 75 && m.open?.status === 'requested') {
        const reject = r.int(0, 3) === 0;
        const res = await t.inject({
          method: 'POST',
          url: `${V2}/payouts/${m.open.id}/${reject ? 'reject' : 'approve'}`,
          headers: admin,
          payload: reject ? { reason: 'Simulation says no.' } : undefined,
        });
        const covered = m.hold + m.available >= m.open.amount;
        const expected = reject || covered ? 200 : 409;
        expect(res.statusCode, res.body).toBe(expected);
        if (expected === 409) expect(res.json().details.reason).toBe('vendor_owes');
        if (reject) {
          m.available += m.open.amount;
          m.hold -= m.open.amount;
          m.open = null;
        } else if (covered) m.open.status = 'approved';
        return void count(`payout ${reject ? 'reject' : 'approve'} ${expected}`);
      }
      if (k < 90 && m.open?.status === 'approved') {
        const paid = r.int(0, 4) !== 0;
        const res = await callback(m.open.id, paid ? 'paid' : 'failed');
        const covered = m.hold + m.available >= m.open.amount;
        const expected = !paid || covered ? 200 : 409;
        expect(res.statusCode, res.body).toBe(expected);
        if (expected === 200) {
          m.hold -= m.open.amount;
          if (paid) m.paidOut += m.open.amount;
          else m.available += m.open.amount;
          m.open = null;
        }
        return void count(`callback ${paid ? 'paid' : 'failed'} ${expected}`);
      }
      if (k >= 90) {
        await clearMaturedCommissions(t.platform, new Date(Date.now() + 8 * 86_400_000));
        for (const model of models) {
          for (const [id, net] of model.pending) model.cleared.set(id, net);
          model.available += [...model.pending.values()].reduce((a, b) => a + b, 0);
          model.pending.clear();
        }
        return void count('clearing');
      }
    }

    let owedSeen = 0;
    let done = 0;
    while (done < OPS) {
      const k = r.int(0, 99);
      if (k >= 90) {
        // clearing touches every vendor: it runs alone
        await operate(0, k);
        done += 1;
      } else {
        // two different vendors at once: their money is independent, so the model does not depend on the order (each
        // operation draws its random numbers before its first await, so the sequence is the seed's alone)
        const a = r.int(0, 2);
        const b = (a + r.int(1, 2)) % 3;
        await Promise.all([operate(a, k), operate(b, r.int(0, 89))]);
        done += 2;
      }
      for (const [i, x] of vendors.entries()) {
        const m = models[i]!;
        const got = await vendorBalances(t.platform.db, x.id);
        const pending = [...m.pending.values()].reduce((s, n) => s + n, 0);
        if (m.available < 0) owedSeen += 1;
        expect(
          {
            available: got.available,
            pending: got.pending,
            on_hold: got.on_hold,
            paid: got.total_paid_out,
            owed: got.owed,
          },
          `after ${done} operations, vendor ${i}`,
        ).toEqual({
          available: m.available,
          pending,
          on_hold: m.hold,
          paid: m.paidOut,
          owed: Math.max(0, -m.available),
        });
      }
    }
    // the simulation went through the interesting states, not only the easy ones
    for (const what of [
      'booking completed',
      'booking refunded',
      'penalty',
      'payout request 201',
      'payout request 409',
      'payout approve 200',
      'callback paid 200',
      'clearing',
    ]) {
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(0);
    }
    // and through debt: vendors owed, and payouts their money no longer covered were refused
    expect(owedSeen, 'rounds in which a vendor owed').toBeGreaterThan(0);
    expect(
      (seen.get('payout approve 409') ?? 0) + (seen.get('callback paid 409') ?? 0),
      'payouts refused for debt',
    ).toBeGreaterThan(0);
    expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
  }, 600_000);
});

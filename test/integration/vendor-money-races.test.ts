import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorAccount } from '../../src/modules/rental/ledger/accounts.js';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { verifyLedger } from '../../src/modules/rental/ledger/verify.js';
import { rows } from '../../src/platform/db/types.js';
import { V1 } from '../rental/helpers.js';
import { clearedIncome, vendor, vendorVehicle } from '../rental/market/helpers.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';

// Races over two nodes on PostgreSQL: one vendor's money decisions are taken under one lock, on whichever node.
let n: TwoNodes;
beforeAll(async () => {
  n = await twoNodes({ RENTAL_WRITE_RATE_LIMIT: '100000' });
}, 240_000);
afterAll(async () => n?.close());

const REPEAT = 20;

describe('two withdrawals of one vendor at once (issue 19 item 3)', () => {
  it(`the first is charged 10 %, the second 25 % (counted under the vendor lock), ${REPEAT} times`, async () => {
    const { a, b } = n;
    for (let i = 0; i < REPEAT; i++) {
      const v = await vendor(a);
      // 2000.00 of cleared income a month ago: the monthly average the penalty is a share of
      const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
      await clearedIncome(a, v.id, 200000, monthAgo);
      const car1 = await vendorVehicle(a, v.id);
      const car2 = await vendorVehicle(a, v.id);
      const [r1, r2] = await Promise.all([
        a.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car1}/withdraw`, headers: v.h, payload: {} }),
        b.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car2}/withdraw`, headers: v.h, payload: {} }),
      ]);
      expect([r1.statusCode, r2.statusCode], `${r1.body} ${r2.body}`).toEqual([200, 200]);
      const penalties = await rows<{ amount: string }>(
        a.platform.db,
        sql`SELECT -e.amount AS amount FROM ledger_transactions x
        JOIN ledger_entries e ON e.transaction_id = x.id JOIN ledger_accounts acc ON acc.id = e.account_id
        WHERE x.vendor_id = ${v.id} AND x.kind = 'penalty' AND acc.code = ${vendorAccount(v.id, 'available')} ORDER BY x.id`,
      );
      // 10 % then 25 % of the 2000.00 monthly average, in minor units
      expect(
        penalties.map((p) => Number(p.amount)),
        `round ${i}`,
      ).toEqual([20000, 50000]);
    }
    expect((await verifyLedger(a.platform.db)).ok).toBe(true);
    expect((await verifyIntegrity(a.platform.db)).findings).toEqual([]);
  }, 180_000);
});

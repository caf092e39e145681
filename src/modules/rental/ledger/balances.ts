import { sql } from 'drizzle-orm';
import { one, type Db } from '../../../platform/db/types.js';
import { vendorAccount } from './accounts.js';

export interface VendorBalances {
  /** Minor units. */
  available: number;
  pending: number;
  on_hold: number;
  /** Net commission income: commissions minus their refunds (penalties and payouts excluded). */
  total_earned: number;
  /** Paid out to the vendor's bank: payout_paid minus payout_reversal after paid. */
  total_paid_out: number;
  /** Penalties applied minus reversed. */
  penalties: number;
  /** What the vendor owes the platform: a negative available balance as a positive amount (0 when none). */
  owed: number;
}

/** A vendor's balances from the cached account balances and the entries (one query). */
export async function vendorBalances(db: Db, vendorId: number): Promise<VendorBalances> {
  const pending = vendorAccount(vendorId, 'pending');
  const available = vendorAccount(vendorId, 'available');
  const hold = vendorAccount(vendorId, 'payout_hold');
  const r = await one<Record<string, string>>(
    db,
    sql`SELECT
      coalesce((SELECT balance FROM ledger_accounts WHERE code = ${available}), 0)::text AS available,
      coalesce((SELECT balance FROM ledger_accounts WHERE code = ${pending}), 0)::text AS pending,
      coalesce((SELECT balance FROM ledger_accounts WHERE code = ${hold}), 0)::text AS on_hold,
      coalesce(sum(e.amount) FILTER (WHERE t.kind IN ('commission', 'commission_refund') AND a.code IN (${pending}, ${available})), 0)::text AS earned,
      coalesce(-sum(e.amount) FILTER (WHERE t.kind = 'payout_paid' AND a.code = ${hold}), 0)::text AS paid,
      coalesce(sum(e.amount) FILTER (WHERE t.kind = 'payout_reversal' AND a.code = ${available} AND t.memo->>'after_paid' = 'true'), 0)::text AS reversed,
      coalesce(-sum(e.amount) FILTER (WHERE t.kind IN ('penalty', 'penalty_reversal') AND a.code = ${available}), 0)::text AS penalties
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.vendor_id = ${vendorId}`,
  );
  const n = (k: string) => Number(r?.[k] ?? 0);
  return {
    owed: Math.max(0, -n('available')),
    available: n('available'),
    pending: n('pending'),
    on_hold: n('on_hold'),
    total_earned: n('earned'),
    total_paid_out: n('paid') - n('reversed'),
    penalties: n('penalties'),
  };
}

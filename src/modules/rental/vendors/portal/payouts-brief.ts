import type { Db } from '../../../../platform/db/types.js';
import { listPayouts } from '../../payouts/repo.js';
import { fromMinor } from '../../ledger/money.js';
import { toDate } from '../../../../platform/db/types.js';

export interface PayoutBrief {
  id: number;
  amount: number;
  currency: string;
  status: string;
  statement_no: number;
  statement_number: string | null;
  requested_at: string;
}

/** The vendor's 10 latest payouts for the vendor detail. */
export async function recentPayoutsOf(db: Db, vendorId: number, currency: string): Promise<PayoutBrief[]> {
  const r = await listPayouts(db, { vendor_id: vendorId }, 10, 0);
  return r.items.map((x) => ({
    id: Number(x.id),
    amount: fromMinor(x.amount, x.currency || currency),
    currency: x.currency,
    status: x.status,
    statement_no: Number(x.statement_no),
    statement_number: x.statement_number,
    requested_at: toDate(x.requested_at).toISOString(),
  }));
}

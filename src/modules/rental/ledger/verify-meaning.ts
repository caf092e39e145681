import type { Db } from '../../../platform/db/types.js';
import { multiplyClearedCredits, negativePendingBalances, unlinkedSettlements } from './meaning-repo.js';

/** A rule of the ledger's meaning that the ledger breaks (sums can balance while the meaning is wrong). */
export interface LedgerBreach {
  rule: 'cleared_twice' | 'clearing_without_credit' | 'refund_without_credit' | 'pending_below_zero';
  vendor_id: number | null;
  booking_id: number | null;
  transaction_id: number;
  /** One line naming the vendor, the booking and the transactions. */
  message: string;
}

const n = (v: string | null) => (v === null ? null : Number(v));
const booking = (b: string | null) => (b === null ? 'no booking' : `booking ${b}`);

/**
 * What every balanced ledger must also mean (issue 34.1): each income credit cleared at most once, every clearing
 * and every commission refund naming the credit it acts on (links.ts), no vendor's pending balance below zero.
 */
export async function ledgerMeaningBreaches(db: Db): Promise<LedgerBreach[]> {
  const out: LedgerBreach[] = [];
  for (const r of await multiplyClearedCredits(db)) {
    out.push({
      rule: 'cleared_twice',
      vendor_id: n(r.vendor_id),
      booking_id: n(r.booking_id),
      transaction_id: Number(r.credit_id),
      message: `vendor ${r.vendor_id}, ${booking(r.booking_id)}: income credit transaction ${r.credit_id} is cleared ${r.clearings.length} times (transactions ${r.clearings.join(', ')})`,
    });
  }
  for (const r of await unlinkedSettlements(db)) {
    const clearing = r.kind === 'commission_clearing';
    out.push({
      rule: clearing ? 'clearing_without_credit' : 'refund_without_credit',
      vendor_id: n(r.vendor_id),
      booking_id: n(r.booking_id),
      transaction_id: Number(r.id),
      message: `vendor ${r.vendor_id}, ${booking(r.booking_id)}: ${clearing ? 'clearing' : 'refund'} transaction ${r.id} names no income credit of its vendor it ${clearing ? 'clears' : 'refunds'}${r.settles_tx_id ? ` (it names transaction ${r.settles_tx_id})` : ''}`,
    });
  }
  for (const r of await negativePendingBalances(db)) {
    out.push({
      rule: 'pending_below_zero',
      vendor_id: Number(r.vendor_id),
      booking_id: n(r.booking_id),
      transaction_id: Number(r.transaction_id),
      message: `vendor ${r.vendor_id}: pending balance ${r.balance} is below zero (first taken below zero by transaction ${r.transaction_id}, ${booking(r.booking_id)})`,
    });
  }
  return out;
}

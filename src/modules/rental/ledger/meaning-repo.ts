import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../../platform/db/types.js';

/** The ledger's meaning, read for `rova verify` (verify-meaning.ts): what each clearing and refund settles. */

// the booking a transaction is about: its memo, else its booking:{id} reference
const bookingOf = (t: string) =>
  sql.raw(`coalesce(${t}.memo->>'booking_id', substring(${t}.reference FROM '^booking:([0-9]+)$'))`);

export interface SettlingRow {
  id: string;
  kind: 'commission_clearing' | 'commission_refund';
  vendor_id: string | null;
  booking_id: string | null;
  settles_tx_id: string | null;
}

/** Clearings and commission refunds that name no commission of their vendor (links.ts). */
export async function unlinkedSettlements(db: Db): Promise<SettlingRow[]> {
  return rows<SettlingRow>(
    db,
    sql`SELECT t.id::text, t.kind, t.vendor_id::text, ${bookingOf('t')} AS booking_id, t.settles_tx_id::text
    FROM ledger_transactions t LEFT JOIN ledger_transactions c ON c.id = t.settles_tx_id
    WHERE t.kind IN ('commission_clearing', 'commission_refund')
      AND (c.id IS NULL OR c.kind <> 'commission' OR c.vendor_id IS DISTINCT FROM t.vendor_id)
    ORDER BY t.id`,
  );
}

export interface MultiplyClearedRow {
  credit_id: string;
  vendor_id: string | null;
  booking_id: string | null;
  clearings: string[];
}

/**
 * Income credits cleared more than once: the clearings that name the credit, plus those that name none but move
 * the same vendor's income of the same booking and amount (how a second clearing looks when its writer did not
 * link it), plus a refund from pending of a credit that was also cleared (its pending money taken twice).
 */
export async function multiplyClearedCredits(db: Db): Promise<MultiplyClearedRow[]> {
  return rows<MultiplyClearedRow>(
    db,
    sql`WITH clr AS (
      SELECT k.id, k.vendor_id, k.settles_tx_id, ${bookingOf('k')} AS booking,
        (SELECT -sum(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE e.transaction_id = k.id AND a.code LIKE 'vendor:%:pending') AS net
      FROM ledger_transactions k WHERE k.kind = 'commission_clearing'
      UNION ALL
      SELECT r.id, r.vendor_id, r.settles_tx_id, NULL, NULL FROM ledger_transactions r
      WHERE r.kind = 'commission_refund' AND r.memo->>'from' = 'pending'
        AND EXISTS (SELECT 1 FROM ledger_transactions k WHERE k.kind = 'commission_clearing' AND k.settles_tx_id = r.settles_tx_id))
    SELECT c.id::text AS credit_id, c.vendor_id::text, ${bookingOf('c')} AS booking_id, array_agg(clr.id::text ORDER BY clr.id) AS clearings
    FROM ledger_transactions c JOIN clr ON clr.settles_tx_id = c.id
      OR (clr.settles_tx_id IS NULL AND clr.vendor_id = c.vendor_id AND clr.booking IS NOT DISTINCT FROM ${bookingOf('c')} AND clr.net = (c.memo->>'net')::bigint)
    WHERE c.kind = 'commission'
    GROUP BY c.id HAVING count(*) > 1 ORDER BY c.id`,
  );
}

export interface NegativePendingRow {
  vendor_id: string;
  balance: string;
  /** The transaction that first took the balance below zero (entry order), and its booking. */
  transaction_id: string;
  booking_id: string | null;
}

/** Vendors whose pending balance is below zero. */
export async function negativePendingBalances(db: Db): Promise<NegativePendingRow[]> {
  return rows<NegativePendingRow>(
    db,
    sql`WITH run AS (
      SELECT a.vendor_id, a.balance, e.transaction_id, e.id, sum(e.amount) OVER (PARTITION BY e.account_id ORDER BY e.id) AS running
      FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id
      WHERE a.code LIKE 'vendor:%:pending' AND a.balance < 0)
    SELECT DISTINCT ON (run.vendor_id) run.vendor_id::text, run.balance::text, run.transaction_id::text, ${bookingOf('t')} AS booking_id
    FROM run JOIN ledger_transactions t ON t.id = run.transaction_id
    WHERE run.running < 0 ORDER BY run.vendor_id, run.id`,
  );
}

import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { vendorAccount } from './accounts.js';
import type { LedgerTxRow } from './repo.js';

// Namespace of the advisory locks that serialise one vendor's money decisions (balance checks, clearing, refunds).
const VENDOR_MONEY_LOCK = 4000;

/**
 * Serialises the money decisions of one vendor for the rest of the transaction. Taken before any ledger account
 * lock (which postLedgerTransaction takes in id order), so the two lock levels never form a cycle.
 */
export async function lockVendorMoney(tx: Db, vendorId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${VENDOR_MONEY_LOCK}, ${vendorId % 2_147_483_647}::int)`);
}

export interface CommissionContext {
  vendor_id: string | number | null;
  vehicle_rate: string | null;
  vendor_rate: string | null;
}

export async function commissionContext(db: Db, vehicleId: number): Promise<CommissionContext | undefined> {
  return one<CommissionContext>(
    db,
    sql`SELECT v.vendor_id, l.commission_rate::text AS vehicle_rate, d.commission_rate::text AS vendor_rate
    FROM rental_vehicles v LEFT JOIN vendor_listings l ON l.vehicle_id = v.id LEFT JOIN rental_vendors d ON d.user_id = v.vendor_id
    WHERE v.id = ${vehicleId}`,
  );
}

/** Net commission income that became available in the last 30 days (clearings minus refunds taken from available). */
export async function clearedRevenue30d(db: Db, vendorId: number): Promise<number> {
  const r = await one<{ total: string }>(
    db,
    sql`SELECT coalesce(sum(e.amount), 0)::text AS total
    FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE a.code = ${vendorAccount(vendorId, 'available')} AND t.kind IN ('commission_clearing', 'commission_refund')
      AND t.created_at >= now() - interval '30 days'`,
  );
  return Number(r?.total ?? 0);
}

export async function bookingMoneyTxs(db: Db, bookingId: number): Promise<LedgerTxRow[]> {
  return rows<LedgerTxRow>(
    db,
    sql`SELECT * FROM ledger_transactions WHERE reference = ${'booking:' + bookingId}
    AND kind IN ('commission', 'commission_refund') ORDER BY id`,
  );
}

/** The clearing of a commission (links.ts: the clearing names it in settles_tx_id). */
export async function clearingOf(db: Db, commissionTxId: number): Promise<LedgerTxRow | undefined> {
  return one<LedgerTxRow>(
    db,
    sql`SELECT * FROM ledger_transactions WHERE kind = 'commission_clearing' AND settles_tx_id = ${commissionTxId}`,
  );
}

/**
 * Commission transactions whose hold started before `before` that are neither cleared nor refunded (oldest
 * first). The hold starts at the credit, or at `memo.hold_from` when it says otherwise (income imported as
 * pending: its hold starts at the import).
 */
export async function maturedCommissions(db: Db, before: Date, limit: number): Promise<LedgerTxRow[]> {
  return rows<LedgerTxRow>(
    db,
    sql`SELECT c.* FROM ledger_transactions c
    WHERE c.kind = 'commission' AND c.created_at <= ${before.toISOString()} AND (c.memo->>'net')::bigint > 0
      AND coalesce((c.memo->>'hold_from')::timestamptz, c.created_at) <= ${before.toISOString()}
      AND NOT EXISTS (SELECT 1 FROM ledger_transactions k WHERE k.settles_tx_id = c.id AND k.kind IN ('commission_clearing', 'commission_refund'))
    ORDER BY c.created_at, c.id LIMIT ${limit}`,
  );
}

/** Whether a refund names the commission (links.ts). */
export async function isRefunded(db: Db, commissionTxId: number): Promise<boolean> {
  const r = await one<{ x: number }>(
    db,
    sql`SELECT 1 AS x FROM ledger_transactions WHERE kind = 'commission_refund' AND settles_tx_id = ${commissionTxId}`,
  );
  return r !== undefined;
}

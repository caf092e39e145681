import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';
import { EXTERNAL, PLATFORM_COMMISSION, PLATFORM_PENALTIES, vendorAccount } from '../ledger/accounts.js';

/** The ledger transactions that bound a payout's statement: its own hold and the vendor's hold before it. */
export interface StatementBounds {
  /** The payout's hold (available → payout_hold); null when the payout has none (never, for a request made here). */
  holdTxId: number | null;
  /** The vendor's previous payout hold (any payout, imported ones too); 0 when this is the first. */
  previousHoldTxId: number;
  previousHoldAt: string | null;
}

export async function statementBounds(db: Db, payoutId: number, vendorId: number): Promise<StatementBounds> {
  const hold = await one<{ id: string; created_at: string }>(
    db,
    sql`SELECT id::text AS id, created_at FROM ledger_transactions WHERE idempotency_key = ${`payout:${payoutId}:hold`}`,
  );
  if (!hold) return { holdTxId: null, previousHoldTxId: 0, previousHoldAt: null };
  const prev = await one<{ id: string; created_at: string }>(
    db,
    sql`SELECT id::text AS id, created_at FROM ledger_transactions
      WHERE vendor_id = ${vendorId} AND kind = 'payout_hold' AND id < ${hold.id} ORDER BY id DESC LIMIT 1`,
  );
  return {
    holdTxId: Number(hold.id),
    previousHoldTxId: prev ? Number(prev.id) : 0,
    previousHoldAt: prev?.created_at ?? null,
  };
}

/** The vendor's available balance after ledger transaction `txId` (0 before any): the sum of its entries up to it. */
export async function availableAfter(db: Db, vendorId: number, txId: number): Promise<number> {
  const r = await one<{ s: string }>(
    db,
    sql`SELECT coalesce(sum(e.amount), 0)::text AS s FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      WHERE a.code = ${vendorAccount(vendorId, 'available')} AND e.transaction_id <= ${txId}`,
  );
  return Number(r?.s ?? 0);
}

export interface MovementRow {
  transaction_id: string;
  kind: string;
  reference: string | null;
  memo: Record<string, unknown>;
  created_at: string;
  /** The entry on the vendor's available account, minor units. */
  net: string;
  /** What the customer paid and the platform's commission, from the commission the line is about (minor units). */
  gross: string;
  commission: string;
  penalty: string;
  booking_reference: string | null;
  pickup_at: string | null;
  return_at: string | null;
  /** The payout a hold, release or reversal belongs to, by the vendor's number. */
  payout_no: number | null;
  payout_status: string | null;
}

/**
 * Every entry on the vendor's available account in (afterTxId, toTxId], in ledger order, with what it is about:
 * a clearing and a commission refund carry the gross and commission of their booking's commission (the clearing's from
 * the commission it settles, the refund's from its own lines: both signed as they move money), a penalty its amount.
 */
export async function availableMovements(
  db: Db,
  vendorId: number,
  afterTxId: number,
  toTxId: number,
): Promise<MovementRow[]> {
  const sumOn = (code: string, sign: 1 | -1) =>
    sql`coalesce((SELECT ${sign} * sum(x.amount) FROM ledger_entries x JOIN ledger_accounts xa ON xa.id = x.account_id
      WHERE x.transaction_id = src.id AND xa.code = ${code}), 0)::text`;
  return rows<MovementRow>(
    db,
    sql`SELECT t.id::text AS transaction_id, t.kind, t.reference, t.memo, t.created_at, e.amount::text AS net,
        CASE WHEN t.kind IN ('commission', 'commission_clearing', 'commission_refund') THEN ${sumOn(EXTERNAL, -1)} ELSE '0' END AS gross,
        CASE WHEN t.kind IN ('commission', 'commission_clearing', 'commission_refund') THEN ${sumOn(PLATFORM_COMMISSION, 1)} ELSE '0' END AS commission,
        CASE WHEN t.kind IN ('penalty', 'penalty_reversal') THEN ${sumOn(PLATFORM_PENALTIES, 1)} ELSE '0' END AS penalty,
        b.reference AS booking_reference, b.pickup_at, b.return_at,
        vp.statement_no AS payout_no, vp.status AS payout_status
      FROM ledger_entries e
      JOIN ledger_accounts a ON a.id = e.account_id
      JOIN ledger_transactions t ON t.id = e.transaction_id
      -- the transaction whose lines say gross and commission: the settled commission for a clearing, else the line's own
      JOIN ledger_transactions src ON src.id = CASE WHEN t.kind = 'commission_clearing' AND t.settles_tx_id IS NOT NULL
        THEN t.settles_tx_id ELSE t.id END
      LEFT JOIN rental_bookings b ON b.id = substring(src.reference FROM '^booking:([0-9]+)$')::bigint
      LEFT JOIN vendor_payouts vp ON t.kind LIKE 'payout%' AND t.reference = 'payout:' || vp.id::text
      WHERE a.code = ${vendorAccount(vendorId, 'available')} AND e.transaction_id > ${afterTxId}
        AND e.transaction_id <= ${toTxId}
      ORDER BY e.transaction_id, e.id`,
  );
}

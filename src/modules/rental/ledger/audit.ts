import { sql } from 'drizzle-orm';
import { one, rows, type Db } from '../../../platform/db/types.js';

/** Event types of the vendor audit log (design §6). */
export type VendorAuditEvent =
  | 'commission_applied'
  | 'commission_reversed'
  | 'commission_cleared'
  | 'penalty_applied'
  | 'penalty_deferred'
  | 'penalty_reversed'
  | 'penalty_waived'
  | 'vendor_approved'
  | 'vendor_suspended'
  | 'vendor_unsuspended'
  | 'payout_requested'
  | 'payout_approved'
  | 'payout_rejected'
  | 'payout_paid'
  | 'payout_failed'
  | 'iban_change_requested'
  | 'iban_change_approved'
  | 'iban_change_rejected'
  | 'vehicle_submitted'
  | 'vehicle_approved'
  | 'vehicle_rejected'
  | 'vehicle_paused'
  | 'vehicle_resumed'
  | 'vehicle_withdrawn'
  | 'vehicle_relisted'
  | 'vehicle_blocked'
  | 'vehicle_unblocked'
  | 'booking_cancelled';

export interface VendorAuditInput {
  vendorId: number;
  event: VendorAuditEvent;
  bookingId?: number | null;
  vehicleId?: number | null;
  payoutId?: number | null;
  ledgerTxId?: number | null;
  /** Signed minor units. */
  amount?: number | null;
  note?: string;
  adminUserId?: number | null;
  at?: string;
}

/** Appends one vendor audit entry (in the caller's transaction, so it exists exactly when the change does). */
export async function recordVendorAudit(tx: Db, e: VendorAuditInput): Promise<void> {
  await tx.execute(sql`INSERT INTO vendor_audit_log (vendor_id, event_type, booking_id, vehicle_id, payout_id, ledger_tx_id, amount, note, admin_user_id, created_at)
    VALUES (${e.vendorId}, ${e.event}, ${e.bookingId ?? null}, ${e.vehicleId ?? null}, ${e.payoutId ?? null}, ${e.ledgerTxId ?? null},
            ${e.amount ?? null}, ${e.note ?? ''}, ${e.adminUserId ?? null}, coalesce(${e.at ?? null}::timestamptz, now()))`);
}

export interface VendorAuditRow {
  id: string | number;
  vendor_id: string | number;
  event_type: string;
  booking_id: string | number | null;
  vehicle_id: string | number | null;
  payout_id: string | number | null;
  ledger_tx_id: string | number | null;
  amount: string | number | null;
  note: string;
  admin_user_id: string | number | null;
  created_at: string;
}

export async function listVendorAudit(
  db: Db,
  vendorId: number,
  event: string | undefined,
  limit: number,
  offset: number,
): Promise<{ items: VendorAuditRow[]; total: number }> {
  const f = event ? sql` AND event_type = ${event}` : sql``;
  const items = await rows<VendorAuditRow>(
    db,
    sql`SELECT * FROM vendor_audit_log WHERE vendor_id = ${vendorId}${f}
    ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const c = await one<{ n: string }>(
    db,
    sql`SELECT count(*)::text AS n FROM vendor_audit_log WHERE vendor_id = ${vendorId}${f}`,
  );
  return { items, total: Number(c?.n ?? 0) };
}

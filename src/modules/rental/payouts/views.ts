import { toDate } from '../../../platform/db/types.js';
import { fromMinor } from '../ledger/money.js';
import type { PayoutRow } from './repo.js';

const iso = (v: unknown) => (v === null || v === undefined ? null : toDate(v).toISOString());

export function payoutView(p: PayoutRow) {
  return {
    id: Number(p.id),
    vendor_id: Number(p.vendor_id),
    vendor_name: p.vendor_name ?? `#${p.vendor_id}`,
    amount: fromMinor(p.amount, p.currency),
    currency: p.currency,
    status: p.status,
    statement_number: p.statement_number,
    rejection_reason: p.rejection_reason,
    external_reference: p.external_reference,
    requested_at: iso(p.requested_at)!,
    decided_at: iso(p.decided_at),
    paid_at: iso(p.paid_at),
    failed_at: iso(p.failed_at),
  };
}

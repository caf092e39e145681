import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { vendorAccount } from './accounts.js';
import { moneyText } from './money.js';
import { recordVendorAudit } from './audit.js';
import { clearingOf, isRefunded, lockVendorMoney, maturedCommissions } from './income-repo.js';
import { postLedgerTransaction } from './post.js';
import type { LedgerTxRow } from './repo.js';
import { marketplaceSettings } from './settings.js';

/**
 * Moves vendor income whose hold period has passed from pending to available: one ledger transaction per
 * commission, each in its own database transaction under the vendor's money lock (a refund racing with it sees
 * either the cleared or the pending state, never both). Idempotent: a clearing is keyed by its commission.
 */
export async function clearMaturedCommissions(p: Platform, now = new Date(), batch = 500): Promise<number> {
  const s = await marketplaceSettings(p);
  const before = new Date(now.getTime() - s.hold_days * 86_400_000);
  let cleared = 0;
  for (;;) {
    const due = await maturedCommissions(p.db, before, batch);
    for (const c of due) {
      const done = await p.transaction(async (tx) => clearCommission(tx, c, s.hold_days));
      if (done) cleared += 1;
    }
    if (due.length < batch) return cleared;
  }
}

/**
 * Clears one commission (pending → available) unless it is already cleared or refunded; `at` back-dates it (demo
 * data). The caller runs it in its own transaction.
 */
export async function clearCommission(tx: Db, c: LedgerTxRow, holdDays: number, at?: string): Promise<boolean> {
  const vendorId = Number(c.vendor_id);
  const net = Number((c.memo as { net?: number }).net ?? 0);
  await lockVendorMoney(tx, vendorId);
  if ((await clearingOf(tx, Number(c.id))) || (await isRefunded(tx, Number(c.id)))) return false;
  const posted = await postLedgerTransaction(tx, {
    key: `clearing:ledger_tx:${c.id}`, kind: 'commission_clearing', vendorId, reference: `ledger_tx:${c.id}`, currency: c.currency, at,
    lines: [{ account: vendorAccount(vendorId, 'pending'), amount: -net }, { account: vendorAccount(vendorId, 'available'), amount: net }],
    memo: { booking_id: (c.memo as { booking_id?: number }).booking_id ?? null, commission_tx_id: String(c.id) },
  });
  await recordVendorAudit(tx, {
    vendorId, event: 'commission_cleared', bookingId: (c.memo as { booking_id?: number }).booking_id ?? null, at,
    ledgerTxId: Number(posted.transaction.id), amount: net, note: `Hold period of ${holdDays} day(s) over: ${moneyText(net, c.currency)} now available.`,
  });
  return true;
}

/** Schedules the clearing job (hourly; the job runner's lease keeps it on one node at a time). */
export function scheduleClearing(p: Platform): void {
  p.jobs.schedule({ name: 'ledger-clearing', intervalMs: () => 3_600_000, run: async () => void (await clearMaturedCommissions(p)) });
}

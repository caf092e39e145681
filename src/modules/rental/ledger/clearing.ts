import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { moneyText } from './money.js';
import { recordVendorAudit } from './audit.js';
import { clearingOf, isRefunded, lockVendorMoney, maturedCommissions } from './income-repo.js';
import { clearingMovement } from './links.js';
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
  return clearMaturedIn(p.db, (fn) => p.transaction(fn), s.hold_days, now, batch);
}

/**
 * The clearing job's pass over one database handle: `inTx` runs each commission's clearing in its own
 * transaction (the WordPress import passes savepoints of its own transaction to dry-run the job).
 */
export async function clearMaturedIn(
  db: Db,
  inTx: (fn: (tx: Db) => Promise<boolean>) => Promise<boolean>,
  holdDays: number,
  now = new Date(),
  batch = 500,
): Promise<number> {
  const before = new Date(now.getTime() - holdDays * 86_400_000);
  let cleared = 0;
  for (;;) {
    const due = await maturedCommissions(db, before, batch);
    for (const c of due) {
      const done = await inTx(async (tx) => clearCommission(tx, c, holdDays));
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
  const bookingId = (c.memo as { booking_id?: number }).booking_id ?? null;
  const posted = await postLedgerTransaction(tx, {
    key: `clearing:ledger_tx:${c.id}`,
    at,
    ...clearingMovement({ id: Number(c.id), vendorId, net, currency: c.currency, bookingId }),
  });
  await recordVendorAudit(tx, {
    vendorId,
    event: 'commission_cleared',
    bookingId,
    at,
    ledgerTxId: Number(posted.transaction.id),
    amount: net,
    note: `Hold period of ${holdDays} day(s) over: ${moneyText(net, c.currency)} now available.`,
  });
  return true;
}

/** Schedules the clearing job (hourly; the job runner's lease keeps it on one node at a time). */
export function scheduleClearing(p: Platform): void {
  p.jobs.schedule({
    name: 'ledger-clearing',
    intervalMs: () => 3_600_000,
    run: async () => void (await clearMaturedCommissions(p)),
  });
}

import { Decimal } from '../money.js';
import type { Db } from '../../../platform/db/types.js';
import { EXTERNAL, PLATFORM_COMMISSION, vendorAccount } from './accounts.js';
import { recordVendorAudit } from './audit.js';
import { bookingMoneyTxs, clearedRevenue30d, clearingOf, commissionContext, lockVendorMoney } from './income-repo.js';
import { moneyText, percentOf, toMinor } from './money.js';
import { postLedgerTransaction, type PostedLedgerTx } from './post.js';
import { marketplaceSettingsIn, type MarketplaceSettings } from './settings.js';

export type RateSource = 'vehicle' | 'vendor' | 'tier' | 'global';

export interface CommissionRate {
  rate: number;
  source: RateSource;
}

/** Volume tier discount (points) for a 30-day cleared net revenue in minor units; the best tier reached wins. */
export function tierDiscount(revenueMinor: number, tiers: MarketplaceSettings['tiers'], minorPerUnit: number): number {
  let best = 0;
  for (const t of tiers) if (revenueMinor >= t.min * minorPerUnit && t.discount > best) best = t.discount;
  return best;
}

/** Commission rate of a booking: vehicle override → vendor override → volume tier → global (design §6). */
export async function resolveCommissionRate(
  db: Db,
  s: MarketplaceSettings,
  vehicleId: number,
  vendorId: number,
): Promise<CommissionRate> {
  const c = await commissionContext(db, vehicleId);
  if (c?.vehicle_rate !== null && c?.vehicle_rate !== undefined)
    return { rate: Number(c.vehicle_rate), source: 'vehicle' };
  if (c?.vendor_rate !== null && c?.vendor_rate !== undefined) return { rate: Number(c.vendor_rate), source: 'vendor' };
  const discount = tierDiscount(await clearedRevenue30d(db, vendorId), s.tiers, 100);
  if (discount > 0)
    return { rate: Math.max(0, new Decimal(s.commission_rate).minus(discount).toNumber()), source: 'tier' };
  return { rate: s.commission_rate, source: 'global' };
}

/** The part of a booking the ledger needs. */
export interface BookingMoney {
  id: string | number;
  vehicle_id: string | number;
  total: string | number;
  currency: string;
}

/**
 * Booking completed (design §6): gross leaves `external`, the vendor's net goes to `vendor:{id}:pending`, the
 * commission to `platform:commission`. Operator-fleet vehicles (no vendor) move no money. Runs in the booking's
 * transaction. A booking completed again after a correction gets a new commission (its previous one was reversed).
 */
export async function applyBookingCommission(tx: Db, b: BookingMoney, at?: string): Promise<PostedLedgerTx | null> {
  const ctx = await commissionContext(tx, Number(b.vehicle_id));
  if (!ctx || ctx.vendor_id === null) return null;
  const vendorId = Number(ctx.vendor_id);
  const gross = toMinor(String(b.total), b.currency);
  if (gross <= 0) return null;
  await lockVendorMoney(tx, vendorId);
  const prior = await bookingMoneyTxs(tx, Number(b.id));
  const open =
    prior.filter((t) => t.kind === 'commission').length - prior.filter((t) => t.kind === 'commission_refund').length;
  if (open > 0) return null; // already earned and not reversed
  const s = await marketplaceSettingsIn(tx);
  const { rate, source } = await resolveCommissionRate(tx, s, Number(b.vehicle_id), vendorId);
  const commission = percentOf(gross, rate);
  const net = gross - commission;
  const posted = await postLedgerTransaction(tx, {
    key: `commission:booking:${b.id}:${prior.length + 1}`,
    kind: 'commission',
    vendorId,
    reference: `booking:${b.id}`,
    currency: b.currency,
    at,
    lines: [
      { account: EXTERNAL, amount: -gross },
      { account: vendorAccount(vendorId, 'pending'), amount: net },
      { account: PLATFORM_COMMISSION, amount: commission },
    ],
    memo: { booking_id: Number(b.id), gross, rate, rate_source: source, commission, net },
  });
  if (!posted.replayed) {
    await recordVendorAudit(tx, {
      vendorId,
      event: 'commission_applied',
      bookingId: Number(b.id),
      ledgerTxId: Number(posted.transaction.id),
      amount: net,
      at,
      note: `Booking ${b.id} completed: gross ${moneyText(gross, b.currency)}, commission ${rate} % (${source}) = ${moneyText(commission, b.currency)}, net ${moneyText(net, b.currency)} pending.`,
    });
  }
  return posted;
}

/**
 * A completed booking left `completed` (refunded, or reopened and then cancelled): the latest commission is
 * reversed — from pending while it has not cleared, else from available (which may go negative: the vendor owes it).
 */
export async function reverseBookingCommission(
  tx: Db,
  b: BookingMoney,
  reason: string,
): Promise<PostedLedgerTx | null> {
  const ctx = await commissionContext(tx, Number(b.vehicle_id));
  if (!ctx || ctx.vendor_id === null) return null;
  const vendorId = Number(ctx.vendor_id);
  await lockVendorMoney(tx, vendorId);
  const prior = await bookingMoneyTxs(tx, Number(b.id));
  const commissions = prior.filter((t) => t.kind === 'commission');
  if (commissions.length <= prior.length - commissions.length) return null; // nothing earned, or already reversed
  const c = commissions[commissions.length - 1]!;
  const memo = c.memo as { gross: number; commission: number; net: number };
  const cleared = (await clearingOf(tx, Number(c.id))) !== undefined;
  const from = vendorAccount(vendorId, cleared ? 'available' : 'pending');
  const posted = await postLedgerTransaction(tx, {
    key: `commission_refund:booking:${b.id}:${prior.length + 1}`,
    kind: 'commission_refund',
    vendorId,
    reference: `booking:${b.id}`,
    currency: c.currency,
    settles: Number(c.id),
    lines: [
      { account: from, amount: -memo.net },
      { account: PLATFORM_COMMISSION, amount: -memo.commission },
      { account: EXTERNAL, amount: memo.gross },
    ],
    memo: { booking_id: Number(b.id), commission_tx_id: String(c.id), reason, from: cleared ? 'available' : 'pending' },
  });
  if (!posted.replayed) {
    await recordVendorAudit(tx, {
      vendorId,
      event: 'commission_reversed',
      bookingId: Number(b.id),
      ledgerTxId: Number(posted.transaction.id),
      amount: -memo.net,
      note: `Booking ${b.id} ${reason}: commission reversed (${moneyText(memo.net, c.currency)} taken from ${cleared ? 'available' : 'pending'}).`,
    });
  }
  return posted;
}

/** The booking status machine's hook (called in the status change's transaction). */
export async function onBookingStatusChange(tx: Db, b: BookingMoney, from: string, to: string): Promise<void> {
  if (to === 'completed' && from !== 'completed') await applyBookingCommission(tx, b);
  else if (from === 'completed' && to !== 'completed')
    await reverseBookingCommission(tx, b, to === 'refunded' ? 'refunded' : `reopened (${to})`);
}

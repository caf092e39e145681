import type { Db } from '../../../platform/db/types.js';
import { vendorAccount } from '../../rental/index.js';
import { clearMaturedIn } from '../../rental/index.js';
import { clearingMovement } from '../../rental/index.js';
import type { PostLedgerInput } from '../../rental/index.js';
import { txByKey } from '../../rental/index.js';
import { marketplaceSettingsIn } from '../../rental/index.js';
import type { PlannedTx } from './map-vendors.js';
import { accountBalance, creditRefundable } from './repo-rental.js';

/**
 * The imported ledger says "cleared" and "refunds that credit" the way Rova's own writers do (ledger/links.ts), so
 * the clearing job sees imported income as what it is. Returns the movement to post, or a reason it cannot be.
 */
export async function linkedMovement(
  tx: Db,
  p: PlannedTx,
  vendorId: number,
  startedAt: string,
): Promise<PostLedgerInput | { unlinked: string }> {
  const lines = p.lines.map((l) => ({
    account: l.account.replace(/^vendor:0:/, `vendor:${vendorId}:`),
    amount: l.amount,
  }));
  const memo = p.holdFromImport ? { ...p.memo, hold_from: startedAt } : p.memo;
  const plain: PostLedgerInput = {
    key: p.key,
    kind: p.kind,
    vendorId,
    reference: p.reference,
    currency: p.currency,
    at: p.at,
    memo,
    lines,
  };
  if (!p.settles) return plain;
  // written by an earlier run: it replays as it is (the link is not part of the request)
  const earlier = await txByKey(tx, p.key);
  if (earlier) return { ...plain, settles: earlier.settles_tx_id === null ? undefined : Number(earlier.settles_tx_id) };
  if ('creditKey' in p.settles) {
    const credit = await txByKey(tx, p.settles.creditKey);
    if (!credit) return { unlinked: 'its income credit is not imported' };
    const net = Number((credit.memo as { net?: number }).net ?? 0);
    const bookingId = (credit.memo as { booking_id?: number | null }).booking_id ?? null;
    return {
      key: p.key,
      at: p.at,
      ...clearingMovement(
        { id: Number(credit.id), vendorId, net, currency: credit.currency, bookingId },
        p.reference,
        p.memo,
      ),
    };
  }
  const creditId = await creditRefundable(tx, vendorId, p.currency, p.settles.refundOf, p.at);
  if (creditId === null) {
    return {
      unlinked: `refunds no ${p.settles.refundOf.live ? 'cleared' : 'pending'} income credit of this vendor${p.settles.refundOf.booking ? ` for booking ${p.settles.refundOf.booking}` : ' without a booking'} that is not refunded yet (Rova refunds a whole credit, once)`,
    };
  }
  return { ...plain, settles: creditId };
}

export interface VendorBuckets {
  available: number;
  pending: number;
}

const DRY_PASS = Symbol('dry pass of the scheduled jobs');

/**
 * The vendors' balances as they stand now and after one pass of the scheduled jobs that move ledger money (the
 * hourly clearing; the others move no vendor balance), run in a savepoint of the import's transaction and rolled
 * back: what `npm start` would make of the import, without doing it.
 */
export async function balancesBeforeAndAfterJobs(
  tx: Db,
  vendorIds: number[],
  now = new Date(),
): Promise<{ before: Map<number, VendorBuckets>; after: Map<number, VendorBuckets> }> {
  const read = async (db: Db) => {
    const out = new Map<number, VendorBuckets>();
    for (const v of vendorIds)
      out.set(v, {
        available: await accountBalance(db, vendorAccount(v, 'available')),
        pending: await accountBalance(db, vendorAccount(v, 'pending')),
      });
    return out;
  };
  const before = await read(tx);
  let after = before;
  try {
    await tx.transaction(async (sp) => {
      const s = await marketplaceSettingsIn(sp);
      await clearMaturedIn(sp, (fn) => sp.transaction(fn), s.hold_days, now);
      after = await read(sp);
      throw DRY_PASS;
    });
  } catch (err) {
    if (err !== DRY_PASS) throw err;
  }
  return { before, after };
}

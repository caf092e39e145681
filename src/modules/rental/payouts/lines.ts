import type { AuthUser } from '../../../platform/auth/types.js';
import type { Db } from '../../../platform/db/types.js';
import { toDate } from '../../../platform/db/types.js';
import { payoutNotFound, RentalErrors, stateConflictFor } from '../errors.js';
import { availableAfter, availableMovements, statementBounds, type MovementRow } from './lines-repo.js';
import { payoutById, type PayoutRow } from './repo.js';

/** What a statement line is, from the vendor's side. */
export type LineType = 'income' | 'refund' | 'penalty' | 'penalty_reversed' | 'payout' | 'payout_returned' | 'other';

/** One movement of the vendor's available balance; money in signed integer minor units. */
export interface StatementLine {
  transaction_id: number;
  at: string;
  type: LineType;
  description: string;
  booking_reference: string | null;
  booking_start: string | null;
  booking_end: string | null;
  /** What the customer paid (income), or gave back (refund, negative); 0 for the other lines. */
  gross: number;
  /** The platform's commission on it (refund: returned, negative). */
  commission: number;
  /** A penalty charged (positive) or reversed (negative). */
  penalty: number;
  /** The change of the available balance: gross − commission − penalty for booking and penalty lines. */
  net: number;
  /** The available balance after this line. */
  balance: number;
}

/**
 * A payout's statement: the vendor's available balance from just after the previous payout was requested (opening)
 * through every movement since, the payout itself last, to the balance it left (closing). Each movement of the
 * available account is on exactly one statement: the one of the next payout after it.
 */
export interface PayoutStatementData {
  payout: PayoutRow;
  period_start: string | null;
  period_end: string;
  opening: number;
  closing: number;
  lines: StatementLine[];
  totals: { income: number; refunds: number; penalties: number; payouts: number; returned: number };
}

/** A payout the user may read: a vendor its own (another's → 404), an administrator any, anyone else → 403. */
export async function readablePayout(db: Db, user: AuthUser, id: number): Promise<PayoutRow> {
  if (user.role !== 'administrator' && user.role !== 'vendor')
    throw RentalErrors.permissionDenied('Only vendors and administrators can read payout statements.');
  const payout = await payoutById(db, id);
  if (!payout || (user.role === 'vendor' && Number(payout.vendor_id) !== user.id)) throw payoutNotFound(id);
  return payout;
}

const iso = (v: unknown) => toDate(v).toISOString();

function describe(m: MovementRow): { type: LineType; description: string } {
  const booking = m.booking_reference ? `booking ${m.booking_reference}` : null;
  const payout = m.payout_no !== null ? `Payout #${m.payout_no}` : 'Payout';
  switch (m.kind) {
    case 'commission':
    case 'commission_clearing':
      return { type: 'income', description: booking ? `Income, ${booking}` : 'Income' };
    case 'commission_refund':
      return { type: 'refund', description: booking ? `Refund, ${booking}` : 'Refund' };
    case 'penalty': {
      const vehicle = /^vehicle:(\d+)$/.exec(m.reference ?? '')?.[1];
      return { type: 'penalty', description: vehicle ? `Withdrawal penalty, vehicle ${vehicle}` : 'Penalty' };
    }
    case 'penalty_reversal':
      return { type: 'penalty_reversed', description: 'Penalty reversed' };
    case 'payout_hold':
      return { type: 'payout', description: payout };
    case 'payout_release':
      return {
        type: 'payout_returned',
        description: `${payout} ${m.payout_status === 'rejected' ? 'rejected' : 'failed'}, returned`,
      };
    case 'payout_reversal':
      return { type: 'payout_returned', description: `${payout} failed after it was paid, returned` };
    default:
      return { type: 'other', description: m.kind };
  }
}

/** The statement of one payout, from the ledger (the payout's hold must exist: every request here writes one). */
export async function payoutStatementData(db: Db, payout: PayoutRow): Promise<PayoutStatementData> {
  const vendorId = Number(payout.vendor_id);
  const bounds = await statementBounds(db, Number(payout.id), vendorId);
  if (bounds.holdTxId === null)
    throw stateConflictFor('no_statement', `Payout ${payout.id} has no ledger movement to state.`, {
      status: payout.status,
    });
  const opening = await availableAfter(db, vendorId, bounds.previousHoldTxId);
  let balance = opening;
  const totals = { income: 0, refunds: 0, penalties: 0, payouts: 0, returned: 0 };
  const lines = (await availableMovements(db, vendorId, bounds.previousHoldTxId, bounds.holdTxId)).map((m) => {
    const net = Number(m.net);
    balance += net;
    const { type, description } = describe(m);
    if (type === 'income') totals.income += net;
    else if (type === 'refund') totals.refunds += net;
    else if (type === 'penalty' || type === 'penalty_reversed') totals.penalties += net;
    else if (type === 'payout') totals.payouts += net;
    else if (type === 'payout_returned') totals.returned += net;
    return {
      transaction_id: Number(m.transaction_id),
      at: iso(m.created_at),
      type,
      description,
      booking_reference: m.booking_reference,
      booking_start: m.pickup_at === null ? null : iso(m.pickup_at),
      booking_end: m.return_at === null ? null : iso(m.return_at),
      gross: Number(m.gross),
      commission: Number(m.commission),
      penalty: Number(m.penalty),
      net,
      balance,
    } satisfies StatementLine;
  });
  return {
    payout,
    period_start: bounds.previousHoldAt === null ? null : iso(bounds.previousHoldAt),
    period_end: lines.length ? lines[lines.length - 1]!.at : iso(payout.requested_at),
    opening,
    closing: balance,
    lines,
    totals,
  };
}

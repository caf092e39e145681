import type { Platform } from '../../../../platform/context.js';
import type { AuthUser } from '../../../../platform/auth/types.js';
import { toDate, type Db } from '../../../../platform/db/types.js';
import { emitEvent } from '../../../../platform/events/emit.js';
import { registerEventTypes } from '../../../../platform/events/registry.js';
import { isUniqueViolation } from '../../customers/repo.js';
import { invalidField, notFoundError, RentalErrors } from '../../errors.js';
import { PLATFORM_PENALTIES, vendorAccount } from '../../ledger/accounts.js';
import { recordVendorAudit } from '../../ledger/audit.js';
import { lockVendorMoney } from '../../ledger/income-repo.js';
import { applyWithdrawalPenalty } from '../../ledger/penalty.js';
import { postLedgerTransaction } from '../../ledger/post.js';
import { recomputeReliability } from '../../ledger/score.js';
import { marketplaceSettingsIn } from '../../ledger/settings.js';
import { vendorById } from '../repo.js';
import {
  clearDeferredPenalty,
  contextOwned,
  excuseWithdrawal,
  insertReport,
  insertReportEvent,
  listReports,
  openReportFor,
  penaltyOf,
  reportById,
  reportEvents,
  setReportStatus,
  withdrawalState,
  type ContextType,
  type ReportEventRow,
  type ReportFilter,
  type ReportRow,
} from './repo.js';

export type { ReportEventRow, ReportRow } from './repo.js';

registerEventTypes({
  'vendor_report.created': 'A vendor filed a report (booking, vehicle, vehicle action, penalty or general)',
  'vendor_report.in_review': 'An administrator started reviewing a vendor report',
  'vendor_report.resolved': 'An administrator resolved a vendor report (the vendor was upheld)',
  'vendor_report.rejected': 'An administrator rejected a vendor report',
});

export const MIN_DESCRIPTION = 20;

export interface ReportInput {
  context_type: ContextType;
  context_id?: number | null;
  title: string;
  description: string;
}

export type SideEffect = 'none' | 'penalty_waived' | 'penalty_applied' | 'penalty_reversed';

export interface Decision {
  id: number;
  status: 'in_review' | 'resolved' | 'rejected';
  resolved_at: string | null;
  side_effect: SideEffect;
  /** Minor units moved or waived by the side effect. */
  penalty_amount: number | null;
  ledger_tx_id: number | null;
}

const invalid = (message: string, field: string) => invalidField(field, message);

export function findReports(db: Db, f: ReportFilter, limit: number, offset: number) {
  return listReports(db, f, limit, offset);
}

/** A report with its audit trail; with `vendorId`, only that vendor's (another vendor's answers 404). */
export async function reportWithEvents(
  db: Db,
  id: number,
  vendorId?: number,
): Promise<{ report: ReportRow; events: ReportEventRow[] }> {
  const report = await reportById(db, id, { vendorId });
  if (!report) throw notFoundError('Vendor report', id);
  return { report, events: await reportEvents(db, id) };
}

/** Validates and files a vendor report: one open report per (vendor, context), the context must be the vendor's. */
export async function fileReport(p: Platform, user: AuthUser, b: ReportInput, at?: string): Promise<number> {
  const title = b.title.trim();
  const description = b.description.trim();
  if (!title) throw invalid('title is required.', 'title');
  // code points, not UTF-16 units: "multibyte-aware" as the reference requires
  if ([...description].length < MIN_DESCRIPTION)
    throw invalid(`description must be at least ${MIN_DESCRIPTION} characters.`, 'description');
  const contextId = b.context_id ?? null;
  if (b.context_type === 'general' && contextId !== null)
    throw invalid('A general report has no context_id.', 'context_id');
  if (b.context_type !== 'general' && contextId === null)
    throw invalid(`context_id is required for a ${b.context_type} report.`, 'context_id');
  try {
    return await p.transaction(async (tx) => {
      if (!(await vendorById(tx, user.id)))
        throw RentalErrors.permissionDenied('Only vendors can file vendor reports.');
      if (contextId !== null && !(await contextOwned(tx, user.id, b.context_type, contextId))) {
        throw invalid(
          `context_id ${contextId} is not one of your ${b.context_type === 'penalty' ? 'penalties' : b.context_type === 'booking' ? 'bookings' : 'vehicles'}.`,
          'context_id',
        );
      }
      if ((await openReportFor(tx, user.id, b.context_type, contextId)) !== null) throw duplicate();
      const id = await insertReport(tx, { vendorId: user.id, type: b.context_type, contextId, title, description, at });
      await insertReportEvent(tx, id, 'created', user.id, null, at);
      await emitEvent(tx, 'vendor_report.created', {
        id,
        vendor_id: user.id,
        context_type: b.context_type,
        context_id: contextId,
      });
      return id;
    });
  } catch (e) {
    // the partial unique index catches the race the pre-check cannot
    if (isUniqueViolation(e)) throw duplicate();
    throw e;
  }
}

function duplicate() {
  return RentalErrors.stateConflict('An open report for this context already exists.', {
    reason: 'duplicate_open_report',
  });
}

/**
 * An administrator moves a report: open → in_review, open|in_review → resolved|rejected (terminal: 409 after).
 * Side effects (design §6) happen in the same transaction as the status change.
 */
export async function decideReport(
  p: Platform,
  admin: AuthUser,
  id: number,
  to: Decision['status'],
  note: string | null,
): Promise<Decision> {
  return p.transaction(async (tx) => {
    const r = await reportById(tx, id, { forUpdate: true });
    if (!r) throw notFoundError('Vendor report', id);
    if (r.status === 'resolved' || r.status === 'rejected') {
      throw RentalErrors.stateConflict(`Vendor report ${id} is already ${r.status}.`, {
        reason: 'already_terminal',
        status: r.status,
      });
    }
    if (to === 'in_review' && r.status === 'in_review')
      throw RentalErrors.stateConflict(`Vendor report ${id} is already in review.`, { status: r.status });
    await setReportStatus(tx, id, to, admin.id, note);
    await insertReportEvent(tx, id, to, admin.id, note);
    const effect = to === 'in_review' ? NONE : await sideEffect(p, tx, r, to === 'resolved', admin.id);
    const after = await reportById(tx, id);
    await emitEvent(tx, `vendor_report.${to}`, {
      id,
      vendor_id: Number(r.vendor_id),
      context_type: r.context_type,
      context_id: ctxId(r),
      side_effect: effect.side_effect,
    });
    return {
      id,
      status: to,
      resolved_at: after!.resolved_at === null ? null : toDate(after!.resolved_at).toISOString(),
      ...effect,
    };
  });
}

type Effect = Pick<Decision, 'side_effect' | 'penalty_amount' | 'ledger_tx_id'>;
const NONE: Effect = { side_effect: 'none', penalty_amount: null, ledger_tx_id: null };

const ctxId = (r: ReportRow): number | null => (r.context_id === null ? null : Number(r.context_id));

async function sideEffect(p: Platform, tx: Db, r: ReportRow, upheld: boolean, adminId: number): Promise<Effect> {
  const vendorId = Number(r.vendor_id);
  const contextId = ctxId(r);
  if (contextId === null) return NONE;
  if (r.context_type === 'penalty' && upheld) return reversePenalty(tx, vendorId, contextId, Number(r.id), adminId);
  if (r.context_type === 'vehicle_action')
    return upheld
      ? waiveWithdrawal(tx, vendorId, contextId, Number(r.id), adminId)
      : applyDeferred(p, tx, vendorId, contextId);
  return NONE;
}

async function rescore(tx: Db, vendorId: number, event: string, vehicleId: number | null): Promise<void> {
  const s = await marketplaceSettingsIn(tx);
  await recomputeReliability(tx, vendorId, event, vehicleId, s.rolling_window_months);
}

/** Upheld penalty appeal: one penalty_reversal per penalty, whatever the number of reports or retries. */
async function reversePenalty(
  tx: Db,
  vendorId: number,
  penaltyTxId: number,
  reportId: number,
  adminId: number,
): Promise<Effect> {
  await lockVendorMoney(tx, vendorId);
  const pen = await penaltyOf(tx, vendorId, penaltyTxId);
  if (!pen || pen.amount <= 0) return NONE;
  const posted = await postLedgerTransaction(tx, {
    key: `penalty_reversal:ledger_tx:${penaltyTxId}`,
    kind: 'penalty_reversal',
    vendorId,
    reference: `ledger_tx:${penaltyTxId}`,
    currency: pen.currency,
    lines: [
      { account: PLATFORM_PENALTIES, amount: -pen.amount },
      { account: vendorAccount(vendorId, 'available'), amount: pen.amount },
    ],
    memo: { penalty_tx_id: penaltyTxId, vendor_report_id: reportId },
  });
  if (posted.replayed) return NONE;
  await excuseWithdrawal(tx, { penaltyTxId });
  await recordVendorAudit(tx, {
    vendorId,
    event: 'penalty_reversed',
    ledgerTxId: Number(posted.transaction.id),
    amount: pen.amount,
    adminUserId: adminId,
    note: `Penalty ${penaltyTxId} reversed: report ${reportId} upheld.`,
  });
  await rescore(tx, vendorId, 'penalty_reversed', null);
  return { side_effect: 'penalty_reversed', penalty_amount: pen.amount, ledger_tx_id: Number(posted.transaction.id) };
}

/** Upheld vehicle_action appeal: the withdrawal is excused and its deferred penalty never posted. */
async function waiveWithdrawal(
  tx: Db,
  vendorId: number,
  vehicleId: number,
  reportId: number,
  adminId: number,
): Promise<Effect> {
  const w = await withdrawalState(tx, vehicleId);
  if (!w || w.lifecycle !== 'withdrawn' || w.withdrawal_excused || w.penalty_tx_id !== null) return NONE;
  const amount = w.deferred_penalty === null ? 0 : Number(w.deferred_penalty);
  await excuseWithdrawal(tx, { vehicleId });
  await recordVendorAudit(tx, {
    vendorId,
    event: 'penalty_waived',
    vehicleId,
    amount: amount === 0 ? null : -amount,
    adminUserId: adminId,
    note: `Withdrawal of vehicle ${vehicleId} excused: report ${reportId} upheld.`,
  });
  await rescore(tx, vendorId, 'withdrawal_excused', vehicleId);
  return { side_effect: 'penalty_waived', penalty_amount: amount, ledger_tx_id: null };
}

/** Rejected vehicle_action appeal: the penalty captured at withdrawal is posted (idempotent per withdrawal). */
async function applyDeferred(p: Platform, tx: Db, vendorId: number, vehicleId: number): Promise<Effect> {
  const w = await withdrawalState(tx, vehicleId);
  if (
    !w ||
    w.lifecycle !== 'withdrawn' ||
    w.deferred_penalty === null ||
    w.penalty_tx_id !== null ||
    w.withdrawn_at === null
  )
    return NONE;
  const amount = Number(w.deferred_penalty);
  const posted = await applyWithdrawalPenalty(
    tx,
    vendorId,
    vehicleId,
    amount,
    p.storeCurrency.code,
    toDate(w.withdrawn_at).toISOString(),
  );
  await clearDeferredPenalty(tx, vehicleId);
  await rescore(tx, vendorId, 'withdraw', vehicleId);
  return posted
    ? { side_effect: 'penalty_applied', penalty_amount: amount, ledger_tx_id: Number(posted.transaction.id) }
    : NONE;
}

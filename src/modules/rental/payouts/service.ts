import { createHash } from 'node:crypto';
import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import type { Db } from '../../../platform/db/types.js';
import { emitEvent } from '../../../platform/events/emit.js';
import { invalidField, notFoundError, payoutNotFound, RentalErrors, stateConflictFor } from '../errors.js';
import { EXTERNAL, vendorAccount } from '../ledger/accounts.js';
import { recordVendorAudit } from '../ledger/audit.js';
import { lockVendorMoney } from '../ledger/income-repo.js';
import { Decimal } from '../money.js';
import { fromMinor, minorDigits, moneyText, toMinor } from '../ledger/money.js';
import { postLedgerTransaction } from '../ledger/post.js';
import { balancesOf } from '../ledger/repo.js';
import { marketplaceSettings, type MarketplaceSettings } from '../ledger/settings.js';
import { vendorById } from '../vendors/repo.js';
import { payoutMailInTransaction } from './mails.js';
import {
  insertPayout,
  listPayouts,
  nextStatementNumber,
  openPayoutOf,
  payoutById,
  payoutByKey,
  recordWebhook,
  updatePayout,
  type PayoutFilter,
  type PayoutRow,
} from './repo.js';

/** Whose ledger: a vendor reads its own (another vendor's id → 404); an administrator names one; others → 403. */
export async function ledgerOwner(db: Db, user: AuthUser, asked: number | undefined): Promise<number> {
  if (user.role === 'administrator') {
    if (asked === undefined) throw invalidField('vendor_id', 'vendor_id is required for administrators.');
    if (!(await vendorById(db, asked))) throw notFoundError('Vendor', asked);
    return asked;
  }
  if (user.role !== 'vendor') throw RentalErrors.permissionDenied('Only vendors and administrators can read a ledger.');
  if (asked !== undefined && asked !== user.id) throw notFoundError('Vendor', asked);
  return user.id;
}

/** One payout with its vendor's name; undefined when it does not exist. */
export function payoutOf(db: Db, id: number): Promise<PayoutRow | undefined> {
  return payoutById(db, id);
}

/** One page of payouts (newest first) matching the filter, and how many match. */
export function payoutsPage(
  db: Db,
  filter: PayoutFilter,
  limit: number,
  offset: number,
): Promise<{ items: PayoutRow[]; total: number }> {
  return listPayouts(db, filter, limit, offset);
}

const payoutConflict = (message: string, reason: string) => stateConflictFor(reason, message);

/**
 * A payout leaves the platform only while the vendor's money covers it: hold + available ≥ the payout. Available may
 * fall below 0 after the request (a refund of income already requested, a penalty): then the vendor owes, and paying
 * the held amount would pay out money the vendor no longer has. Caller holds the vendor's money lock.
 */
async function assertPayoutCovered(tx: Db, po: PayoutRow, action: 'approved' | 'paid'): Promise<void> {
  const v = Number(po.vendor_id);
  const b = await balancesOf(tx, [vendorAccount(v, 'available'), vendorAccount(v, 'payout_hold')]);
  const available = b.get(vendorAccount(v, 'available')) ?? 0;
  const cover = (b.get(vendorAccount(v, 'payout_hold')) ?? 0) + available;
  if (Number(po.amount) > cover) {
    const m = (n: number) => moneyText(n, po.currency);
    throw stateConflictFor(
      'vendor_owes',
      `Payout ${po.id} cannot be ${action}: vendor ${v} owes ${m(Math.max(0, -available))} and hold + available cover only ${m(Math.max(0, cover))} of ${m(Number(po.amount))}. Reject it, or wait until new income settles the debt.`,
      {
        owed: fromMinor(Math.max(0, -available), po.currency),
        covered: fromMinor(Math.max(0, cover), po.currency),
      },
    );
  }
}

/** A requested amount in major units → minor units, refusing what would be rounded or cannot be represented exactly. */
function payoutMinor(amountMajor: number, currency: string, minimumMajor: number): number {
  const invalid = (message: string, reason: string, extra: Record<string, unknown> = {}) =>
    RentalErrors.invalidParams(message, { field: 'amount', reason, ...extra });
  if (!Number.isFinite(amountMajor) || !(amountMajor > 0))
    throw invalid('amount must be greater than 0.', 'invalid_amount');
  const exact = new Decimal(amountMajor);
  // compared before any rounding: 99.995 with a minimum of 100 is below it, whatever it would round to
  if (exact.lt(minimumMajor))
    throw invalid(`The minimum payout is ${moneyText(toMinor(minimumMajor, currency), currency)}.`, 'below_minimum', {
      minimum: minimumMajor,
    });
  const digits = minorDigits(currency);
  if (exact.decimalPlaces() > digits)
    throw invalid(`amount has more decimals than ${currency} allows (${digits}).`, 'invalid_amount');
  const minor = exact.mul(new Decimal(10).pow(digits));
  if (!minor.lte(Number.MAX_SAFE_INTEGER)) throw invalid('amount is too large.', 'invalid_amount');
  return minor.toNumber();
}

async function lockedPayout(tx: Db, id: number): Promise<PayoutRow> {
  const p = await payoutById(tx, id, true);
  if (!p) throw payoutNotFound(id);
  return p;
}

/**
 * A vendor asks to be paid (design §8): amount > 0 and ≥ the minimum, no payout freeze, no other open payout, and
 * ≤ the available balance checked under the vendor's money lock; the money moves available → payout_hold in the
 * same transaction. An Idempotency-Key replay answers the original payout; the key with another amount → 409.
 */
export async function requestPayout(
  p: Platform,
  user: AuthUser,
  amountMajor: number,
  key: string | null,
): Promise<{ payout: PayoutRow; replayed: boolean }> {
  const s = await marketplaceSettings(p);
  const currency = p.storeCurrency.code;
  const amount = payoutMinor(amountMajor, currency, s.min_payout);
  const hash = createHash('sha256').update(JSON.stringify({ amount, currency })).digest('hex');
  if (key) {
    const seen = await payoutByKey(p.db, user.id, key);
    if (seen) return replay(seen, hash);
  }
  if (s.payout_freeze) throw payoutConflict('Payouts are frozen at the moment; try again later.', 'payout_freeze');
  try {
    return await p.transaction(async (tx) => {
      const vendor = await vendorById(tx, user.id);
      if (!vendor) throw RentalErrors.notFound('You are not a vendor.');
      if (vendor.status !== 'active') throw RentalErrors.permissionDenied('Your vendor account is suspended.');
      if (vendor.payout_freeze) throw payoutConflict('Payouts are frozen for your account.', 'payout_freeze');
      await lockVendorMoney(tx, user.id);
      if (key) {
        const seen = await payoutByKey(tx, user.id, key);
        if (seen) return replay(seen, hash);
      }
      const open = await openPayoutOf(tx, user.id);
      if (open)
        throw payoutConflict(
          `Payout #${open.statement_no} is still ${open.status}; one open payout at a time.`,
          'pending_exists',
        );
      const available =
        (await balancesOf(tx, [vendorAccount(user.id, 'available')])).get(vendorAccount(user.id, 'available')) ?? 0;
      if (amount > available)
        throw payoutConflict(`The available balance is ${moneyText(available, currency)}.`, 'insufficient_funds');
      const payout = await insertPayout(tx, {
        vendor_id: user.id,
        amount,
        currency,
        idempotency_key: key,
        request_hash: hash,
      });
      const posted = await postLedgerTransaction(tx, {
        key: `payout:${payout.id}:hold`,
        kind: 'payout_hold',
        vendorId: user.id,
        reference: `payout:${payout.id}`,
        currency,
        lines: [
          { account: vendorAccount(user.id, 'available'), amount: -amount },
          { account: vendorAccount(user.id, 'payout_hold'), amount },
        ],
      });
      await recordVendorAudit(tx, {
        vendorId: user.id,
        event: 'payout_requested',
        payoutId: Number(payout.id),
        ledgerTxId: Number(posted.transaction.id),
        amount: -amount,
        note: `Payout ${payout.id} requested; ${moneyText(amount, currency)} moved to payout hold.`,
      });
      await emitEvent(tx, 'payout.requested', {
        payout_id: Number(payout.id),
        vendor_id: user.id,
        amount: fromMinor(amount, currency),
        currency,
      });
      return { payout, replayed: false };
    });
  } catch (err) {
    // the unique index caught a concurrent twin the lock did not (another node, same key)
    if (
      /vendor_payouts_one_open|vendor_payouts_vendor_id_idempotency_key_key|vendor_payouts_vendor_statement_no/.test(
        String((err as { cause?: unknown }).cause ?? err),
      )
    ) {
      throw payoutConflict('Another payout request is open.', 'pending_exists');
    }
    throw err;
  }
}

function replay(seen: PayoutRow, hash: string): { payout: PayoutRow; replayed: boolean } {
  if (seen.request_hash !== hash)
    throw payoutConflict('This Idempotency-Key was used for a different payout request.', 'idempotency_key_reused');
  return { payout: seen, replayed: true };
}

/**
 * Admin approval: requested → approved, a numbered statement is frozen, the payout goes to the processor; the vendor's
 * mail is written with it.
 */
export async function approvePayout(p: Platform, admin: AuthUser, id: number): Promise<PayoutRow> {
  const { payout, afterCommit } = await p.transaction(async (tx) => {
    const po = await lockedPayout(tx, id);
    if (po.status !== 'requested')
      throw payoutConflict(`Payout ${id} is ${po.status}; only a requested payout can be approved.`, 'invalid_status');
    await lockVendorMoney(tx, Number(po.vendor_id));
    await assertPayoutCovered(tx, po, 'approved');
    const number = await nextStatementNumber(tx, new Date().getUTCFullYear());
    await updatePayout(tx, id, {
      status: 'approved',
      statement_number: number,
      decided_by: admin.id,
      stamp: 'decided_at',
    });
    await recordVendorAudit(tx, {
      vendorId: Number(po.vendor_id),
      event: 'payout_approved',
      payoutId: id,
      adminUserId: admin.id,
      note: `Payout ${id} approved (statement ${number}).`,
    });
    await emitEvent(tx, 'payout.approved', {
      payout_id: id,
      vendor_id: Number(po.vendor_id),
      amount: fromMinor(po.amount, po.currency),
      currency: po.currency,
      statement_number: number,
    });
    const approved = (await payoutById(tx, id))!;
    return { payout: approved, afterCommit: await payoutMailInTransaction(tx, p, 'payout_approved', approved) };
  });
  await afterCommit?.();
  return payout;
}

/** Admin rejection: the hold goes back to available. */
export async function rejectPayout(p: Platform, admin: AuthUser, id: number, reason: string): Promise<PayoutRow> {
  const why = reason.trim();
  if (!why) throw invalidField('reason', 'A rejection reason is required.');
  return p.transaction(async (tx) => {
    const po = await lockedPayout(tx, id);
    if (po.status !== 'requested')
      throw payoutConflict(`Payout ${id} is ${po.status}; only a requested payout can be rejected.`, 'invalid_status');
    const v = Number(po.vendor_id);
    await lockVendorMoney(tx, v);
    const posted = await postLedgerTransaction(tx, {
      key: `payout:${id}:release`,
      kind: 'payout_release',
      vendorId: v,
      reference: `payout:${id}`,
      currency: po.currency,
      lines: [
        { account: vendorAccount(v, 'payout_hold'), amount: -Number(po.amount) },
        { account: vendorAccount(v, 'available'), amount: Number(po.amount) },
      ],
    });
    await updatePayout(tx, id, {
      status: 'rejected',
      rejection_reason: why,
      decided_by: admin.id,
      stamp: 'decided_at',
    });
    await recordVendorAudit(tx, {
      vendorId: v,
      event: 'payout_rejected',
      payoutId: id,
      ledgerTxId: Number(posted.transaction.id),
      amount: Number(po.amount),
      adminUserId: admin.id,
      note: `Payout ${id} rejected: ${why}`,
    });
    await emitEvent(tx, 'payout.rejected', {
      payout_id: id,
      vendor_id: v,
      amount: fromMinor(po.amount, po.currency),
      currency: po.currency,
      reason: why,
    });
    return (await payoutById(tx, id))!;
  });
}

export interface CallbackResult {
  payout_id: number;
  status: string;
  idempotent: boolean;
}

/**
 * The processor's verified callback. The webhook-id is stored for good in the same transaction as the effect, so a
 * repeat answers {idempotent:true} and moves nothing. paid: hold → external. failed: hold → available, or after
 * paid external → available (payout_reversal).
 */
export interface SignedCallback {
  payout_id: number;
  status: 'paid' | 'failed';
  amount?: number;
  external_reference?: string;
}

export async function processPayoutCallback(
  p: Platform,
  id: number,
  webhookId: string,
  body: SignedCallback,
): Promise<CallbackResult> {
  // The signature covers the body, not the URL: the body must name this payout, or a callback signed for one payout
  // could be replayed against another's URL.
  if (body.payout_id !== id)
    throw RentalErrors.invalidParams(`The signed body names payout ${body.payout_id}, not ${id}.`, {
      field: 'payout_id',
      reason: 'payout_mismatch',
    });
  const { status } = body;
  const externalRef = body.external_reference ?? null;
  let afterCommit: (() => Promise<void>) | undefined;
  const result = await p.transaction(async (tx): Promise<CallbackResult> => {
    afterCommit = undefined; // a retried transaction writes its mail again
    const po = await lockedPayout(tx, id);
    if (body.amount !== undefined && toMinor(body.amount, po.currency) !== Number(po.amount)) {
      throw RentalErrors.invalidParams(
        `The signed amount ${body.amount} is not payout ${id}'s ${moneyText(po.amount, po.currency)}.`,
        { field: 'amount', reason: 'amount_mismatch' },
      );
    }
    if (!(await recordWebhook(tx, webhookId, id, status)))
      return { payout_id: id, status: po.status, idempotent: true };
    const v = Number(po.vendor_id);
    const amount = Number(po.amount);
    await lockVendorMoney(tx, v);
    const move = async (
      kind: 'payout_paid' | 'payout_release' | 'payout_reversal',
      from: string,
      to: string,
      memo: Record<string, unknown> = {},
    ) =>
      postLedgerTransaction(tx, {
        key: `payout:${id}:${kind}`,
        kind,
        vendorId: v,
        reference: `payout:${id}`,
        currency: po.currency,
        memo,
        lines: [
          { account: from, amount: -amount },
          { account: to, amount },
        ],
      });
    if (status === 'paid') {
      if (po.status === 'paid') return { payout_id: id, status: 'paid', idempotent: true };
      if (po.status !== 'approved')
        throw payoutConflict(`Payout ${id} is ${po.status}; only an approved payout can be paid.`, 'invalid_state');
      await assertPayoutCovered(tx, po, 'paid');
      const t = await move('payout_paid', vendorAccount(v, 'payout_hold'), EXTERNAL);
      await updatePayout(tx, id, { status: 'paid', external_reference: externalRef, stamp: 'paid_at' });
      await recordVendorAudit(tx, {
        vendorId: v,
        event: 'payout_paid',
        payoutId: id,
        ledgerTxId: Number(t.transaction.id),
        amount: -amount,
        note: `Payout ${id} paid${externalRef ? ` (${externalRef})` : ''}.`,
      });
      await emitEvent(tx, 'payout.paid', {
        payout_id: id,
        vendor_id: v,
        amount: fromMinor(amount, po.currency),
        currency: po.currency,
        external_reference: externalRef,
      });
      afterCommit = await payoutMailInTransaction(tx, p, 'payout_paid', (await payoutById(tx, id))!);
      return { payout_id: id, status: 'paid', idempotent: false };
    }
    if (po.status === 'failed') return { payout_id: id, status: 'failed', idempotent: true };
    if (po.status !== 'approved' && po.status !== 'paid')
      throw payoutConflict(`Payout ${id} is ${po.status}; only an approved or paid payout can fail.`, 'invalid_state');
    const afterPaid = po.status === 'paid';
    const t = afterPaid
      ? await move('payout_reversal', EXTERNAL, vendorAccount(v, 'available'), { after_paid: true })
      : await move('payout_release', vendorAccount(v, 'payout_hold'), vendorAccount(v, 'available'));
    await updatePayout(tx, id, { status: 'failed', external_reference: externalRef, stamp: 'failed_at' });
    await recordVendorAudit(tx, {
      vendorId: v,
      event: 'payout_failed',
      payoutId: id,
      ledgerTxId: Number(t.transaction.id),
      amount,
      note: `Payout ${id} failed${afterPaid ? ' after it was paid' : ''}; ${moneyText(amount, po.currency)} back to available.`,
    });
    await emitEvent(tx, 'payout.failed', {
      payout_id: id,
      vendor_id: v,
      amount: fromMinor(amount, po.currency),
      currency: po.currency,
      after_paid: afterPaid,
    });
    afterCommit = await payoutMailInTransaction(
      tx,
      p,
      'payout_failed',
      (await payoutById(tx, id))!,
      afterPaid ? [['Note', 'The bank returned the payment after it was made.']] : [],
    );
    return { payout_id: id, status: 'failed', idempotent: false };
  });
  await afterCommit?.();
  return result;
}

export type { MarketplaceSettings };

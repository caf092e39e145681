import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { toDate } from '../../../platform/db/types.js';
import { mailDeliveryOf } from '../../../platform/mail/delivery.js';
import { mailToStore, storeMail } from '../../../platform/mail/outbox.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose, localTime } from '../../../platform/mail/templates.js';
import { moneyText } from '../ledger/money.js';
import { vendorById } from '../vendors/repo.js';
import type { PayoutRow } from './repo.js';

export type PayoutMail = 'payout_approved' | 'payout_paid' | 'payout_failed';

const WORD: Record<PayoutMail, string> = { payout_approved: 'approved', payout_paid: 'paid', payout_failed: 'failed' };

const LEAD: Record<PayoutMail, string> = {
  payout_approved: 'Your payout was approved and handed to the bank. The statement is in your vendor portal (Payouts).',
  payout_paid: 'Your payout was paid to your bank account.',
  payout_failed: 'Your payout could not be paid: the amount is back in your available balance.',
};

/**
 * The vendor's mail about its payout (approved, paid, failed), stored in the outbox by the payout write's own
 * transaction: it exists exactly when the change does. Times in the store's time zone, the payout named by the
 * vendor's number (#n). Answers what to run after the commit (wake the delivery), or undefined (no address, or
 * mail kept in the outbox without SMTP_URL).
 */
export async function payoutMailInTransaction(
  tx: Db,
  p: Platform,
  kind: PayoutMail,
  po: PayoutRow,
  extra: [string, string][] = [],
): Promise<(() => Promise<void>) | undefined> {
  const vendor = await vendorById(tx, Number(po.vendor_id));
  if (!vendor?.email) return undefined;
  const s = mailSettings(p);
  const when = (v: unknown) => (v === null || v === undefined ? null : localTime(toDate(v).toISOString(), s.timezone));
  const rows: [string, string][] = [
    ['Payout', `#${po.statement_no}`],
    ['Amount', moneyText(po.amount, po.currency)],
    ...(po.statement_number ? [['Statement', po.statement_number] as [string, string]] : []),
    ['Requested', when(po.requested_at)!],
    ...(when(po.decided_at) ? [['Approved', when(po.decided_at)!] as [string, string]] : []),
    ...(kind === 'payout_paid' && when(po.paid_at) ? [['Paid', when(po.paid_at)!] as [string, string]] : []),
    ...(kind === 'payout_failed' && when(po.failed_at) ? [['Failed', when(po.failed_at)!] as [string, string]] : []),
    ...(po.external_reference ? [['Bank reference', po.external_reference] as [string, string]] : []),
    ...extra,
  ];
  const mail = mailToStore(p, {
    to: vendor.email,
    template: kind,
    ...compose(s, `Payout #${po.statement_no} ${WORD[kind]}`, `Hello ${vendor.display_name || 'there'},`, [
      { p: LEAD[kind] },
      { rows },
    ]),
  });
  await storeMail(tx, mail, `payout:${po.id}`);
  return mail.status === 'pending' ? async () => mailDeliveryOf(p).nudge() : undefined;
}

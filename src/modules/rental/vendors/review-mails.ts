import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { mailDeliveryOf } from '../../../platform/mail/delivery.js';
import { mailToStore, storeMail } from '../../../platform/mail/outbox.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose, localTime } from '../../../platform/mail/templates.js';

/** An administrator's decision the vendor (or applicant) is told about. */
export type ReviewMail = 'listing_approved' | 'listing_rejected' | 'application_approved' | 'application_rejected';

const SUBJECT: Record<ReviewMail, string> = {
  listing_approved: 'Your vehicle is listed',
  listing_rejected: 'Your vehicle was not approved',
  application_approved: 'Your vendor application is approved',
  application_rejected: 'Your vendor application was not approved',
};

const LEAD: Record<ReviewMail, string> = {
  listing_approved: 'Your vehicle has been approved: it is listed and customers can book it now.',
  listing_rejected:
    'Your vehicle has not been approved. You can change it in your vendor portal (My vehicles) and submit it again.',
  application_approved:
    'Your application has been approved: you are a vendor now. Sign in again to open your vendor portal.',
  application_rejected: 'Your application has not been approved. You can apply again 24 hours after this decision.',
};

export interface ReviewMailInput {
  to: string;
  name: string;
  /** What was decided on: the vehicle's name, or the application's number. */
  subject: [string, string];
  reason: string | null;
  decidedAt: Date;
}

/**
 * The decision's mail, stored in the decision's own transaction (it exists exactly when the decision does); the
 * answer, when the mail goes over SMTP, wakes the delivery — for the caller to run after its commit. No address, no
 * mail (an account without e-mail still sees the decision in its portal).
 */
export async function reviewMailInTransaction(
  tx: Db,
  p: Platform,
  kind: ReviewMail,
  m: ReviewMailInput,
  about: string,
): Promise<(() => Promise<void>) | undefined> {
  if (!m.to) return undefined;
  const s = mailSettings(p);
  const rows: [string, string][] = [
    m.subject,
    ['Decided', localTime(m.decidedAt.toISOString(), s.timezone)],
    ...(m.reason ? ([['Reason', m.reason]] as [string, string][]) : []),
  ];
  const content = compose(s, SUBJECT[kind], `Hello ${m.name || 'there'},`, [{ p: LEAD[kind] }, { rows }]);
  const mail = mailToStore(p, { to: m.to, template: kind, ...content });
  await storeMail(tx, mail, about);
  return mail.status === 'pending' ? async () => mailDeliveryOf(p).nudge() : undefined;
}

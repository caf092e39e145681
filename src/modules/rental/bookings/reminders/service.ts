import type { Platform } from '../../../../platform/context.js';
import { mailBooking } from '../mails.js';
import { journeySettings } from '../settings.js';
import { claimDueReminders } from './repo.js';

/**
 * One pass of the payment reminders (the journey job, every minute; tests call it): each booking whose payment
 * deadline is within BOOKING_PAYMENT_REMINDER_HOURS is mailed once. The claim commits before the mail goes, so a
 * crash in between loses that reminder rather than sending it twice. Returns how many were sent.
 */
export async function runPaymentReminders(p: Platform): Promise<number> {
  const due = await claimDueReminders(p.db, journeySettings(p).paymentReminderHours);
  for (const b of due)
    await mailBooking(p, 'payment_reminder', b, [
      ['Reminder', 'We have not received your payment yet. Unpaid at the deadline above, the booking is cancelled.'],
    ]);
  if (due.length > 0) p.log.info({ reminded: due.length }, 'payment reminders sent');
  return due.length;
}

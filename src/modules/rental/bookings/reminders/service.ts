import type { Platform } from '../../../../platform/context.js';
import { mailDeliveryOf } from '../../../../platform/mail/delivery.js';
import { bookingMailInTransaction } from '../mails.js';
import { journeySettings } from '../settings.js';
import { claimDueReminders } from './repo.js';

/**
 * One pass of the payment reminders (the journey job, every minute; tests call it): each booking whose payment
 * deadline is within BOOKING_PAYMENT_REMINDER_HOURS is mailed once. The claim and the reminder's outbox row commit
 * together, so the mail exists exactly when the claim does (a crash cannot lose it or send it twice); the delivery
 * sends it after the commit (SMTP_URL). Returns how many were claimed.
 */
export async function runPaymentReminders(p: Platform): Promise<number> {
  let stored = false;
  const due = await p.transaction(async (tx) => {
    const claimed = await claimDueReminders(tx, journeySettings(p).paymentReminderHours);
    for (const b of claimed) {
      const wake = await bookingMailInTransaction(tx, p, 'payment_reminder', b, [
        ['Reminder', 'We have not received your payment yet. Unpaid at the deadline above, the booking is cancelled.'],
      ]);
      if (wake) stored = true;
    }
    return claimed;
  });
  if (stored) mailDeliveryOf(p).nudge();
  if (due.length > 0) p.log.info({ reminded: due.length }, 'payment reminders sent');
  return due.length;
}

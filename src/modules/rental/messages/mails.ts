import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { mailToStore, storeMail } from '../../../platform/mail/outbox.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose } from '../../../platform/mail/templates.js';
import { wakeDelivery } from '../bookings/mails.js';
import { phrase } from '../bookings/mail-text.js';

/**
 * The operator answered the customer's thread: the customer gets the answer by mail (store language, a link to their
 * account), written in the reply's transaction. The answer wakes the delivery after the commit (SMTP_URL).
 */
export async function replyMailInTransaction(
  tx: Db,
  p: Platform,
  thread: { id: number; subject: string; customer_name: string; customer_email: string },
  reply: string,
): Promise<(() => Promise<void>) | undefined> {
  if (!thread.customer_email) return undefined;
  const s = mailSettings(p);
  const L = (t: string) => phrase(s.language, t);
  const name = thread.customer_name.trim();
  const mail = mailToStore(p, {
    to: thread.customer_email,
    template: 'message_reply',
    ...compose(s, `${L('New reply to your message')} — ${thread.subject}`, `${L('Hello')}${name ? ` ${name}` : ''},`, [
      { p: L('We have answered your message:') },
      { rows: [[L('Subject'), thread.subject]] },
      ...reply
        .trim()
        .split(/\n{2,}/)
        .map((para) => ({ p: para })),
      { p: L('Read and answer it in your account.') },
      { link: s.accountUrl, label: L('Open your messages') },
    ]),
  });
  await storeMail(tx, mail, `message:${thread.id}`);
  return wakeDelivery(p, mail);
}

import type { Platform } from '../../../platform/context.js';
import type { Db } from '../../../platform/db/types.js';
import { mailToStore, storeMail } from '../../../platform/mail/outbox.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose } from '../../../platform/mail/templates.js';
import { wakeDelivery } from '../bookings/mails.js';

/**
 * The guest's e-mail code: proves the address before a booking is made for it. Stored in the transaction that
 * stores the code (verification `id`), so a code exists exactly when its mail does; the answer wakes the delivery
 * after the commit.
 */
export async function storeGuestCode(
  tx: Db,
  p: Platform,
  id: number,
  m: { to: string; name: string; code: string; minutes: number },
): Promise<(() => Promise<void>) | undefined> {
  const s = mailSettings(p);
  const mail = mailToStore(p, {
    to: m.to,
    template: 'guest_code',
    ...compose(s, `Your booking code: ${m.code}`, `Hello ${m.name},`, [
      { p: `Enter this code to confirm your e-mail address and book with ${s.storeName}:` },
      { rows: [['Code', m.code]] },
      { p: `The code expires in ${m.minutes} minutes. If you did not ask for it, ignore this mail.` },
    ]),
  });
  await storeMail(tx, mail, `guest-code:${id}`);
  return wakeDelivery(p, mail);
}

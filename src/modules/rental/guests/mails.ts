import type { Platform } from '../../../platform/context.js';
import { mailerOf } from '../../../platform/mail/mailer.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { compose } from '../../../platform/mail/templates.js';

/** The guest's e-mail code: proves the address before a booking is made for it. */
export async function sendGuestCode(p: Platform, to: string, name: string, code: string, minutes: number) {
  const s = mailSettings(p);
  await mailerOf(p).send({
    to,
    template: 'guest_code',
    ...compose(s, `Your booking code: ${code}`, `Hello ${name},`, [
      { p: `Enter this code to confirm your e-mail address and book with ${s.storeName}:` },
      { rows: [['Code', code]] },
      { p: `The code expires in ${minutes} minutes. If you did not ask for it, ignore this mail.` },
    ]),
  });
}

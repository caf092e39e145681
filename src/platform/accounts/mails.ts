import type { Platform } from '../context.js';
import type { Db } from '../db/types.js';
import { mailDeliveryOf } from '../mail/delivery.js';
import { mailerOf, type OutgoingMail } from '../mail/mailer.js';
import { mailToStore, storeMail } from '../mail/outbox.js';
import { mailSettings } from '../mail/settings.js';
import { compose } from '../mail/templates.js';

/**
 * Stores an account mail in the transaction of the change it announces (a token issued, a password set), so the mail
 * exists exactly when the change does: a rollback leaves no mail, a crash after the commit loses none. The answer,
 * for the caller to run after its commit, wakes the delivery (SMTP_URL set).
 */
export async function storeAccountMail(tx: Db, p: Platform, userId: number, m: OutgoingMail): Promise<() => void> {
  const row = mailToStore(p, m);
  await storeMail(tx, row, `user:${userId}`);
  return row.status === 'pending' ? () => mailDeliveryOf(p).nudge() : () => undefined;
}

function link(p: Platform, path: string, token: string): string {
  const s = mailSettings(p);
  return `${s.publicUrl}${s.restRoot}${path}?token=${encodeURIComponent(token)}`;
}

/** The account page (`ACCOUNT_URL`, by default Rova's own `/account`): the widget there reads the token first. */
function resetLink(p: Platform, token: string): string {
  const account = mailSettings(p).accountUrl;
  return `${account}${account.includes('?') ? '&' : '?'}rova_reset=${encodeURIComponent(token)}`;
}

/** The verification mail of a new account (stored with the account: `storeAccountMail`). */
export function verificationMail(p: Platform, to: string, name: string, token: string, hours: number): OutgoingMail {
  const s = mailSettings(p);
  return {
    to,
    template: 'verify_email',
    ...compose(s, 'Confirm your e-mail address', `Hello ${name},`, [
      { p: `Welcome to ${s.storeName}. Please confirm that this is your e-mail address.` },
      { link: link(p, '/rova/v1/auth/verify-email', token), label: 'Confirm my e-mail address' },
      { p: `The link works once and expires in ${hours} hours.` },
    ]),
  };
}

/** Someone registered with an address that already has an account: its owner learns how to sign in instead. */
export async function sendAccountExists(p: Platform, to: string, name: string): Promise<void> {
  const s = mailSettings(p);
  await mailerOf(p).send({
    to,
    template: 'account_exists',
    ...compose(s, 'You already have an account', `Hello ${name},`, [
      {
        p: `Someone (hopefully you) just tried to create an account at ${s.storeName} with this e-mail address, which already has one. No new account was created.`,
      },
      {
        p: 'To sign in, use your existing password. Forgot it? Ask for a new one with POST /rova/v1/auth/password/forgot (the "Forgot password" link of the shop).',
      },
      { p: 'If this was not you, you can ignore this mail: your account is unchanged.' },
    ]),
  });
}

/** The reset link and token (stored with the token: `storeAccountMail`). */
export function passwordResetMail(p: Platform, to: string, name: string, token: string, minutes: number): OutgoingMail {
  const s = mailSettings(p);
  return {
    to,
    template: 'password_reset',
    ...compose(s, 'Reset your password', `Hello ${name},`, [
      { p: 'Someone (hopefully you) asked to reset the password of your account. Open the link to choose a new one:' },
      { link: resetLink(p, token), label: 'Choose a new password' },
      { p: 'An app can instead send this token with the new password to POST /rova/v1/auth/password/reset.' },
      { rows: [['Token', token]] },
      { p: `The token works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail.` },
    ]),
  };
}

/**
 * The notice of a new password, set by a reset or changed while signed in (stored with the new password:
 * `storeAccountMail`). It never names the password; someone else who changed it is answered by a reset from the
 * account page (`ACCOUNT_URL`, where the widget's "Forgot password" mails a reset link to this address).
 */
export function passwordChangedMail(p: Platform, to: string, name: string): OutgoingMail {
  const s = mailSettings(p);
  return {
    to,
    template: 'password_changed',
    ...compose(s, 'Your password was changed', `Hello ${name},`, [
      { p: 'Your password was just changed and every session was logged out.' },
      { p: "If this wasn't you, reset your password:" },
      { link: s.accountUrl, label: 'Reset my password' },
      { p: 'Then contact us at once.' },
    ]),
  };
}

import { randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../../platform/context.js';
import { keyedHash, randomToken, safeEqual } from '../../../platform/auth/crypto.js';
import { clientAddress } from '../../../platform/http/client-ip.js';
import { JourneyErrors, RentalErrors, invalidField } from '../errors.js';
import { storeGuestCode } from './mails.js';
import * as repo from './repo.js';

/** A code lives this long, allows this many tries; a pass (after the right code) books for this long. */
export const CODE_MINUTES = 10;
export const CODE_ATTEMPTS = 5;
export const PASS_MINUTES = 60;

const codeHash = (p: Platform, id: number, code: string) => keyedHash(p.config.secret, `${id}:${code}`, 'guest-code');
const passHash = (p: Platform, pass: string) => keyedHash(p.config.secret, pass, 'guest-pass');

async function limit(p: Platform, bucket: string, key: string, max: number, windowSeconds: number): Promise<void> {
  const r = await p.limits.hit(bucket, key, max, windowSeconds);
  if (r.allowed) return;
  const wait = String(Math.max(1, Math.ceil(r.resetMs / 1000)));
  throw JourneyErrors.rateLimited(`Too many codes asked. Try again in ${wait} s.`, undefined, { 'Retry-After': wait });
}

/**
 * Sends a 6-digit code to the address (limited per address and per client address, so the form can neither flood
 * someone's mailbox nor be used to send mail in bulk). Answers the verification's id, which the code is checked
 * against: the code alone, without that id, opens nothing.
 */
export async function startGuestVerification(
  p: Platform,
  req: FastifyRequest,
  input: { email: string; name: string },
): Promise<{ verification_id: number; expires_at: string }> {
  const email = input.email.trim();
  const name = input.name.trim();
  if (!name) throw invalidField('name', 'name must not be blank.');
  await limit(p, 'guest-code-ip', clientAddress(req), 20, 3600);
  await limit(p, 'guest-code-email', email.toLowerCase(), 5, 3600);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + CODE_MINUTES * 60_000);
  const { id, wake } = await p.transaction(async (tx) => {
    // the hash binds the code to its row: the row's id is known only after the insert
    const rowId = await repo.insertCode(tx, { email, name, codeHash: 'pending', expiresAt });
    await repo.setCodeHash(tx, rowId, codeHash(p, rowId, code));
    // the mail with the code, with the code's row: never a code without its mail, nor a mail of a code not stored
    return { id: rowId, wake: await storeGuestCode(tx, p, rowId, { to: email, name, code, minutes: CODE_MINUTES }) };
  });
  await wake?.();
  return { verification_id: id, expires_at: expiresAt.toISOString() };
}

/**
 * Checks a code (constant-time compare of keyed hashes, under the row's lock): right → a guest pass for
 * PASS_MINUTES; wrong → 400 with the attempts left; expired or already used → 400; the CODE_ATTEMPTS-th wrong try
 * spends the code (429 from then on, a new code must be asked).
 */
export async function confirmGuestVerification(
  p: Platform,
  id: number,
  code: string,
): Promise<{ guest_pass: string; email: string; name: string; expires_at: string }> {
  const r = await p.transaction(async (tx) => {
    const row = await repo.lockCode(tx, id);
    if (!row || row.verified || row.expired) return { fail: 'expired' as const, left: 0 };
    if (row.attempts >= CODE_ATTEMPTS) return { fail: 'attempts' as const, left: 0 };
    if (!safeEqual(codeHash(p, id, code), row.code_hash)) {
      await repo.countAttempt(tx, id);
      return { fail: 'wrong' as const, left: CODE_ATTEMPTS - row.attempts - 1 };
    }
    const pass = randomToken('rgp_', 32);
    const expiresAt = new Date(Date.now() + PASS_MINUTES * 60_000);
    await repo.markVerified(tx, id, passHash(p, pass), expiresAt);
    return { pass, expiresAt, email: row.email, name: row.name };
  });
  if (r.fail !== undefined) {
    if (r.fail === 'expired')
      throw RentalErrors.invalidParams('The code has expired or was already used: ask for a new one.', {
        field: 'code',
        reason: 'code_expired',
      });
    if (r.fail === 'attempts' || r.left <= 0)
      throw JourneyErrors.rateLimited('Too many wrong codes: ask for a new one.', { reason: 'too_many_attempts' });
    throw RentalErrors.invalidParams(`The code is not right. ${r.left} attempt(s) left.`, {
      field: 'code',
      reason: 'wrong_code',
      attempts_left: r.left,
    });
  }
  return { guest_pass: r.pass, email: r.email, name: r.name, expires_at: r.expiresAt.toISOString() };
}

/** The verified guest of a pass; 401 when it is unknown or has expired. */
export async function guestOfPass(p: Platform, pass: string): Promise<{ id: number; email: string; name: string }> {
  const g = await repo.guestOfPass(p.db, passHash(p, pass));
  if (!g) throw RentalErrors.authRequired('The guest pass is not valid or has expired: verify your e-mail again.');
  return g;
}

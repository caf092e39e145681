import type { FastifyRequest } from 'fastify';
import type { Platform } from '../context.js';
import { hashPassword, keyedHash, randomToken } from '../auth/crypto.js';
import { inOwnTransaction } from '../db/answered.js';
import { toDateOrNull, toDate } from '../db/types.js';
import { clientAddress } from '../http/client-ip.js';
import { HttpErrors, isKind } from '../http/errors.js';
import { RovaErrors } from '../errors.js';
import * as repo from './repo.js';
import { perPlatform } from '../per-platform.js';
import { jwtSessionsOf } from '../auth/jwt/sessions.js';
import { MAX_PASSWORD, MIN_PASSWORD, PASSWORD_RULE } from './password-policy.js';
import type { Db } from '../db/types.js';
import {
  passwordChangedMail,
  passwordResetMail,
  sendAccountExists,
  storeAccountMail,
  verificationMail,
} from './mails.js';

const VERIFY_HOURS = 48;
const RESET_MINUTES = 60;

export interface RegisterInput {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
}

export function profileView(u: repo.ProfileRow) {
  return {
    id: u.id,
    login: u.login,
    email: u.email,
    display_name: u.display_name,
    role: u.role,
    first_name: u.first_name,
    last_name: u.last_name,
    phone: u.phone,
    email_verified: u.email_verified_at !== null,
    email_verified_at: toDateOrNull(u.email_verified_at)?.toISOString() ?? null,
    created_at: toDate(u.created_at).toISOString(),
  };
}

const tokenHash = (p: Platform, token: string) => keyedHash(p.config.secret, token, 'account-token');

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw HttpErrors.invalidParam(`password must be ${MIN_PASSWORD}-${MAX_PASSWORD} characters`, {
      params: { password: PASSWORD_RULE },
    });
  }
}

async function limit(p: Platform, bucket: string, key: string, max: number, windowSeconds: number): Promise<boolean> {
  return (await p.limits.hit(bucket, key, max, windowSeconds)).allowed;
}

/** Counts one attempt per address; over the limit → 429 whose Retry-After is the real wait until the window frees a slot. */
async function limitAddress(
  p: Platform,
  bucket: string,
  req: FastifyRequest,
  max: number,
  windowSeconds: number,
): Promise<void> {
  const r = await p.limits.hit(bucket, clientAddress(req), max, windowSeconds);
  if (r.allowed) return;
  const wait = Math.max(1, Math.ceil(r.resetMs / 1000));
  throw RovaErrors.tooManyRequests(`Too many requests from this address. Try again in ${wait} s.`, undefined, {
    'Retry-After': String(wait),
  });
}

async function issueToken(
  p: Platform,
  tx: Db,
  userId: number,
  purpose: repo.TokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = randomToken('', 32);
  await repo.insertToken(tx, userId, purpose, tokenHash(p, token), new Date(Date.now() + ttlMs));
  return token;
}

/**
 * Self-service registration: a customer account (login = e-mail) and a verification mail, written in one transaction
 * (the account, its profile, its token and the mail in the outbox: all or nothing). The answer is the same whether or
 * not the address already has an account — then its owner gets a mail saying how to sign in instead — and both
 * paths hash the password, so neither the body nor the time tells an outsider which addresses are registered.
 */
export async function register(p: Platform, req: FastifyRequest, input: RegisterInput): Promise<void> {
  await limitAddress(p, 'register-ip', req, 10, 3600);
  checkPassword(input.password);
  const email = input.email.trim().toLowerCase();
  const name = [input.first_name?.trim(), input.last_name?.trim()].filter(Boolean).join(' ');
  const mailLater = (send: () => Promise<void>) =>
    void send().catch((err: unknown) => p.log.warn({ err }, 'registration mail failed'));
  const mailOwner = async (userId: number | undefined): Promise<void> => {
    const u = userId === undefined ? undefined : await repo.profileById(p.db, userId);
    // at most 3 such mails per account per hour: registering someone's address again and again must not flood them
    if (u && (await limit(p, 'register-exists', String(u.id), 3, 3600)))
      mailLater(() => sendAccountExists(p, u.email, u.display_name));
  };
  const known = await repo.userIdByEmail(p.db, email);
  if (known !== undefined) {
    await hashPassword(input.password); // the time a new account takes
    return mailOwner(known);
  }
  // hashed before the transaction, which then holds its connection for the writes only
  const passwordHash = await hashPassword(input.password);
  let wake: () => void;
  try {
    wake = await p.transaction(async (tx) => {
      const created = await p.auth.createUser(
        { login: email, email, role: 'customer', passwordHash, displayName: name || email },
        tx,
      );
      const u = (await repo.updateProfile(tx, created.id, {
        first_name: input.first_name?.trim() ?? '',
        last_name: input.last_name?.trim() ?? '',
        phone: input.phone?.trim() ?? '',
      }))!;
      const token = await issueToken(p, tx, u.id, 'verify_email', VERIFY_HOURS * 3_600_000);
      return storeAccountMail(tx, p, u.id, verificationMail(p, u.email, u.display_name, token, VERIFY_HOURS));
    });
  } catch (err) {
    // the same address registered at the same moment by another request: it exists now
    if (isKind(err, RovaErrors.userExists)) return mailOwner(await repo.userIdByEmail(p.db, email));
    throw err;
  }
  wake();
}

type EmailVerifiedListener = (user: { id: number; email: string }) => Promise<void>;
const emailVerifiedListeners = perPlatform((): EmailVerifiedListener[] => []);

/**
 * Runs `fn` each time an account proves its e-mail address (the verification link): modules attach what belongs to
 * that address (the rental module: a guest's bookings). A listener's failure is logged, never the verification's.
 */
export function onEmailVerified(p: Platform, fn: EmailVerifiedListener): void {
  emailVerifiedListeners(p).push(fn);
}

export async function verifyEmail(p: Platform, token: string): Promise<repo.ProfileRow> {
  const userId = await repo.consumeToken(p.db, 'verify_email', tokenHash(p, token));
  if (userId === undefined)
    throw RovaErrors.invalidToken('The verification link is not valid, was already used, or has expired.');
  await repo.markVerified(p.db, userId);
  const u = (await repo.profileById(p.db, userId))!;
  for (const fn of emailVerifiedListeners(p))
    await fn({ id: u.id, email: u.email }).catch((err: unknown) =>
      p.log.warn({ err, userId }, 'an e-mail verification listener failed'),
    );
  return u;
}

/**
 * Starts a password reset: the token and its mail are written in one transaction (a mail never names a token that
 * was not stored, nor is a token stored without its mail). The answer is the same whether or not the address has an
 * account.
 */
export async function forgotPassword(p: Platform, req: FastifyRequest, email: string): Promise<void> {
  await limitAddress(p, 'forgot-ip', req, 20, 900);
  const addr = email.trim().toLowerCase();
  const userId = await repo.userIdByEmail(p.db, addr);
  if (userId === undefined) return;
  // at most 3 mails per account per hour; beyond that, silently nothing (same answer)
  if (!(await limit(p, 'forgot-account', String(userId), 3, 3600))) return;
  const wake = await p.transaction(async (tx) => {
    const token = await issueToken(p, tx, userId, 'reset_password', RESET_MINUTES * 60_000);
    const u = (await repo.profileById(tx, userId))!;
    return storeAccountMail(tx, p, userId, passwordResetMail(p, u.email, u.display_name, token, RESET_MINUTES));
  });
  wake();
}

/** Sets a new password with a reset token (single use); every session of the user ends. */
export async function resetPassword(p: Platform, req: FastifyRequest, token: string, password: string): Promise<void> {
  await limitAddress(p, 'reset-ip', req, 20, 900);
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  // One transaction: a token spent without its password set (a connection lost in between) would leave the user
  // with the old password and a token that no longer works; the notice of the change is stored with it, so it exists
  // exactly when the change does. A COMMIT whose answer was lost is resolved (pg_xact_status): a reset that happened
  // is answered 200, never "try again" with a token already spent.
  const wake = await inOwnTransaction(p.db, async (tx) => {
    const id = await repo.consumeToken(tx, 'reset_password', tokenHash(p, token));
    if (id === undefined)
      throw RovaErrors.invalidToken('The reset token is not valid, was already used, or has expired.');
    await p.auth.setPasswordHash(id, passwordHash, tx);
    await repo.endSessions(tx, id);
    // the apps' sessions too (the mail says every session ended): a stolen refresh token dies with the old password
    await jwtSessionsOf(p).revokeAll(id, 'password_reset', tx);
    await repo.markVerified(tx, id);
    const u = (await repo.profileById(tx, id))!;
    return storeAccountMail(tx, p, id, passwordChangedMail(p, u.email, u.display_name));
  });
  wake();
}

export async function getProfile(p: Platform, userId: number): Promise<repo.ProfileRow> {
  const u = await repo.profileById(p.db, userId);
  if (!u) throw RovaErrors.userNotFound('The account no longer exists.');
  return u;
}

export async function editProfile(
  p: Platform,
  userId: number,
  f: { first_name?: string; last_name?: string; phone?: string; display_name?: string },
): Promise<repo.ProfileRow> {
  const u = await repo.updateProfile(p.db, userId, {
    first_name: f.first_name?.trim(),
    last_name: f.last_name?.trim(),
    phone: f.phone?.trim(),
    display_name: f.display_name?.trim() || undefined,
  });
  if (!u) throw RovaErrors.userNotFound('The account no longer exists.');
  await p.auth.usersChanged();
  return u;
}

import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../platform/auth/crypto.js';

/** How long after the return a "manage my booking" link keeps working. */
export const MANAGE_LINK_DAYS_AFTER_RETURN = 30;

/** What a valid link names: one booking (by reference), when the link was issued and until when it works. */
export interface ManageClaim {
  reference: string;
  issuedMs: number;
  expiresMs: number;
}

function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(`manage-link\0${body}`).digest('base64url');
}

/**
 * A signed link token `reference.issued.expires.signature` (HMAC-SHA256 with the server secret): nothing is stored,
 * so a mail rendered before its booking row exists (the one-statement create path) can carry one. It names one
 * booking, so it opens that booking only; revocation refuses every token issued before a moment (see repo).
 */
export function signManageToken(secret: string, reference: string, returnAt: Date, now = Date.now()): string {
  const expires = returnAt.getTime() + MANAGE_LINK_DAYS_AFTER_RETURN * 86_400_000;
  const body = `${reference}.${now}.${expires}`;
  return `${body}.${signature(secret, body)}`;
}

/** The claim of a token whose signature is good and that has not expired; undefined otherwise. */
export function readManageToken(secret: string, token: string, now = Date.now()): ManageClaim | undefined {
  const m = /^([A-Za-z0-9-]{1,64})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const [, reference, issued, expires, sig] = m as unknown as [string, string, string, string, string];
  if (!safeEqual(signature(secret, `${reference}.${issued}.${expires}`), sig)) return undefined;
  const claim = { reference, issuedMs: Number(issued), expiresMs: Number(expires) };
  return claim.expiresMs > now ? claim : undefined;
}

/** The page a booking mail's "manage my booking" button opens: the account page with the token. */
export function manageLink(accountUrl: string, token: string): string {
  return `${accountUrl}${accountUrl.includes('?') ? '&' : '?'}rova_manage=${encodeURIComponent(token)}`;
}

import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { checkWordPressPassword, isWordPressHash } from './wordpress-hash.js';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // Users imported from WordPress keep their hashes until their first login (then needsRehash → Rova's scheme).
  if (stored !== null && isWordPressHash(stored)) return checkWordPressPassword(password, stored);
  // Unknown users still pay for one scrypt so timing does not reveal whether a login exists.
  const parts = (stored ?? DUMMY_HASH).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, hashB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashB64, 'base64url');
  const key = await scrypt(password, Buffer.from(saltB64, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected);
}

/** A stored hash that is not Rova's current scheme (an imported WordPress hash): re-hash it after a good login. */
export function needsRehash(stored: string | null): boolean {
  return stored !== null && !stored.startsWith(`scrypt$${N}$${R}$${P}$`);
}

const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEYLEN).toString('base64url')}`;

/** Keyed hash (HMAC-SHA256, hex) used to store API keys and session tokens: a leaked table reveals nothing usable. */
export function keyedHash(secret: string, value: string, purpose = 'api-key'): string {
  return createHmac('sha256', secret).update(`${purpose}\0${value}`).digest('hex');
}

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

const NONCE_TICK_MS = 12 * 60 * 60 * 1000;

/** WordPress-like nonce: bound to the session, valid for the current and the previous 12-hour tick. */
export function createNonce(secret: string, sessionTokenHash: string, now = Date.now()): string {
  return nonceFor(secret, sessionTokenHash, Math.floor(now / NONCE_TICK_MS));
}

export function verifyNonce(secret: string, sessionTokenHash: string, nonce: string, now = Date.now()): boolean {
  const tick = Math.floor(now / NONCE_TICK_MS);
  return (
    safeEqual(nonce, nonceFor(secret, sessionTokenHash, tick)) ||
    safeEqual(nonce, nonceFor(secret, sessionTokenHash, tick - 1))
  );
}

function nonceFor(secret: string, sessionTokenHash: string, tick: number): string {
  return createHmac('sha256', secret).update(`nonce\0${sessionTokenHash}\0${tick}`).digest('hex').slice(0, 20);
}

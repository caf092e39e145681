import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Upper-case without spaces; null when it is not shaped like an IBAN (country, check digits, 11–30 alphanumerics). */
export function normaliseIban(raw: string): string | null {
  const v = raw.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(v) ? v : null;
}

/** ISO 13616 checksum: move the first four characters to the end, letters → numbers, mod 97 must be 1. */
export function ibanChecksumOk(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const code = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of code) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

/** Normalised IBAN when the shape and checksum are right, else null. */
export function parseIban(raw: string): string | null {
  const v = normaliseIban(raw);
  return v && ibanChecksumOk(v) ? v : null;
}

/** The only form an IBAN ever leaves the server in (design §6): first 2 + `** **** ` + last 4. */
export function maskIban(iban: string | null): string | null {
  if (!iban) return null;
  return iban.length > 4 ? `${iban.slice(0, 2)}** **** ${iban.slice(-4)}` : '—';
}

function key(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'rova-vendor-iban', 'aes-256-gcm', 32));
}

/** AES-256-GCM with a key derived from ROVA_SECRET (HKDF); stored as `v1:` + base64(iv ‖ tag ‖ ciphertext). */
export function encryptIban(secret: string, iban: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key(secret), iv);
  const body = Buffer.concat([c.update(iban, 'utf8'), c.final()]);
  return 'v1:' + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
}

export function decryptIban(secret: string, stored: string): string {
  if (!stored.startsWith('v1:')) throw new Error('unknown IBAN encryption format');
  const raw = Buffer.from(stored.slice(3), 'base64');
  const d = createDecipheriv('aes-256-gcm', key(secret), raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
}

/** Masked form of an encrypted IBAN (null when none or undecryptable, e.g. after a secret change). */
export function maskStored(secret: string, stored: string | null): string | null {
  if (!stored) return null;
  try {
    return maskIban(decryptIban(secret, stored));
  } catch {
    return null;
  }
}

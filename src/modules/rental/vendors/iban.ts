import { SecretBox } from '../../../platform/auth/secret-box.js';

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

const boxes = new Map<string, SecretBox>();
function box(secret: string): SecretBox {
  let b = boxes.get(secret);
  if (!b) boxes.set(secret, (b = new SecretBox(secret, 'vendor-iban')));
  return b;
}

/** AES-256-GCM with a key derived from ROVA_SECRET for this purpose alone (the platform's SecretBox). */
export function encryptIban(secret: string, iban: string): string {
  return box(secret).seal(iban);
}

export function decryptIban(secret: string, stored: string): string {
  return box(secret).reveal(stored);
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

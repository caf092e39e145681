import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * Password hashes a WordPress database holds, checked so imported users keep their passwords (issue 24). Rova
 * re-hashes into its own scheme on the first successful login; nothing here ever writes these formats.
 *
 * - `$P$` / `$H$`: phpass "portable" hashes (WordPress before 6.8): MD5 iterated 2^n times over salt + password.
 * - `$wp$2y$…`: WordPress 6.8+: bcrypt of base64(HMAC-SHA384(password, key "wp-sha384")).
 * - `$2y$` / `$2a$` / `$2b$`: plain bcrypt (password_hash(), some plugins).
 * - 32 hex digits: a bare MD5 (very old WordPress; WordPress itself still accepts it).
 */
const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function encode64(input: Buffer, count: number): string {
  let out = '';
  let i = 0;
  do {
    let value = input[i++]!;
    out += ITOA64[value & 0x3f];
    if (i < count) value |= input[i]! << 8;
    out += ITOA64[(value >> 6) & 0x3f];
    if (i++ >= count) break;
    if (i < count) value |= input[i]! << 16;
    out += ITOA64[(value >> 12) & 0x3f];
    if (i++ >= count) break;
    out += ITOA64[(value >> 18) & 0x3f];
  } while (i < count);
  return out;
}

/** phpass crypt_private(): the full 34-character hash for this password and setting, or null for a bad setting. */
export function phpassHash(password: string, setting: string): string | null {
  const id = setting.slice(0, 3);
  if (id !== '$P$' && id !== '$H$') return null;
  const log2 = ITOA64.indexOf(setting[3] ?? '');
  if (log2 < 7 || log2 > 30) return null;
  const salt = setting.slice(4, 12);
  if (salt.length !== 8) return null;
  const pw = Buffer.from(password, 'utf8');
  let hash = createHash('md5')
    .update(Buffer.concat([Buffer.from(salt, 'latin1'), pw]))
    .digest();
  for (let count = 1 << log2; count > 0; count--)
    hash = createHash('md5')
      .update(Buffer.concat([hash, pw]))
      .digest();
  return setting.slice(0, 12) + encode64(hash, 16);
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Is this one of the WordPress formats above (and not Rova's own)? */
export function isWordPressHash(stored: string): boolean {
  return (
    /^\$(P|H)\$/.test(stored) ||
    /^\$wp\$2[aby]\$/.test(stored) ||
    /^\$2[aby]\$\d\d\$/.test(stored) ||
    /^[0-9a-f]{32}$/i.test(stored)
  );
}

/** wp_check_password() for the formats above; false for anything else. Comparisons are constant-time. */
export async function checkWordPressPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$wp$')) {
    const pre = createHmac('sha384', 'wp-sha384').update(password, 'utf8').digest('base64');
    return bcryptCompare(pre, stored.slice(3));
  }
  if (stored.startsWith('$P$') || stored.startsWith('$H$')) {
    if (stored.length !== 34) return false;
    const computed = phpassHash(password, stored);
    return computed !== null && sameText(computed, stored);
  }
  if (/^\$2[aby]\$\d\d\$/.test(stored)) return bcryptCompare(password, stored);
  if (/^[0-9a-f]{32}$/i.test(stored))
    return sameText(createHash('md5').update(password, 'utf8').digest('hex'), stored.toLowerCase());
  return false;
}

async function bcryptCompare(password: string, hash: string): Promise<boolean> {
  if (!/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(hash)) return false;
  // bcryptjs reads $2y$ like $2b$ (the same algorithm; PHP's name for the fixed variant)
  return bcrypt.compare(password, hash.replace(/^\$2y\$/, '$2b$'));
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for the few secrets Rova must be able to read back (WooCommerce consumer secrets, which OAuth
 * 1.0a signatures are keyed with; JWT signing keys; webhook secrets). The key is derived from ROVA_SECRET with HKDF and a purpose label, so it is
 * never the same bytes as the HMAC key of the keyed hashes; `aad` binds a ciphertext to its row (a sealed
 * value copied onto another key does not open). Format: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(rootSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', rootSecret, 'rova-secret-box', purpose, 32));
  }

  seal(plain: string, aad = ''): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  /** The plain text, or null when the value was not sealed by this key for this aad (tampered, other secret). */
  open(sealed: string, aad = ''): string | null {
    const [v, iv, tag, ct] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || ct === undefined) return null;
    try {
      const d = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      d.setAAD(Buffer.from(aad));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  /** Like open, for values Rova sealed itself: one that does not open is corruption or a changed ROVA_SECRET. */
  reveal(sealed: string, aad = ''): string {
    const plain = this.open(sealed, aad);
    if (plain === null) throw new Error('a sealed value does not open: was ROVA_SECRET changed?');
    return plain;
  }
}

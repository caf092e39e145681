import bcrypt from 'bcryptjs';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { needsRehash, verifyPassword, hashPassword } from '../../src/platform/auth/crypto.js';
import { checkWordPressPassword, isWordPressHash, phpassHash } from '../../src/platform/auth/wordpress-hash.js';

// The test vector shipped with phpass 0.3 (test.php, Openwall): "test12345" under a portable hash.
const PHPASS_VECTOR = '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0';

describe('WordPress password hashes', () => {
  it('phpass portable: the public vector and a computed one', async () => {
    expect(phpassHash('test12345', PHPASS_VECTOR)).toBe(PHPASS_VECTOR);
    expect(await checkWordPressPassword('test12345', PHPASS_VECTOR)).toBe(true);
    expect(await checkWordPressPassword('test12346', PHPASS_VECTOR)).toBe(false);
    // computed with the algorithm (2^13 MD5 rounds, salt "abcdefgh"), non-Latin password
    const h = phpassHash('Şifre-密码', '$P$BabcdefghXXXX')!;
    expect(h).toMatch(/^\$P\$Babcdefgh[./0-9A-Za-z]{22}$/);
    expect(await checkWordPressPassword('Şifre-密码', h)).toBe(true);
    expect(await checkWordPressPassword('Sifre-密码', h)).toBe(false);
    expect(phpassHash('x', '$P$!abcdefgh')).toBeNull();
    expect(await checkWordPressPassword('test12345', PHPASS_VECTOR.slice(0, 33))).toBe(false);
  });

  it('$wp$2y$ (WordPress 6.8+): bcrypt of base64 HMAC-SHA384 with key "wp-sha384"', async () => {
    const pre = createHmac('sha384', 'wp-sha384').update('correct horse', 'utf8').digest('base64');
    const stored = '$wp' + bcrypt.hashSync(pre, 4).replace(/^\$2b\$/, '$2y$');
    expect(stored.startsWith('$wp$2y$04$')).toBe(true);
    expect(await checkWordPressPassword('correct horse', stored)).toBe(true);
    expect(await checkWordPressPassword('correct horsE', stored)).toBe(false);
    // the bcrypt hash alone is not accepted for the pre-hashed password's plain text
    expect(await checkWordPressPassword('correct horse', stored.slice(3))).toBe(false);
  });

  it('plain bcrypt and bare MD5 as WordPress accepts them', async () => {
    expect(await checkWordPressPassword('pw', bcrypt.hashSync('pw', 4).replace(/^\$2b\$/, '$2y$'))).toBe(true);
    expect(await checkWordPressPassword('password', '5f4dcc3b5aa765d61d8327deb882cf99')).toBe(true);
    expect(await checkWordPressPassword('passwore', '5f4dcc3b5aa765d61d8327deb882cf99')).toBe(false);
  });

  it('verifyPassword takes both schemes; only a WordPress hash needs a re-hash', async () => {
    const own = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', own)).toBe(true);
    expect(await verifyPassword('test12345', PHPASS_VECTOR)).toBe(true);
    expect(await verifyPassword('nope', PHPASS_VECTOR)).toBe(false);
    expect(needsRehash(own)).toBe(false);
    expect(needsRehash(PHPASS_VECTOR)).toBe(true);
    expect(isWordPressHash(own)).toBe(false);
    expect(isWordPressHash('$wp$2y$10$abc')).toBe(true);
  });
});

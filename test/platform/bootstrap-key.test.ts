import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// Issue 14 item 9: a key the operator chose keeps no part of itself in clear; generated keys keep a prefix.
const BOOTSTRAP = 'op-chosen-bootstrap-key-0123456789';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ env: { ROVA_BOOTSTRAP_ADMIN_KEY: BOOTSTRAP } });
  await t.platform.auth.ensureBootstrapAdmin(BOOTSTRAP);
});
afterAll(async () => t?.close());

describe('bootstrap key at rest', () => {
  it('stores no prefix of the bootstrap key, and the key still works', async () => {
    const keys = await rows<{ name: string; key_prefix: string; key_hash: string }>(
      t.platform.db,
      sql`SELECT name, key_prefix, key_hash FROM rova_api_keys`,
    );
    const boot = keys.find((k) => k.name.startsWith('bootstrap'));
    expect(boot).toBeDefined();
    expect(boot!.key_prefix).toBe('');
    for (const k of keys) {
      expect(k.key_hash).not.toContain(BOOTSTRAP.slice(0, 6));
      expect(k.key_prefix).not.toContain(BOOTSTRAP.slice(0, 6));
    }
    const me = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/auth/me',
      headers: { 'x-rova-api-key': BOOTSTRAP },
    });
    expect(me.statusCode).toBe(200);
  });

  it('a generated key keeps its short prefix (to recognise it in lists)', async () => {
    const { keyId, key } = await t.userWithKey('shop_manager');
    const [k] = await rows<{ key_prefix: string }>(
      t.platform.db,
      sql`SELECT key_prefix FROM rova_api_keys WHERE id = ${keyId}`,
    );
    expect(k!.key_prefix.length).toBeGreaterThan(0);
    expect(key.startsWith(k!.key_prefix)).toBe(true);
  });
});

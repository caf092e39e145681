import { createHmac, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { TEST_PG } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { migratedDataDir } from '../helpers/rova-process.js';

// The command is under test, not the first start: the embedded database comes migrated.
const dir = migratedDataDir('rova-cli-wc-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// in-process through the binary's own entry (src/cli/run.ts): the key pair is under test, not the process
const rova = (args: string[]) => rovaInProcess(args, { DATA_DIR: dir });

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!*'()]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

describe('rova apikey create --woocommerce', () => {
  it('prints "ck_… cs_…" on one line and nothing else; the pair signs requests', async () => {
    if (TEST_PG) return; // the CLI runs on the embedded database here
    expect(
      (await rova(['user', 'create', '--login', 'shop', '--email', 'shop@example.test', '--role', 'shop_manager']))
        .code,
    ).toBe(0);
    const k = await rova(['apikey', 'create', '--user', 'shop', '--woocommerce', '--scopes', 'read']);
    expect(k.code).toBe(0);
    expect(k.stdout).toMatch(/^ck_[0-9a-f]{40} cs_[0-9a-f]{40}\n$/);
    const [ck, cs] = k.stdout.trim().split(' ') as [string, string];

    const { app } = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), { logger: false });
    try {
      const params: [string, string][] = [
        ['oauth_consumer_key', ck],
        ['oauth_nonce', randomBytes(8).toString('hex')],
        ['oauth_signature_method', 'HMAC-SHA1'],
        ['oauth_timestamp', String(Math.floor(Date.now() / 1000))],
      ];
      const norm = params.map(([a, b]) => `${enc(a)}=${enc(b)}`).join('&');
      const sig = createHmac('sha1', `${cs}&`)
        .update(`GET&${enc('http://localhost:80/wp-json/rova/v1/auth/me')}&${enc(norm)}`)
        .digest('base64');
      const r = await app.inject({
        method: 'GET',
        url: `/wp-json/rova/v1/auth/me?${norm}&oauth_signature=${enc(sig)}`,
      });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ user: { login: 'shop' }, method: 'api_key', scopes: ['read'] });
    } finally {
      await app.close();
    }
  }, 600_000);
});

import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PG } from '../helpers/app.js';
import { rovaInProcess } from '../helpers/cli.js';
import { rovaSync, start, tempDirs } from './spawn.js';

const tmp = tempDirs();
afterAll(() => tmp.cleanup());

const ADMIN = 'ops-admin-key-SECRET-7f3a9c1e2b';
const SECRETS = {
  consumer_key: 'ck_0123456789abcdef0123456789abcdef01234567',
  consumer_secret: 'cs_fedcba9876543210fedcba9876543210fedcba98',
  _wpnonce: 'nonceSECRET42',
  oauth_signature: 'oauthSigSECRET%2B43',
  token: 'tokenSECRET44',
  refresh_token: 'refreshSECRET45',
  password: 'passwordSECRET46',
  api_key: 'apikeySECRET47',
};
const HEADER_SECRETS = [
  'bearerSECRET48',
  'rovakeySECRET49',
  'cookieSECRET50',
  'wpnonceSECRET51',
  'xapikeySECRET52',
  'basicSECRET53',
] as const;

describe('npm start: signals, logs without credentials, offline exchange rates', () => {
  it('serves, never logs a credential, and kill -TERM of the npm process stops the server and frees the lock', async () => {
    if (TEST_PG) return; // the lock is the embedded database's; the unit suite covers it
    const dataDir = tmp.make();
    const run = start('npm', ['start', '--silent'], {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
      ROVA_DEMO: '1',
      ROVA_BOOTSTRAP_ADMIN_KEY: ADMIN,
      // Offline: both online sources refuse, so the first sync falls back to the bundled file.
      FX_EXCHANGERATE_API_URL: 'http://127.0.0.1:9/',
      FX_ECB_URL: 'http://127.0.0.1:9/ecb.xml',
    });
    try {
      const base = await run.ready;
      const q = new URLSearchParams(SECRETS).toString();
      const urls = ['/wp-json/wc/v3/products', '/wp-json/rova-fx/v1/currencies', '/wp-json/nowhere', '/readyz'];
      for (const u of urls) {
        const res = await fetch(`${base}${u}?${q}&page=1`, {
          headers: {
            authorization: `Bearer ${HEADER_SECRETS[0]}`,
            'x-rova-api-key': HEADER_SECRETS[1],
            cookie: `rova_session=${HEADER_SECRETS[2]}`,
            'x-wp-nonce': HEADER_SECRETS[3],
            'x-api-key': HEADER_SECRETS[4],
          },
        });
        await res.arrayBuffer();
      }
      await (
        await fetch(`${base}/wp-json/wc/v3/products`, {
          headers: { authorization: `Basic ${Buffer.from(`ck_x:${HEADER_SECRETS[5]}`).toString('base64')}` },
        })
      ).arrayBuffer();
      await (
        await fetch(`${base}/wp-json/rova/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'admin', password: SECRETS.password }),
        })
      ).arrayBuffer();
      const ok = await fetch(`${base}/wp-json/rova-fx/v1/currencies`, { headers: { 'x-rova-api-key': ADMIN } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { stale_rates: unknown[] }).stale_rates.length).toBeGreaterThan(0);
      expect((await fetch(`${base}/livez`)).status).toBe(200);
      expect(existsSync(path.join(dataDir, 'pgdata.lock'))).toBe(true);

      run.child.kill('SIGTERM');
      const exit = await run.exited;
      expect(exit.code).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(existsSync(path.join(dataDir, 'pgdata.lock'))).toBe(false);
      await expect(fetch(`${base}/livez`)).rejects.toThrow();

      const log = run.output();
      expect(log).toContain('"msg":"stopped"');
      expect(log).toContain('bundled snapshot of 2023-05-30');
      expect(log).toContain('[REDACTED]');
      for (const s of [ADMIN, ...Object.values(SECRETS), ...HEADER_SECRETS]) {
        expect(log, s).not.toContain(s);
        expect(log, s).not.toContain(encodeURIComponent(s));
        expect(log, s).not.toContain(decodeURIComponent(s));
      }
      expect(log).not.toContain(Buffer.from(`ck_x:${HEADER_SECRETS[5]}`).toString('base64'));
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    }
  }, 420_000);
});

describe('CLI help and version', () => {
  it('--version, help, help <command>, <command> --help without side effects', async () => {
    const dataDir = path.join(tmp.make(), 'never-created');
    // --version is answered by the binary before the app loads: a real process
    const v = rovaSync(['--version'], { DATA_DIR: dataDir });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^rova \d+\.\d+\.\d+\n$/);
    expect(v.stderr).toBe('');
    // the rest through the binary's own entry, in-process
    const h = await rovaInProcess(['help'], { DATA_DIR: dataDir });
    expect(h.code).toBe(0);
    for (const c of ['serve', 'migrate', 'seed --demo', 'user create', 'apikey create', 'apikey revoke', 'rates sync'])
      expect(h.stdout).toContain(`rova ${c}`);
    const one = await rovaInProcess(['help', 'rates'], { DATA_DIR: dataDir });
    expect(one.stdout).toMatch(/^Usage: rova rates sync\n\nfetch exchange rates now/);
    const own = await rovaInProcess(['apikey', 'create', '--help'], { DATA_DIR: dataDir, RENTAL_MIN_DAYS: 'abc' });
    expect(own.code).toBe(0);
    expect(own.stdout).toContain('Usage: rova apikey create --user LOGIN');
    expect(existsSync(dataDir)).toBe(false);
    const missing = await rovaInProcess(['user', 'create', '--login', 'x'], { DATA_DIR: dataDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('rova: user create: missing --email, --role\n');
    const unknown = await rovaInProcess(['seed', '--demo', '--colour'], { DATA_DIR: dataDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^rova seed: Unknown option '--colour'/);
  }, 300_000);
});

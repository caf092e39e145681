import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { TEST_PG } from '../helpers/app.js';
import { runRova } from '../../src/cli/run.js';
import { capturedIo, rovaInProcess } from '../helpers/cli.js';
import { migratedDataDir, rovaArgs } from '../helpers/rova-process.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'rova-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function rova(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, rovaArgs(...args), {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('configuration', () => {
  it('defaults', () => {
    const c = loadConfig({}, { ephemeral: true });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      restRoot: '/wp-json',
      storeCurrencyEnv: null,
      storeTimezone: 'UTC',
      trustProxy: false,
      demo: false,
      databaseUrl: null,
      redisUrl: null,
    });
    expect(c.secret).toMatch(/^[0-9a-f]{64}$/);
  });
  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ STORE_CURRENCY: 'DOLLARS' }, /STORE_CURRENCY/],
    [{ STORE_CURRENCY: 'XYZ' }, /STORE_CURRENCY/],
    [{ STORE_TIMEZONE: 'Mars/Olympus' }, /STORE_TIMEZONE/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: 'proxy.example.com' }, /TRUST_PROXY/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ ROVA_SECRET: 'short' }, /ROVA_SECRET/],
    [{ ROVA_DEMO: 'perhaps' }, /ROVA_DEMO/],
    [{ REST_ROOT: '/wp json' }, /REST_ROOT/],
    [{ ROVA_BOOTSTRAP_ADMIN_KEY: 'tiny' }, /ROVA_BOOTSTRAP_ADMIN_KEY/],
  ])('refuses %o', (env, re) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv, { ephemeral: true })).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv, { ephemeral: true })).toThrow(re);
  });
  it('parses lists and normalises', () => {
    const c = loadConfig(
      { TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,loopback', REST_ROOT: 'api/', STORE_CURRENCY: 'eur' },
      { ephemeral: true },
    );
    expect(c.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'loopback']);
    expect(c.restRoot).toBe('/api');
    expect(c.storeCurrencyEnv).toBe('EUR');
    expect(loadConfig({ TRUST_PROXY: '2' }, { ephemeral: true }).trustProxy).toBe(2);
  });
  it('generates ROVA_SECRET once and keeps it in DATA_DIR (mode 600)', () => {
    const d = tmp();
    const a = loadConfig({ DATA_DIR: d });
    const b = loadConfig({ DATA_DIR: d });
    expect(a.secret).toBe(b.secret);
    expect(readFileSync(path.join(d, 'secret'), 'utf8').trim()).toBe(a.secret);
    expect(statSync(path.join(d, 'secret')).mode & 0o777).toBe(0o600);
  });
});

describe('rova CLI', () => {
  it('a bad setting exits non-zero with one clear line', () => {
    const r = rova(['serve'], { PORT: 'abc', DATA_DIR: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^rova: configuration error: PORT must be/);
  });
  it('refuses to open the embedded database while another process holds it; takes over a stale lock', () => {
    if (TEST_PG) return;
    // the lock is under test, not the first start: the database comes migrated
    const d = migratedDataDir('rova-cli-');
    dirs.push(d);
    writeFileSync(path.join(d, 'pgdata.lock'), String(process.pid));
    const busy = rova(['migrate'], { DATA_DIR: d });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/in use by another Rova process \(pid \d+\)/);
    writeFileSync(path.join(d, 'pgdata.lock'), '999999');
    const ok = rova(['migrate'], { DATA_DIR: d });
    expect(ok.code).toBe(0);
    expect(existsSync(path.join(d, 'pgdata.lock'))).toBe(false);
  }, 120_000);
  it('stdout is only the output: warnings (stale exchange rates) go to stderr; a key command starts no module', async () => {
    if (TEST_PG) return;
    const d = migratedDataDir('rova-cli-');
    dirs.push(d);
    const env = { DATA_DIR: d, LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
    // the demo currencies carry the bundled 2023 rates: every command that starts the modules warns that they are stale
    expect((await rovaInProcess(['seed', '--demo'], env)).code).toBe(0);
    expect(
      (
        await rovaInProcess(
          ['user', 'create', '--login', 'quiet', '--email', 'quiet@example.test', '--role', 'administrator'],
          env,
        )
      ).code,
    ).toBe(0);
    // the process's own streams, as a script reads them: real `rova` runs
    const x = rova(['export', 'vehicles', '--format', 'csv'], env);
    expect(x.code, x.stderr).toBe(0);
    expect(x.stdout.split('\n')[0]).toMatch(/^\uFEFF?id,/);
    expect(x.stdout).not.toContain('stale');
    expect(x.stderr).toContain('exchange rates are stale');
    // on a terminal, with LOG_FORMAT unset, the same warning is one plain line
    const tty = capturedIo();
    Object.assign(tty.io.stderr, { isTTY: true });
    const { LOG_FORMAT: _json, ...termEnv } = env;
    expect(await runRova(['export', 'vehicles', '--format', 'csv'], termEnv, tty.io)).toBe(0);
    expect(tty.stderr()).toMatch(
      /^WARN: exchange rates are stale until a sync succeeds \(GET \/rova-fx\/v1\/currencies lists them\)\n$/,
    );
    // a key needs only the platform: no module starts, so no rate check and nothing but the key
    const k = rova(['apikey', 'create', '--user', 'quiet', '--name', 'ci'], env);
    expect(k.code, k.stderr).toBe(0);
    expect(k.stdout).toMatch(/^rova_[A-Za-z0-9_-]{40,}\n$/);
    expect(k.stderr).not.toContain('exchange rates are stale');
  }, 120_000);
  it('a command on a server database without the server secret refuses, naming what it needs, and makes no secret', async () => {
    const d = tmp();
    const env = { DATA_DIR: d, DATABASE_URL: 'postgres://rova@127.0.0.1:1/rova' };
    const r = await rovaInProcess(['apikey', 'create', '--user', 'x', '--name', 'ci'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^rova: configuration error: ROVA_SECRET is not set and .*secret does not exist: a command on the server's database \(DATABASE_URL\) needs the server's secret/,
    );
    expect(r.stderr).toContain('set -a; . /etc/rova/rova.env; set +a');
    expect(existsSync(path.join(d, 'secret'))).toBe(false);
    // with the secret it goes on (to the connection, which fails here)
    const withSecret = await rovaInProcess(['apikey', 'create', '--user', 'x', '--name', 'ci'], {
      ...env,
      ROVA_SECRET: 's'.repeat(64),
    });
    expect(withSecret.stderr).toMatch(/cannot connect to PostgreSQL/);
  });
  it('unknown command → usage, exit 1', async () => {
    const r = await rovaInProcess(['frobnicate'], { DATA_DIR: tmp() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('rova: unknown command "frobnicate" (rova help lists them)\n');
  });
  it('migrate, user create, apikey create (prints only the key), apikey revoke', async () => {
    const d = tmp();
    const env: Record<string, string> = { DATA_DIR: d };
    if (TEST_PG) return; // the CLI runs on the embedded database here; PostgreSQL is covered by the suites
    const m = await rovaInProcess(['migrate'], env);
    expect(m.code).toBe(0);
    expect(m.stdout).toMatch(/applied: 0001_platform\.sql/);
    expect(existsSync(path.join(d, 'pgdata'))).toBe(true);
    expect((await rovaInProcess(['migrate'], env)).stdout).toMatch(/up to date/);
    const u = await rovaInProcess(
      ['user', 'create', '--login', 'ops', '--email', 'ops@example.test', '--role', 'shop_manager'],
      env,
    );
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/^\d+\n$/);
    const dup = await rovaInProcess(
      ['user', 'create', '--login', 'ops', '--email', 'ops@example.test', '--role', 'shop_manager'],
      env,
    );
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
    const k = await rovaInProcess(['apikey', 'create', '--user', 'ops', '--name', 'ci', '--scopes', 'read,write'], env);
    expect(k.code).toBe(0);
    expect(k.stdout).toMatch(/^rova_[A-Za-z0-9_-]{40,}\n$/);
    const bad = await rovaInProcess(['apikey', 'create', '--user', 'ghost'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no user "ghost"/);
    const revoked = await rovaInProcess(['apikey', 'revoke', '1'], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toBe('API key 1 revoked\n');
    expect((await rovaInProcess(['apikey', 'revoke', 'x'], env)).code).toBe(2);
  }, 180_000);
});

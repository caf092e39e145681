import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/config-error.js';
import { ensureDemoAdmin } from '../../src/platform/auth/demo-admin.js';
import { makeApp, TEST_PG } from '../helpers/app.js';
import { rovaArgs } from '../helpers/rova-process.js';
import { start, tempDirs } from './spawn.js';

const tmp = tempDirs();
afterAll(() => tmp.cleanup());

async function login(base: string, password: string): Promise<{ status: number; role?: string }> {
  const res = await fetch(`${base}/wp-json/rova/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'admin', password }),
  });
  const body = (await res.json()) as { user?: { role: string } };
  return { status: res.status, role: body.user?.role };
}

async function waitFor(run: { output(): string }, re: RegExp, ms = 10_000): Promise<RegExpExecArray> {
  const end = Date.now() + ms;
  for (;;) {
    const m = re.exec(run.output());
    if (m) return m;
    if (Date.now() > end) throw new Error(`no ${re} in:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('demo administrator', () => {
  it('generates a different random password each time (never a fixed one); ROVA_ADMIN_PASSWORD is used as given and not echoed', async () => {
    const t = await makeApp();
    try {
      const a = await ensureDemoAdmin(t.platform, null);
      expect(a.login).toBe('admin');
      expect(a.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
      const ok = await t.inject({
        method: 'POST',
        url: '/wp-json/rova/v1/auth/login',
        payload: { login: 'admin', password: a.generatedPassword },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().user.role).toBe('administrator');
      const b = await ensureDemoAdmin(t.platform, null);
      expect(b.generatedPassword).not.toBe(a.generatedPassword);
      expect(
        (
          await t.inject({
            method: 'POST',
            url: '/wp-json/rova/v1/auth/login',
            payload: { login: 'admin', password: a.generatedPassword },
          })
        ).statusCode,
      ).toBe(401);
      const c = await ensureDemoAdmin(t.platform, 'chosen-by-operator-9');
      expect(c.generatedPassword).toBeNull();
      expect(
        (
          await t.inject({
            method: 'POST',
            url: '/wp-json/rova/v1/auth/login',
            payload: { login: 'admin', password: 'chosen-by-operator-9' },
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('ROVA_ADMIN_PASSWORD shorter than 8 characters stops the start', () => {
    expect(() => loadConfig({ ROVA_ADMIN_PASSWORD: 'short' }, { ephemeral: true })).toThrow(ConfigError);
    expect(loadConfig({ ROVA_ADMIN_PASSWORD: 'long-enough' }, { ephemeral: true }).adminPassword).toBe('long-enough');
  });

  it('first start with demo data prints the admin URL and a generated password once; it logs in; the second start prints nothing', async () => {
    if (TEST_PG) return; // the embedded database's data dir is what makes it a "first" start; the unit suite covers it
    const dataDir = tmp.make();
    const env = { DATA_DIR: dataDir, PORT: '0', LOG_FORMAT: 'json', ROVA_DEMO: '1', ROVA_JOBS: '0' };
    const first = start(process.execPath, rovaArgs('serve'), env);
    let base = '';
    try {
      base = await first.ready;
      const m = await waitFor(
        first,
        /Admin app: (http:\/\/\S+\/admin) — log in as \\?"admin\\?" with password (\S+) \(generated; shown only now\)/,
      );
      expect(m[1]).toBe(`${base}/admin`);
      const password = m[2]!;
      // the first start says what it did, step by step, before it is ready
      const out = first.output();
      expect(out).toMatch(/database created: \d+ migrations applied/);
      expect(out.indexOf('seeding the demo data (first start with ROVA_DEMO=1)')).toBeLessThan(
        out.search(/demo data seeded in \d+\.\d s/),
      );
      expect(out.search(/demo data seeded in/)).toBeLessThan(out.indexOf('ready at'));
      expect(first.output().split(password).length - 1).toBe(1);
      expect(await login(base, password)).toEqual({ status: 200, role: 'administrator' });
      expect((await login(base, 'admin')).status).toBe(401);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
    const second = start(process.execPath, rovaArgs('serve'), env);
    try {
      await second.ready;
      await new Promise((r) => setTimeout(r, 300));
      expect(second.output()).not.toContain('Admin app:');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 120_000);

  it('with ROVA_ADMIN_PASSWORD the log names the variable, never the password', async () => {
    if (TEST_PG) return;
    const secret = 'operator-chosen-SECRET-31';
    const run = start(process.execPath, rovaArgs('serve'), {
      DATA_DIR: tmp.make(),
      PORT: '0',
      LOG_FORMAT: 'json',
      ROVA_DEMO: '1',
      ROVA_JOBS: '0',
      ROVA_ADMIN_PASSWORD: secret,
    });
    try {
      const base = await run.ready;
      await waitFor(run, /Admin app: \S+ — log in as \\?"admin\\?" with the password in ROVA_ADMIN_PASSWORD/);
      expect(run.output()).not.toContain(secret);
      expect(await login(base, secret)).toEqual({ status: 200, role: 'administrator' });
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 120_000);
});

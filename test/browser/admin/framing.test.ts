import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, loginAs, openAdmin, startAdminRig, type AdminPage, type AdminRig } from './helpers.js';

// Issue 37 item 9: the admin app cannot be framed by another origin of the same site (a page on another localhost
// port), and it still loads and works under its Content-Security-Policy, with no violation reported.

let rig: AdminRig;
let framer: http.Server;
let framerOrigin = '';
beforeAll(async () => {
  rig = await startAdminRig();
  // the attacker's page: another port of the same host, the admin app in a (would-be invisible) frame
  framer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>framer</title><iframe id="victim" src="${rig.shop.origin}/admin/bookings" width="800" height="600"></iframe>`,
    );
  });
  await new Promise<void>((r) => framer.listen(0, '127.0.0.1', () => r()));
  framerOrigin = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  framer?.close();
  await rig?.close();
});

/** Every CSP violation and CSP console message of the page's frames, from the first script on. */
async function watchCsp(a: AdminPage): Promise<string[]> {
  const seen: string[] = [];
  a.page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  await a.page.exposeFunction('__cspViolation', (v: string) => seen.push(`violation: ${v}`));
  await a.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  return seen;
}

describe('admin app framing and CSP (issue 37 item 9)', () => {
  it("GET /admin: strict CSP (inline theme script by hash, no unsafe-inline script), frame-ancestors 'self', X-Frame-Options SAMEORIGIN", async () => {
    const r = await fetch(`${rig.shop.origin}/admin/bookings`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|; )frame-ancestors 'self'(;|$)/);
    expect(csp).toMatch(/(^|; )script-src 'self' 'sha256-[A-Za-z0-9+/]{43}='(;|$)/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('a logged-in admin app framed by another origin of the same site is refused by the browser', async () => {
    const a = await openAdmin(rig);
    await loginAs(rig, a);
    await a.page.goto(`${framerOrigin}/`);
    const frame = a.page.frames().find((f) => f !== a.page.mainFrame())!;
    expect(frame).toBeDefined();
    // Chromium replaces a refused frame with its error page: nothing of the app is there to click on
    await expect.poll(() => frame.url(), { timeout: 15_000 }).toMatch(/^chrome-error:/);
    expect(await frame.locator('main#main, button').count()).toBe(0);
    // the same page in a top-level tab of the same browser still works (the session is intact)
    await a.page.goto(`${rig.shop.origin}/admin/bookings`);
    await a.page.locator('main#main').waitFor();
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('the app loads and works under its CSP: theme script runs, login, screens, no violation reported', async () => {
    const a = await openAdmin(rig);
    const seen = await watchCsp(a);
    // the inline theme script (allowed by its hash) applies the stored theme before the first paint
    await a.context.addInitScript(() => localStorage.setItem('rova-admin-theme', 'dark'));
    await loginAs(rig, a);
    expect(await a.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    for (const p of ['/dashboard', '/bookings', '/vehicles', '/vendors', '/currency', '/export']) {
      await a.page.goto(`${rig.shop.origin}/admin${p}`);
      await a.page.locator('main#main').waitFor();
      await a.page.waitForLoadState('networkidle');
      await expect.poll(() => a.page.locator('main#main h1, main#main h2').count()).toBeGreaterThan(0);
    }
    expect(seen).toEqual([]);
    expectNoPageErrors(a);
    await a.context.close();
  });
});

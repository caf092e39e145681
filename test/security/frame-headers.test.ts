import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspWithInlineScripts, HTML_CSP } from '../../src/platform/http/html-security.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// Issue 37 item 9: every HTML page Rova serves refuses to be framed by another origin (CSP frame-ancestors 'self',
// X-Frame-Options SAMEORIGIN for older browsers) and runs no inline script it did not name. The admin app's own
// header is checked where it is built (test/browser/admin/framing.test.ts).

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ demo: true });
}, 240_000);
afterAll(async () => t?.close());

const get = (url: string) => t.inject({ method: 'GET', url });
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1)]),
  );

describe('HTML pages (issue 37 item 9)', () => {
  it.each([
    ['/', HTML_CSP],
    ['/demo/shop', HTML_CSP],
    ['/demo/shop/1', HTML_CSP],
    ['/demo/rent', null],
    ['/demo/rent/account', null],
    ['/docs/', null],
    ['/docs/static/index.html', null],
  ])(
    "%s: text/html with frame-ancestors 'self', X-Frame-Options SAMEORIGIN, no unsafe-inline script",
    async (url, exact) => {
      let r = await get(url);
      if (r.statusCode === 302) r = await get(r.headers.location as string);
      expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
      const csp = String(r.headers['content-security-policy']);
      if (exact) expect(csp).toBe(exact);
      const d = directives(csp);
      expect(d.get('frame-ancestors')).toEqual(["'self'"]);
      expect(d.get('script-src') ?? d.get('default-src')).not.toContain("'unsafe-inline'");
      expect(d.get('object-src')).toEqual(["'none'"]);
      expect(csp).not.toContain('upgrade-insecure-requests');
    },
  );

  it('the demo shop page runs no inline script (its config is an inert JSON block)', async () => {
    const html = (await get('/demo/shop')).body;
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
      (m) => !/\bsrc\s*=/.test(m[1]!),
    );
    expect(inline.map((m) => m[1]!.trim())).toEqual(['type="application/json" id="rova-fx-config"']);
  });

  it('scripts, stylesheets and API answers carry no framing headers (the widget scripts are embedded by other sites)', async () => {
    const assets = [
      '/assets/rova-fx/converter.js',
      '/assets/rova-fx/config.js',
      '/assets/rova-book/book.js',
      '/wp-json/',
      '/openapi.json',
    ];
    for (const url of assets) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['x-frame-options'], url).toBeUndefined();
      expect(r.headers['content-security-policy'], url).toBeUndefined();
    }
  });

  it('an inline script is allowed by its sha256 hash only, never by unsafe-inline', () => {
    const body = "\n      try { document.documentElement.classList.add('dark'); } catch {}\n    ";
    const csp = cspWithInlineScripts(
      `<html><head><script>${body}</script><script type="module" src="/admin/assets/x.js"></script></head></html>`,
    );
    const hash = createHash('sha256').update(body).digest('base64');
    expect(directives(csp).get('script-src')).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(directives(csp).get('frame-ancestors')).toEqual(["'self'"]);
  });
});

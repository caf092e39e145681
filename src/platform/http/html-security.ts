import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The policy of every HTML page that sets none of its own (landing page, demo shop, …): scripts only from this
 * origin (no inline script), inline styles allowed (the pages carry a <style> block), and no framing by another
 * origin, so a sibling origin of the same site cannot load a logged-in page invisibly (clickjacking).
 */
export const HTML_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

/**
 * Every text/html response gets a Content-Security-Policy with `frame-ancestors 'self'` (a page's own policy is
 * kept, with the directive added when it lacks one) and `X-Frame-Options: SAMEORIGIN` for browsers without CSP
 * level 2. Scripts, stylesheets and JSON (the embeddable widget scripts) are left alone: other sites embed them.
 */
export function protectHtmlPages(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return done(null, payload);
    const csp = reply.getHeader('content-security-policy');
    if (csp === undefined) reply.header('Content-Security-Policy', HTML_CSP);
    else if (!/(^|;)\s*frame-ancestors\s/i.test(String(csp)))
      reply.header('Content-Security-Policy', `${String(csp).replace(/;\s*$/, '')}; frame-ancestors 'self'`);
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    done(null, payload);
  });
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * A page's policy with its own inline scripts allowed by hash (never 'unsafe-inline'): the admin app's index.html
 * sets its theme before the first paint with one. Any other inline script, or one injected later, is refused.
 */
export function cspWithInlineScripts(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`,
  );
  return HTML_CSP.replace("script-src 'self'", ["script-src 'self'", ...hashes].join(' '));
}

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { cspWithInlineScripts } from '../http/html-security.js';

// src/platform/routes or dist/platform/routes: the repository root is three levels up either way.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN_DIST = path.join(ROOT, 'dist/admin');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const page = {
  tags: ['pages'],
  produces: ['text/html'],
  response: { 200: { description: 'HTML page', type: 'string' }, 404: { description: 'Not built', type: 'string' } },
};

/**
 * The admin single-page app (built by `npm run build` into dist/admin): `/admin/assets/*` are content-hashed and
 * cached for a year; every other path under `/admin` is a client route and gets index.html, never cached, so a
 * new build is picked up on the next load. Read from disk per request: a rebuild needs no restart.
 */
export function registerAdminApp(app: FastifyInstance): void {
  let policy = { html: '', csp: '' };
  const sendIndex = async (reply: FastifyReply) => {
    const file = path.join(ADMIN_DIST, 'index.html');
    if (!existsSync(file)) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send('The admin app is not built: run `npm run build`.');
    }
    const html = await readFile(file, 'utf8');
    // its inline theme script is allowed by hash; nothing else inline runs, and no other origin may frame it
    if (html !== policy.html) policy = { html, csp: cspWithInlineScripts(html) };
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', policy.csp)
      .send(html);
  };
  app.get(
    '/admin',
    {
      config: { auth: 'public' },
      schema: { ...page, summary: 'The admin app (single-page app; index.html, not cached)' },
    },
    (_req, reply) => sendIndex(reply),
  );
  app.get<{ Params: { '*': string } }>(
    '/admin/*',
    // Not an API route (a wildcard of files and client routes): documented by `GET /admin`, hidden from OpenAPI.
    { config: { auth: 'public' }, schema: { hide: true } },
    async (req, reply) => {
      const rest = req.params['*'];
      if (!rest.startsWith('assets/')) return sendIndex(reply);
      const name = rest.slice('assets/'.length);
      const type = TYPES[path.extname(name)];
      // Names are Vite's: [name]-[hash].ext, no folders; anything else is not ours.
      if (!type || !/^[A-Za-z0-9._-]+$/.test(name))
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      const file = path.join(ADMIN_DIST, 'assets', name);
      if (!existsSync(file)) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return reply
        .type(type)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(await readFile(file));
    },
  );
}

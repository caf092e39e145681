import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ROVA_ICON_SVG } from '../http/openapi/ui.js';
import { VERSION } from '../../version.js';
import { hasDemoData } from '../demo-data.js';

// src/platform/routes or dist/platform/routes: the repository root is three levels up either way.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Link {
  href: string;
  title: string;
  text: string;
}

/** `GET /`: a small page that says what runs here and links to what a person opens first. */
export function registerLandingPage(app: FastifyInstance): void {
  const restRoot = app.platform.config.restRoot;
  app.get(
    '/',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['pages'],
        summary:
          'Landing page: links to the API reference, the admin app (when built), the demo pages (on a store seeded with demo data) and the REST index',
        produces: ['text/html'],
        response: { 200: { description: 'HTML page', type: 'string' } },
      },
    },
    async (_req, reply) => {
      const links: Link[] = [
        {
          href: '/docs',
          title: 'API reference',
          text: 'Every route, interactive (OpenAPI; raw document at /openapi.json)',
        },
      ];
      // The admin app is optional: link it only when it was built.
      if (existsSync(path.join(ROOT, 'dist/admin/index.html')))
        links.push({ href: '/admin', title: 'Admin', text: 'The admin app' });
      // Demo pages exist only on a store seeded with demo data (they answer 404 otherwise).
      const demo = await hasDemoData(app.platform);
      if (demo && app.hasRoute({ method: 'GET', url: '/demo/shop' })) {
        links.push({
          href: '/demo/shop',
          title: 'Demo shop',
          text: 'A cacheable storefront re-priced in the visitor’s currency',
        });
      }
      if (demo && app.hasRoute({ method: 'GET', url: '/demo/rent' })) {
        links.push({
          href: '/demo/rent',
          title: 'Demo rental page',
          text: 'The booking widget: search, choose and book a car (one script tag)',
        });
      }
      if (demo && app.hasRoute({ method: 'GET', url: '/demo/rent/account' })) {
        links.push({
          href: '/demo/rent/account',
          title: 'Demo customer account',
          text: 'The booking widget’s account mode: my bookings, cancel, messages, profile',
        });
      }
      links.push({ href: `${restRoot}/`, title: 'REST index', text: `Namespaces and routes under ${restRoot}` });
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(page(links));
    },
  );
}

function page(links: Link[]): string {
  const items = links
    .map((l) => `<li><a href="${esc(l.href)}">${esc(l.title)}</a> <span>${esc(l.text)}</span></li>`)
    .join('\n      ');
  const icon = `data:image/svg+xml,${encodeURIComponent(ROVA_ICON_SVG)}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Rova</title>
    <link rel="icon" href="/favicon.ico" type="image/svg+xml">
    <style>
      body { font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1f2937; }
      h1 { display: flex; align-items: center; gap: .6rem; margin-bottom: .2rem; }
      h1 img { width: 2rem; height: 2rem; }
      p.lead { margin-top: 0; color: #4b5563; }
      ul { padding: 0; list-style: none; }
      li { margin: .8rem 0; }
      a { color: #0f766e; font-weight: 600; }
      li span { display: block; color: #4b5563; font-size: .95rem; }
      footer { margin-top: 2rem; color: #6b7280; font-size: .85rem; }
    </style>
  </head>
  <body>
    <h1><img src="${icon}" alt="">Rova</h1>
    <p class="lead">Headless back end for vehicle-rental storefronts.</p>
    <ul>
      ${items}
    </ul>
    <footer>Rova ${esc(VERSION)}</footer>
  </body>
</html>
`;
}

/** `GET /favicon.ico`: browsers ask for it on every page; answer with Rova's mark (SVG) instead of a 404. */
export function registerFavicon(app: FastifyInstance): void {
  const body = Buffer.from(ROVA_ICON_SVG);
  app.get(
    '/favicon.ico',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['pages'],
        summary: "Favicon: Rova's mark as SVG (cached a day)",
        produces: ['image/svg+xml'],
        response: { 200: { description: 'SVG image', type: 'string' } },
      },
    },
    async (_req, reply) => reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(body),
  );
}

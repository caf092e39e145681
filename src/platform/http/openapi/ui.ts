import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/** Rova's mark: a rounded square with an R (favicon), and the mark plus the name (top bar of /docs). */
export const ROVA_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0f766e"/><text x="16" y="23" font-family="${FONT}" font-size="19" font-weight="700" fill="#fff" text-anchor="middle">R</text></svg>`;

const ROVA_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40"><rect x="0" y="4" width="32" height="32" rx="7" fill="#0f766e"/><text x="16" y="27" font-family="${FONT}" font-size="19" font-weight="700" fill="#fff" text-anchor="middle">R</text><text x="42" y="29" font-family="${FONT}" font-size="23" font-weight="700" fill="#fff">Rova API</text></svg>`;

/** /docs: Swagger UI with Rova's name, logo and favicon instead of the Swagger and Fastify ones. */
export function swaggerUiOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    // its inline scripts by hash (the plugin's list); no upgrade-insecure-requests: a plain-HTTP server's own files
    // must load. frame-ancestors 'self' is in it (src/platform/http/html-security.ts checks every HTML page).
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace(/\s*upgrade-insecure-requests;?/, '').replace(' validator.swagger.io', ''),
    uiConfig: { docExpansion: 'list', deepLinking: true, displayOperationId: false, persistAuthorization: false },
    logo: { type: 'image/svg+xml', content: Buffer.from(ROVA_LOGO_SVG), href: '/', target: '_self' },
    theme: {
      title: 'Rova API',
      favicon: [
        {
          filename: 'favicon.svg',
          rel: 'icon',
          sizes: 'any',
          type: 'image/svg+xml',
          content: Buffer.from(ROVA_ICON_SVG),
        },
      ],
    },
  };
}

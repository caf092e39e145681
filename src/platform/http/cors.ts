import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * CORS_ORIGINS: storefronts on another origin call /convert and the public rental reads with keys or none; cookies
 * never cross origins (credentials off), so CORS cannot be used to ride an admin session. No origins: no plugin.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  await app.register(cors, {
    origin: any ? '*' : [...origins],
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Content-Type',
      'X-Rova-API-Key',
      'Authorization',
      'X-Request-Id',
      'Idempotency-Key',
      'X-Rova-Guest-Pass',
      'X-Rova-Manage-Token',
    ],
    exposedHeaders: [
      'X-Request-Id',
      'X-WP-Total',
      'X-WP-TotalPages',
      'Link',
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit',
      'RateLimit-Policy',
      'Allow',
      'Content-Disposition',
      'X-Rova-Export-Id',
    ],
    maxAge: 600,
  });
}

import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { listMigrations, pendingMigrations, type Migration } from '../../../platform/db/migrate.js';
import { rows } from '../../../platform/db/types.js';
import { RentalEnvelope } from '../../../platform/http/schemas.js';
import { RENTAL_API_LEVEL, VERSION } from '../../../version.js';
import { busStalled } from '../../../platform/kv/bus.js';
import { holdingIndexOf } from '../availability/holding-index.js';
import { publicReadLimit } from '../http/rate-limits.js';

export interface HealthOptions {
  /** The migrations the code expects (tests pass a list with an extra one to fake a pending migration). */
  migrations?: () => Migration[];
}

const Health = Type.Object({
  status: Type.String(),
  version: Type.String({
    description: 'The rental plugin API level Rova is compatible with (feature detection), e.g. 4.52.0',
  }),
  rova_version: Type.String({ description: "Rova's own release" }),
  failed: Type.Optional(Type.Array(Type.String())),
  availability_from: Type.Union([Type.Literal('index'), Type.Literal('database')], {
    description:
      'Where availability and search answers come from: `index` (memory, kept fresh by announcements from every node) ' +
      "or `database` (the index is loading, or announcements do not demonstrably flow: Redis away or hung, a node's link stalled)",
  }),
});

/**
 * GET /health: database reachable, rental tables present, no pending migration, Redis up when configured and the
 * bus flowing (every node's heartbeat within the bound) → 200 ok, else 503 degraded naming what failed.
 */
export function healthRoutes(opts: HealthOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const p = app.platform;
    // The migrations this build ships never change while it runs: read and hash the files once, not per request.
    let expected: Migration[] | null = null;
    const migrations = () => (expected ??= (opts.migrations ?? listMigrations)());
    app.get(
      '/health',
      {
        config: { auth: 'public' },
        onRequest: publicReadLimit,
        schema: {
          tags: ['rental: public'],
          summary: 'Service health (public)',
          security: [],
          response: {
            200: RentalEnvelope(Health),
            503: Type.Object({
              success: Type.Boolean(),
              data: Health,
              message: Type.String(),
              error_code: Type.String(),
            }),
          },
        },
      },
      async (_req, reply) => {
        const failed: string[] = [];
        try {
          await rows(p.db, sql`SELECT 1 FROM rental_bookings LIMIT 1`);
        } catch {
          failed.push('database');
        }
        if (!failed.length) {
          try {
            const pending = await pendingMigrations(p.dbHandle, migrations());
            if (pending.length) failed.push('migrations');
          } catch {
            failed.push('migrations');
          }
        }
        // Redis away: the service still answers (per-node limits, caches dropped on return) but is degraded.
        if (p.redisState.configured && !p.redisState.up) failed.push('redis');
        // Redis connected but announcements late (hung, or a node's link stalled): availability comes from the database
        else if (busStalled(p.bus.link.state())) failed.push('bus');
        const availability_from = holdingIndexOf(p).answersFrom;
        if (failed.length) {
          return reply.code(503).send({
            success: false,
            error_code: 'SERVICE_UNAVAILABLE',
            data: { status: 'degraded', version: RENTAL_API_LEVEL, rova_version: VERSION, failed, availability_from },
            message: `Degraded: ${failed.join(', ')} check failed.`,
          });
        }
        return {
          success: true as const,
          data: { status: 'ok', version: RENTAL_API_LEVEL, rova_version: VERSION, availability_from },
          message: '',
        };
      },
    );
  };
}

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../context.js';
import { listMigrations, pendingMigrations, type Migration } from '../db/migrate.js';

const CHECK_TIMEOUT_MS = 2_000;

type CheckState = 'ok' | 'failed' | 'skipped';
const Check = Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('skipped')]);
const Ready = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable'), Type.Literal('draining')], {
    description:
      '`draining`: the node received SIGTERM and is finishing its work (SHUTDOWN_DRAIN_MS); take it out of rotation',
  }),
  checks: Type.Object({ database: Check, redis: Check, migrations: Check }),
  failed: Type.Array(Type.String(), {
    description:
      'Names of the checks that make the node unready (`database`, `migrations`; `draining` while shutting down). ' +
      'A failed `redis` check is reported in `checks` only: every node shares Redis and works without it',
  }),
});
const Live = Type.Object({ status: Type.Literal('ok') });

/** Rejects when the check takes longer than the probe may wait (a hung database must not hang the probe). */
async function within<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('check timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(fn: () => Promise<unknown>): Promise<CheckState> {
  try {
    await within(fn());
    return 'ok';
  } catch {
    return 'failed';
  }
}

/**
 * Probes for orchestrators, outside the REST root and public: GET /livez (the process serves requests) and
 * GET /readyz (database answers, no migration pending) → 200, or 503 naming the failed checks. Redis is checked and
 * reported but never makes the node unready: every node shares it, so a Redis outage would take every node out of
 * the load balancer at once, though each keeps answering without it (GET /health and the metrics report it). Neither touches the rate limiter or the audit log. While the node drains, every
 * response asks the client to close its connection, so kept-alive clients reconnect through the load balancer.
 */
export function registerProbes(
  app: FastifyInstance,
  platform: Platform,
  migrations: () => Migration[] = listMigrations,
): void {
  let expected: Migration[] | null = null;
  // once every migration this node knows is applied, none can become pending again (a newer node only adds its own)
  let migrated = false;
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (platform.lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  const schemaBase = { tags: ['operations'], security: [] };
  app.get(
    '/livez',
    {
      config: { auth: 'public' },
      schema: { ...schemaBase, summary: 'Liveness probe: the process is up and serving', response: { 200: Live } },
      logLevel: 'warn',
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      config: { auth: 'public' },
      schema: {
        ...schemaBase,
        summary: 'Readiness probe: database and migrations (Redis reported, never unready for it)',
        description:
          'From SIGTERM on, 503 with status `draining` while the node finishes its work (SHUTDOWN_DRAIN_MS), so a load balancer stops sending before the node stops accepting.',
        response: { 200: Ready, 503: Ready },
      },
      logLevel: 'warn',
    },
    async (_req, reply) => {
      const { dbHandle } = platform;
      const database = await check(() => dbHandle.ping());
      // Redis as the node already knows it (its connections ready), never waited for here; a hung Redis (connections
      // open, heartbeats late) is GET /health's `bus` and the metric rova_bus_flowing
      const redisState: CheckState = !platform.redisState.configured
        ? 'skipped'
        : platform.redisState.up
          ? 'ok'
          : 'failed';
      const migrationsState: CheckState =
        database === 'ok'
          ? migrated
            ? 'ok'
            : await check(async () => {
                const pending = await pendingMigrations(dbHandle, (expected ??= migrations()));
                if (pending.length) throw new Error(`pending: ${pending.join(', ')}`);
                migrated = true;
              })
          : 'skipped';
      const checks = { database, redis: redisState, migrations: migrationsState };
      const failed = Object.entries(checks)
        .filter(([k, v]) => v === 'failed' && k !== 'redis')
        .map(([k]) => k);
      if (platform.lifecycle.draining) failed.unshift('draining');
      const status = platform.lifecycle.draining
        ? ('draining' as const)
        : failed.length
          ? ('unavailable' as const)
          : ('ok' as const);
      return reply
        .code(failed.length ? 503 : 200)
        .header('Cache-Control', 'no-store')
        .send({ status, checks, failed });
    },
  );
}
